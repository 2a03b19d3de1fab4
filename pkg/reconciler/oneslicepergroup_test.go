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

package reconciler

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// planNames is a plan reduced to the names (or "+ports" for creates) of
// its slices, per list.
type planNames struct {
	Create, Update, Delete, DeleteUnsupported []string
	Updated                                   int
	Unchanged                                 []string
}

func summarise(p *Plan) planNames {
	var out planNames
	for i := range p.AddressTypes {
		at := &p.AddressTypes[i]
		for _, s := range at.Create {
			out.Create = append(out.Create, PortMapKey(s.Ports))
		}
		for _, s := range at.Update {
			out.Update = append(out.Update, s.Name+"="+PortMapKey(s.Ports))
		}
		for _, s := range at.Delete {
			out.Delete = append(out.Delete, s.Name)
		}
		for _, s := range at.Unchanged {
			out.Unchanged = append(out.Unchanged, s.Name)
		}
	}
	for _, s := range p.DeleteUnsupported {
		out.DeleteUnsupported = append(out.DeleteUnsupported, s.Name)
	}
	out.Updated = p.Updated()
	return out
}

func withAddressType(s *discovery.EndpointSlice, at discovery.AddressType) *discovery.EndpointSlice {
	s.AddressType = at
	return s
}

// TestPlanOneSlicePerGroup covers Config.OneSlicePerGroup, the mirroring
// controller's packing (rule b3; KCM endpointslicemirroring
// reconcileByPortMapping, recycleSlices, totalChanges).
func TestPlanOneSlicePerGroup(t *testing.T) {
	svc := testService()
	p80 := []discovery.EndpointPort{tcpPort("http", 80)}
	p443 := []discovery.EndpointPort{tcpPort("https", 443)}
	k80, k443 := PortMapKey(p80), PortMapKey(p443)
	notReady := ep("10.0.0.1", false)
	tests := []struct {
		name     string
		disabled bool // OneSlicePerGroup off: the default packing, for contrast
		desired  *Desired
		existing []*discovery.EndpointSlice
		want     planNames
	}{
		{
			name:    "the fullest slice of a group is kept, the other deleted",
			desired: ipv4(p80, ep("10.0.0.1", true), ep("10.0.0.2", true), ep("10.0.0.3", true)),
			existing: []*discovery.EndpointSlice{
				existingSlice("a", svc, p80, ep("10.0.0.1", true)),
				existingSlice("b", svc, p80, ep("10.0.0.2", true), ep("10.0.0.3", true)),
			},
			want: planNames{Update: []string{"b=" + k80}, Delete: []string{"a"}},
		},
		{
			name:     "without the mode both slices are kept",
			disabled: true,
			desired:  ipv4(p80, ep("10.0.0.1", true), ep("10.0.0.2", true), ep("10.0.0.3", true)),
			existing: []*discovery.EndpointSlice{
				existingSlice("a", svc, p80, ep("10.0.0.1", true)),
				existingSlice("b", svc, p80, ep("10.0.0.2", true), ep("10.0.0.3", true)),
			},
			want: planNames{},
		},
		{
			name: "an extra slice gives its name to a slice to create",
			desired: &Desired{
				AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4},
				Groups: []EndpointGroup{
					{AddressType: discovery.AddressTypeIPv4, Ports: p80, Endpoints: []discovery.Endpoint{ep("10.0.0.1", true)}},
					{AddressType: discovery.AddressTypeIPv4, Ports: p443, Endpoints: []discovery.Endpoint{ep("10.0.0.2", true)}},
				},
			},
			existing: []*discovery.EndpointSlice{
				existingSlice("a", svc, p80, ep("10.0.0.1", true)),
				existingSlice("b", svc, p80, ep("10.0.0.9", true)),
			},
			want: planNames{Update: []string{"b=" + k443}, Unchanged: []string{"a"}},
		},
		{
			name: "the plan's own deletes are recycled before the extras",
			desired: &Desired{
				AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4},
				Groups: []EndpointGroup{
					{AddressType: discovery.AddressTypeIPv4, Ports: p443, Endpoints: []discovery.Endpoint{ep("10.0.0.2", true)}},
				},
			},
			existing: []*discovery.EndpointSlice{
				existingSlice("a", svc, p80, ep("10.0.0.1", true)),
				existingSlice("b", svc, p80, ep("10.0.0.9", true)),
			},
			want: planNames{Update: []string{"a=" + k443}, Delete: []string{"b"}},
		},
		{
			name:    "endpoints of the kept slice desired in another version are counted",
			desired: ipv4(p80, notReady, ep("10.0.0.2", true)),
			existing: []*discovery.EndpointSlice{
				existingSlice("a", svc, p80, ep("10.0.0.1", true), ep("10.0.0.3", true)),
			},
			want: planNames{Update: []string{"a=" + k80}, Updated: 1},
		},
		{
			name:    "unsupported address types: kept slices first, then the extras",
			desired: ipv4(p80, ep("10.0.0.1", true)),
			existing: []*discovery.EndpointSlice{
				existingSlice("a", svc, p80, ep("10.0.0.1", true)),
				withAddressType(existingSlice("c", svc, p80, ep("fd00::1", true)), discovery.AddressTypeIPv6),
				withAddressType(existingSlice("d", svc, p80, ep("fd00::2", true), ep("fd00::3", true)), discovery.AddressTypeIPv6),
			},
			want: planNames{DeleteUnsupported: []string{"d", "c"}, Unchanged: []string{"a"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New(fake.NewClientset(), Config{ControllerName: testController, OwnerGVK: ServiceGVK, MaxEndpointsPerSlice: 100, OneSlicePerGroup: !tc.disabled})
			if err != nil {
				t.Fatal(err)
			}
			plan, err := r.Plan(context.Background(), svc, tc.desired, tc.existing)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, summarise(plan)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApplyTracksUnchanged: with OneSlicePerGroup, Apply records the kept
// slices it leaves alone in the tracker (KCM: "Always ensure each
// EndpointSlice is being tracked"); without it, it does not.
func TestApplyTracksUnchanged(t *testing.T) {
	svc := testService()
	p80 := []discovery.EndpointPort{tcpPort("http", 80)}
	for _, mode := range []bool{true, false} {
		a := existingSlice("a", svc, p80, ep("10.0.0.1", true))
		r, err := New(fake.NewClientset(a), Config{ControllerName: testController, OwnerGVK: ServiceGVK, MaxEndpointsPerSlice: 100, OneSlicePerGroup: mode})
		if err != nil {
			t.Fatal(err)
		}
		desired := ipv4(p80, ep("10.0.0.1", true))
		plan, err := r.Plan(context.Background(), svc, desired, []*discovery.EndpointSlice{a})
		if err != nil {
			t.Fatal(err)
		}
		if plan.Writes() != 0 {
			t.Fatalf("OneSlicePerGroup=%v: plan writes %d slices, want 0", mode, plan.Writes())
		}
		if err := r.Apply(context.Background(), svc, plan, desired, time.Time{}); err != nil {
			t.Fatal(err)
		}
		if got := r.Tracker().Has(a); got != mode {
			t.Errorf("OneSlicePerGroup=%v: tracker has the unchanged slice: %v, want %v", mode, got, mode)
		}
	}
}
