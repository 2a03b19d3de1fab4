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
	"context"
	"errors"
	"fmt"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"
)

func TestOwnerSlicesAndRelease(t *testing.T) {
	svc := testService()
	ports := []discovery.EndpointPort{tcpPort("http", 80)}
	own := func(name string) *discovery.EndpointSlice { return existingSlice(name, svc, ports) }
	other := own("other")
	other.Labels[discovery.LabelManagedBy] = "someone-else"
	otherSvc := own("other-svc")
	otherSvc.Labels[discovery.LabelServiceName] = "not-" + svc.Name
	pending := own("pending")
	now := metav1.Now()
	pending.DeletionTimestamp = &now
	withFields := own("b")
	withFields.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "x"}}
	all := []*discovery.EndpointSlice{own("c"), withFields, own("a"), other, otherSvc, pending}

	r, client := newTestReconciler(t, 100, all...)
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, s := range all {
		if err := indexer.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	lister := discoverylisters.NewEndpointSliceLister(indexer)

	got, err := r.OwnerSlices(lister, svc.Namespace, svc.Name)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
		if len(s.ManagedFields) != 0 {
			t.Errorf("slice %s returned with managedFields", s.Name)
		}
	}
	if fmt.Sprint(names) != "[a b c]" {
		t.Errorf("OwnerSlices = %v, want [a b c] (own, sorted, without pending deletion)", names)
	}
	if len(withFields.ManagedFields) != 1 {
		t.Error("OwnerSlices modified the cached slice")
	}

	// The tracker has seen a newer generation of c than the cache holds.
	newer := own("c")
	newer.Generation = 5
	r.Tracker().Update(newer)
	_, err = r.OwnerSlices(lister, svc.Namespace, svc.Name)
	var stale *StaleInformerCacheError
	if !errors.As(err, &stale) || !IsStaleInformerCache(fmt.Errorf("wrapped: %w", err)) {
		t.Fatalf("OwnerSlices with a stale cache = %v, want a *StaleInformerCacheError", err)
	}
	if want := "EndpointSlice informer cache is out of date for Service " + svc.Namespace + "/" + svc.Name; stale.Error() != want {
		t.Errorf("error %q, want %q", stale.Error(), want)
	}
	if n, err := r.Release(context.Background(), lister, svc.Namespace, svc.Name); n != 0 || !IsStaleInformerCache(err) {
		t.Fatalf("Release with a stale cache = %d, %v; want 0 and a stale-cache error", n, err)
	}

	r.Tracker().DeleteOwner(svc.Namespace, svc.Name)
	n, err := r.Release(context.Background(), lister, svc.Namespace, svc.Name)
	if err != nil || n != 3 {
		t.Fatalf("Release = %d, %v; want 3 deleted", n, err)
	}
	left, err := client.DiscoveryV1().EndpointSlices(svc.Namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names = nil
	for _, s := range left.Items {
		names = append(names, s.Name)
	}
	if fmt.Sprint(names) != "[other other-svc pending]" {
		t.Errorf("left after Release: %v, want [other other-svc pending]", names)
	}
}
