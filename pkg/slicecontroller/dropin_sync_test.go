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

package slicecontroller

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	self   = dropInControllerName
	custom = "custom-ctrl.example.com"
)

// TestSyncService covers the non-KEP paths of syncService (KCM C10-C14,
// C27): which writes happen for which Service.
func TestSyncService(t *testing.T) {
	tests := []struct {
		name       string
		service    string // default "svc"
		opts       dropInOptions
		objects    []runtime.Object
		wantVerbs  []string
		wantErr    bool
		wantEvents []string
	}{
		{
			name:      "service missing: nothing (C10)",
			service:   "gone",
			objects:   []runtime.Object{newSlice("gone-1", "gone", self, "10.0.0.1")},
			wantVerbs: []string{},
		},
		{
			name:      "no selector: nothing (C11)",
			objects:   []runtime.Object{newService("svc", func(s *corev1.Service) { s.Spec.Selector = nil }), newPod(0, "svc", true)},
			wantVerbs: []string{},
		},
		{
			name: "SelectorRemovalCleanup off: ExternalName, existing slice kept (C11)",
			opts: dropInOptions{SelectorRemovalCleanup: ptr.To(false)},
			objects: []runtime.Object{newService("svc", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }),
				newSlice("svc-1", "svc", self, "10.0.0.1")},
			wantVerbs: []string{},
		},
		{
			name: "SelectorRemovalCleanup off: no selector, existing slice kept (C11)",
			opts: dropInOptions{SelectorRemovalCleanup: ptr.To(false)},
			objects: []runtime.Object{newService("svc", func(s *corev1.Service) { s.Spec.Selector = nil }),
				newSlice("svc-1", "svc", self, "10.0.0.1")},
			wantVerbs: []string{},
		},
		{
			name: "ExternalName: own slice deleted, foreign kept (kubernetes#118376)",
			objects: []runtime.Object{newService("svc", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }),
				newSlice("svc-1", "svc", self, "10.0.0.1"), newSlice("custom-1", "svc", custom, "10.9.9.9")},
			wantVerbs: []string{"delete svc-1"},
			wantEvents: []string{"Normal EndpointSlicesRemoved Deleted 1 EndpointSlice(s) managed by endpointslice-controller.k8s.io: " +
				"the Service is of type ExternalName (kubernetes#118376)"},
		},
		{
			name:      "no pods: placeholder created (C27)",
			objects:   []runtime.Object{newService("svc")},
			wantVerbs: []string{"create"},
		},
		{
			name:      "pods: one slice created",
			objects:   []runtime.Object{newService("svc"), newPod(0, "svc", true), newPod(1, "svc", false), newPod(2, "other", true)},
			wantVerbs: []string{"create"},
		},
		{
			name: "up to date: no write",
			objects: []runtime.Object{newService("svc"), newPod(0, "svc", true),
				func() runtime.Object {
					s := newSlice("svc-1", "svc", self)
					s.Endpoints = []discovery.Endpoint{{
						Addresses:  []string{"10.0.0.1"},
						Conditions: discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)},
						TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testNS, Name: "pod0", UID: "pod-uid-0"},
						NodeName:   ptr.To("node-1"),
						Zone:       ptr.To("zone-a"),
					}}
					return s
				}()},
			wantVerbs: []string{},
		},
		{
			name: "foreign slices are never touched (rule (a)12)",
			objects: []runtime.Object{newService("svc"), newPod(0, "svc", true),
				newSlice("custom-1", "svc", custom, "10.9.9.9")},
			wantVerbs: []string{"create"},
		},
		{
			name: "slice pending deletion is ignored (C12)",
			objects: []runtime.Object{newService("svc"), newPod(0, "svc", true),
				func() runtime.Object {
					s := newSlice("svc-1", "svc", self, "10.0.0.1")
					s.DeletionTimestamp = ptr.To(metav1.Now())
					return s
				}()},
			wantVerbs: []string{"create"},
		},
		{
			name: "slice of an older Service with the same name is replaced (C23, E16)",
			objects: []runtime.Object{newService("svc"), newPod(0, "svc", true),
				func() runtime.Object {
					s := newSlice("svc-old", "svc", self, "10.0.0.99")
					s.OwnerReferences[0].UID = "old-uid"
					return s
				}()},
			// KCM finalize recycles a delete into an update only for a
			// slice owned by the Service.
			wantVerbs: []string{"create", "delete svc-old"},
		},
		{
			name:       "pod on a missing node: skipped, error (C18, E14)",
			objects:    []runtime.Object{newService("svc"), func() runtime.Object { p := newPod(0, "svc", true); p.Spec.NodeName = "missing"; return p }()},
			wantVerbs:  []string{"create"},
			wantErr:    true,
			wantEvents: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newDropInFixture(t, tc.opts)
			f.add(newNode("node-1", "zone-a"))
			f.add(tc.objects...)
			mc := newMutationCheck(tc.objects...)
			name := tc.service
			if name == "" {
				name = "svc"
			}
			err := f.sync(testNS, name)
			if (err != nil) != tc.wantErr {
				t.Fatalf("SyncService error = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.wantVerbs, verbs(f.writes())); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantEvents, f.events()); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			mc.check(t)
		})
	}
}

