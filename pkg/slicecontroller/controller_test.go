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
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// addresses returns the addresses of the slices, "type:addr" sorted.
func addresses(slices []discovery.EndpointSlice) []string {
	var out []string
	for _, s := range slices {
		for _, e := range s.Endpoints {
			for _, a := range e.Addresses {
				out = append(out, string(s.AddressType)+":"+a)
			}
		}
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestSyncServiceLifecycle(t *testing.T) {
	f := newFixture(t, Options{},
		service("svc"),
		pod("p1", "svc", "10.1.0.1,fd00::1"),
		pod("p2", "svc", "10.1.0.2"),
		pod("other", "other", "10.1.0.3"),
	)

	f.mustSync("svc")
	got := f.slices("svc")
	if len(got) != 1 {
		t.Fatalf("want 1 slice, got %d: %+v", len(got), got)
	}
	s := got[0]
	wantLabels := map[string]string{
		wellknown.LabelEndpointControllerName: testName, "team": "x",
		discovery.LabelServiceName: "svc", discovery.LabelManagedBy: testName,
	}
	if diff := cmp.Diff(wantLabels, s.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if len(s.OwnerReferences) != 1 || s.OwnerReferences[0].UID != "uid-svc-svc" || !ptr.Deref(s.OwnerReferences[0].Controller, false) {
		t.Errorf("owner references: %+v", s.OwnerReferences)
	}
	if diff := cmp.Diff([]string{"IPv4:10.1.0.1", "IPv4:10.1.0.2"}, addresses(got)); diff != "" {
		t.Errorf("addresses (-want +got):\n%s", diff)
	}

	// Idempotent.
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("second sync wrote %v", w)
	}

	// A pod changes its addresses.
	f.add(pod("p2", "svc", "10.1.0.22", func(p *corev1.Pod) { p.ResourceVersion = "2" }))
	f.mustSync("svc")
	if diff := cmp.Diff([]string{"IPv4:10.1.0.1", "IPv4:10.1.0.22"}, addresses(f.slices("svc"))); diff != "" {
		t.Errorf("after change (-want +got):\n%s", diff)
	}

	// A slice of another controller for the same Service is never touched.
	foreign := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: "svc-kcm", Labels: map[string]string{
			discovery.LabelServiceName: "svc", discovery.LabelManagedBy: "endpointslice-controller.k8s.io"}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.0.0.1"}}},
	}
	f.add(foreign)
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("sync with a foreign slice wrote %v", w)
	}

	// Label changed to another controller: our slices go, the foreign one stays.
	f.events()
	f.add(service("svc", func(s *corev1.Service) { s.Labels[wellknown.LabelEndpointControllerName] = "someone-else" }))
	f.mustSync("svc")
	if diff := cmp.Diff([]string{"delete"}, f.writes()); diff != "" {
		t.Errorf("release writes (-want +got):\n%s", diff)
	}
	left := f.slices("svc")
	if len(left) != 1 || left[0].Name != "svc-kcm" {
		t.Errorf("after release: %+v", left)
	}
	if ev := f.events(); len(ev) != 1 || !strings.Contains(ev[0], "Normal "+ReasonEndpointSlicesReleased) || !strings.Contains(ev[0], `"someone-else"`) {
		t.Errorf("release events: %v", ev)
	}
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("sync of a released Service wrote %v", w)
	}

	// Label back: slices come back.
	f.add(service("svc"))
	f.mustSync("svc")
	if diff := cmp.Diff([]string{"IPv4:10.0.0.1", "IPv4:10.1.0.1", "IPv4:10.1.0.22"}, addresses(f.slices("svc"))); diff != "" {
		t.Errorf("after relabel, all slices of svc (-want +got):\n%s", diff)
	}

	// Label removed: slices go.
	f.add(service("svc", func(s *corev1.Service) { delete(s.Labels, wellknown.LabelEndpointControllerName) }))
	f.mustSync("svc")
	if left := f.slices("svc"); len(left) != 1 || left[0].Name != "svc-kcm" {
		t.Errorf("after label removal: %+v", left)
	}
	if ev := f.events(); len(ev) != 1 || !strings.Contains(ev[0], "was removed") {
		t.Errorf("release events: %v", ev)
	}

	// Service gone: nothing to do.
	if err := f.serviceStore.Delete(service("svc")); err != nil {
		t.Fatal(err)
	}
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("sync of a deleted Service wrote %v", w)
	}
}

