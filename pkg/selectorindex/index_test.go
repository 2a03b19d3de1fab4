// Copyright 2026 The slicekit Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package selectorindex

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/sets"
)

// model is the brute-force lookup the index replaces: every selector of
// the namespace matched against the labels.
type model map[string]map[string]labels.Selector

func (m model) set(ns, key string, sel labels.Selector) {
	if sel == nil {
		delete(m[ns], key)
		return
	}
	if m[ns] == nil {
		m[ns] = map[string]labels.Selector{}
	}
	m[ns][key] = sel
}

func (m model) match(ns string, set labels.Set) sets.Set[string] {
	out := sets.New[string]()
	for k, sel := range m[ns] {
		if sel.Matches(set) {
			out.Insert(k)
		}
	}
	return out
}

var (
	keys   = []string{"app", "tier", "env", "version", "team"}
	values = []string{"a", "b", "c", "d"}
)

// randomSelector returns a selector over a few requirements of every
// operator, a selector from a set (as spec.selector), Everything, Nothing
// or nil.
func randomSelector(r *rand.Rand) labels.Selector {
	switch r.IntN(10) {
	case 0:
		return nil
	case 1:
		return labels.Everything()
	case 2:
		return labels.Nothing()
	case 3, 4, 5:
		set := labels.Set{}
		for range 1 + r.IntN(3) {
			set[keys[r.IntN(len(keys))]] = values[r.IntN(len(values))]
		}
		return labels.ValidatedSetSelector(set)
	}
	sel := labels.NewSelector()
	for range 1 + r.IntN(3) {
		k := keys[r.IntN(len(keys))]
		var req *labels.Requirement
		var err error
		switch r.IntN(6) {
		case 0:
			req, err = labels.NewRequirement(k, selection.Equals, []string{values[r.IntN(len(values))]})
		case 1:
			req, err = labels.NewRequirement(k, selection.In, []string{values[r.IntN(len(values))], values[r.IntN(len(values))]})
		case 2:
			req, err = labels.NewRequirement(k, selection.NotIn, []string{values[r.IntN(len(values))]})
		case 3:
			req, err = labels.NewRequirement(k, selection.Exists, nil)
		case 4:
			req, err = labels.NewRequirement(k, selection.DoesNotExist, nil)
		case 5:
			req, err = labels.NewRequirement(k, selection.NotEquals, []string{values[r.IntN(len(values))]})
		}
		if err != nil {
			panic(err)
		}
		sel = sel.Add(*req)
	}
	return sel
}

func randomLabels(r *rand.Rand) labels.Set {
	set := labels.Set{}
	for _, k := range keys {
		if r.IntN(2) == 0 {
			set[k] = values[r.IntN(len(values))]
		}
	}
	return set
}

// TestIndexEqualsBruteForce is the differential test: random selectors
// added, changed (new version), kept (same version) and deleted in two
// namespaces; after each step, Match on random label sets equals matching
// every selector.
func TestIndexEqualsBruteForce(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		x, m := New(), model{}
		versions := map[string]int{}
		for step := range 200 {
			ns := []string{"ns-a", "ns-b"}[r.IntN(2)]
			key := fmt.Sprintf("%s/svc-%d", ns, r.IntN(12))
			switch r.IntN(5) {
			case 0:
				x.Delete(ns, key)
				m.set(ns, key, nil)
			case 1:
				// Same version: Set must keep the filed selector.
				if v, ok := versions[key]; ok && x.Has(ns, key, fmt.Sprint(v)) {
					x.Set(ns, key, fmt.Sprint(v), randomSelector(r))
					break
				}
				fallthrough
			default:
				versions[key]++
				sel := randomSelector(r)
				x.Set(ns, key, fmt.Sprint(versions[key]), sel)
				m.set(ns, key, sel)
			}
			for range 5 {
				set := randomLabels(r)
				for _, ns := range []string{"ns-a", "ns-b", "ns-c"} {
					got, want := x.Match(ns, set), m.match(ns, set)
					if !got.Equal(want) {
						t.Fatalf("seed %d step %d: Match(%s, %v) = %v, want %v", seed, step, ns, set, sets.List(got), sets.List(want))
					}
				}
			}
		}
		n := 0
		for _, sels := range m {
			n += len(sels)
		}
		if x.Len() != n {
			t.Fatalf("seed %d: Len %d, want %d", seed, x.Len(), n)
		}
	}
}

func TestAnchorPrefersTheSmallestBucket(t *testing.T) {
	x := New()
	for i := range 50 {
		x.Set("ns", fmt.Sprintf("ns/svc-%d", i), "1", labels.SelectorFromSet(labels.Set{"tier": "web", "app": fmt.Sprint(i)}))
	}
	ns := x.nss["ns"]
	if n := ns.pairs["tier"]["web"].Len(); n > 1 {
		t.Errorf("%d selectors filed under tier=web; want them spread over app", n)
	}
	got := x.Match("ns", labels.Set{"tier": "web", "app": "7", "pod-template-hash": "x"})
	if want := []string{"ns/svc-7"}; !slices.Equal(sets.List(got), want) {
		t.Errorf("Match = %v, want %v", sets.List(got), want)
	}
}

// FuzzIndex drives the index with operations decoded from the input and
// checks every lookup against brute force.
func FuzzIndex(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("app=a,tier in (b,c)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		seed := uint64(0)
		for _, b := range data {
			seed = seed*131 + uint64(b)
		}
		r := rand.New(rand.NewPCG(seed, uint64(len(data))))
		x, m := New(), model{}
		for i, b := range data {
			ns := "ns"
			key := fmt.Sprintf("ns/svc-%d", b%8)
			if b%5 == 0 {
				x.Delete(ns, key)
				m.set(ns, key, nil)
			} else {
				sel := randomSelector(r)
				x.Set(ns, key, fmt.Sprint(i), sel)
				m.set(ns, key, sel)
			}
			set := randomLabels(r)
			if got, want := x.Match(ns, set), m.match(ns, set); !got.Equal(want) {
				t.Fatalf("op %d: Match(%v) = %v, want %v", i, set, sets.List(got), sets.List(want))
			}
		}
	})
}

// benchNamespace files n Services of a namespace, each selecting
// app=app-i plus a shared tier label, as Deployments' Services do.
func benchNamespace(n int) (*Index, model) {
	x, m := New(), model{}
	for i := range n {
		sel := labels.SelectorFromSet(labels.Set{"app": fmt.Sprintf("app-%d", i), "tier": "web"})
		key := fmt.Sprintf("ns/svc-%d", i)
		x.Set("ns", key, "1", sel)
		m.set("ns", key, sel)
	}
	return x, m
}

// BenchmarkMatch compares a Pod event's lookup through the index with the
// brute-force match of every Service (what servicepods.ServicesForLabels and KCM's
// GetPodServiceMemberships do, minus the lister), at 10, 1,000 and
// 10,000 Services in the namespace.
func BenchmarkMatch(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		x, m := benchNamespace(n)
		pod := labels.Set{"app": "app-7", "tier": "web", "pod-template-hash": "abcde"}
		b.Run(fmt.Sprintf("services=%d/index", n), func(b *testing.B) {
			for b.Loop() {
				if x.Match("ns", pod).Len() != 1 {
					b.Fatal("no match")
				}
			}
		})
		b.Run(fmt.Sprintf("services=%d/all", n), func(b *testing.B) {
			for b.Loop() {
				if m.match("ns", pod).Len() != 1 {
					b.Fatal("no match")
				}
			}
		})
	}
}
