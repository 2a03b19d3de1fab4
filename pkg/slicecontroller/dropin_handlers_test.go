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
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"
)

// TestOnServiceEvents: every Service event queues the key at once (C5).
func TestOnServiceEvents(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{BatchPeriod: 5 * time.Second})
	q := f.spyServiceQueue()
	svc := newService("svc")
	f.c.onServiceEvent(nil, svc)
	f.c.onServiceEvent(nil, cache.DeletedFinalStateUnknown{Key: "ns/svc2", Obj: newService("svc2")})
	want := []queued{{key: "ns/svc"}, {key: "ns/svc2"}}
	if diff := cmp.Diff(want, q.take(), cmp.AllowUnexported(queued{})); diff != "" {
		t.Errorf("queued (-want +got):\n%s", diff)
	}
}

// TestPodTriggers covers C6 and KEP-4770 rule (a)7: which Services a Pod
// event queues, after the batch period.
func TestPodTriggers(t *testing.T) {
	withLabels := func(p *corev1.Pod, rv string, labels map[string]string) *corev1.Pod {
		p = p.DeepCopy()
		p.ResourceVersion = rv
		p.Labels = labels
		return p
	}
	pod := newPod(0, "a", true)
	notReady := newPod(0, "a", false)
	notReady.ResourceVersion = "2"
	annotated := pod.DeepCopy()
	annotated.ResourceVersion = "2"
	annotated.Annotations = map[string]string{"x": "y"}
	newIP := pod.DeepCopy()
	newIP.ResourceVersion = "2"
	newIP.Status.PodIPs = []corev1.PodIP{{IP: "10.1.1.1"}}

	services := []*corev1.Service{
		newService("a"),
		newService("b", func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "b"} }),
		newService("a-delegated", labelled(custom), func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "a"} }),
		newService("a-self", labelled(self), func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "a"} }),
		newService("a-noselector", func(s *corev1.Service) { s.Spec.Selector = nil }),
	}
	tests := []struct {
		name     string
		gateOff  bool
		old, cur any
		want     []string
	}{
		{name: "add queues matching, skips delegated", cur: pod, want: []string{"ns/a", "ns/a-self"}},
		{name: "add, gate off: delegated label ignored", gateOff: true, cur: pod, want: []string{"ns/a", "ns/a-delegated", "ns/a-self"}},
		{name: "delete", old: pod, want: []string{"ns/a", "ns/a-self"}},
		{name: "delete tombstone", old: cache.DeletedFinalStateUnknown{Key: "ns/pod0", Obj: pod}, want: []string{"ns/a", "ns/a-self"}},
		{name: "resync (same resourceVersion): nothing", old: pod, cur: pod, want: nil},
		{name: "irrelevant change: nothing", old: pod, cur: annotated, want: nil},
		{name: "readiness change", old: pod, cur: notReady, want: []string{"ns/a", "ns/a-self"}},
		{name: "IP change", old: pod, cur: newIP, want: []string{"ns/a", "ns/a-self"}},
		{name: "label change a->b: symmetric difference", old: pod, cur: withLabels(pod, "2", map[string]string{"app": "b"}),
			want: []string{"ns/a", "ns/a-self", "ns/b"}},
		{name: "label change within same services: nothing", old: pod, cur: withLabels(pod, "2", map[string]string{"app": "a", "v": "2"}), want: nil},
		{name: "label and readiness change: union", old: pod, cur: withLabels(notReady, "2", map[string]string{"app": "a", "v": "2"}),
			want: []string{"ns/a", "ns/a-self"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := dropInOptions{BatchPeriod: 3 * time.Second}
			if tc.gateOff {
				opts.ExternalEndpointController = ptr.To(false)
			}
			f := newDropInFixture(t, opts)
			for _, s := range services {
				f.add(s)
			}
			q := f.spyServiceQueue()
			f.c.onPodUpdate(tc.old, tc.cur)
			for f.c.podQueue.Len() > 0 {
				key, _ := f.c.podQueue.Get()
				if err := f.c.syncPod(key); err != nil {
					t.Fatal(err)
				}
				f.c.podQueue.Done(key)
			}
			var got []string
			for _, c := range q.take() {
				if c.delay != opts.BatchPeriod {
					t.Errorf("%s queued after %s, want the batch period %s", c.key, c.delay, opts.BatchPeriod)
				}
				got = append(got, c.key)
			}
			sort.Strings(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("queued Services (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEndpointSliceTriggers covers C7: which slice events queue the Service,
// and after which delay.
func TestEndpointSliceTriggers(t *testing.T) {
	own := newSlice("svc-1", "svc", self, "10.0.0.1")
	bumped := own.DeepCopy()
	bumped.Generation = 2
	foreign := newSlice("svc-c", "svc", custom, "10.0.0.1")
	toForeign := own.DeepCopy()
	toForeign.Labels[discovery.LabelManagedBy] = custom
	renamed := own.DeepCopy()
	renamed.Labels[discovery.LabelServiceName] = "svc2"

	tests := []struct {
		name    string
		batch   time.Duration
		tracked *discovery.EndpointSlice // recorded in the tracker first
		expect  bool                     // tracked as expected deletion
		event   func(c *Controller, testLogger klog.Logger)
		want    []queued
	}{
		{name: "add own untracked", event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceAdd(testLogger, own) }, want: []queued{{"ns/svc", time.Second}}},
		{name: "add own, batch period larger", batch: 5 * time.Second, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceAdd(testLogger, own) }, want: []queued{{"ns/svc", 5 * time.Second}}},
		{name: "add own echo of our write", tracked: own, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceAdd(testLogger, own) }},
		{name: "add foreign", event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceAdd(testLogger, foreign) }},
		{name: "update own, newer generation", tracked: own, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceUpdate(testLogger, own, bumped) }, want: []queued{{"ns/svc", time.Second}}},
		{name: "update own, echo", tracked: bumped, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceUpdate(testLogger, own, bumped) }},
		{name: "update foreign", event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceUpdate(testLogger, foreign, foreign) }},
		{name: "managed-by changed away (E17)", tracked: own, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceUpdate(testLogger, own, toForeign) }, want: []queued{{"ns/svc", time.Second}}},
		{name: "managed-by changed to us (E17)", event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceUpdate(testLogger, toForeign, own) }, want: []queued{{"ns/svc", time.Second}}},
		{name: "service-name changed: both", tracked: own, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceUpdate(testLogger, own, renamed) },
			want: []queued{{"ns/svc2", time.Second}, {"ns/svc", time.Second}}},
		{name: "delete own, unexpected", tracked: own, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceDelete(own) }, want: []queued{{"ns/svc", time.Second}}},
		{name: "delete own, tombstone", tracked: own, event: func(c *Controller, testLogger klog.Logger) {
			c.onEndpointSliceDelete(cache.DeletedFinalStateUnknown{Key: "ns/svc-1", Obj: own})
		}, want: []queued{{"ns/svc", time.Second}}},
		{name: "delete own, expected", tracked: own, expect: true, event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceDelete(own) }},
		{name: "delete own, untracked", event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceDelete(own) }},
		{name: "delete foreign", event: func(c *Controller, testLogger klog.Logger) { c.onEndpointSliceDelete(foreign) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newDropInFixture(t, dropInOptions{BatchPeriod: tc.batch})
			q := f.spyServiceQueue()
			if tc.tracked != nil {
				if tc.expect {
					f.c.tracker.ExpectDeletion(tc.tracked)
				} else {
					f.c.tracker.Update(tc.tracked)
				}
			}
			logger, _ := ktesting.NewTestContext(t)
			tc.event(f.c, logger)
			if diff := cmp.Diff(tc.want, q.take(), cmp.AllowUnexported(queued{})); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNodeTriggers covers C8: Node readiness and zone changes refresh the
// topology cache; other Node updates do not.
func TestNodeTriggers(t *testing.T) {
	ready := func(n *corev1.Node, s corev1.ConditionStatus) *corev1.Node {
		n = n.DeepCopy()
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: s, LastHeartbeatTime: metav1.Now()}}
		return n
	}
	base := ready(newNode("n1", "zone-a"), corev1.ConditionTrue)
	tests := []struct {
		name     string
		old, cur *corev1.Node
		want     int
	}{
		{"heartbeat only", base, ready(newNode("n1", "zone-a"), corev1.ConditionTrue), 0},
		{"became not ready", base, ready(newNode("n1", "zone-a"), corev1.ConditionFalse), 1},
		{"zone changed", base, ready(newNode("n1", "zone-b"), corev1.ConditionTrue), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newDropInFixture(t, dropInOptions{})
			f.c.onNodeUpdate(tc.old, tc.cur)
			if got := f.c.topologyQueue.Len(); got != tc.want {
				t.Errorf("topology queue length = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestCheckNodeTopologyDistributionAfterHandOver: a delegated Service has no hints in
// the topology cache after hand-over, so Node churn cannot queue it.
func TestCheckNodeTopologyDistributionAfterHandOver(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{})
	zoneNode := func(name, zone string) *corev1.Node {
		n := newNode(name, zone)
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
		n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: mustQuantity("4")}
		return n
	}
	f.add(zoneNode("node-1", "zone-a"), zoneNode("node-2", "zone-b"))
	_, ctx := ktesting.NewTestContext(t)
	f.c.checkNodeTopologyDistribution(ctx)
	svc := newService("svc", func(s *corev1.Service) { s.Annotations = map[string]string{corev1.AnnotationTopologyMode: "Auto"} })
	f.add(svc)
	for i := range 4 {
		p := newPod(i, "svc", true)
		p.Spec.NodeName = "node-1"
		f.add(p)
	}
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if !f.c.topologyCache.HasPopulatedHints("ns/svc") {
		t.Fatalf("expected hints for ns/svc")
	}
	del := svc.DeepCopy()
	labelled(custom)(del)
	if err := f.serviceStore.Update(del); err != nil {
		t.Fatal(err)
	}
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if f.c.topologyCache.HasPopulatedHints("ns/svc") {
		t.Errorf("hints of a delegated Service still in the topology cache")
	}
	q := f.spyServiceQueue()
	f.c.checkNodeTopologyDistribution(ctx)
	if got := q.take(); len(got) != 0 {
		t.Errorf("node churn queued %v", got)
	}
}

// TestSweepDelegated: the start-up sweep queues the delegated Services that
// still have slices of this controller, and nothing else (E8, (a)11).
func TestSweepDelegated(t *testing.T) {
	for _, gateOff := range []bool{false, true} {
		f := newDropInFixture(t, dropInOptions{ExternalEndpointController: ptr.To(!gateOff)})
		f.add(
			newService("plain"), newSlice("plain-1", "plain", self),
			newService("deleg", labelled(custom)), newSlice("deleg-1", "deleg", self), newSlice("deleg-2", "deleg", self),
			newService("deleg-custom-only", labelled(custom)), newSlice("dco-1", "deleg-custom-only", custom),
			newService("own-name", labelled(self)), newSlice("own-1", "own-name", self),
			newSlice("orphan-1", "orphan", self),
		)
		q := f.spyServiceQueue()
		_, ctx := ktesting.NewTestContext(t)
		f.c.sweep(ctx)
		var want []queued
		if !gateOff {
			want = []queued{{key: "ns/deleg"}}
		}
		if diff := cmp.Diff(want, q.take(), cmp.AllowUnexported(queued{})); diff != "" {
			t.Errorf("gate off %v: queued (-want +got):\n%s", gateOff, diff)
		}
	}
}
