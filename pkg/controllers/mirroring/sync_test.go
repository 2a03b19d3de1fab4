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
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestSyncEndpointsEligibility covers rule b1 and KEP-4770 rule (a)8: in
// every situation but the last, the mirrored slice is deleted; a slice of
// another controller is never touched.
func TestSyncEndpointsEligibility(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	gateOff := false
	tests := []struct {
		name       string
		svc        *corev1.Service
		ep         *corev1.Endpoints
		opts       Options
		wantSlices []string // addresses of mirrored slices after the sync
		wantEvent  string
	}{
		{name: "no Service", ep: ep},
		{name: "no Endpoints", svc: service("svc")},
		{name: "Service with selector (case 01)", svc: service("svc", withSelector), ep: ep},
		{name: "skip-mirror label", svc: service("svc"), ep: func() *corev1.Endpoints {
			e := ep.DeepCopy()
			e.Labels = map[string]string{discovery.LabelSkipMirror: "true"}
			return e
		}()},
		{name: "leader-election annotation", svc: service("svc"), ep: func() *corev1.Endpoints {
			e := ep.DeepCopy()
			e.Annotations = map[string]string{resourcelock.LeaderElectionRecordAnnotationKey: "{}"}
			return e
		}()},
		{
			name: "delegated Service (KEP-4770)", svc: service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "custom-ctrl.example.com")), ep: ep,
			wantEvent: "Normal EndpointSlicesHandedOver Deleted 1 EndpointSlice(s) managed by endpointslicemirroring-controller.k8s.io",
		},
		{name: "label with an empty value delegates too (rule (a)1)", svc: service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "")), ep: ep,
			wantEvent: "Normal EndpointSlicesHandedOver"},
		{name: "label naming this controller: mirrored", svc: service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, wellknown.MirroringControllerName)), ep: ep, wantSlices: []string{"10.0.0.1", "10.0.0.2"}},
		{name: "label naming an accepted controller name: mirrored", svc: service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "slicekit")), ep: ep,
			opts: Options{AcceptedControllerNames: []string{"slicekit"}}, wantSlices: []string{"10.0.0.1", "10.0.0.2"}},
		{name: "gate off: label ignored (rule (a)9)", svc: service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "x")), ep: ep,
			opts: Options{ExternalEndpointController: &gateOff}, wantSlices: []string{"10.0.0.1", "10.0.0.2"}},
		{name: "skip-mirror other than true: mirrored", svc: service("svc"), ep: func() *corev1.Endpoints {
			e := ep.DeepCopy()
			e.Labels = map[string]string{discovery.LabelSkipMirror: "false"}
			return e
		}(), wantSlices: []string{"10.0.0.1", "10.0.0.2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs := []runtime.Object{
				mirroredSlice("svc-m1", ep, wellknown.MirroringControllerName, "10.0.0.1", "10.0.0.2"),
				mirroredSlice("svc-custom", ep, "custom-ctrl.example.com", "10.0.1.1"),
			}
			if tc.svc != nil {
				objs = append(objs, tc.svc)
			}
			if tc.ep != nil {
				objs = append(objs, tc.ep)
			}
			f := newFixture(t, tc.opts, objs...)
			customBefore := f.slices("svc")[0]
			f.mustSync("svc")
			mirrored := f.mirrored("svc")
			if tc.wantSlices == nil {
				if len(mirrored) != 0 {
					t.Errorf("mirrored slices left: %v", addresses(mirrored))
				}
			} else if diff := cmp.Diff([]string{"10.0.0.1"}, addresses(mirrored)); diff != "" {
				t.Errorf("mirrored addresses (-want +got):\n%s", diff)
			}
			all := f.slices("svc")
			if len(all) == 0 || all[0].Name != "svc-custom" || all[0].ResourceVersion != customBefore.ResourceVersion {
				t.Errorf("the slice of another controller was written or deleted")
			}
			evs := f.events()
			if tc.wantEvent != "" && (len(evs) != 1 || !strings.HasPrefix(evs[0], tc.wantEvent)) {
				t.Errorf("events = %q, want one starting with %q", evs, tc.wantEvent)
			}
			if tc.wantEvent == "" && len(evs) != 0 {
				t.Errorf("unexpected events %q", evs)
			}
		})
	}
}

