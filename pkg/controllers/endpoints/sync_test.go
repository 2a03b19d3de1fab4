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

package endpoints

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

func TestSyncServiceCreatesEndpoints(t *testing.T) {
	f := newFixture(t, Options{}, service("svc", withLabel("app", "web")),
		pod("p1", true, "10.0.0.1"), pod("p2", false, "10.0.0.2"), pod("p3", true, "10.0.0.3"))
	f.mustSync("svc")
	ep := f.endpoints("svc")
	if ep == nil {
		t.Fatal("no Endpoints created")
	}
	want := []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{
			{IP: "10.0.0.1", NodeName: ptr.To("node-a"), TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "p1", UID: "uid-p1"}},
			{IP: "10.0.0.3", NodeName: ptr.To("node-a"), TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "p3", UID: "uid-p3"}},
		},
		NotReadyAddresses: []corev1.EndpointAddress{
			{IP: "10.0.0.2", NodeName: ptr.To("node-a"), TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "p2", UID: "uid-p2"}},
		},
		Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}},
	}}
	if diff := cmp.Diff(want, ep.Subsets); diff != "" {
		t.Errorf("subsets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"app": "web", wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}, ep.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if _, ok := ep.Annotations[corev1.EndpointsLastChangeTriggerTime]; !ok {
		t.Errorf("no trigger-time annotation: %v", ep.Annotations)
	}
	if w := f.writes(); !cmp.Equal(w, []string{"create"}) {
		t.Errorf("writes = %v", w)
	}
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("second sync wrote %v", w)
	}
}

