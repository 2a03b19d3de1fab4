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
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	endpointsliceutil "k8s.io/endpointslice/util"

	"github.com/slicekit/slicekit/pkg/selectorindex"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// crowdedNamespace returns a Service informer whose store holds n Services
// of namespace ns, each selecting app=app-<i> plus a shared tier=web (as
// Deployments' Services do), and one Service in another namespace.
func crowdedNamespace(b *testing.B, n int) cache.SharedIndexInformer {
	informer := cache.NewSharedIndexInformer(&cache.ListWatch{}, &corev1.Service{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for i := range n + 1 {
		ns := "ns"
		if i == n {
			ns = "other"
		}
		svc := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("svc-%d", i), ResourceVersion: "1"},
			Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": fmt.Sprintf("app-%d", i), "tier": "web"}},
		}
		if err := informer.GetIndexer().Add(svc); err != nil {
			b.Fatal(err)
		}
	}
	return informer
}

// specSelector is the drop-in's selector rule (KCM's: spec.selector, nil
// selects nothing).
func specSelector(svc *corev1.Service) labels.Selector {
	if svc.Spec.Selector == nil {
		return nil
	}
	return labels.ValidatedSetSelector(svc.Spec.Selector)
}

// BenchmarkPodEventServices measures the Pod → Services lookup of one Pod
// event (a readiness flip: the Services to sync for the Pod's labels) with
// 10, 1,000 and 10,000 Services in the Pod's namespace, side by side:
//   - kcm: k8s.io/endpointslice util.GetServicesToUpdate over a Service
//     lister, what KCM v1.37.2's EndpointSlice controller runs per Pod
//     event (lists the namespace and builds and matches a selector per
//     Service);
//   - slicekit-list: servicepods.ServicesToUpdate, slicekit's lookup
//     before the selector index (the same listing);
//   - slicekit: servicepods.ServicesToUpdateByLookup with
//     selectorindex.Services.Match, the controllers' lookup.
//
// The slicekit sub-benchmark also times kcm in the same process (for at
// least 200ms after its own loop) and reports kcm-ns/op and kcm/slicekit,
// KCM's time over slicekit's (higher is better for slicekit).
func BenchmarkPodEventServices(b *testing.B) {
	podLabels := labels.Set{"app": "app-7", "tier": "web", "pod-template-hash": "5d8f7c9b6"}
	for _, n := range []int{10, 1000, 10000} {
		informer := crowdedNamespace(b, n)
		lister := corelisters.NewServiceLister(informer.GetIndexer())
		services, err := selectorindex.NewServices(informer, specSelector)
		if err != nil {
			b.Fatal(err)
		}
		kcmKey := &endpointsliceutil.PodProjectionKey{Namespace: "ns", Labels: podLabels}
		key := &servicepods.PodProjectionKey{Namespace: "ns", Labels: podLabels}
		kcmLookup := func(b *testing.B) {
			if got, err := endpointsliceutil.GetServicesToUpdate(lister, kcmKey); err != nil || got.Len() != 1 {
				b.Fatalf("kcm: %v, %v", got, err)
			}
		}
		b.Run(fmt.Sprintf("services=%d/kcm", n), func(b *testing.B) {
			for b.Loop() {
				kcmLookup(b)
			}
		})
		b.Run(fmt.Sprintf("services=%d/slicekit-list", n), func(b *testing.B) {
			for b.Loop() {
				if got, err := servicepods.ServicesToUpdate(lister, key, nil); err != nil || got.Len() != 1 {
					b.Fatalf("slicekit-list: %v, %v", got, err)
				}
			}
		})
		b.Run(fmt.Sprintf("services=%d/slicekit", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got, err := servicepods.ServicesToUpdateByLookup(key, services.Match); err != nil || got.Len() != 1 {
					b.Fatalf("slicekit: %v, %v", got, err)
				}
			}
			ours := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			// KCM's lookup in the same process, for at least 200ms (the
			// timer is stopped after the loop).
			ops, start := 0, time.Now()
			for ops == 0 || time.Since(start) < 200*time.Millisecond {
				kcmLookup(b)
				ops++
			}
			theirs := float64(time.Since(start).Nanoseconds()) / float64(ops)
			b.ReportMetric(theirs, "kcm-ns/op")
			b.ReportMetric(theirs/ours, "kcm/slicekit")
		})
	}
}
