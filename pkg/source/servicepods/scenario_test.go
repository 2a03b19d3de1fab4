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

package servicepods_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/test/harness/casefile"
)

var created = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func testService(mods ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc-a", Namespace: "ns-a", UID: "uid-svc-a", CreationTimestamp: metav1.NewTime(created)},
		Spec: corev1.ServiceSpec{
			ClusterIP: "10.96.0.10", IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector: map[string]string{"app": "a"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}},
		},
	}
	for _, m := range mods {
		m(s)
	}
	return s
}

func testPod(name, ip, nodeName string, readySince time.Time) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns-a", UID: types.UID("uid-" + name), Labels: map[string]string{"app": "a"}},
		Spec:       corev1.PodSpec{NodeName: nodeName},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			PodIPs:     []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(readySince)}},
		},
	}
}

func testNode(name, zone string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelTopologyZone: zone}}}
}

// harness runs the test controller of cases_test.go on a FakeBackend.
type harness struct {
	t    *testing.T
	ctx  context.Context
	b    *casefile.FakeBackend
	ctrl *controller
}

func newHarness(t *testing.T, objs ...runtime.Object) *harness {
	_, ctx := ktesting.NewTestContext(t)
	h := &harness{t: t, ctx: ctx}
	h.b = &casefile.FakeBackend{Sync: func(ctx context.Context, w *casefile.World, client kubernetes.Interface) error {
		if h.ctrl == nil {
			h.ctrl = newController(t, client)
		}
		return h.ctrl.syncAll(ctx, w, client)
	}}
	if err := h.b.Load(ctx, objs); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *harness) settle() error { return h.b.Settle(h.ctx) }