// TestSyncServiceWrites checks what is written: FieldManager, managed-by,
// labels, owner reference and endpoints of a created slice.
func TestSyncServiceWrites(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{})
	svc := newService("svc", func(s *corev1.Service) { s.Labels = map[string]string{"team": "a"} })
	f.add(newNode("node-1", "zone-a"), svc, newPod(0, "svc", true), newPod(1, "svc", false))
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	w := f.writes()
	if len(w) != 1 {
		t.Fatalf("writes = %v, want one create", verbs(w))
	}
	ca := w[0].(k8stesting.CreateActionImpl)
	if ca.CreateOptions.FieldManager != self {
		t.Errorf("FieldManager = %q, want %q", ca.CreateOptions.FieldManager, self)
	}
	s := ca.Object.(*discovery.EndpointSlice)
	wantLabels := map[string]string{"team": "a", discovery.LabelServiceName: "svc", discovery.LabelManagedBy: self}
	if diff := cmp.Diff(wantLabels, s.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if len(s.OwnerReferences) != 1 || s.OwnerReferences[0].UID != svc.UID || !ptr.Deref(s.OwnerReferences[0].Controller, false) {
		t.Errorf("ownerReferences = %+v, want one controller reference to the Service", s.OwnerReferences)
	}
	var got []string
	for _, ep := range s.Endpoints {
		got = append(got, fmt.Sprintf("%s ready=%v zone=%s", ep.Addresses[0], *ep.Conditions.Ready, ptr.Deref(ep.Zone, "")))
	}
	want := []string{"10.0.0.1 ready=true zone=zone-a", "10.0.0.2 ready=false zone=zone-a"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("endpoints (-want +got):\n%s", diff)
	}
	if s.Annotations[corev1.EndpointsLastChangeTriggerTime] == "" {
		t.Errorf("missing trigger-time annotation on first sync (C25)")
	}
}

// TestSyncServiceStaleInformer is KCM's TestSyncServiceStaleInformer: a
// cache older than the tracker gives a stale error and no write.
func TestSyncServiceStaleInformer(t *testing.T) {
	tests := []struct {
		name                    string
		informerGen, trackerGen int64
		wantStale               bool
	}{
		{"informer cache outdated", 10, 12, true},
		{"cache and tracker synced", 10, 10, false},
		{"tracker outdated", 10, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newDropInFixture(t, dropInOptions{})
			f.add(newService("svc"))
			s := newSlice("svc-1", "svc", self)
			s.Generation = tc.informerGen
			f.add(s)
			tracked := s.DeepCopy()
			tracked.Generation = tc.trackerGen
			f.c.tracker.Update(tracked)
			err := f.sync(testNS, "svc")
			if reconciler.IsStaleInformerCache(err) != tc.wantStale {
				t.Fatalf("SyncService error = %v, want stale %v", err, tc.wantStale)
			}
			if tc.wantStale && len(f.writes()) != 0 {
				t.Errorf("writes on stale cache: %v", verbs(f.writes()))
			}
		})
	}
}

