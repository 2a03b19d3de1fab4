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

package mirroring

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	_ "unsafe" // for go:linkname

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	kcm "k8s.io/kubernetes/pkg/controller/endpointslicemirroring"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
)

// kcmSyncEndpoints is KCM's unexported (*Controller).syncEndpoints, the
// function its workers call for each queued Endpoints key
// (pkg/controller/endpointslicemirroring/endpointslicemirroring_controller.go).
//
// How KCM is driven: the controller is built with its exported
// NewController on informers whose stores the harness fills directly (as
// KCM's own endpointslicemirroring_controller_test.go does), and its sync is
// called through this go:linkname reference to the method symbol, with the
// receiver as first argument. That is the exact code path of a KCM worker
// (syncEndpoints → reconciler.reconcile → finalize), minus the queue, so the
// harness decides when each side syncs and can compare after every step.
// go:linkname to a non-standard-library symbol is accepted by the Go 1.26
// linker; if a future k8s.io/kubernetes renames the method, the test fails
// to link rather than silently testing something else.
//
//go:linkname kcmSyncEndpoints k8s.io/kubernetes/pkg/controller/endpointslicemirroring.(*Controller).syncEndpoints
func kcmSyncEndpoints(c *kcm.Controller, ctx context.Context, key string) error

// side is one controller (KCM's or slicekit's) on its own memapi clientset
// (API-server semantics: generateName, UIDs, generations, no-op updates)
// with informer stores filled by the harness: Services and Endpoints are
// put into the stores directly, EndpointSlices are refreshed from the
// clientset after every sync, as a watch would.
type side struct {
	name   string
	client *fake.Clientset
	sync   func(ctx context.Context, key string) error
	// onSliceDelete is the controller's informer delete handler for
	// EndpointSlices (see kcmOnEndpointSliceDelete).
	onSliceDelete func(obj any)
	// noopUpdates counts EndpointSlice updates that would not change the
	// stored slice as a consumer sees it (normalize).
	noopUpdates int

	endpointsStore, serviceStore, sliceStore cache.Store
}

// countNoopUpdates installs, ahead of memapi's reactors, a reactor that
// counts the EndpointSlice updates that change nothing a consumer sees.
func (s *side) countNoopUpdates() {
	s.client.PrependReactor("update", "endpointslices", func(action k8stesting.Action) (bool, runtime.Object, error) {
		sl, ok := action.(k8stesting.UpdateAction).GetObject().(*discovery.EndpointSlice)
		if !ok {
			return false, nil, nil
		}
		obj, err := s.client.Tracker().Get(action.GetResource(), sl.Namespace, sl.Name)
		if err != nil {
			return false, nil, nil
		}
		if cur, ok := obj.(*discovery.EndpointSlice); ok && normalize(cur) == normalize(sl) {
			s.noopUpdates++
		}
		return false, nil, nil
	})
}

func newKCMSide(t testing.TB, ctx context.Context, maxPerSubset int32) *side {
	client := memapi.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	c := kcm.NewController(ctx,
		factory.Core().V1().Endpoints(),
		factory.Discovery().V1().EndpointSlices(),
		factory.Core().V1().Services(),
		maxPerSubset, client, 0)
	return &side{
		name:           "kcm",
		client:         client,
		sync:           func(ctx context.Context, key string) error { return kcmSyncEndpoints(c, ctx, key) },
		onSliceDelete:  func(obj any) { kcmOnEndpointSliceDelete(c, obj) },
		endpointsStore: factory.Core().V1().Endpoints().Informer().GetStore(),
		serviceStore:   factory.Core().V1().Services().Informer().GetStore(),
		sliceStore:     factory.Discovery().V1().EndpointSlices().Informer().GetStore(),
	}
}

func newSlicekitSide(t testing.TB, ctx context.Context, maxPerSubset int32) *side {
	client := memapi.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	gateOff := false
	c, err := mirroring.New(ctx, client, factory, mirroring.Options{
		MirroringMaxEndpointsPerSubset: maxPerSubset,
		// KCM has no KEP-4770 label: compare with the gate off, so the
		// label is ignored on both sides.
		ExternalEndpointController: &gateOff,
		Registerer:                 prometheus.NewRegistry(),
		EventRecorder:              record.NewFakeRecorder(1 << 16),
	})
	if err != nil {
		t.Fatalf("mirroring.New: %v", err)
	}
	return &side{
		name:           "slicekit",
		client:         client,
		sync:           c.SyncEndpoints,
		onSliceDelete:  func(obj any) { slicekitOnEndpointSliceDelete(c, obj) },
		endpointsStore: factory.Core().V1().Endpoints().Informer().GetStore(),
		serviceStore:   factory.Core().V1().Services().Informer().GetStore(),
		sliceStore:     factory.Discovery().V1().EndpointSlices().Informer().GetStore(),
	}
}