func TestSyncServiceSkips(t *testing.T) {
	f := newFixture(t, Options{},
		service("unlabelled", func(s *corev1.Service) { s.Labels = nil }),
		service("external", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }),
		service("noselector", func(s *corev1.Service) { s.Spec.Selector = nil }),
		pod("p1", "unlabelled", "10.1.0.1"),
	)
	for _, name := range []string{"unlabelled", "external", "noselector", "missing"} {
		f.mustSync(name)
		if w := f.writes(); len(w) != 0 {
			t.Errorf("%s: wrote %v", name, w)
		}
	}
	if err := f.c.SyncService(f.ctx, "a/b/c"); err == nil {
		t.Error("bad key: want an error")
	}
}

func TestSyncServicePlaceholderAndProblems(t *testing.T) {
	f := newFixture(t, Options{}, service("svc"), pod("p1", "svc", "-"), pod("p2", "svc", "bogus"))
	f.mustSync("svc")
	got := f.slices("svc")
	if len(got) != 1 || len(got[0].Endpoints) != 0 {
		t.Fatalf("want one placeholder slice, got %+v", got)
	}
	ev := f.events()
	if len(ev) != 2 || !strings.Contains(ev[0], "Warning NoAddrs") || !strings.Contains(ev[0], "ns/p1") ||
		!strings.Contains(ev[1], "Warning "+source.ReasonInvalidAddress) || !strings.Contains(ev[1], "ns/p2") {
		t.Errorf("events: %v", ev)
	}
	labels := map[string]string{"controller": testName, "reason": "NoAddrs"}
	if v := f.metric(DefaultMetricsSubsystem+"_pod_problems", labels); v != 1 {
		t.Errorf("standing NoAddrs problems = %v, want 1", v)
	}
	if v := f.metric(DefaultMetricsSubsystem+"_pod_problems_total", labels); v != 1 {
		t.Errorf("total NoAddrs problems = %v, want 1", v)
	}
	if diff := cmp.Diff([]string{"NoAddrs", source.ReasonInvalidAddress}, problemReasons(f.c.Problems(testNS, "svc"))); diff != "" {
		t.Errorf("Problems (-want +got):\n%s", diff)
	}

	// Same problems: no new event, counters unchanged.
	f.mustSync("svc")
	if ev := f.events(); len(ev) != 0 {
		t.Errorf("repeated problems recorded events again: %v", ev)
	}
	if v := f.metric(DefaultMetricsSubsystem+"_pod_problems_total", labels); v != 1 {
		t.Errorf("total NoAddrs problems = %v, want 1", v)
	}

	// p1 fixed: its problem is resolved; the placeholder becomes the slice.
	f.add(pod("p1", "svc", "10.1.0.1"))
	f.mustSync("svc")
	if v := f.metric(DefaultMetricsSubsystem+"_pod_problems", labels); v != 0 {
		t.Errorf("standing NoAddrs problems = %v, want 0", v)
	}
	if diff := cmp.Diff([]string{"IPv4:10.1.0.1"}, addresses(f.slices("svc"))); diff != "" {
		t.Errorf("addresses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"update"}, f.writes()); diff != "" {
		t.Errorf("placeholder recycled (-want +got):\n%s", diff)
	}

	// p1 broken again: reported again.
	f.add(pod("p1", "svc", "-"))
	f.mustSync("svc")
	if ev := f.events(); len(ev) != 1 || !strings.Contains(ev[0], "NoAddrs") {
		t.Errorf("events: %v", ev)
	}
	if v := f.metric(DefaultMetricsSubsystem+"_pod_problems_total", labels); v != 2 {
		t.Errorf("total NoAddrs problems = %v, want 2", v)
	}

	// Released: problems forgotten.
	f.add(service("svc", func(s *corev1.Service) { s.Labels = nil }))
	f.mustSync("svc")
	if v := f.metric(DefaultMetricsSubsystem+"_pod_problems", labels); v != 0 {
		t.Errorf("standing problems after release = %v, want 0", v)
	}
	if p := f.c.Problems(testNS, "svc"); len(p) != 0 {
		t.Errorf("Problems after release: %v", p)
	}
}

func problemReasons(ps []source.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Reason)
	}
	return out
}

func TestSyncServiceStaleCache(t *testing.T) {
	f := newFixture(t, Options{}, service("svc"), pod("p1", "svc", "10.1.0.1"))
	f.mustSync("svc")
	// The cache forgets the slice we wrote: stale.
	if err := f.sliceIndexer.Replace(nil, ""); err != nil {
		t.Fatal(err)
	}
	err := f.c.SyncService(f.ctx, testNS+"/svc")
	if !reconciler.IsStaleInformerCache(err) {
		t.Errorf("SyncService = %v, want a stale informer cache error", err)
	}
}

