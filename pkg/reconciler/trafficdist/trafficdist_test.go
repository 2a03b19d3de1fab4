// Copyright 2024 The Kubernetes Authors.
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
//
// Modified for slicekit: ported from k8s.io/endpointslice@v0.37.2
// trafficdist/trafficdist_test.go.

package trafficdist

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/utils/ptr"
)

func TestReconcileHints(t *testing.T) {
	testCases := []struct {
		name string

		trafficDistribution *string
		slicesToCreate      []*discovery.EndpointSlice
		slicesToUpdate      []*discovery.EndpointSlice
		slicesUnchanged     []*discovery.EndpointSlice

		wantSlicesToCreate  []*discovery.EndpointSlice
		wantSlicesToUpdate  []*discovery.EndpointSlice
		wantSlicesUnchanged []*discovery.EndpointSlice
	}{
		{
			name: "should set zone hints with PreferClose",

			trafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferClose),
			slicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").ep(),
					readyEP("10.0.0.2", "zone-b", "node-2").ep(),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").ep(),
					readyEP("10.0.0.4", "zone-b", "node-4").ep(),
				),
			},
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").ep(),
					readyEP("10.0.0.6", "zone-a", "node-6").ep(),
				),
				slice(
					readyEP("10.0.0.7", "zone-b", "node-7").ep(),
					readyEP("10.0.0.8", "zone-c", "node-8").ep(),
				),
			},
			wantSlicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").forZone("zone-a"),
					readyEP("10.0.0.2", "zone-b", "node-2").forZone("zone-b"),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").forZone("zone-a"),
					readyEP("10.0.0.4", "zone-b", "node-4").forZone("zone-b"),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").forZone("zone-a"),
					readyEP("10.0.0.6", "zone-a", "node-6").forZone("zone-a"),
				),
				slice(
					readyEP("10.0.0.7", "zone-b", "node-7").forZone("zone-b"),
					readyEP("10.0.0.8", "zone-c", "node-8").forZone("zone-c"),
				),
			},
		},
		{
			name: "should set zone hints with PreferSameZone",

			trafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferSameZone),
			slicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").ep(),
					readyEP("10.0.0.2", "zone-b", "node-2").ep(),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").ep(),
					readyEP("10.0.0.4", "zone-b", "node-4").ep(),
				),
			},
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").ep(),
					readyEP("10.0.0.6", "zone-a", "node-6").ep(),
				),
				slice(
					readyEP("10.0.0.7", "zone-b", "node-7").ep(),
					readyEP("10.0.0.8", "zone-c", "node-8").ep(),
				),
			},
			wantSlicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").forZone("zone-a"),
					readyEP("10.0.0.2", "zone-b", "node-2").forZone("zone-b"),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").forZone("zone-a"),
					readyEP("10.0.0.4", "zone-b", "node-4").forZone("zone-b"),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").forZone("zone-a"),
					readyEP("10.0.0.6", "zone-a", "node-6").forZone("zone-a"),
				),
				slice(
					readyEP("10.0.0.7", "zone-b", "node-7").forZone("zone-b"),
					readyEP("10.0.0.8", "zone-c", "node-8").forZone("zone-c"),
				),
			},
		},
		{
			name: "should set zone and node hints with PreferSameNode",

			trafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferSameNode),
			slicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").ep(),
					readyEP("10.0.0.2", "zone-b", "node-2").ep(),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").ep(),
					readyEP("10.0.0.4", "zone-b", "node-4").ep(),
				),
			},
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").ep(),
					readyEP("10.0.0.6", "zone-a", "node-6").ep(),
				),
				slice(
					readyEP("10.0.0.7", "zone-b", "node-7").ep(),
					readyEP("10.0.0.8", "zone-c", "node-8").ep(),
				),
			},
			wantSlicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").forZoneAndNode("zone-a", "node-1"),
					readyEP("10.0.0.2", "zone-b", "node-2").forZoneAndNode("zone-b", "node-2"),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").forZoneAndNode("zone-a", "node-3"),
					readyEP("10.0.0.4", "zone-b", "node-4").forZoneAndNode("zone-b", "node-4"),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").forZoneAndNode("zone-a", "node-5"),
					readyEP("10.0.0.6", "zone-a", "node-6").forZoneAndNode("zone-a", "node-6"),
				),
				slice(
					readyEP("10.0.0.7", "zone-b", "node-7").forZoneAndNode("zone-b", "node-7"),
					readyEP("10.0.0.8", "zone-c", "node-8").forZoneAndNode("zone-c", "node-8"),
				),
			},
		},
		{
			name: "should correct incorrect hints with PreferClose",

			trafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferClose),
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").forZone("zone-b"), // incorrect hint as per new heuristic
				),
			},
			slicesUnchanged: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.2", "zone-b", "node-2").forZone("zone-c"),
				),
				slice(
					readyEP("10.0.0.3", "zone-c", "node-3").ep(),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").forZone("zone-a"),
				),
				slice(
					readyEP("10.0.0.2", "zone-b", "node-2").forZone("zone-b"),
				),
				slice(
					readyEP("10.0.0.3", "zone-c", "node-3").forZone("zone-c"),
				),
			},
		},
		{
			name: "should not create hints with PreferClose if there are no zones",

			trafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferClose),
			slicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "", "node-1").ep(),
					readyEP("10.0.0.2", "", "node-2").ep(),
				),
				slice(
					readyEP("10.0.0.3", "", "node-3").ep(),
					readyEP("10.0.0.4", "", "node-4").ep(),
				),
			},
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "", "node-5").ep(),
					readyEP("10.0.0.6", "", "node-6").ep(),
				),
				slice(
					readyEP("10.0.0.7", "", "node-7").ep(),
					readyEP("10.0.0.8", "", "node-8").ep(),
				),
			},
			wantSlicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "", "node-1").ep(),
					readyEP("10.0.0.2", "", "node-2").ep(),
				),
				slice(
					readyEP("10.0.0.3", "", "node-3").ep(),
					readyEP("10.0.0.4", "", "node-4").ep(),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "", "node-5").ep(),
					readyEP("10.0.0.6", "", "node-6").ep(),
				),
				slice(
					readyEP("10.0.0.7", "", "node-7").ep(),
					readyEP("10.0.0.8", "", "node-8").ep(),
				),
			},
		},
		{
			name: "should create only node hints with PreferSameNode if there are no zones",

			trafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferSameNode),
			slicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "", "node-1").ep(),
					readyEP("10.0.0.2", "", "node-2").ep(),
				),
				slice(
					readyEP("10.0.0.3", "", "node-3").ep(),
					readyEP("10.0.0.4", "", "node-4").ep(),
				),
			},
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "", "node-5").ep(),
					readyEP("10.0.0.6", "", "node-6").ep(),
				),
				slice(
					readyEP("10.0.0.7", "", "node-7").ep(),
					readyEP("10.0.0.8", "", "node-8").ep(),
				),
			},
			wantSlicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "", "node-1").forNode("node-1"),
					readyEP("10.0.0.2", "", "node-2").forNode("node-2"),
				),
				slice(
					readyEP("10.0.0.3", "", "node-3").forNode("node-3"),
					readyEP("10.0.0.4", "", "node-4").forNode("node-4"),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "", "node-5").forNode("node-5"),
					readyEP("10.0.0.6", "", "node-6").forNode("node-6"),
				),
				slice(
					readyEP("10.0.0.7", "", "node-7").forNode("node-7"),
					readyEP("10.0.0.8", "", "node-8").forNode("node-8"),
				),
			},
		},
		{
			name: "unready endpoints should not trigger updates",

			trafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferClose),
			slicesUnchanged: []*discovery.EndpointSlice{
				slice(
					notReadyEP("10.0.0.2", "zone-b", "node-2").ep(), // endpoint is not ready
				),
			},
			wantSlicesUnchanged: []*discovery.EndpointSlice{ // ... so there should be no updates
				slice(
					notReadyEP("10.0.0.2", "zone-b", "node-2").ep(),
				),
			},
		},
		{
			name: "should remove hints when trafficDistribution is unrecognized",

			trafficDistribution: ptr.To("Unknown"),
			slicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").forZone("zone-a"),
					readyEP("10.0.0.2", "zone-b", "node-2").forZone("zone-b"),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").forZone("zone-a"),
				),
			},
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").forZone("zone-a"),
				),
			},
			wantSlicesToCreate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.1", "zone-a", "node-1").ep(),
					readyEP("10.0.0.2", "zone-b", "node-2").ep(),
				),
				slice(
					readyEP("10.0.0.3", "zone-a", "node-3").ep(),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").ep(),
				),
			},
		},
		{
			name: "should remove hints when trafficDistribution is unset",

			trafficDistribution: nil,
			slicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").forZone("zone-a"),
				),
			},
			slicesUnchanged: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.6", "zone-b", "node-6").forZone("zone-b"),
				),
			},
			wantSlicesToUpdate: []*discovery.EndpointSlice{
				slice(
					readyEP("10.0.0.5", "zone-a", "node-5").ep(),
				),
				slice(
					readyEP("10.0.0.6", "zone-b", "node-6").ep(),
				),
			},
		},
	}

	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			gotSlicesToCreate, gotSlicesToUpdate, gotSlicesUnchanged := ReconcileHints(tc.trafficDistribution, tc.slicesToCreate, tc.slicesToUpdate, tc.slicesUnchanged)

			if diff := cmp.Diff(tc.wantSlicesToCreate, gotSlicesToCreate, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ReconcileHints(...) returned unexpected diff in 'slicesToCreate': (-want, +got)\n%v", diff)
			}
			if diff := cmp.Diff(tc.wantSlicesToUpdate, gotSlicesToUpdate, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ReconcileHints(...) returned unexpected diff in 'slicesToUpdate': (-want, +got)\n%v", diff)
			}
			if diff := cmp.Diff(tc.wantSlicesUnchanged, gotSlicesUnchanged, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ReconcileHints(...) returned unexpected diff in 'slicesUnchanged': (-want, +got)\n%v", diff)
			}
		})
	}
}

// Ensure that the EndpointSlice objects within `slicesUnchanged` don't get modified.
func TestReconcileHints_doesNotMutateUnchangedSlices(t *testing.T) {
	originalEps := &discovery.EndpointSlice{
		Endpoints: []discovery.Endpoint{
			readyEP("10.0.0.1", "zone-a", "node-1").ep(),
		},
	}
	clonedEps := originalEps.DeepCopy()

	// originalEps should not get modified.
	ReconcileHints(ptr.To(corev1.ServiceTrafficDistributionPreferClose), nil, nil, []*discovery.EndpointSlice{originalEps})
	if diff := cmp.Diff(clonedEps, originalEps); diff != "" {
		t.Errorf("ReconcileHints(...) modified objects within slicesUnchanged, want objects within slicesUnchanged to remain unmodified: (-want, +got)\n%v", diff)
	}
}
