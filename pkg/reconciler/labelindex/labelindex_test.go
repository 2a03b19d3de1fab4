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

package labelindex

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

const testIndex = "test/labels"

// testSizes is shared by the comparisons, as a lister shares its Sizes.
var testSizes Sizes

var (
	testNamespaces = []string{"a", "b", "c"}
	testKeys       = []string{"app", "tier", "example.com/team", "x"}
	testValues     = []string{"1", "2", "3", "web"}
)

// newStores returns an indexer with the label index (keep) and a plain
// one, both with client-go's namespace index.
func newStores(keep func(string) bool) (indexed, plain cache.Indexer) {
	indexed = cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{
		cache.NamespaceIndex: cache.MetaNamespaceIndexFunc,
		testIndex:            IndexFunc(keep),
	})
	plain = cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	return indexed, plain
}

func randomLabels(r *rand.Rand) map[string]string {
	n := r.IntN(len(testKeys) + 1)
	if n == 0 {
		return nil
	}
	out := map[string]string{}
	for range n {
		out[testKeys[r.IntN(len(testKeys))]] = testValues[r.IntN(len(testValues))]
	}
	return out
}

func randomPod(r *rand.Rand) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: testNamespaces[r.IntN(len(testNamespaces))],
		Name:      fmt.Sprintf("p%d", r.IntN(40)),
		Labels:    randomLabels(r),
	}}
}

// randomSelector returns a selector of up to three requirements with
// every operator.
func randomSelector(r *rand.Rand) labels.Selector {
	if r.IntN(8) == 0 {
		return labels.SelectorFromSet(randomLabels(r))
	}
	var parts []string
	for range r.IntN(4) {
		k, v, w := testKeys[r.IntN(len(testKeys))], testValues[r.IntN(len(testValues))], testValues[r.IntN(len(testValues))]
		parts = append(parts, []string{k + "=" + v, k + "==" + v, k + "!=" + v, k + " in (" + v + ")", k + " in (" + v + "," + w + ")", k + " notin (" + v + ")", k, "!" + k}[r.IntN(8)])
	}
	sel, err := labels.Parse(joinComma(parts))
	if err != nil {
		panic(err)
	}
	return sel
}

func joinComma(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ","
		}
		out += p
	}
	return out
}