func TestSyncServiceVariants(t *testing.T) {
	terminating := pod("pt", true, "10.0.0.9")
	terminating.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	tests := []struct {
		name      string
		svc       *corev1.Service
		pods      []*corev1.Pod
		wantReady []string
		wantNot   []string
		wantLabel map[string]string
		noObject  bool
	}{
		{name: "IPv6 first family picks the IPv6 address", svc: service("svc", func(s *corev1.Service) {
			s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol, corev1.IPv4Protocol}
		}), pods: []*corev1.Pod{pod("p1", true, "10.0.0.1", "fd00::1")}, wantReady: []string{"fd00::1"}},
		{name: "no families: ClusterIP family", svc: service("svc", func(s *corev1.Service) {
			s.Spec.IPFamilies = nil
			s.Spec.ClusterIP = "fd00:96::1"
		}), pods: []*corev1.Pod{pod("p1", true, "10.0.0.1", "fd00::1")}, wantReady: []string{"fd00::1"}},
		{name: "publishNotReadyAddresses: all ready, terminating included", svc: service("svc", func(s *corev1.Service) {
			s.Spec.PublishNotReadyAddresses = true
		}), pods: []*corev1.Pod{pod("p1", false, "10.0.0.1"), terminating}, wantReady: []string{"10.0.0.1", "10.0.0.9"}},
		{name: "terminating pod left out without publishNotReadyAddresses", svc: service("svc"),
			pods: []*corev1.Pod{pod("p1", true, "10.0.0.1"), terminating}, wantReady: []string{"10.0.0.1"}},
		{name: "headless without ports: port-less addresses and headless label", svc: service("svc", func(s *corev1.Service) {
			s.Spec.ClusterIP = corev1.ClusterIPNone
			s.Spec.Ports = nil
		}), pods: []*corev1.Pod{pod("p1", true, "10.0.0.1")}, wantReady: []string{"10.0.0.1"},
			wantLabel: map[string]string{corev1.IsHeadlessService: "", wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}},
		{name: "ExternalName: nothing", svc: service("svc", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }),
			pods: []*corev1.Pod{pod("p1", true, "10.0.0.1")}, noObject: true},
		{name: "selectorless: nothing", svc: service("svc", func(s *corev1.Service) { s.Spec.Selector = nil }),
			pods: []*corev1.Pod{pod("p1", true, "10.0.0.1")}, noObject: true},
		{name: "gate off: the KEP label is ignored and copied", svc: service("svc", withLabel(wellknown.LabelEndpointControllerName, "x")),
			pods: []*corev1.Pod{pod("p1", true, "10.0.0.1")}, wantReady: []string{"10.0.0.1"},
			wantLabel: map[string]string{wellknown.LabelEndpointControllerName: "x", wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}},
		{name: "accepted: label naming an accepted controller name", svc: service("svc", withLabel(wellknown.LabelEndpointControllerName, "slicekit")),
			pods: []*corev1.Pod{pod("p1", true, "10.0.0.1")}, wantReady: []string{"10.0.0.1"}},
		{name: "label naming this controller: not delegated", svc: service("svc", withLabel(wellknown.LabelEndpointControllerName, wellknown.EndpointsControllerName)),
			pods: []*corev1.Pod{pod("p1", true, "10.0.0.1")}, wantReady: []string{"10.0.0.1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs := []runtime.Object{tc.svc}
			for _, p := range tc.pods {
				objs = append(objs, p)
			}
			opts := Options{}
			if strings.HasPrefix(tc.name, "gate off") {
				opts.ExternalEndpointController = ptr.To(false)
			}
			if strings.HasPrefix(tc.name, "accepted") {
				opts.AcceptedControllerNames = []string{"slicekit"}
			}
			f := newFixture(t, opts, objs...)
			f.mustSync("svc")
			ep := f.endpoints("svc")
			if tc.noObject {
				if ep != nil {
					t.Fatalf("Endpoints written: %+v", ep.Subsets)
				}
				return
			}
			if ep == nil {
				t.Fatal("no Endpoints")
			}
			var ready, notReady []string
			for _, s := range ep.Subsets {
				for _, a := range s.Addresses {
					ready = append(ready, a.IP)
				}
				for _, a := range s.NotReadyAddresses {
					notReady = append(notReady, a.IP)
				}
			}
			if !cmp.Equal(ready, tc.wantReady) || !cmp.Equal(notReady, tc.wantNot) {
				t.Errorf("ready %v notReady %v, want %v %v", ready, notReady, tc.wantReady, tc.wantNot)
			}
			if tc.wantLabel != nil {
				if diff := cmp.Diff(tc.wantLabel, ep.Labels); diff != "" {
					t.Errorf("labels (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestSyncServiceTruncates covers truncation at 1000 with the over-capacity
// annotation, and E5: the no-op updates that follow (the computed subsets
// always differ from the truncated ones) return the same resourceVersion
// and must not make later syncs fail as stale.
func TestSyncServiceTruncates(t *testing.T) {
	objs := []runtime.Object{service("svc")}
	for i := 0; i < 1200; i++ {
		objs = append(objs, pod(fmt.Sprintf("p%04d", i), i%6 != 0, fmt.Sprintf("10.0.%d.%d", i/250, i%250+1)))
	}
	f := newFixture(t, Options{}, objs...)
	f.mustSync("svc")
	ep := f.endpoints("svc")
	ready, notReady := 0, 0
	for _, s := range ep.Subsets {
		ready += len(s.Addresses)
		notReady += len(s.NotReadyAddresses)
	}
	if ready != 1000 || notReady != 0 {
		t.Errorf("ready %d notReady %d, want 1000 and 0 (ready first)", ready, notReady)
	}
	if ep.Annotations[corev1.EndpointsOverCapacity] != OverCapacityTruncated {
		t.Errorf("annotations %v lack over-capacity=truncated", ep.Annotations)
	}
	// The next sync removes the trigger-time annotation (no new trigger
	// time); from then on every update is a no-op.
	f.mustSync("svc")
	rv := f.endpoints("svc").ResourceVersion
	f.writes()
	for i := 0; i < 3; i++ {
		if err := f.sync("svc"); err != nil {
			t.Fatalf("sync %d after truncation: %v (E5: a no-op update must not mark the cache stale)", i, err)
		}
	}
	if got := f.endpoints("svc").ResourceVersion; got != rv {
		t.Errorf("resourceVersion changed %s -> %s: the updates were not no-ops", rv, got)
	}
	if w := f.writes(); len(w) != 3 {
		t.Errorf("writes %v, want 3 no-op updates (KCM issues one per sync of a truncated object)", w)
	}

	// Below the capacity again: the annotation goes.
	for i := 0; i < 1200; i += 2 {
		if err := f.podStore.Delete(objs[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	f.mustSync("svc")
	if _, ok := f.endpoints("svc").Annotations[corev1.EndpointsOverCapacity]; ok {
		t.Errorf("over-capacity annotation kept below capacity")
	}
}

// TestSyncServiceStaleCache: after a real update the cache still holding
// the replaced version is stale.
func TestSyncServiceStaleCache(t *testing.T) {
	f := newFixture(t, Options{}, service("svc"), pod("p1", true, "10.0.0.1"))
	f.mustSync("svc")
	f.put(pod("p2", true, "10.0.0.2"))
	if err := f.c.SyncService(f.ctx, ns+"/svc"); err != nil { // updates, cache not refreshed
		t.Fatal(err)
	}
	f.put(pod("p3", true, "10.0.0.3"))
	if err := f.c.SyncService(f.ctx, ns+"/svc"); !errors.Is(err, ErrStaleInformerCache) {
		t.Fatalf("err = %v, want stale", err)
	} else if want := "endpoints informer cache is out of date, resource version "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %q, want KCM's message starting %q", err, want)
	}
	f.refresh()
	f.mustSync("svc")
}

// TestDeletion covers O3/E9: only Endpoints carrying this controller's
// managed-by label are deleted, when the Service is missing or delegated.
func TestDeletion(t *testing.T) {
	delegated := service("svc", withLabel(wellknown.LabelEndpointControllerName, "custom-ctrl.example.com"))
	tests := []struct {
		name      string
		objs      []runtime.Object
		wantGone  bool
		wantEvent string
	}{
		{"Service missing, own Endpoints: deleted", []runtime.Object{ownEndpoints("svc", "10.0.0.1")}, true, ""},
		{"Service missing, custom Endpoints: kept (E9)", []runtime.Object{customEndpoints("svc", "10.0.0.1")}, false, ""},
		{"delegated, own Endpoints: deleted", []runtime.Object{delegated, pod("p1", true, "10.0.0.1"), ownEndpoints("svc", "10.0.0.1")}, true,
			"Normal EndpointsHandedOver Deleted Endpoints managed by endpoint-controller"},
		{"delegated selectorless with custom Endpoints: kept (E9)", []runtime.Object{
			service("svc", withLabel(wellknown.LabelEndpointControllerName, "knative"), func(s *corev1.Service) { s.Spec.Selector = nil }),
			customEndpoints("svc", "10.0.0.1")}, false, ""},
		{"delegated with custom Endpoints of another manager: kept", []runtime.Object{delegated, pod("p1", true, "10.0.0.1"),
			func() *corev1.Endpoints {
				e := customEndpoints("svc", "10.0.1.1")
				e.Labels = map[string]string{wellknown.LabelEndpointsManagedBy: "custom"}
				return e
			}()}, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Options{}, tc.objs...)
			f.mustSync("svc")
			ep := f.endpoints("svc")
			if gone := ep == nil; gone != tc.wantGone {
				t.Errorf("Endpoints gone = %v, want %v", gone, tc.wantGone)
			}
			if w := f.writes(); !tc.wantGone && len(w) != 0 {
				t.Errorf("a kept Endpoints object was written: %v", w)
			}
			evs := f.events()
			if tc.wantEvent != "" && (len(evs) != 1 || !strings.HasPrefix(evs[0], tc.wantEvent)) {
				t.Errorf("events %q, want one starting with %q", evs, tc.wantEvent)
			}
		})
	}
}

// TestDelegationRoundTrip: label added → Endpoints deleted, nothing
// written for Pod churn; label removed → Endpoints back.
func TestDelegationRoundTrip(t *testing.T) {
	f := newFixture(t, Options{}, service("svc"), pod("p1", true, "10.0.0.1"))
	f.mustSync("svc")
	f.put(service("svc", withLabel(wellknown.LabelEndpointControllerName, "x")))
	f.mustSync("svc")
	if f.endpoints("svc") != nil {
		t.Fatal("Endpoints kept after the label was added")
	}
	f.writes()
	f.put(pod("p2", true, "10.0.0.2"))
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("delegated Service written: %v", w)
	}
	f.put(service("svc"))
	f.mustSync("svc")
	if ep := f.endpoints("svc"); ep == nil || len(ep.Subsets[0].Addresses) != 2 {
		t.Fatalf("Endpoints not back after the label was removed: %+v", ep)
	}
}

func TestOnEndpointsAdd(t *testing.T) {
	f := newFixture(t, Options{}, service("svc"), service("del", withLabel(wellknown.LabelEndpointControllerName, "x")))
	for _, tc := range []struct {
		ep   *corev1.Endpoints
		want bool
	}{
		{ownEndpoints("svc"), false},
		{ownEndpoints("gone"), true},
		{ownEndpoints("del"), true},
		{customEndpoints("gone"), false},
		{customEndpoints("del"), false},
	} {
		f.c.onEndpointsAdd(tc.ep)
		got := f.c.queue.Len() > 0
		for f.c.queue.Len() > 0 {
			k, _ := f.c.queue.Get()
			f.c.queue.Done(k)
		}
		if got != tc.want {
			t.Errorf("onEndpointsAdd(%s, labels %v) queued = %v, want %v", tc.ep.Name, tc.ep.Labels, got, tc.want)
		}
	}
}

func TestTruncateEndpoints(t *testing.T) {
	mk := func(ready, notReady int) corev1.EndpointSubset {
		s := corev1.EndpointSubset{}
		for i := 0; i < ready; i++ {
			s.Addresses = append(s.Addresses, corev1.EndpointAddress{IP: fmt.Sprintf("10.1.%d.%d", i/250, i%250)})
		}
		for i := 0; i < notReady; i++ {
			s.NotReadyAddresses = append(s.NotReadyAddresses, corev1.EndpointAddress{IP: fmt.Sprintf("10.2.%d.%d", i/250, i%250)})
		}
		return s
	}
	tests := []struct {
		name    string
		subsets []corev1.EndpointSubset
		want    [][2]int // per subset ready, notReady
		trunc   bool
	}{
		{"under capacity", []corev1.EndpointSubset{mk(500, 500)}, [][2]int{{500, 500}}, false},
		{"not-ready cut first", []corev1.EndpointSubset{mk(800, 300)}, [][2]int{{800, 200}}, true},
		{"ready over capacity: all not-ready go", []corev1.EndpointSubset{mk(1100, 50)}, [][2]int{{1000, 0}}, true},
		{"proportional over subsets", []corev1.EndpointSubset{mk(900, 0), mk(300, 0)}, [][2]int{{750, 0}, {250, 0}}, true},
		{"proportional not-ready", []corev1.EndpointSubset{mk(400, 400), mk(400, 400)}, [][2]int{{400, 100}, {400, 100}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ep := &corev1.Endpoints{Subsets: tc.subsets}
			if got := TruncateEndpoints(ep); got != tc.trunc {
				t.Errorf("TruncateEndpoints = %v, want %v", got, tc.trunc)
			}
			var got [][2]int
			for _, s := range ep.Subsets {
				got = append(got, [2]int{len(s.Addresses), len(s.NotReadyAddresses)})
			}
			if !cmp.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSyncServiceNoCacheMutation(t *testing.T) {
	f := newFixture(t, Options{}, service("svc", withLabel("a", "b")), pod("p1", true, "10.0.0.1"), pod("p2", false, "10.0.0.2"),
		ownEndpoints("svc", "10.0.0.9"))
	var objs, before []runtime.Object
	for _, st := range []cache.Store{f.serviceStore, f.podStore, f.endpointsStore} {
		for _, o := range st.List() {
			objs = append(objs, o.(runtime.Object))
			before = append(before, o.(runtime.Object).DeepCopyObject())
		}
	}
	if err := f.c.SyncService(f.ctx, ns+"/svc"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, objs); diff != "" {
		t.Errorf("cache objects modified (-before +after):\n%s", diff)
	}
}

func TestOptions(t *testing.T) {
	o, err := Options{}.complete()
	if err != nil || o.ConcurrentEndpointSyncs != 5 || !ptr.Deref(o.ExternalEndpointController, true) {
		t.Errorf("defaults %+v, %v", o, err)
	}
	for _, bad := range []Options{{ConcurrentEndpointSyncs: -1}, {EndpointUpdatesBatchPeriod: -time.Second}} {
		if _, err := bad.complete(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
