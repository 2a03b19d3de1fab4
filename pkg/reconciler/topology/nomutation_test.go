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

package topology

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	inf "gopkg.in/inf.v0"
	v1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"
)

func readyEndpoint(addr, zone string, hintZones ...string) discovery.Endpoint {
	ep := discovery.Endpoint{
		Addresses:  []string{addr},
		Zone:       ptr.To(zone),
		Conditions: discovery.EndpointConditions{Ready: ptr.To(true)},
	}
	if len(hintZones) > 0 {
		ep.Hints = &discovery.EndpointHints{}
		for _, z := range hintZones {
			ep.Hints.ForZones = append(ep.Hints.ForZones, discovery.ForZone{Name: z})
		}
	}
	return ep
}

func twoZoneCache() *TopologyCache {
	c := NewTopologyCache()
	c.cpuRatiosByZone = map[string]float64{"zone-a": 0.5, "zone-b": 0.5}
	return c
}

// Unchanged slices may come from an informer cache: AddHints and
// RemoveHintsFromSlices must deep-copy them before changing hints.
func TestUnchangedSlicesAreNotModified(t *testing.T) {
	newUnchanged := func() []*discovery.EndpointSlice {
		return []*discovery.EndpointSlice{
			// Correct hints: stays unchanged with hints.
			{ObjectMeta: metav1.ObjectMeta{Name: "good"}, Endpoints: []discovery.Endpoint{
				readyEndpoint("10.0.0.1", "zone-a", "zone-a"),
				readyEndpoint("10.0.0.2", "zone-b", "zone-b"),
			}},
			// Missing hints: needs an update.
			{ObjectMeta: metav1.ObjectMeta{Name: "nohints"}, Endpoints: []discovery.Endpoint{
				readyEndpoint("10.0.1.1", "zone-a"),
				readyEndpoint("10.0.1.2", "zone-b"),
			}},
			// Hint for an unknown zone: needs an update.
			{ObjectMeta: metav1.ObjectMeta{Name: "badzone"}, Endpoints: []discovery.Endpoint{
				readyEndpoint("10.0.2.1", "zone-a", "zone-z"),
				readyEndpoint("10.0.2.2", "zone-b", "zone-z"),
			}},
		}
	}

	for _, tc := range []struct {
		name string
		run  func(si *SliceInfo)
	}{{
		name: "AddHints",
		run: func(si *SliceInfo) {
			logger, _ := ktesting.NewTestContext(t)
			twoZoneCache().AddHints(logger, si)
		},
	}, {
		name: "AddHints removing hints",
		run: func(si *SliceInfo) {
			logger, _ := ktesting.NewTestContext(t)
			NewTopologyCache().AddHints(logger, si) // insufficient node info
		},
	}, {
		name: "RemoveHintsFromSlices",
		run:  func(si *SliceInfo) { RemoveHintsFromSlices(si) },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			unchanged := newUnchanged()
			originals := make([]*discovery.EndpointSlice, len(unchanged))
			copies := make([]*discovery.EndpointSlice, len(unchanged))
			for i, s := range unchanged {
				originals[i] = s
				copies[i] = s.DeepCopy()
			}
			si := &SliceInfo{ServiceKey: "ns/svc", AddressType: discovery.AddressTypeIPv4, Unchanged: unchanged}
			tc.run(si)

			for i := range originals {
				if diff := cmp.Diff(copies[i], originals[i]); diff != "" {
					t.Errorf("unchanged slice %s was modified (-before +after):\n%s", copies[i].Name, diff)
				}
			}
			// The caller's array is not reordered either.
			if diff := cmp.Diff(originals, unchanged); diff != "" {
				t.Errorf("caller's Unchanged array was modified (-before +after):\n%s", diff)
			}
			for _, s := range si.ToUpdate {
				for _, o := range originals {
					if s == o {
						t.Errorf("slice %s moved to ToUpdate without a deep copy", s.Name)
					}
				}
			}
		})
	}
}