// TestSyncServiceDelegation covers KEP-4770 rules (a)1-(a)3, (a)6, (a)9,
// (a)12 and the hand-over clean-up (O1): writes, events and errors of one
// sync of a labelled Service.
func TestSyncServiceDelegation(t *testing.T) {
	gr := schema.GroupResource{Group: discovery.GroupName, Resource: "endpointslices"}
	tests := []struct {
		name       string
		gateOff    bool
		svc        *corev1.Service
		slices     []*discovery.EndpointSlice
		reactor    func(f *dropInFixture)
		wantVerbs  []string
		wantErr    bool
		wantEvents []string
		// wantLabel, when set, is the endpoint-controller-name label
		// value expected on a created slice.
		wantLabel *string
	}{
		{
			name:      "created labelled: no slice, no placeholder (a)3",
			svc:       newService("svc", labelled(custom)),
			wantVerbs: []string{},
		},
		{
			name:      "labelled with empty value: presence only (a)1",
			svc:       newService("svc", labelled("")),
			wantVerbs: []string{},
		},
		{
			name:      "labelled with own name: handled as unlabelled",
			svc:       newService("svc", labelled(self)),
			wantVerbs: []string{"create"},
			wantLabel: ptr.To(self),
		},
		{
			name:      "gate off: label ignored and copied (a)9",
			gateOff:   true,
			svc:       newService("svc", labelled(custom)),
			wantVerbs: []string{"create"},
			wantLabel: ptr.To(custom),
		},
		{
			name: "label added: own slices deleted, foreign and other services' untouched (a)4, (a)12",
			svc:  newService("svc", labelled(custom)),
			slices: []*discovery.EndpointSlice{
				newSlice("svc-a", "svc", self, "10.0.0.1"),
				newSlice("svc-b", "svc", self, "10.0.0.2"),
				newSlice("svc-custom", "svc", custom, "10.0.0.1"),
				newSlice("svc-mirror", "svc", "endpointslicemirroring-controller.k8s.io", "10.0.0.1"),
				newSlice("other-a", "other", self, "10.0.0.3"),
			},
			wantVerbs: []string{"delete svc-a", "delete svc-b"},
			wantEvents: []string{fmt.Sprintf("Normal %s Deleted 2 EndpointSlice(s) managed by %s: the Service is delegated to endpoint controller %q by label %s",
				ReasonHandedOver, self, custom, wellknown.LabelEndpointControllerName)},
		},
		{
			name: "labelled selector-less Service: own stale slices deleted (a)2",
			svc:  newService("svc", labelled(custom), func(s *corev1.Service) { s.Spec.Selector = nil }),
			slices: []*discovery.EndpointSlice{
				newSlice("svc-a", "svc", self, "10.0.0.1"),
			},
			wantVerbs:  []string{"delete svc-a"},
			wantEvents: []string{"Normal " + ReasonHandedOver},
		},
		{
			name: "labelled ExternalName Service: own slices deleted (a)2",
			svc:  newService("svc", labelled(custom), func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }),
			slices: []*discovery.EndpointSlice{
				newSlice("svc-a", "svc", self, "10.0.0.1"),
			},
			wantVerbs:  []string{"delete svc-a"},
			wantEvents: []string{"Normal " + ReasonHandedOver},
		},
		{
			name: "slice pending deletion is not deleted again",
			svc:  newService("svc", labelled(custom)),
			slices: []*discovery.EndpointSlice{func() *discovery.EndpointSlice {
				s := newSlice("svc-a", "svc", self, "10.0.0.1")
				s.DeletionTimestamp = ptr.To(metav1.Now())
				return s
			}()},
			wantVerbs: []string{},
		},
		{
			name:   "slice already gone: NotFound is success",
			svc:    newService("svc", labelled(custom)),
			slices: []*discovery.EndpointSlice{newSlice("svc-a", "svc", self, "10.0.0.1")},
			reactor: func(f *dropInFixture) {
				f.client.PrependReactor("delete", "endpointslices", func(k8stesting.Action) (bool, runtime.Object, error) {
					return true, nil, apierrors.NewNotFound(gr, "svc-a")
				})
			},
			wantVerbs: []string{"delete svc-a"},
		},
		{
			name:   "UID precondition fails: error, Warning event",
			svc:    newService("svc", labelled(custom)),
			slices: []*discovery.EndpointSlice{newSlice("svc-a", "svc", self, "10.0.0.1")},
			reactor: func(f *dropInFixture) {
				f.client.PrependReactor("delete", "endpointslices", func(k8stesting.Action) (bool, runtime.Object, error) {
					return true, nil, apierrors.NewConflict(gr, "svc-a", errors.New("precondition failed"))
				})
			},
			wantVerbs:  []string{"delete svc-a"},
			wantErr:    true,
			wantEvents: []string{"Warning " + ReasonFailedToUpdateEndpointSlices},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := dropInOptions{}
			if tc.gateOff {
				opts.ExternalEndpointController = ptr.To(false)
			}
			f := newDropInFixture(t, opts)
			f.add(newNode("node-1", "zone-a"), tc.svc, newPod(0, "svc", true))
			var objs []runtime.Object
			for _, s := range tc.slices {
				f.add(s)
				objs = append(objs, s)
			}
			mc := newMutationCheck(append(objs, tc.svc)...)
			if tc.reactor != nil {
				tc.reactor(f)
			}
			err := f.sync(testNS, "svc")
			if (err != nil) != tc.wantErr {
				t.Fatalf("SyncService error = %v, wantErr %v", err, tc.wantErr)
			}
			w := f.writes()
			if diff := cmp.Diff(tc.wantVerbs, verbs(w)); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			for _, a := range w {
				if d, ok := a.(k8stesting.DeleteActionImpl); ok {
					p := d.DeleteOptions.Preconditions
					if p == nil || p.UID == nil || string(*p.UID) != "uid-"+d.Name {
						t.Errorf("delete %s without UID precondition: %+v", d.Name, p)
					}
				}
				if c, ok := a.(k8stesting.CreateActionImpl); ok && tc.wantLabel != nil {
					s := c.Object.(*discovery.EndpointSlice)
					if got, ok := s.Labels[wellknown.LabelEndpointControllerName]; !ok || got != *tc.wantLabel {
						t.Errorf("created slice label %s = %q (present %v), want %q", wellknown.LabelEndpointControllerName, got, ok, *tc.wantLabel)
					}
				}
			}
			events := f.events()
			if len(events) != len(tc.wantEvents) {
				t.Fatalf("events = %q, want %q", events, tc.wantEvents)
			}
			for i := range events {
				if !strings.HasPrefix(events[i], tc.wantEvents[i]) {
					t.Errorf("event %d = %q, want prefix %q", i, events[i], tc.wantEvents[i])
				}
			}
			mc.check(t)
		})
	}
}

