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

package selectorindex_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/selectorindex"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// The differential test of the Pod → Services lookup: Services.Match
// against the lookup it replaces (servicepods.ServicesForLabels, which
// lists and matches every Service of the namespace), with a controller's
// selector rule (ownership by the KEP-4770 label, spec.selector, else the
// selectorless annotation) on random Services and label sets, the store
// changed without informer events (Add, Update, Delete, Replace), as test
// fixtures and `slicekit render` fill it.

var (
	svcKeys   = []string{"app", "tier", "env", "version", "team"}
	svcValues = []string{"a", "b", "c", "d"}
)

// selectorOf is a controller's selector rule, as the Service controller's
// (pkg/slicecontroller podSelectorOf with SelectorlessAnnotation).
func selectorOf(svc *corev1.Service) labels.Selector {
	if svc.Labels[wellknown.LabelEndpointControllerName] == "other" {
		return nil
	}
	if svc.Spec.Selector != nil {
		return labels.ValidatedSetSelector(svc.Spec.Selector)
	}
	sel, ok, err := selectorless.ParseSelector(svc)
	if !ok || err != nil {
		return nil
	}
	return sel
}

// randomService returns Service ns/name at version rv: a spec.selector of
// 0-3 pairs (sometimes empty, sometimes nil), else a selectorless
// annotation of set-based requirements (sometimes invalid), sometimes
// delegated to another controller.
func randomService(r *rand.Rand, ns, name string, rv int) *corev1.Service {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + name),
		ResourceVersion: fmt.Sprint(rv)}}
	if r.IntN(8) == 0 {
		svc.Labels = map[string]string{wellknown.LabelEndpointControllerName: "other"}
	}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	switch r.IntN(10) {
	case 0: // no selector, no annotation
	case 1:
		svc.Spec.Selector = map[string]string{}
	case 2, 3, 4, 5:
		svc.Spec.Selector = map[string]string{}
		for range 1 + r.IntN(3) {
			svc.Spec.Selector[pick(svcKeys)] = pick(svcValues)
		}
	default:
		var reqs []string
		for range 1 + r.IntN(3) {
			k := pick(svcKeys)
			switch r.IntN(7) {
			case 0:
				reqs = append(reqs, k+"="+pick(svcValues))
			case 1:
				reqs = append(reqs, k+" in ("+pick(svcValues)+","+pick(svcValues)+")")
			case 2:
				reqs = append(reqs, k+" notin ("+pick(svcValues)+")")
			case 3:
				reqs = append(reqs, k)
			case 4:
				reqs = append(reqs, "!"+k)
			case 5:
				reqs = append(reqs, k+"!="+pick(svcValues))
			case 6:
				reqs = append(reqs, "((("+k)
			}
		}
		svc.Annotations = map[string]string{wellknown.AnnotationSelector: strings.Join(reqs, ",")}
	}
	return svc
}

func randomLabels(r *rand.Rand) labels.Set {
	set := labels.Set{}
	for _, k := range svcKeys {
		if r.IntN(2) == 0 {
			set[k] = svcValues[r.IntN(len(svcValues))]
		}
	}
	return set
}

// runServicesDifferential applies steps random store changes and checks
// lookups after each; it reports the number of lookups checked.
func runServicesDifferential(t *testing.T, r *rand.Rand, steps int) int {
	t.Helper()
	informer := cache.NewSharedIndexInformer(&cache.ListWatch{}, &corev1.Service{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	store := informer.GetIndexer()
	namespaces := []string{"ns1", "ns2"}
	rv := 0
	// Some Services are there before the index is added.
	for i := range r.IntN(5) {
		rv++
		if err := store.Add(randomService(r, namespaces[r.IntN(2)], fmt.Sprintf("pre-%d", i), rv)); err != nil {
			t.Fatal(err)
		}
	}
	services, err := selectorindex.NewServices(informer, selectorOf)
	if err != nil {
		t.Fatal(err)
	}
	lister := corelisters.NewServiceLister(store)
	checked := 0
	for step := range steps {
		ns := namespaces[r.IntN(2)]
		name := fmt.Sprintf("svc-%d", r.IntN(12))
		rv++
		switch op := r.IntN(10); {
		case op < 5:
			err = store.Update(randomService(r, ns, name, rv))
		case op < 6: // a change that keeps the resourceVersion (never from the API server; the index follows the store anyway)
			if obj, ok, _ := store.GetByKey(ns + "/" + name); ok {
				err = store.Update(obj)
			}
		case op < 8:
			if obj, ok, _ := store.GetByKey(ns + "/" + name); ok {
				err = store.Delete(obj)
				services.Forget(ns, name)
			}
		case op < 9:
			var objs []any
			for i := range r.IntN(6) {
				rv++
				objs = append(objs, randomService(r, namespaces[r.IntN(2)], fmt.Sprintf("svc-%d", i), rv))
			}
			err = store.Replace(objs, "")
		default: // a recreated Service: new UID, same name
			svc := randomService(r, ns, name, rv)
			svc.UID += types.UID("-" + fmt.Sprint(rv))
			err = store.Update(svc)
		}
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			set := randomLabels(r)
			for _, ns := range namespaces {
				got, err := services.Match(ns, set)
				if err != nil {
					t.Fatal(err)
				}
				want, err := servicepods.ServicesForLabels(lister, ns, set, selectorOf)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Fatalf("step %d: Match(%s, %v) = %v, listing every Service: %v", step, ns, set, sets.List(got), sets.List(want))
				}
				checked++
			}
		}
	}
	return checked
}

// TestServicesEqualsListing is the differential test: 200 random streams
// of 100 store changes, 8 lookups after each.
func TestServicesEqualsListing(t *testing.T) {
	runs := 200
	if testing.Short() {
		runs = 20
	}
	checked := 0
	for run := range runs {
		checked += runServicesDifferential(t, rand.New(rand.NewPCG(uint64(run), 27)), 100)
	}
	t.Logf("%d lookups equal to listing every Service", checked)
}

// FuzzServices drives the differential test from fuzz bytes (the seed of
// the random stream and its length).
func FuzzServices(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte("selectors of a crowded namespace"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var seed [17]byte
		copy(seed[:], data)
		r := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[0:8]), binary.LittleEndian.Uint64(seed[8:16])))
		runServicesDifferential(t, r, 1+int(seed[16]%64))
	})
}

func TestAnchor(t *testing.T) {
	mustParse := func(s string) labels.Selector {
		sel, err := labels.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return sel
	}
	for _, tc := range []struct {
		sel  labels.Selector
		want []string
	}{
		{labels.ValidatedSetSelector(labels.Set{"tier": "web", "app": "x"}), []string{"=app=x"}},
		{mustParse("tier in (b,a),!canary"), []string{"=tier=a", "=tier=b"}},
		{mustParse("env notin (prod),team"), []string{"?team"}},
		{mustParse("env notin (prod)"), []string{"*"}},
		{labels.Everything(), []string{"*"}},
		{labels.Nothing(), nil},
	} {
		if got := selectorindex.Anchor(tc.sel); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("Anchor(%v) = %q, want %q", tc.sel, got, tc.want)
		}
	}
}
