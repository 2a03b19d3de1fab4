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
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	rmetrics "github.com/slicekit/slicekit/pkg/reconciler/metrics"
)

// TestSelectorRemoval covers the fault class of kubernetes#118376 for the
// EndpointSlice controller (case 33): every way a Service stops selecting
// Pods (selector removed, ExternalName, selector removed while labelled
// with this controller's own name) deletes this controller's slices with
// the gate on (an EndpointSlicesRemoved event naming the reason, the
// metric), keeps them with it off (KCM), never touches another
// controller's; a Service labelled for another controller is a hand-over
// instead (EndpointSlicesHandedOver). When the Service selects Pods again
// (ExternalName and back) the slice is recreated.
func TestSelectorRemoval(t *testing.T) {
	ways := []struct {
		name       string
		mutate     func(*corev1.Service)
		wantReason string // in the event
		wantMetric string // reason label
	}{
		{"selector removed", func(s *corev1.Service) { s.Spec.Selector = nil }, "has no selector", "no-selector"},
		{"ExternalName", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }, "of type ExternalName", "external-name"},
		{"selector removed while labelled with the own name", func(s *corev1.Service) {
			s.Spec.Selector = nil
			labelled(self)(s)
		}, "has no selector", "no-selector"},
	}
	for _, way := range ways {
		for _, gateOn := range []bool{true, false} {
			t.Run(way.name+map[bool]string{true: "/gate on", false: "/gate off (KCM)"}[gateOn], func(t *testing.T) {
				f := newDropInFixture(t, dropInOptions{SelectorRemovalCleanup: ptr.To(gateOn)})
				f.add(newNode("node-1", "zone-a"), newService("svc", way.mutate), newPod(0, "svc", true),
					newSlice("svc-1", "svc", self, "10.0.0.1"), newSlice("svc-foreign", "svc", custom, "10.9.9.9"))
				if err := f.sync(testNS, "svc"); err != nil {
					t.Fatal(err)
				}
				want := []string{}
				if gateOn {
					want = []string{"delete svc-1"}
				}
				if d := cmp.Diff(want, verbs(f.writes())); d != "" {
					t.Errorf("writes (-want +got):\n%s", d)
				}
				ev := f.events()
				if gateOn {
					if len(ev) != 1 || !strings.HasPrefix(ev[0], "Normal "+ReasonEndpointSlicesRemoved) || !strings.Contains(ev[0], way.wantReason) {
						t.Errorf("events = %q", ev)
					}
					if got := f.metric(rmetrics.DefaultSubsystem+"_"+dropInSelectorRemovalMetric+"_total", map[string]string{"reason": way.wantMetric}); got != 1 {
						t.Errorf("removal metric{reason=%s} = %v, want 1", way.wantMetric, got)
					}
				} else if len(ev) != 0 {
					t.Errorf("events = %q, want none", ev)
				}
			})
		}
	}
}

// TestSelectorRemovalAndBack: ExternalName and back to a selector (kubernetes#103804):
// the slice is deleted, then written again for the selected Pods.
func TestSelectorRemovalAndBack(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{})
	f.setReflectWrites(true)
	f.add(newNode("node-1", "zone-a"), newService("svc"), newPod(0, "svc", true))
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.ownSlices(testNS, "svc")); n != 1 {
		t.Fatalf("%d slices, want 1", n)
	}
	f.add(newService("svc", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }))
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.ownSlices(testNS, "svc")); n != 0 {
		t.Fatalf("%d slices after ExternalName, want 0", n)
	}
	f.add(newService("svc"))
	if err := f.sync(testNS, "svc"); err != nil {
		t.Fatal(err)
	}
	if s := f.ownSlices(testNS, "svc"); len(s) != 1 || len(s[0].Endpoints) != 1 || s[0].Endpoints[0].Addresses[0] != "10.0.0.1" {
		t.Fatalf("after the selector came back: %+v", s)
	}
}