func TestSyncServiceMissingNode(t *testing.T) {
	f := newFixture(t, Options{}, service("svc"),
		pod("p1", "svc", "10.1.0.1"), pod("p2", "svc", "10.1.0.2", func(p *corev1.Pod) { p.Spec.NodeName = "gone" }))
	err := f.sync("svc")
	if err == nil || !strings.Contains(err.Error(), "Node gone Not Found") {
		t.Errorf("SyncService = %v, want the missing Node", err)
	}
	if diff := cmp.Diff([]string{"IPv4:10.1.0.1"}, addresses(f.slices("svc"))); diff != "" {
		t.Errorf("the other pods are written anyway (-want +got):\n%s", diff)
	}
}

func TestManagedByAndMaxEndpoints(t *testing.T) {
	f := newFixture(t, Options{ManagedBy: "other-managed-by", Common: Common{MaxEndpointsPerSlice: 1}},
		service("svc"), pod("p1", "svc", "10.1.0.1"), pod("p2", "svc", "10.1.0.2"))
	f.mustSync("svc")
	got := f.slices("svc")
	if len(got) != 2 {
		t.Fatalf("want 2 slices of one endpoint, got %d", len(got))
	}
	for _, s := range got {
		if s.Labels[discovery.LabelManagedBy] != "other-managed-by" {
			t.Errorf("managed-by = %q", s.Labels[discovery.LabelManagedBy])
		}
	}
}

func TestHandlers(t *testing.T) {
	f := newFixture(t, Options{}, service("svc"), service("plain", func(s *corev1.Service) { s.Labels = nil }))
	q := f.c.serviceQueue

	f.c.onServiceEvent(nil, service("plain", func(s *corev1.Service) { s.Labels = nil }))
	if q.Len() != 0 {
		t.Errorf("unlabelled Service queued")
	}
	f.c.onServiceEvent(nil, service("svc"))
	if q.Len() != 1 {
		t.Errorf("labelled Service not queued")
	}
	drain(q)
	// Label removed: queued (old object is ours).
	f.c.onServiceEvent(service("svc"), service("svc", func(s *corev1.Service) { s.Labels = nil }))
	if q.Len() != 1 {
		t.Errorf("Service losing the label not queued")
	}
	drain(q)
	// Tombstone of a labelled Service.
	f.c.onServiceEvent(nil, cache.DeletedFinalStateUnknown{Key: testNS + "/svc", Obj: service("svc")})
	if q.Len() != 1 {
		t.Errorf("tombstone not queued")
	}
	drain(q)

	// Pod changes: KCM fields, or the source's PodChanged.
	p1 := pod("p1", "svc", "10.1.0.1")
	p1b := pod("p1", "svc", "10.1.0.9", func(p *corev1.Pod) { p.ResourceVersion = "2" })
	p1c := pod("p1", "svc", "10.1.0.9", func(p *corev1.Pod) { p.ResourceVersion = "3"; p.Spec.NodeName = "x" })
	f.c.onPodUpdate(p1, p1b)
	if f.c.podQueue.Len() != 1 {
		t.Errorf("annotation change not queued")
	}
	f.c.onPodUpdate(p1b, p1c)
	f.c.onPodUpdate(p1b, p1b)
	if f.c.podQueue.Len() != 1 {
		t.Errorf("irrelevant change or resync queued: %d", f.c.podQueue.Len())
	}
	key, _ := f.c.podQueue.Get()
	if err := f.c.syncPod(key); err != nil {
		t.Fatal(err)
	}
	f.c.podQueue.Done(key)
	if q.Len() != 1 {
		t.Errorf("pod change did not queue its Service")
	}
	drain(q)
	// A pod of an unlabelled Service queues nothing.
	f.c.onPodUpdate(nil, pod("p2", "plain", "10.1.0.2"))
	key, _ = f.c.podQueue.Get()
	_ = f.c.syncPod(key)
	f.c.podQueue.Done(key)
	if q.Len() != 0 {
		t.Errorf("pod of an unlabelled Service queued a Service")
	}

	// Slices: ours (not tracked) queue after 1s; foreign ones never.
	ours := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: "s1", UID: "u1",
		Labels: map[string]string{discovery.LabelServiceName: "svc", discovery.LabelManagedBy: testName}}}
	foreign := ours.DeepCopy()
	foreign.Labels[discovery.LabelManagedBy] = "endpointslice-controller.k8s.io"
	f.c.onEndpointSliceAdd(klog.Background(), foreign)
	f.c.onEndpointSliceUpdate(klog.FromContext(f.ctx), foreign, foreign)
	f.c.onEndpointSliceDelete(foreign)
	f.c.onEndpointSliceAdd(klog.Background(), ours)
	if q.Len() != 0 {
		t.Errorf("slice events queue with a delay, got %d now", q.Len())
	}
}