// The spare capacity of the caller's arrays is not written to.
func TestCallerArraysAreNotWritten(t *testing.T) {
	sentinel := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "sentinel"}}
	withSpare := func(s ...*discovery.EndpointSlice) []*discovery.EndpointSlice {
		a := make([]*discovery.EndpointSlice, len(s), len(s)+4)
		copy(a, s)
		for i := len(s); i < cap(a); i++ {
			a[:cap(a)][i] = sentinel
		}
		return a
	}
	checkSpare := func(t *testing.T, name string, a []*discovery.EndpointSlice) {
		t.Helper()
		for i, s := range a[len(a):cap(a)] {
			if s != sentinel {
				t.Errorf("%s: spare element %d overwritten with %v", name, i, s.Name)
			}
		}
	}

	for _, tc := range []struct {
		name string
		run  func(si *SliceInfo)
	}{{
		name: "AddHints",
		run: func(si *SliceInfo) {
			logger, _ := ktesting.NewTestContext(t)
			twoZoneCache().AddHints(logger, si)
		},
	}, {
		name: "RemoveHintsFromSlices",
		run:  func(si *SliceInfo) { RemoveHintsFromSlices(si) },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			toCreate := withSpare(&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "create"}, Endpoints: []discovery.Endpoint{
				readyEndpoint("10.0.0.1", "zone-a"),
				readyEndpoint("10.0.0.4", "zone-a"),
			}})
			toUpdate := withSpare(&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "update"}, Endpoints: []discovery.Endpoint{
				readyEndpoint("10.0.0.2", "zone-b"),
			}})
			unchanged := withSpare(&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "unchanged"}, Endpoints: []discovery.Endpoint{
				readyEndpoint("10.0.0.3", "zone-b", "zone-z"),
			}})
			si := &SliceInfo{ServiceKey: "ns/svc", AddressType: discovery.AddressTypeIPv4, ToCreate: toCreate, ToUpdate: toUpdate, Unchanged: unchanged}
			tc.run(si)
			checkSpare(t, "ToCreate", toCreate)
			checkSpare(t, "ToUpdate", toUpdate)
			checkSpare(t, "Unchanged", unchanged)
			if len(si.ToUpdate) != 2 || len(si.Unchanged) != 0 {
				t.Errorf("got %d slices to update and %d unchanged, want 2 and 0", len(si.ToUpdate), len(si.Unchanged))
			}
		})
	}
}

// As in KCM, AddHints leaves the hints of endpoints that are not ready as
// they are in slices to create or update.
func TestAddHintsKeepsHintsOfNotReadyEndpoints(t *testing.T) {
	notReady := discovery.Endpoint{
		Addresses:  []string{"10.0.0.9"},
		Zone:       ptr.To("zone-a"),
		Hints:      &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-z"}}},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(false)},
	}
	si := &SliceInfo{ServiceKey: "ns/svc", AddressType: discovery.AddressTypeIPv4,
		ToCreate: []*discovery.EndpointSlice{{Endpoints: []discovery.Endpoint{
			readyEndpoint("10.0.0.1", "zone-a"),
			readyEndpoint("10.0.0.2", "zone-b"),
			notReady,
		}}},
	}
	logger, _ := ktesting.NewTestContext(t)
	toCreate, _, _ := twoZoneCache().AddHints(logger, si)
	if diff := cmp.Diff(notReady.Hints, toCreate[0].Endpoints[2].Hints); diff != "" {
		t.Errorf("hints of the not-ready endpoint changed (-want +got):\n%s", diff)
	}
}

// SetNodes does not modify the Nodes, even when their CPU quantities are in
// the inf.Dec representation (which KCM's code would modify in place).
func TestSetNodesDoesNotModifyNodes(t *testing.T) {
	node := func(name, zone string, cpu resource.Quantity) *v1.Node {
		return &v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{v1.LabelTopologyZone: zone}},
			Status: v1.NodeStatus{
				Allocatable: v1.ResourceList{v1.ResourceCPU: cpu},
				Conditions:  []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}},
			},
		}
	}
	decCPU := func(milli int64) resource.Quantity {
		return *resource.NewDecimalQuantity(*inf.NewDec(milli, 3), resource.DecimalSI)
	}
	nodes := []*v1.Node{
		node("a1", "zone-a", decCPU(1500)),
		node("a2", "zone-a", decCPU(2500)),
		node("b1", "zone-b", decCPU(4000)),
	}
	before := make([]*v1.Node, len(nodes))
	for i, n := range nodes {
		before[i] = n.DeepCopy()
	}

	c := NewTopologyCache()
	logger, _ := ktesting.NewTestContext(t)
	c.SetNodes(logger, nodes)

	for i := range nodes {
		got, want := nodes[i].Status.Allocatable[v1.ResourceCPU], before[i].Status.Allocatable[v1.ResourceCPU]
		if got.Cmp(want) != 0 {
			t.Errorf("node %s CPU changed from %s to %s", nodes[i].Name, want.String(), got.String())
		}
	}
	if diff := cmp.Diff(map[string]float64{"zone-a": 0.5, "zone-b": 0.5}, c.cpuRatiosByZone); diff != "" {
		t.Errorf("cpuRatiosByZone (-want +got):\n%s", diff)
	}
}