// TestDelegationLifecycle walks one Service through label add, value change
// and label removal (rules (a)4-(a)6), with the cache lagging behind the
// controller's own writes in between.
func TestDelegationLifecycle(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{})
	svc := newService("svc")
	f.add(newNode("node-1", "zone-a"), svc, newPod(0, "svc", true), newPod(1, "svc", true))
	foreign := newSlice("svc-custom", "svc", custom, "10.0.0.1")
	f.add(foreign)

	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if got := verbs(f.writes()); !slices.Equal(got, []string{"create"}) {
		t.Fatalf("initial sync writes = %v", got)
	}
	f.client.ClearActions()

	// Label added; the delete is not yet seen by the cache.
	f.setReflectWrites(false)
	labelledSvc := svc.DeepCopy()
	labelled(custom)(labelledSvc)
	if err := f.serviceStore.Update(labelledSvc); err != nil {
		t.Fatal(err)
	}
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	own := f.ownSlices(testNS, "svc")
	if got, want := verbs(f.writes()), []string{"delete " + own[0].Name}; !slices.Equal(got, want) {
		t.Fatalf("label added: writes = %v, want %v", got, want)
	}
	f.client.ClearActions()

	// Value changed A->B while the cache still shows the deleted slice:
	// stale, no write.
	relabelled := labelledSvc.DeepCopy()
	relabelled.Labels[wellknown.LabelEndpointControllerName] = "other.example.com"
	if err := f.serviceStore.Update(relabelled); err != nil {
		t.Fatal(err)
	}
	if err := f.sync(testNS, "svc"); !reconciler.IsStaleInformerCache(err) {
		t.Fatalf("value change with lagging cache: err = %v, want stale", err)
	}
	// The cache catches up; the value change does nothing more (a)6.
	if err := f.sliceStore.Delete(own[0]); err != nil {
		t.Fatal(err)
	}
	f.c.onEndpointSliceDelete(own[0])
	f.setReflectWrites(true)
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if got := verbs(f.writes()); len(got) != 0 {
		t.Fatalf("value change: writes = %v, want none", got)
	}

	// Label removed: slices come back with the current pods (a)5.
	if err := f.serviceStore.Update(svc); err != nil {
		t.Fatal(err)
	}
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	w := f.writes()
	if got := verbs(w); !slices.Equal(got, []string{"create"}) {
		t.Fatalf("label removed: writes = %v, want one create", got)
	}
	if n := len(w[0].(k8stesting.CreateActionImpl).Object.(*discovery.EndpointSlice).Endpoints); n != 2 {
		t.Errorf("label removed: created slice has %d endpoints, want 2", n)
	}
	if _, ok, _ := f.sliceStore.Get(foreign); !ok {
		t.Errorf("foreign slice disappeared")
	}
}