func (s *side) putEndpoints(ep *corev1.Endpoints) { _ = s.endpointsStore.Update(ep.DeepCopy()) }
func (s *side) putService(svc *corev1.Service)    { _ = s.serviceStore.Update(svc.DeepCopy()) }

func (s *side) deleteEndpoints(name string) {
	if o, ok, _ := s.endpointsStore.GetByKey(ns + "/" + name); ok {
		_ = s.endpointsStore.Delete(o)
	}
}

func (s *side) deleteService(name string) {
	if o, ok, _ := s.serviceStore.GetByKey(ns + "/" + name); ok {
		_ = s.serviceStore.Delete(o)
	}
}

// refresh replaces the EndpointSlice store with the clientset's slices.
func (s *side) refresh(t testing.TB) {
	list, err := s.client.DiscoveryV1().EndpointSlices(metav1.NamespaceAll).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	items := make([]any, 0, len(list.Items))
	for i := range list.Items {
		items = append(items, &list.Items[i])
	}
	if err := s.sliceStore.Replace(items, list.ResourceVersion); err != nil {
		t.Fatal(err)
	}
}

// writes is the number of EndpointSlice writes sent so far.
func (s *side) writes() int { return len(memapi.SliceWrites(s.client)) }

// settle syncs key until a pass writes nothing and fails not, at most
// maxPasses successful passes; a failed pass is retried, as the
// controller's queue would, at most maxRetries times. It returns the number
// of writes sent, the errors of the failed passes, and the error of the last
// pass (nil when it succeeded).
func (s *side) settle(t testing.TB, ctx context.Context, key string, maxPasses, maxRetries int) (writes int, errs []error, last error) {
	before := s.writes()
	for passes := 0; passes < maxPasses && len(errs) <= maxRetries; {
		n := s.writes()
		err := s.sync(ctx, key)
		s.refresh(t)
		if err != nil {
			last = fmt.Errorf("%s: sync %s: %w", s.name, key, err)
			errs = append(errs, last)
			continue
		}
		last = nil
		passes++
		if s.writes() == n {
			break
		}
	}
	return s.writes() - before, errs, last
}

// slices returns the slices of the service name (all managers).
func (s *side) slices(t testing.TB, name string) []discovery.EndpointSlice {
	list, err := s.client.DiscoveryV1().EndpointSlices(ns).List(context.Background(), metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + name})
	if err != nil {
		t.Fatal(err)
	}
	return list.Items
}

// state returns the normalized slices of name, sorted: what a consumer sees,
// without server-assigned fields (name, uid, resourceVersion, generation,
// managedFields) and with endpoints and ports as unordered sets.
func (s *side) state(t testing.TB, name string) []string {
	var out []string
	slices := s.slices(t, name)
	for i := range slices {
		out = append(out, normalize(&slices[i]))
	}
	sort.Strings(out)
	return out
}

func normalize(s *discovery.EndpointSlice) string {
	var b strings.Builder
	fmt.Fprintf(&b, "type=%s\n labels=%s\n annotations=%s\n", s.AddressType, mapString(s.Labels), mapString(s.Annotations))
	for _, o := range s.OwnerReferences {
		fmt.Fprintf(&b, " owner=%s/%s/%s/%s controller=%v block=%v\n", o.APIVersion, o.Kind, o.Name, o.UID, ptrStr(o.Controller), ptrStr(o.BlockOwnerDeletion))
	}
	var ports []string
	for _, p := range s.Ports {
		ports = append(ports, fmt.Sprintf("%s/%s/%s/%s", ptrStr(p.Name), ptrStr(p.Protocol), ptrStr(p.Port), ptrStr(p.AppProtocol)))
	}
	sort.Strings(ports)
	fmt.Fprintf(&b, " ports=%s\n", strings.Join(ports, ","))
	var eps []string
	for _, e := range s.Endpoints {
		ref := "-"
		if e.TargetRef != nil {
			ref = fmt.Sprintf("%s/%s/%s/%s", e.TargetRef.Kind, e.TargetRef.Namespace, e.TargetRef.Name, e.TargetRef.UID)
		}
		eps = append(eps, fmt.Sprintf("%s ready=%s serving=%s terminating=%s host=%s node=%s zone=%s ref=%s hints=%v",
			strings.Join(e.Addresses, ","), ptrStr(e.Conditions.Ready), ptrStr(e.Conditions.Serving), ptrStr(e.Conditions.Terminating),
			ptrStr(e.Hostname), ptrStr(e.NodeName), ptrStr(e.Zone), ref, e.Hints != nil))
	}
	sort.Strings(eps)
	fmt.Fprintf(&b, " endpoints(%d)=\n  %s", len(eps), strings.Join(eps, "\n  "))
	return b.String()
}

func mapString(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+m[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func ptrStr[T any](p *T) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprint(*p)
}