// TestSyncEndpointsMirrors covers case 13 and rules b6 to b8: content,
// labels, annotations, owner; and that a second sync writes nothing.
func TestSyncEndpointsMirrors(t *testing.T) {
	ep := endpointsObj("svc", corev1.EndpointSubset{
		Addresses: []corev1.EndpointAddress{{IP: "10.0.0.11", Hostname: "host-1", NodeName: ptr.To("node-a"),
			TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "pod-x1", UID: "uid-pod-x1"}}},
		NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.0.0.12", NodeName: ptr.To("node-b"),
			TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "pod-x2", UID: "uid-pod-x2"}}},
		Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP, AppProtocol: ptr.To("http")}},
	})
	ep.Labels = map[string]string{"app": "knative", discovery.LabelServiceName: "other", discovery.LabelManagedBy: "someone"}
	ep.Annotations = map[string]string{"a": "b", corev1.EndpointsLastChangeTriggerTime: "2026-01-01T00:00:00Z", corev1.LastAppliedConfigAnnotation: "{}"}
	f := newFixture(t, Options{}, service("svc"), ep)
	f.mustSync("svc")

	got := f.mirrored("svc")
	if len(got) != 1 {
		t.Fatalf("want 1 mirrored slice, got %d", len(got))
	}
	s := got[0]
	want := discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:    ns,
			GenerateName: "svc-",
			Labels: map[string]string{"app": "knative", discovery.LabelServiceName: "svc",
				discovery.LabelManagedBy: wellknown.MirroringControllerName},
			Annotations: map[string]string{"a": "b"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Endpoints", Name: "svc", UID: "uid-ep-svc",
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints: []discovery.Endpoint{
			{Addresses: []string{"10.0.0.11"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}, Hostname: ptr.To("host-1"),
				NodeName: ptr.To("node-a"), TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "pod-x1", UID: "uid-pod-x1"}},
			{Addresses: []string{"10.0.0.12"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(false)},
				NodeName: ptr.To("node-b"), TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "pod-x2", UID: "uid-pod-x2"}},
		},
		Ports: []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP), AppProtocol: ptr.To("http")}},
	}
	s.TypeMeta = metav1.TypeMeta{}
	s.Name, s.UID, s.ResourceVersion, s.Generation, s.ManagedFields = "", "", "", 0, nil
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("mirrored slice (-want +got):\n%s", diff)
	}
	f.writes()
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("second sync wrote %v", w)
	}
}