// keysOf lists with List (indexed) or cache.ListAllByNamespace (plain),
// sorted keys.
func keysOf(t testing.TB, list func(cache.AppendFunc) error) []string {
	t.Helper()
	var out []string
	if err := list(func(obj any) {
		k, _ := cache.MetaNamespaceKeyFunc(obj)
		out = append(out, k)
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// compare checks that List over indexed gives what
// cache.ListAllByNamespace gives over plain, for namespace and selector.
func compare(t testing.TB, indexed, plain cache.Indexer, keep func(string) bool, namespace string, sel labels.Selector) {
	t.Helper()
	got := keysOf(t, func(fn cache.AppendFunc) error { return List(indexed, testIndex, namespace, sel, keep, nil, fn) })
	if !slices.Equal(got, keysOf(t, func(fn cache.AppendFunc) error { return List(indexed, testIndex, namespace, sel, keep, &testSizes, fn) })) {
		t.Fatalf("namespace %q selector %q: the result depends on Sizes", namespace, sel)
	}
	want := keysOf(t, func(fn cache.AppendFunc) error { return cache.ListAllByNamespace(plain, namespace, sel, fn) })
	if !slices.Equal(got, want) {
		t.Fatalf("namespace %q selector %q: indexed %v, plain %v", namespace, sel, got, want)
	}
}

// TestListDifferential applies random adds, updates (label changes),
// deletes and whole-store replaces (no informer events) to an indexed and
// a plain store and compares List with cache.ListAllByNamespace on random
// selectors, with every key indexed and with one.
func TestListDifferential(t *testing.T) {
	for _, tc := range []struct {
		name string
		keep func(string) bool
	}{
		{"every key", nil},
		{"one key", func(k string) bool { return k == "app" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			indexed, plain := newStores(tc.keep)
			for step := range 3000 {
				switch op := r.IntN(20); {
				case op == 0:
					var objs []any
					for range r.IntN(30) {
						objs = append(objs, randomPod(r))
					}
					for _, s := range []cache.Indexer{indexed, plain} {
						if err := s.Replace(objs, fmt.Sprint(step)); err != nil {
							t.Fatal(err)
						}
					}
				case op < 4:
					p := randomPod(r)
					for _, s := range []cache.Indexer{indexed, plain} {
						if err := s.Delete(p); err != nil {
							t.Fatal(err)
						}
					}
				default:
					p := randomPod(r) // an add or a label change of an existing name
					for _, s := range []cache.Indexer{indexed, plain} {
						if err := s.Update(p); err != nil {
							t.Fatal(err)
						}
					}
				}
				for range 3 {
					ns := ""
					if r.IntN(6) > 0 {
						ns = testNamespaces[r.IntN(len(testNamespaces))]
					}
					compare(t, indexed, plain, tc.keep, ns, randomSelector(r))
				}
				compare(t, indexed, plain, tc.keep, "a", labels.Everything())
				compare(t, indexed, plain, tc.keep, "a", labels.Nothing())
			}
		})
	}
}

// TestListWithoutIndex: a store without the index lists as
// cache.ListAllByNamespace.
func TestListWithoutIndex(t *testing.T) {
	_, plain := newStores(nil)
	r := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		if err := plain.Add(randomPod(r)); err != nil {
			t.Fatal(err)
		}
	}
	for range 200 {
		compare(t, plain, plain, nil, "b", randomSelector(r))
	}
}

// TestIndexValues: the pairs a selector requires, and none where the
// index cannot narrow.
func TestIndexValues(t *testing.T) {
	for _, tc := range []struct {
		ns, sel string
		want    []string
	}{
		{"n", "app=web", []string{"n/app=web"}},
		{"n", "app==web,tier in (1)", []string{"n/app=web", "n/tier=1"}},
		{"n", "app in (1,2)", nil},
		{"n", "app!=1,x,!tier,y notin (2)", nil},
		{"", "app=web", nil},
		{"n", "", nil},
	} {
		sel, err := labels.Parse(tc.sel)
		if err != nil {
			t.Fatal(err)
		}
		got := indexValues(tc.ns, sel, nil)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q in %q: %v, want %v", tc.sel, tc.ns, got, tc.want)
		}
	}
	if got := indexValues("n", labels.Nothing(), nil); got != nil {
		t.Errorf("Nothing: %v", got)
	}
	if got := indexValues("n", labels.SelectorFromSet(labels.Set{"app": "1", "x": "2"}), func(k string) bool { return k == "x" }); !slices.Equal(got, []string{"n/x=2"}) {
		t.Errorf("one indexed key: %v", got)
	}
}

// TestSizesPick: unread pairs first, then the smallest; the map starts
// over at maxSizes.
func TestSizesPick(t *testing.T) {
	var s Sizes
	vals := []string{"a", "b", "c"}
	for _, step := range []struct {
		want string
		n    int
	}{{"a", 10}, {"b", 3}, {"c", 7}, {"b", 8}, {"c", 1}, {"c", 1}} {
		if got := s.pick(vals); got != step.want {
			t.Fatalf("pick = %q, want %q (sizes %v)", got, step.want, s.m)
		}
		s.set(step.want, step.n)
	}
	for i := range maxSizes {
		s.set(fmt.Sprint(i), i)
	}
	if len(s.m) > maxSizes {
		t.Errorf("%d sizes held, at most %d", len(s.m), maxSizes)
	}
}

// TestAddOnce: adding the index twice to one informer is not an error and
// the store stays indexed.
func TestAddOnce(t *testing.T) {
	inf := cache.NewSharedIndexInformer(&cache.ListWatch{}, &corev1.Pod{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for range 2 {
		if err := Add(inf, testIndex, IndexFunc(nil)); err != nil {
			t.Fatal(err)
		}
	}
	if !Has(inf.GetIndexer(), testIndex) || Has(inf.GetIndexer(), "other") {
		t.Error("Has does not report the index added")
	}
}

// FuzzList compares List with cache.ListAllByNamespace for any selector
// labels.Parse accepts, over a random store.
func FuzzList(f *testing.F) {
	for _, s := range []string{"app=web", "app in (1),tier=2", "x,!tier", "app==1,app=2", "example.com/team=3"} {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, selector string, seed uint64) {
		sel, err := labels.Parse(selector)
		if err != nil {
			return
		}
		r := rand.New(rand.NewPCG(seed, 7))
		indexed, plain := newStores(nil)
		for range 60 {
			p := randomPod(r)
			if err := indexed.Update(p); err != nil {
				t.Fatal(err)
			}
			if err := plain.Update(p); err != nil {
				t.Fatal(err)
			}
		}
		for _, ns := range append([]string{""}, testNamespaces...) {
			compare(t, indexed, plain, nil, ns, sel)
		}
	})
}