// TestHandedOverMetrics checks that a hand-over forgets the
// Service's metrics and counts the deletes in changes{operation="delete"}.
func TestHandedOverMetrics(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{})
	f.add(newNode("node-1", "zone-a"), newService("svc"), newPod(0, "svc", true))
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if got := f.metric("endpoint_slice_controller_endpoints_desired", nil); got != 1 {
		t.Fatalf("endpoints_desired = %v, want 1", got)
	}
	svc := newService("svc", labelled(custom))
	if err := f.serviceStore.Update(svc); err != nil {
		t.Fatal(err)
	}
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if got := f.metric("endpoint_slice_controller_endpoints_desired", nil); got != 0 {
		t.Errorf("endpoints_desired after hand-over = %v, want 0", got)
	}
	for op, want := range map[string]float64{"create": 1, "delete": 1} {
		if got := f.metric("endpoint_slice_controller_changes", map[string]string{"operation": op}); got != want {
			t.Errorf("changes{operation=%q} = %v, want %v", op, got, want)
		}
	}
}

// TestHandleErr checks the retry budget and the syncs{result} metric (KCM
// handleErr, C9, C13).
func TestHandleErr(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{})
	_, ctx := ktesting.NewTestContext(t)
	key := testNS + "/svc"
	f.c.serviceLoop.HandleResult(ctx, key, nil)
	f.c.serviceLoop.HandleResult(ctx, key, &reconciler.StaleInformerCacheError{OwnerKind: "Service", Owner: key})
	f.c.serviceLoop.HandleResult(ctx, key, errors.New("boom"))
	for result, want := range map[string]float64{"success": 1, "stale": 1, "error": 1} {
		if got := f.metric("endpoint_slice_controller_syncs", map[string]string{"result": result}); got != want {
			t.Errorf("syncs{result=%q} = %v, want %v", result, got, want)
		}
	}
	if got := f.c.serviceQueue.NumRequeues(key); got != 2 {
		t.Errorf("NumRequeues = %d, want 2", got)
	}
	for range controllerkit.MaxRetries - 2 {
		f.c.serviceLoop.HandleResult(ctx, key, errors.New("boom"))
	}
	if got := f.c.serviceQueue.NumRequeues(key); got != controllerkit.MaxRetries {
		t.Fatalf("NumRequeues = %d, want %d", got, controllerkit.MaxRetries)
	}
	f.c.serviceLoop.HandleResult(ctx, key, errors.New("boom"))
	if got := f.c.serviceQueue.NumRequeues(key); got != 0 {
		t.Errorf("NumRequeues after the retry budget = %d, want 0 (forgotten)", got)
	}
}

// TestSliceLeavesOurSet covers E17: a slice of ours whose managed-by value
// or service-name label is changed by someone else is no longer ours; the
// Service's next sync is not stale and recreates its endpoints.
func TestSliceLeavesOurSet(t *testing.T) {
	for _, change := range []string{"managed-by", "service-name"} {
		t.Run(change, func(t *testing.T) {
			f := newDropInFixture(t, dropInOptions{})
			f.add(newNode("node-1", "zone-a"), newService("svc"), newPod(0, "svc", true))
			if err := f.sync(testNS, "svc"); err != nil {
				t.Fatal(err)
			}
			own := f.ownSlices(testNS, "svc")[0]
			changed := own.DeepCopy()
			changed.Generation++
			if change == "managed-by" {
				changed.Labels[discovery.LabelManagedBy] = custom
			} else {
				changed.Labels[discovery.LabelServiceName] = "elsewhere"
			}
			if err := f.sliceStore.Update(changed); err != nil {
				t.Fatal(err)
			}
			logger, _ := ktesting.NewTestContext(t)
			f.c.onEndpointSliceUpdate(logger, own, changed)
			f.client.ClearActions()
			if err := f.sync(testNS, "svc"); err != nil {
				t.Fatalf("sync after the slice left: %v", err)
			}
			if got := verbs(f.writes()); !slices.Equal(got, []string{"create"}) {
				t.Errorf("writes = %v, want one create", got)
			}
		})
	}
}