// TestSyncEndpointsChurn follows an Endpoints object through changes and
// checks the slice and the writes after each one.
func TestSyncEndpointsChurn(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1", "10.0.0.2"}, nil, httpPort()))
	f := newFixture(t, Options{}, service("svc"), ep)
	f.mustSync("svc")
	name := f.mirrored("svc")[0].Name
	f.writes()

	steps := []struct {
		name       string
		mutate     func(*corev1.Endpoints)
		want       []string
		wantWrites []string
	}{
		{"add an address", func(e *corev1.Endpoints) {
			e.Subsets[0].Addresses = append(e.Subsets[0].Addresses, corev1.EndpointAddress{IP: "10.0.0.3"})
		}, []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"}, []string{"update " + name}},
		{"readiness flip", func(e *corev1.Endpoints) {
			e.Subsets[0].NotReadyAddresses = []corev1.EndpointAddress{e.Subsets[0].Addresses[0]}
			e.Subsets[0].Addresses = e.Subsets[0].Addresses[1:]
		}, []string{"!10.0.0.1", "10.0.0.2", "10.0.0.3"}, []string{"update " + name}},
		{"label change", func(e *corev1.Endpoints) { e.Labels = map[string]string{"x": "y"} },
			[]string{"!10.0.0.1", "10.0.0.2", "10.0.0.3"}, []string{"update " + name}},
		{"no change", func(*corev1.Endpoints) {}, []string{"!10.0.0.1", "10.0.0.2", "10.0.0.3"}, nil},
		{"port change: same slice name, recycled", func(e *corev1.Endpoints) { e.Subsets[0].Ports[0].Port = 9090 },
			[]string{"!10.0.0.1", "10.0.0.2", "10.0.0.3"}, []string{"update " + name}},
		{"IPv6 address added: a second slice", func(e *corev1.Endpoints) {
			e.Subsets[0].Addresses = append(e.Subsets[0].Addresses, corev1.EndpointAddress{IP: "fd00::1"})
		}, []string{"!10.0.0.1", "10.0.0.2", "10.0.0.3", "fd00::1"}, []string{"create"}},
		{"all addresses removed: no slice, no placeholder (b10)", func(e *corev1.Endpoints) { e.Subsets = nil }, nil, []string{"delete", "delete"}},
	}
	for _, st := range steps {
		e := ep.DeepCopy()
		st.mutate(e)
		ep = e
		f.put(ep)
		f.mustSync("svc")
		if diff := cmp.Diff(st.want, addresses(f.mirrored("svc"))); diff != "" {
			t.Errorf("%s: addresses (-want +got):\n%s", st.name, diff)
		}
		got := f.writes()
		for i := range got {
			if strings.HasPrefix(got[i], "create") || strings.HasPrefix(got[i], "delete") {
				got[i] = strings.Fields(got[i])[0]
			}
		}
		if diff := cmp.Diff(st.wantWrites, got); diff != "" {
			t.Errorf("%s: writes (-want +got):\n%s", st.name, diff)
		}
	}
}

// TestSyncEndpointsLimit covers case 15 and rule b4 with KCM's events, and
// rule b5's event.
func TestSyncEndpointsLimit(t *testing.T) {
	var ready, notReady []string
	for i := 0; i < 1000; i++ {
		ready = append(ready, fmt.Sprintf("10.0.%d.%d", i/250, i%250+1))
	}
	notReady = []string{"10.0.4.1", "10.0.4.2", "10.0.4.3"}
	// "1.2.3" sorts first, so it is parsed (and found invalid) before the
	// limit is reached.
	ep := endpointsObj("svc", subset(append(ready, "1.2.3"), notReady, httpPort()))
	f := newFixture(t, Options{}, service("svc"), ep)
	f.mustSync("svc")
	got := f.mirrored("svc")
	if len(got) != 1 || len(got[0].Endpoints) != 1000 {
		t.Fatalf("want one slice of 1000 endpoints, got %d slices", len(got))
	}
	for _, a := range addresses(got) {
		if strings.HasPrefix(a, "!") {
			t.Errorf("not-ready address %s mirrored", a)
		}
	}
	want := []string{
		"Warning InvalidIPAddress Skipped 1 invalid IP addresses when mirroring to EndpointSlices",
		"Warning TooManyAddressesToMirror A max of 1000 addresses can be mirrored to EndpointSlices per Endpoints subset. 4 addresses were skipped",
	}
	if diff := cmp.Diff(want, f.events()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// A smaller limit shrinks the existing slice in place.
	f2 := newFixture(t, Options{MirroringMaxEndpointsPerSubset: 10}, service("svc"), ep)
	f2.mustSync("svc")
	if got := f2.mirrored("svc"); len(got) != 1 || len(got[0].Endpoints) != 10 {
		t.Fatalf("limit 10: want one slice of 10 endpoints")
	}
}

// TestSyncEndpointsOneSlicePerGroup covers rule b3: of several mirrored
// slices with the same address type and ports, one is kept.
func TestSyncEndpointsOneSlicePerGroup(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1", "10.0.0.2", "10.0.0.3"}, nil, httpPort()))
	a := mirroredSlice("svc-a", ep, wellknown.MirroringControllerName, "10.0.0.1")
	b := mirroredSlice("svc-b", ep, wellknown.MirroringControllerName, "10.0.0.2", "10.0.0.3")
	f := newFixture(t, Options{}, service("svc"), ep, a, b)
	f.mustSync("svc")
	got := f.mirrored("svc")
	if len(got) != 1 || got[0].Name != "svc-b" {
		t.Fatalf("want only svc-b left, got %d slices", len(got))
	}
	if diff := cmp.Diff([]string{"10.0.0.1", "10.0.0.2", "10.0.0.3"}, addresses(got)); diff != "" {
		t.Errorf("addresses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"update svc-b", "delete svc-a"}, f.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}

	// Two slices of a port list no longer desired and a new port list:
	// one is recycled, the other deleted.
	ep2 := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, corev1.EndpointPort{Name: "other", Port: 1, Protocol: corev1.ProtocolTCP}))
	f2 := newFixture(t, Options{}, service("svc"), ep2, a.DeepCopy(), b.DeepCopy())
	f2.mustSync("svc")
	if got := f2.mirrored("svc"); len(got) != 1 || *got[0].Ports[0].Name != "other" {
		t.Fatalf("want one slice with port other, got %d", len(got))
	}
	if w := f2.writes(); len(w) != 2 || !strings.HasPrefix(w[0], "update") || !strings.HasPrefix(w[1], "delete") {
		t.Errorf("writes = %v, want one update and one delete", w)
	}
}

// TestSyncEndpointsAdoptsEarlierOwner covers needRebuildExistingSlices: a
// slice owned by an earlier Endpoints object of the same name is rewritten
// with the current owner.
func TestSyncEndpointsAdoptsEarlierOwner(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	old := ep.DeepCopy()
	old.UID = "uid-old"
	f := newFixture(t, Options{}, service("svc"), ep, mirroredSlice("svc-m", old, wellknown.MirroringControllerName, "10.0.0.1"))
	f.mustSync("svc")
	got := f.mirrored("svc")
	if len(got) != 1 || got[0].Name != "svc-m" || got[0].OwnerReferences[0].UID != ep.UID {
		t.Fatalf("slice not adopted: %+v", got)
	}
}

// TestSyncEndpointsTriggerTimeAnnotationRemoved: a mirrored slice never
// carries the trigger-time annotation; one set by hand is removed.
func TestSyncEndpointsTriggerTimeAnnotationRemoved(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	s := mirroredSlice("svc-m", ep, wellknown.MirroringControllerName, "10.0.0.1")
	s.Annotations = map[string]string{corev1.EndpointsLastChangeTriggerTime: "2026-01-01T00:00:00Z"}
	f := newFixture(t, Options{}, service("svc"), ep, s)
	f.mustSync("svc")
	if got := f.mirrored("svc"); len(got) != 1 || len(got[0].Annotations) != 0 {
		t.Fatalf("annotation not removed: %+v", got[0].Annotations)
	}
}

// TestSyncEndpointsStaleCache: with a cache older than the controller's own
// write, the sync fails with a stale-cache error and writes nothing, also
// when it would delete.
func TestSyncEndpointsStaleCache(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	f := newFixture(t, Options{}, service("svc"), ep)
	if err := f.c.SyncEndpoints(f.ctx, ns+"/svc"); err != nil { // no refresh: the cache misses the new slice
		t.Fatal(err)
	}
	f.writes()
	err := f.c.SyncEndpoints(f.ctx, ns+"/svc")
	if !reconciler.IsStaleInformerCache(err) {
		t.Fatalf("err = %v, want a stale-cache error", err)
	}
	f.put(service("svc", withSelector))
	if err := f.c.SyncEndpoints(f.ctx, ns+"/svc"); !reconciler.IsStaleInformerCache(err) {
		t.Fatalf("deleting on a stale cache: err = %v, want a stale-cache error", err)
	}
	if w := f.writes(); len(w) != 0 {
		t.Errorf("wrote %v on a stale cache", w)
	}
	f.refresh()
	f.mustSync("svc")
	if len(f.mirrored("svc")) != 0 {
		t.Errorf("mirrored slice not deleted after the cache caught up")
	}
}

// TestSyncEndpointsNoCacheMutation checks that no object of the caches is
// modified by syncs that create, update and delete.
func TestSyncEndpointsNoCacheMutation(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1", "10.0.0.2"}, []string{"10.0.0.3"}, httpPort()))
	ep.Labels = map[string]string{"a": "b"}
	old := ep.DeepCopy()
	old.UID = "uid-old"
	f := newFixture(t, Options{}, service("svc"), ep, mirroredSlice("svc-m", old, wellknown.MirroringControllerName, "10.0.0.9"),
		mirroredSlice("svc-n", ep, wellknown.MirroringControllerName, "10.0.0.1"))
	// One listing: the cached objects and deep copies of them.
	var objs, before []runtime.Object
	for _, st := range []interface{ List() []any }{f.endpointsStore, f.serviceStore, f.sliceStore} {
		for _, o := range st.List() {
			objs = append(objs, o.(runtime.Object))
			before = append(before, o.(runtime.Object).DeepCopyObject())
		}
	}
	if err := f.c.SyncEndpoints(f.ctx, ns+"/svc"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, objs); diff != "" {
		t.Errorf("cache objects modified (-before +after):\n%s", diff)
	}
}
