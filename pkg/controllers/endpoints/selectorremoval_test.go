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
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestSelectorRemoval covers the fault class of kubernetes#118376 for the
// Endpoints controller: for every way a Service stops selecting Pods
// (selector removed, ExternalName, ExternalName and back, selector removed
// while labelled for this controller's own stack) the Endpoints object it
// wrote is deleted with the gate on and kept with it off (KCM), a
// hand-written one is never touched, and a Service that selects Pods again
// gets its Endpoints back.
func TestSelectorRemoval(t *testing.T) {
	ways := []struct {
		name   string
		mutate func(*corev1.Service)
		reason string
	}{
		{"selector removed", func(s *corev1.Service) { s.Spec.Selector = nil }, "no selector"},
		{"ExternalName", func(s *corev1.Service) {
			s.Spec.Type = corev1.ServiceTypeExternalName
			s.Spec.ExternalName = "x.example"
		}, "ExternalName"},
		{"selector removed while labelled for this stack", func(s *corev1.Service) {
			s.Spec.Selector = nil
			withLabel(wellknown.LabelEndpointControllerName, "stack.example.com")(s)
		}, "no selector"},
	}
	for _, way := range ways {
		for _, tc := range []struct {
			name     string
			gate     *bool
			ep       *corev1.Endpoints
			wantGone bool
		}{
			{"own Endpoints, gate on", nil, ownEndpoints("svc", "10.0.0.1"), true},
			{"own Endpoints, gate off (KCM)", ptr.To(false), ownEndpoints("svc", "10.0.0.1"), false},
			{"hand-written Endpoints, gate on", nil, customEndpoints("svc", "192.0.2.1"), false},
		} {
			t.Run(way.name+"/"+tc.name, func(t *testing.T) {
				f := newFixture(t, Options{SelectorRemovalCleanup: tc.gate, AcceptedControllerNames: []string{"stack.example.com"}},
					service("svc", way.mutate), pod("p1", true, "10.0.0.1"), tc.ep)
				f.mustSync("svc")
				gone := f.endpoints("svc") == nil
				if gone != tc.wantGone {
					t.Fatalf("Endpoints deleted = %v, want %v", gone, tc.wantGone)
				}
				ev := f.events()
				if tc.wantGone {
					if len(ev) != 1 || !strings.HasPrefix(ev[0], "Normal "+ReasonEndpointsRemoved) || !strings.Contains(ev[0], way.reason) || !strings.Contains(ev[0], "kubernetes#118376") {
						t.Errorf("events = %q, want one %s naming %q and the issue", ev, ReasonEndpointsRemoved, way.reason)
					}
				} else if len(ev) != 0 {
					t.Errorf("events = %q, want none", ev)
				}
				// ...and back: the Service selects Pods again.
				f.put(service("svc"))
				f.mustSync("svc")
				ep := f.endpoints("svc")
				if tc.ep.Labels == nil {
					return // a hand-written object is replaced only by a write of ours; not this test's point
				}
				if ep == nil || len(ep.Subsets) != 1 || ep.Subsets[0].Addresses[0].IP != "10.0.0.1" || ep.Labels[wellknown.LabelEndpointsManagedBy] != wellknown.EndpointsControllerName {
					t.Errorf("after the selector came back: %+v", ep)
				}
			})
		}
	}
}

// TestSelectorRemovalQueuesLeftover: an Endpoints object of this controller
// appearing for a selectorless Service is queued (with the gate on).
func TestSelectorRemovalQueuesLeftover(t *testing.T) {
	for _, gate := range []bool{true, false} {
		f := newFixture(t, Options{SelectorRemovalCleanup: ptr.To(gate)}, service("svc", func(s *corev1.Service) { s.Spec.Selector = nil }))
		f.c.onEndpointsAdd(ownEndpoints("svc", "10.0.0.1"))
		f.c.onEndpointsAdd(customEndpoints("svc", "10.0.0.1"))
		want := 0
		if gate {
			want = 1
		}
		if got := f.c.queue.Len(); got != want {
			t.Errorf("gate %v: %d queued, want %d", gate, got, want)
		}
	}
}
