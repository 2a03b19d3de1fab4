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

package reconciler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"
)

// TestSliceListerDifferential applies random adds, label changes, deletes
// and replaces to an EndpointSlice store indexed by AddServiceNameIndex
// and to a plain one, and compares OwnerSlices and List through
// NewSliceLister with client-go's lister over the plain store.
func TestSliceListerDifferential(t *testing.T) {
	inf := cache.NewSharedIndexInformer(&cache.ListWatch{}, &discovery.EndpointSlice{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for range 2 { // a second controller sharing the informer
		if err := AddServiceNameIndex(inf); err != nil {
			t.Fatal(err)
		}
	}
	indexed := inf.GetIndexer()
	plain := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	got, want := NewSliceLister(indexed), discoverylisters.NewEndpointSliceLister(plain)
	r, _ := newTestReconciler(t, 100)

	rnd := rand.New(rand.NewPCG(5, 6))
	namespaces, services, managers := []string{"a", "b"}, []string{"s1", "s2", "s3", ""}, []string{r.cfg.ControllerName, "other"}
	randomSlice := func() *discovery.EndpointSlice {
		s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{
			Namespace: namespaces[rnd.IntN(len(namespaces))],
			Name:      fmt.Sprintf("e%d", rnd.IntN(30)),
			Labels:    map[string]string{discovery.LabelManagedBy: managers[rnd.IntN(len(managers))]},
		}}
		if svc := services[rnd.IntN(len(services))]; svc != "" {
			s.Labels[discovery.LabelServiceName] = svc
		}
		return s
	}
	names := func(l []*discovery.EndpointSlice) []string {
		var out []string
		for _, s := range l {
			out = append(out, s.Namespace+"/"+s.Name)
		}
		slices.Sort(out)
		return out
	}
	for step := range 2000 {
		switch op := rnd.IntN(20); {
		case op == 0:
			var objs []any
			for range rnd.IntN(20) {
				objs = append(objs, randomSlice())
			}
			for _, s := range []cache.Indexer{indexed, plain} {
				if err := s.Replace(objs, fmt.Sprint(step)); err != nil {
					t.Fatal(err)
				}
			}
		case op < 4:
			o := randomSlice()
			for _, s := range []cache.Indexer{indexed, plain} {
				if err := s.Delete(o); err != nil {
					t.Fatal(err)
				}
			}
		default:
			o := randomSlice()
			for _, s := range []cache.Indexer{indexed, plain} {
				if err := s.Update(o); err != nil {
					t.Fatal(err)
				}
			}
		}
		ns, svc := namespaces[rnd.IntN(len(namespaces))], services[rnd.IntN(len(services)-1)] // not "": OwnerSlices refuses an empty name
		g, err := r.OwnerSlices(got, ns, svc)
		if err != nil {
			t.Fatal(err)
		}
		w, err := r.OwnerSlices(want, ns, svc)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(g), names(w)) {
			t.Fatalf("step %d: OwnerSlices(%s/%s) = %v, want %v", step, ns, svc, names(g), names(w))
		}
		for _, sel := range []labels.Selector{
			labels.SelectorFromSet(labels.Set{discovery.LabelServiceName: svc}),
			labels.SelectorFromSet(labels.Set{discovery.LabelManagedBy: "other"}),
			labels.Everything(),
		} {
			g, err := got.EndpointSlices(ns).List(sel)
			if err != nil {
				t.Fatal(err)
			}
			w, err := want.EndpointSlices(ns).List(sel)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(g), names(w)) {
				t.Fatalf("step %d: List(%s, %q) = %v, want %v", step, ns, sel, names(g), names(w))
			}
		}
	}
}

// BenchmarkOwnerSlices lists one Service's slices among those of N
// Services in its namespace (two slices each), through client-go's lister
// (KCM's listing: every slice of the namespace matched) and through
// NewSliceLister with AddServiceNameIndex; compare the two per N.
func BenchmarkOwnerSlices(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		inf := cache.NewSharedIndexInformer(&cache.ListWatch{}, &discovery.EndpointSlice{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		if err := AddServiceNameIndex(inf); err != nil {
			b.Fatal(err)
		}
		r, _ := newTestReconciler(b, 100)
		for i := range n {
			for j := range 2 {
				s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("svc%d-%d", i, j), Labels: map[string]string{
					discovery.LabelServiceName: fmt.Sprintf("svc%d", i), discovery.LabelManagedBy: r.cfg.ControllerName,
				}}}
				if err := inf.GetIndexer().Add(s); err != nil {
					b.Fatal(err)
				}
			}
		}
		for _, l := range []struct {
			name   string
			lister discoverylisters.EndpointSliceLister
		}{
			{"plain", discoverylisters.NewEndpointSliceLister(inf.GetIndexer())},
			{"indexed", NewSliceLister(inf.GetIndexer())},
		} {
			b.Run(fmt.Sprintf("services=%d/%s", n, l.name), func(b *testing.B) {
				for b.Loop() {
					got, err := r.OwnerSlices(l.lister, "ns", "svc7")
					if err != nil || len(got) != 2 {
						b.Fatalf("%d slices, %v", len(got), err)
					}
				}
			})
		}
	}
}