func (h *harness) mustSettle() {
	h.t.Helper()
	if err := h.settle(); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) slices() []discovery.EndpointSlice {
	h.t.Helper()
	s, err := h.b.Slices(h.ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

func (h *harness) patch(kind, name, patch string) {
	h.t.Helper()
	ns := "ns-a"
	if kind == "Node" {
		ns = ""
	}
	if err := h.b.Patch(h.ctx, &casefile.Patch{Ref: casefile.Ref{Kind: kind, Namespace: ns, Name: name}, Patch: []byte(patch)}); err != nil {
		h.t.Fatal(err)
	}
}

func addresses(s discovery.EndpointSlice) []string {
	var out []string
	for _, e := range s.Endpoints {
		out = append(out, e.Addresses...)
	}
	return out
}

// A pod on a missing Node is left out and the sync fails, but the other
// pods are written; once the Node exists the pod is added (C18, E14).
func TestMissingNodeIsRetried(t *testing.T) {
	h := newHarness(t, testService(), testNode("node-a", "zone-a"),
		testPod("p1", "10.0.0.1", "node-a", created), testPod("p2", "10.0.0.2", "node-b", created))
	err := h.settle()
	var spe *podendpoint.SkippedPodError
	if !errors.As(err, &spe) || spe.Pod != "p2" || spe.Node != "node-b" {
		t.Fatalf("settle: %v; want a SkippedPodError for p2 on node-b", err)
	}
	got := h.slices()
	if len(got) != 1 || strings.Join(addresses(got[0]), ",") != "10.0.0.1" {
		t.Fatalf("slices after the failed sync: %+v", got)
	}
	if err := h.b.World.Put(testNode("node-b", "zone-b")); err != nil {
		t.Fatal(err)
	}
	h.mustSettle()
	got = h.slices()
	if len(got) != 1 || len(got[0].Endpoints) != 2 {
		t.Fatalf("slices after the node appeared: %+v", got)
	}
	for _, e := range got[0].Endpoints {
		if e.TargetRef.Name == "p2" && (e.Zone == nil || *e.Zone != "zone-b") {
			t.Errorf("p2 endpoint: %+v", e)
		}
	}
}

// Changes of conditions update the endpoint in place, in the same slice;
// a new address replaces it (C21).
func TestEndpointIdentity(t *testing.T) {
	h := newHarness(t, testService(), testNode("node-a", "zone-a"),
		testPod("p1", "10.0.0.1", "node-a", created), testPod("p2", "10.0.0.2", "node-a", created))
	h.mustSettle()
	before := h.slices()
	if len(before) != 1 {
		t.Fatalf("slices: %+v", before)
	}
	h.b.Client.ClearActions()

	h.patch("Pod", "p1", `{"status":{"conditions":[{"type":"Ready","status":"False","lastTransitionTime":"2024-02-01T00:00:00Z"}]}}`)
	h.mustSettle()
	after := h.slices()
	if len(after) != 1 || after[0].Name != before[0].Name || after[0].Generation != before[0].Generation+1 {
		t.Fatalf("after a readiness change: %+v (before %s gen %d)", after, before[0].Name, before[0].Generation)
	}
	if w := memapi.CountSliceWrites(h.b.Client); w["update"] != 1 || len(w) != 1 {
		t.Errorf("writes for a readiness change: %v, want one update", w)
	}
	for _, e := range after[0].Endpoints {
		if e.TargetRef.Name == "p1" && *e.Conditions.Ready {
			t.Errorf("p1 still ready: %+v", e)
		}
	}
	if got := after[0].Annotations[corev1.EndpointsLastChangeTriggerTime]; got != "2024-02-01T00:00:00Z" {
		t.Errorf("trigger time %q, want the pod's Ready transition", got)
	}

	h.patch("Pod", "p2", `{"status":{"podIPs":[{"ip":"10.0.0.3"}]}}`)
	h.mustSettle()
	after = h.slices()
	if got := strings.Join(addresses(after[0]), ","); len(after) != 1 || after[0].Name != before[0].Name || got != "10.0.0.1,10.0.0.3" {
		t.Errorf("after an address change: %d slices, addresses %s", len(after), got)
	}
	// No pod change: the trigger time is zero and removed from written
	// slices; nothing is written here, so it stays.
	h.b.Client.ClearActions()
	h.mustSettle()
	if w := memapi.CountSliceWrites(h.b.Client); len(w) != 0 {
		t.Errorf("writes without a change: %v", w)
	}
}

// The first sync of a Service writes its creationTimestamp as trigger time
// (C25).
func TestTriggerTimeOnCreate(t *testing.T) {
	h := newHarness(t, testService(), testNode("node-a", "zone-a"), testPod("p1", "10.0.0.1", "node-a", created.Add(time.Hour)))
	h.mustSettle()
	got := h.slices()
	if len(got) != 1 || got[0].Annotations[corev1.EndpointsLastChangeTriggerTime] != "2024-01-01T00:00:00Z" {
		t.Errorf("slices: %+v", got)
	}
	if h.b.Passes != 2 {
		t.Errorf("passes: %d, want 2 (write, then idle)", h.b.Passes)
	}
}

// trafficDistribution gives ready endpoints zone hints (and node hints for
// PreferSameNode); topology mode Auto without a topology cache removes
// them (C34, C35).
func TestHintsEndToEnd(t *testing.T) {
	zones := func(s discovery.EndpointSlice) []string {
		var out []string
		for _, e := range s.Endpoints {
			h := "-"
			if e.Hints != nil {
				var parts []string
				for _, z := range e.Hints.ForZones {
					parts = append(parts, "z:"+z.Name)
				}
				for _, n := range e.Hints.ForNodes {
					parts = append(parts, "n:"+n.Name)
				}
				h = strings.Join(parts, "+")
			}
			out = append(out, e.TargetRef.Name+"="+h)
		}
		return out
	}
	notReady := testPod("p2", "10.0.0.2", "node-b", created)
	notReady.Status.Conditions[0].Status = corev1.ConditionFalse
	h := newHarness(t, testService(func(s *corev1.Service) {
		s.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferSameNode)
	}),
		testNode("node-a", "zone-a"), testNode("node-b", "zone-b"), testPod("p1", "10.0.0.1", "node-a", created), notReady)
	h.mustSettle()
	if got := strings.Join(zones(h.slices()[0]), " "); got != "p1=z:zone-a+n:node-a p2=-" {
		t.Errorf("PreferSameNode hints: %s", got)
	}

	h.patch("Service", "svc-a", `{"metadata":{"annotations":{"service.kubernetes.io/topology-mode":"Auto"}}}`)
	h.mustSettle()
	if got := strings.Join(zones(h.slices()[0]), " "); got != "p1=- p2=-" {
		t.Errorf("topology mode Auto without a topology cache: %s", got)
	}

	h.patch("Service", "svc-a", `{"metadata":{"annotations":null},"spec":{"trafficDistribution":"PreferClose"}}`)
	h.mustSettle()
	if got := strings.Join(zones(h.slices()[0]), " "); got != "p1=z:zone-a p2=-" {
		t.Errorf("PreferClose hints: %s", got)
	}
}
