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

package podcache

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// TestLabelIndexDifferential applies random adds, label changes, deletes
// and replaces of records and Pods to a Pod informer store with
// AddLabelIndex and to a plain one, and compares the namespaced List and
// Names of NewLister over both on random selectors.
func TestLabelIndexDifferential(t *testing.T) {
	inf := cache.NewSharedIndexInformer(&cache.ListWatch{}, &corev1.Pod{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for range 2 { // a second controller sharing the informer
		if err := AddLabelIndex(inf); err != nil {
			t.Fatal(err)
		}
	}
	indexed := inf.GetIndexer()
	plain := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	got, want := NewLister(indexed), NewLister(plain)

	r := rand.New(rand.NewPCG(8, 9))
	keys, values := []string{"app", "tier", "example.com/part-of"}, []string{"a", "b", "c"}
	randomLabels := func() map[string]string {
		out := map[string]string{}
		for range r.IntN(4) {
			out[keys[r.IntN(len(keys))]] = values[r.IntN(len(values))]
		}
		return out
	}
	randomObj := func() any {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: []string{"x", "y"}[r.IntN(2)], Name: fmt.Sprintf("p%d", r.IntN(30)), Labels: randomLabels()}}
		if r.IntN(2) == 0 {
			return New(p, nil)
		}
		return p
	}
	randomSelector := func() labels.Selector {
		if r.IntN(3) > 0 {
			return labels.SelectorFromSet(randomLabels()) // a Service's selector
		}
		k := keys[r.IntN(len(keys))]
		sel, err := labels.Parse(k + " in (a),tier!=b")
		if err != nil {
			t.Fatal(err)
		}
		return sel
	}
	podNames := func(pods []*corev1.Pod, err error) []string {
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range pods {
			out = append(out, p.Namespace+"/"+p.Name)
		}
		slices.Sort(out)
		return out
	}
	type namer interface {
		Names(labels.Selector) ([]string, error)
	}
	for step := range 2000 {
		switch op := r.IntN(20); {
		case op == 0:
			var objs []any
			for range r.IntN(20) {
				objs = append(objs, randomObj())
			}
			for _, s := range []cache.Indexer{indexed, plain} {
				if err := s.Replace(objs, fmt.Sprint(step)); err != nil {
					t.Fatal(err)
				}
			}
		case op < 4:
			o := randomObj()
			for _, s := range []cache.Indexer{indexed, plain} {
				if err := s.Delete(o); err != nil {
					t.Fatal(err)
				}
			}
		default:
			o := randomObj()
			for _, s := range []cache.Indexer{indexed, plain} {
				if err := s.Update(o); err != nil {
					t.Fatal(err)
				}
			}
		}
		ns, sel := []string{"x", "y"}[r.IntN(2)], randomSelector()
		if g, w := podNames(got.Pods(ns).List(sel)), podNames(want.Pods(ns).List(sel)); !slices.Equal(g, w) {
			t.Fatalf("step %d: List(%s, %q) = %v, want %v", step, ns, sel, g, w)
		}
		gn, err := got.Pods(ns).(namer).Names(sel)
		if err != nil {
			t.Fatal(err)
		}
		wn, err := want.Pods(ns).(namer).Names(sel)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(gn)
		slices.Sort(wn)
		if !slices.Equal(gn, wn) {
			t.Fatalf("step %d: Names(%s, %q) = %v, want %v", step, ns, sel, gn, wn)
		}
	}
}

// BenchmarkPodsBySelector lists one Service's 4 Pods (selector
// name=svc7,app=web; every Pod has app=web)
// among those of N Services × 4 Pods in the namespace, as each Service
// sync does, through a lister without LabelIndex (KCM's listing: every Pod
// of the namespace matched) and with it; compare the two per N.
func BenchmarkPodsBySelector(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		inf := cache.NewSharedIndexInformer(&cache.ListWatch{}, &corev1.Pod{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		plain := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		if err := AddLabelIndex(inf); err != nil {
			b.Fatal(err)
		}
		for i := range n {
			for j := range 4 {
				p := New(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("svc%d-%d", i, j), Labels: map[string]string{
					"name": fmt.Sprintf("svc%d", i), "pod-template-hash": fmt.Sprintf("h%d", i), "app": "web",
				}}}, nil)
				if err := inf.GetIndexer().Add(p); err != nil {
					b.Fatal(err)
				}
				if err := plain.Add(p); err != nil {
					b.Fatal(err)
				}
			}
		}
		// The first pair by key, app=web, holds every Pod: Sizes picks
		// name=svc7.
		sel := labels.SelectorFromSet(labels.Set{"name": "svc7", "app": "web"})
		for _, l := range []struct {
			name    string
			indexer cache.Indexer
		}{{"plain", plain}, {"indexed", inf.GetIndexer()}} {
			lister := NewLister(l.indexer).Pods("ns")
			b.Run(fmt.Sprintf("services=%d/%s", n, l.name), func(b *testing.B) {
				for b.Loop() {
					got, err := lister.List(sel)
					if err != nil || len(got) != 4 {
						b.Fatalf("%d Pods, %v", len(got), err)
					}
				}
			})
		}
	}
}
