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
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// leftover is an Endpoints object as the Endpoints controller writes it.
func leftover(name string, ips ...string) *corev1.Endpoints {
	ep := endpointsObj(name, subset(ips, nil, httpPort()))
	ep.Labels = map[string]string{"endpoints.kubernetes.io/managed-by": "endpoint-controller"}
	return ep
}

// leftover132 is an Endpoints object as the Endpoints controller of
// kube-controller-manager 1.32 and older writes it: no managed-by label,
// its managedFields entry owning the subsets.
func leftover132(name string, ips ...string) *corev1.Endpoints {
	ep := endpointsObj(name, subset(ips, nil, httpPort()))
	ep.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
		APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:annotations":{}},"f:subsets":{}}`)}}
	return ep
}

// TestSelectorRemovalLeftover covers the mirroring part of the fault class
// of kubernetes#118376 (case 34): on a Service without selector, an
// Endpoints object carrying the Endpoints controller's managed-by label is
// not mirrored with the gate on, and its mirrored slices (written before,
// or by KCM's mirroring controller) are deleted with an
// EndpointSlicesRemoved event and the metric; with the gate off it is
// mirrored as KCM does; hand-written Endpoints are mirrored either way.
func TestSelectorRemovalLeftover(t *testing.T) {
	for _, tc := range []struct {
		name         string
		gate         *bool
		ep           *corev1.Endpoints
		existing     bool
		wantMirrored bool
		wantEvent    bool
	}{
		{name: "leftover, gate on: not mirrored", ep: leftover("svc", "10.0.0.1"), wantMirrored: false},
		{name: "leftover already mirrored, gate on: mirror deleted", ep: leftover("svc", "10.0.0.1"), existing: true, wantMirrored: false, wantEvent: true},
		{name: "leftover, gate off (KCM): mirrored", gate: ptr.To(false), ep: leftover("svc", "10.0.0.1"), wantMirrored: true},
		{name: "KCM 1.32's unlabelled leftover (managedFields), gate on: not mirrored", ep: leftover132("svc", "10.0.0.1"), wantMirrored: false},
		{name: "KCM 1.32's leftover already mirrored, gate on: mirror deleted", ep: leftover132("svc", "10.0.0.1"), existing: true, wantMirrored: false, wantEvent: true},
		{name: "hand-written, gate on: mirrored", ep: endpointsObj("svc", subset([]string{"192.0.2.1"}, nil, httpPort())), wantMirrored: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs := []runtime.Object{service("svc"), tc.ep}
			if tc.existing {
				objs = append(objs, mirroredSlice("svc-m1", tc.ep, wellknown.MirroringControllerName, "10.0.0.1"))
			}
			f := newFixture(t, Options{SelectorRemovalCleanup: tc.gate}, objs...)
			f.mustSync("svc")
			if got := len(f.mirrored("svc")) > 0; got != tc.wantMirrored {
				t.Fatalf("mirrored = %v, want %v (slices %+v)", got, tc.wantMirrored, f.mirrored("svc"))
			}
			ev := f.events()
			gotEvent := len(ev) == 1 && strings.HasPrefix(ev[0], "Normal "+ReasonEndpointSlicesRemoved) && strings.Contains(ev[0], "kubernetes#118376")
			if gotEvent != tc.wantEvent {
				t.Errorf("events = %q, want an EndpointSlicesRemoved event: %v", ev, tc.wantEvent)
			}
			if tc.wantEvent {
				mfs, err := f.reg.Gather()
				if err != nil {
					t.Fatal(err)
				}
				var got float64
				for _, mf := range mfs {
					if mf.GetName() == MetricsSubsystem+"_"+SelectorRemovalMetricName+"_total" {
						for _, m := range mf.GetMetric() {
							got += m.GetCounter().GetValue()
						}
					}
				}
				if got != 1 {
					t.Errorf("removal metric = %v, want 1", got)
				}
			}
		})
	}
}