func drain(q interface {
	Len() int
	Get() (string, bool)
	Done(string)
}) {
	for q.Len() > 0 {
		k, _ := q.Get()
		q.Done(k)
	}
}

func TestSweepReleased(t *testing.T) {
	f := newFixture(t, Options{},
		service("released", func(s *corev1.Service) { s.Labels = nil }),
		service("ours"),
		&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: "a", Labels: map[string]string{
			discovery.LabelServiceName: "released", discovery.LabelManagedBy: testName}}, AddressType: discovery.AddressTypeIPv4},
		&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: "b", Labels: map[string]string{
			discovery.LabelServiceName: "ours", discovery.LabelManagedBy: testName}}, AddressType: discovery.AddressTypeIPv4},
		&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: "c", Labels: map[string]string{
			discovery.LabelServiceName: "released", discovery.LabelManagedBy: "someone"}}, AddressType: discovery.AddressTypeIPv4},
	)
	f.refresh()
	f.c.sweep(f.ctx)
	if f.c.serviceQueue.Len() != 1 {
		t.Fatalf("queued %d Services, want 1", f.c.serviceQueue.Len())
	}
	k, _ := f.c.serviceQueue.Get()
	f.c.serviceQueue.Done(k)
	if k != testNS+"/released" {
		t.Errorf("queued %s", k)
	}
	f.refresh()
	if err := f.c.SyncAll(f.ctx); err != nil {
		t.Fatal(err)
	}
	if left := f.slices("released"); len(left) != 1 || left[0].Name != "c" {
		t.Errorf("after SyncAll: %+v", left)
	}
	// "b" has no owner reference to the Service: replaced (KCM C23) by
	// the placeholder of a Service without Pods.
	if got := f.slices("ours"); len(got) != 1 || got[0].Name == "b" || len(got[0].OwnerReferences) != 1 || len(got[0].Endpoints) != 0 {
		t.Errorf("slices of ours after SyncAll: %+v", got)
	}
}

// managerController is the manager's Controller interface
// (pkg/manager registry.go).
type managerController interface {
	Run(ctx context.Context, workers int) error
	HasSynced() bool
	SyncAll(ctx context.Context) error
}

var _ managerController = (*Controller)(nil)

func TestNewErrors(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := memapi.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	for name, opts := range map[string]Options{
		"no name":        {Source: addrSource},
		"bad name":       {ControllerName: "not a label value!", Source: addrSource},
		"no source":      {ControllerName: testName},
		"bad max":        {ControllerName: testName, Source: addrSource, Common: Common{MaxEndpointsPerSlice: 1001}},
		"negative batch": {ControllerName: testName, Source: addrSource, Common: Common{BatchPeriod: -1}},
		"bad managed-by": {ControllerName: testName, Source: addrSource, ManagedBy: "a b"},
	} {
		if _, err := New(ctx, client, factory, opts); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	if _, err := New(ctx, nil, factory, Options{ControllerName: testName, Source: addrSource}); err == nil {
		t.Error("nil client: want an error")
	}
	if _, err := New(ctx, client, nil, Options{ControllerName: testName, Source: addrSource}); err == nil {
		t.Error("nil factory: want an error")
	}

	// Several controllers share one registry; the same name twice fails.
	reg := prometheus.NewRegistry()
	for _, n := range []string{"a.example.com", "b.example.com"} {
		if _, err := New(ctx, client, factory, Options{ControllerName: n, Source: addrSource, Common: Common{Registerer: reg}}); err != nil {
			t.Fatalf("New(%s): %v", n, err)
		}
	}
	if _, err := New(ctx, client, factory, Options{ControllerName: "a.example.com", Source: addrSource, Common: Common{Registerer: reg}}); err == nil {
		t.Error("same name twice on one registry: want an error")
	}
}

func TestRunRequiresWorkers(t *testing.T) {
	f := newFixture(t, Options{})
	if err := f.c.Run(context.Background(), 0); err == nil {
		t.Error("Run(0): want an error")
	}
	ctx, cancel := context.WithCancel(f.ctx)
	cancel()
	if err := f.c.Run(ctx, 1); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a done context before sync = %v, want context.Canceled", err)
	}
}
