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
	"fmt"
	"sort"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler/topology"
)

// idxWorld is an owner, its items and its slices, applied by hand (names
// s-1, s-2, ...; a new resourceVersion per write).
type idxWorld struct {
	t      *testing.T
	r      *Reconciler
	owner  *corev1.Service
	x      *Index
	slices map[string]*discovery.EndpointSlice
	seq    int
}

func newIdxWorld(t *testing.T, maxPer int32, opts ...Option) *idxWorld {
	r, err := New(fake.NewClientset(), Config{ControllerName: testController, OwnerGVK: ServiceGVK, MaxEndpointsPerSlice: maxPer, Placeholder: true, EnforceOwnership: true}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	w := &idxWorld{t: t, r: r, x: NewIndex(), slices: map[string]*discovery.EndpointSlice{},
		owner: &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: "ns", UID: "uid-svc"}, Spec: corev1.ServiceSpec{ClusterIP: "10.0.0.1"}}}
	w.x.Reset([]discovery.AddressType{discovery.AddressTypeIPv4}, Hints{}, "")
	return w
}

var httpPorts = []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](80), Protocol: ptr.To(corev1.ProtocolTCP)}}

// item is pod i's item: address 10.0.0.i, ready as given, ports as given.
func item(i int, ready bool, ports []discovery.EndpointPort) *Item {
	return &Item{Ports: ports, Endpoints: []ItemEndpoint{{AddressType: discovery.AddressTypeIPv4, Endpoint: discovery.Endpoint{
		Addresses:  []string{fmt.Sprintf("10.0.%d.%d", i/250, i%250+1)},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(ready), Serving: ptr.To(ready), Terminating: ptr.To(false)},
		TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: fmt.Sprintf("pod-%02d", i), UID: types.UID(fmt.Sprintf("uid-%d", i))},
	}}}}
}

func (w *idxWorld) set(i int, it *Item) { w.x.SetItem(fmt.Sprintf("ns/pod-%02d", i), it) }

func (w *idxWorld) existing() []*discovery.EndpointSlice {
	names := make([]string, 0, len(w.slices))
	for n := range w.slices {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*discovery.EndpointSlice, len(names))
	for i, n := range names {
		out[i] = w.slices[n]
	}
	return out
}

// sync plans both ways, fails on a difference, applies and returns the
// incremental path's reason.
func (w *idxWorld) sync() string {
	w.t.Helper()
	ctx := context.Background()
	existing := w.existing()
	full, err := w.r.Plan(ctx, w.owner, w.x.Desired(), existing)
	if err != nil {
		w.t.Fatal(err)
	}
	inc, _, reason, err := w.r.PlanIndexed(ctx, w.owner, w.x, existing)
	if err != nil {
		w.t.Fatal(err)
	}
	if !apiequality.Semantic.DeepEqual(full, inc) {
		w.t.Fatalf("plans differ (reason %q):\nfull %+v\nincremental %+v", reason, full, inc)
	}
	for _, at := range inc.AddressTypes {
		for _, s := range at.Create {
			w.seq++
			s = s.DeepCopy()
			s.Name, s.UID = "s-"+strconv.Itoa(w.seq), types.UID("uid-s-"+strconv.Itoa(w.seq))
			s.ResourceVersion = strconv.Itoa(w.seq)
			w.slices[s.Name] = s
		}
		for _, s := range at.Update {
			w.seq++
			s = s.DeepCopy()
			if old := w.slices[s.Name]; old != nil {
				s.UID = old.UID
			}
			s.ResourceVersion = strconv.Itoa(w.seq)
			w.slices[s.Name] = s
		}
		for _, s := range at.Delete {
			delete(w.slices, s.Name)
		}
	}
	return reason
}

func TestPlanIndexedReasons(t *testing.T) {
	cases := []struct {
		name string
		// change is applied after a first sync (always full: reset) and a
		// second one (incremental, nothing to do).
		change func(w *idxWorld)
		want   string
	}{
		{"readiness flip", func(w *idxWorld) { w.set(3, item(3, false, httpPorts)) }, ""},
		{"pod replaced", func(w *idxWorld) { w.set(3, nil); w.set(9, item(9, true, httpPorts)) }, ""},
		{"pod added", func(w *idxWorld) { w.set(9, item(9, true, httpPorts)) }, ""},
		{"pod deleted", func(w *idxWorld) { w.set(0, nil) }, ""},
		{"second port group", func(w *idxWorld) { w.set(3, item(3, true, nil)) }, FullReasonPortGroups},
		{"every pod gone", func(w *idxWorld) {
			for i := 0; i < 5; i++ {
				w.set(i, nil)
			}
		}, FullReasonPortGroups},
		{"no endpoint left", func(w *idxWorld) {
			for i := 0; i < 5; i++ {
				w.set(i, &Item{Ports: httpPorts})
			}
		}, FullReasonNoEndpoints},
		{"duplicate identity", func(w *idxWorld) { w.x.SetItem("ns/other", item(3, true, httpPorts)) }, FullReasonDuplicateEndpoint},
		{"invalidated", func(w *idxWorld) { w.x.Invalidate("node-changed") }, "node-changed"},
		{"reset", func(w *idxWorld) {
			w.x.Reset([]discovery.AddressType{discovery.AddressTypeIPv4}, Hints{}, "service-changed")
			for i := 0; i < 5; i++ {
				w.set(i, item(i, true, httpPorts))
			}
		}, "service-changed"},
		{"slice of another owner", func(w *idxWorld) {
			s := w.existing()[0].DeepCopy()
			s.OwnerReferences[0].UID = "other"
			s.ResourceVersion = "999"
			w.slices[s.Name] = s
		}, FullReasonSlicesUnknown},
		{"endpoint in two slices", func(w *idxWorld) {
			l := w.existing()
			s := l[1].DeepCopy()
			s.Endpoints = append(s.Endpoints, l[0].Endpoints[0])
			s.ResourceVersion = "999"
			w.slices[s.Name] = s
		}, FullReasonSlicesUnknown},
		{"slice edited", func(w *idxWorld) {
			s := w.existing()[0].DeepCopy()
			s.Endpoints = s.Endpoints[1:]
			s.ResourceVersion = "999"
			w.slices[s.Name] = s
		}, ""},
		{"slice deleted by someone", func(w *idxWorld) { delete(w.slices, w.existing()[0].Name) }, ""},
		{"ports in another order", func(w *idxWorld) {
			two := []discovery.EndpointPort{httpPorts[0], {Name: ptr.To("b"), Port: ptr.To[int32](81), Protocol: ptr.To(corev1.ProtocolTCP)}}
			for i := 0; i < 5; i++ {
				w.set(i, item(i, true, two))
			}
			w.sync() // full (the port group changed)
			w.set(2, item(2, false, []discovery.EndpointPort{two[1], two[0]}))
		}, FullReasonPortOrder},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newIdxWorld(t, 3)
			for i := 0; i < 5; i++ {
				w.set(i, item(i, true, httpPorts))
			}
			if got := w.sync(); got != FullReasonReset {
				t.Fatalf("first sync: reason %q, want %q", got, FullReasonReset)
			}
			if got := w.sync(); got != "" {
				t.Fatalf("second sync: reason %q, want incremental", got)
			}
			tc.change(w)
			if got := w.sync(); got != tc.want {
				t.Errorf("reason %q, want %q", got, tc.want)
			}
			// Whatever happened, the index converges back.
			w.sync()
			w.sync()
		})
	}
}

func TestPlanIndexedTopologyFallsBack(t *testing.T) {
	w := newIdxWorld(t, 3, WithTopologyCache(topology.NewTopologyCache()))
	w.x.Reset([]discovery.AddressType{discovery.AddressTypeIPv4}, Hints{TopologyAuto: true}, "")
	w.set(1, item(1, true, httpPorts))
	w.sync()
	if got := w.sync(); got != FullReasonTopology {
		t.Errorf("reason %q, want %q", got, FullReasonTopology)
	}
}

func TestPlanIndexedFlipWritesOneSlice(t *testing.T) {
	w := newIdxWorld(t, 3)
	for i := 0; i < 9; i++ {
		w.set(i, item(i, true, httpPorts))
	}
	w.sync()
	w.set(4, item(4, false, httpPorts))
	existing := w.existing()
	plan, _, reason, err := w.r.PlanIndexed(context.Background(), w.owner, w.x, existing)
	if err != nil || reason != "" {
		t.Fatalf("reason %q, err %v", reason, err)
	}
	if got := plan.Writes(); got != 1 || len(plan.AddressTypes[0].Update) != 1 {
		t.Fatalf("writes %d, want one update", got)
	}
	u := plan.AddressTypes[0].Update[0]
	for _, ep := range u.Endpoints {
		if ep.TargetRef.Name == "pod-04" && *ep.Conditions.Ready {
			t.Errorf("pod-04 still ready in %s", u.Name)
		}
	}
	for _, s := range existing {
		if s.Name != u.Name && len(s.Endpoints) != 3 {
			t.Errorf("slice %s changed", s.Name)
		}
	}
}

func TestIndexDesired(t *testing.T) {
	x := NewIndex()
	x.Reset([]discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}, Hints{}, "")
	x.SetItem("ns/b", item(2, true, httpPorts))
	x.SetItem("ns/a", item(1, true, httpPorts))
	x.SetItem("ns/c", &Item{Ports: nil})
	x.SetItem("ns/d", item(4, true, httpPorts))
	x.SetItem("ns/d", nil)
	d := x.Desired()
	want := &Desired{
		AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6},
		Groups: []EndpointGroup{
			{AddressType: discovery.AddressTypeIPv4, Ports: httpPorts, Endpoints: []discovery.Endpoint{item(1, true, nil).Endpoints[0].Endpoint, item(2, true, nil).Endpoints[0].Endpoint}},
			{AddressType: discovery.AddressTypeIPv4},
			{AddressType: discovery.AddressTypeIPv6, Ports: httpPorts},
			{AddressType: discovery.AddressTypeIPv6},
		},
	}
	if !apiequality.Semantic.DeepEqual(d, want) {
		t.Errorf("Desired:\n%+v\nwant\n%+v", d, want)
	}
	if x.Len() != 3 {
		t.Errorf("Len %d, want 3", x.Len())
	}
}

// TestPlanIndexedRollingUpdate: a rolling update in steps of 25 (the 25
// oldest Pods replaced by new ones) is planned incrementally at every step,
// with the full planner's writes.
func TestPlanIndexedRollingUpdate(t *testing.T) {
	w := newIdxWorld(t, 10)
	for i := 0; i < 100; i++ {
		w.set(i, item(i, true, httpPorts))
	}
	w.sync()
	for step := 0; step < 8; step++ {
		for i := step * 25; i < step*25+25; i++ {
			w.set(i, nil)
			w.set(100+i, item(100+i, true, httpPorts))
		}
		if got := w.sync(); got != "" {
			t.Fatalf("step %d: reason %q, want incremental", step, got)
		}
	}
}

// TestPlanIndexedWritesDesiredVersions: an endpoint someone changed only in
// fields the equality leaves out (the targetRef's resourceVersion, hints,
// the deprecated topology, the address order) keeps its slice unchanged,
// but once the slice is written for another reason it carries the desired
// version of that endpoint, as the full planner writes it (sync compares
// the two plans). The incremental planner must not take the changed
// endpoint for a verified one.
func TestPlanIndexedWritesDesiredVersions(t *testing.T) {
	tamper := map[string]func(ep *discovery.Endpoint){
		"targetRef resourceVersion": func(ep *discovery.Endpoint) { ep.TargetRef.ResourceVersion = "42" },
		"hints": func(ep *discovery.Endpoint) {
			ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "z"}}}
		},
		"deprecated topology": func(ep *discovery.Endpoint) { ep.DeprecatedTopology = map[string]string{"k": "v"} },
		"address order": func(ep *discovery.Endpoint) {
			ep.Addresses = []string{"10.0.9.9", ep.Addresses[0]}
		},
	}
	for name, change := range tamper {
		t.Run(name, func(t *testing.T) {
			w := newIdxWorld(t, 3)
			for i := 0; i < 6; i++ {
				it := item(i, true, httpPorts)
				if name == "address order" && i == 1 {
					it.Endpoints[0].Endpoint.Addresses = []string{"10.0.0.1", "10.0.9.9"}
				}
				w.set(i, it)
			}
			w.sync() // full
			w.sync() // incremental, nothing to do: every endpoint verified
			s := w.existing()[0].DeepCopy()
			change(&s.Endpoints[1])
			s.ResourceVersion = "999"
			w.slices[s.Name] = s
			w.sync() // the slice is read again
			// Another endpoint of that slice flips: the slice is written.
			flipped := s.Endpoints[0].TargetRef.Name
			var i int
			if _, err := fmt.Sscanf(flipped, "pod-%d", &i); err != nil {
				t.Fatal(err)
			}
			w.set(i, item(i, false, httpPorts))
			if got := w.sync(); got != "" {
				t.Fatalf("reason %q, want incremental", got)
			}
			for _, ep := range w.slices[s.Name].Endpoints {
				if ep.TargetRef.ResourceVersion != "" || ep.Hints != nil || ep.DeprecatedTopology != nil || !sort.StringsAreSorted(ep.Addresses) {
					t.Errorf("written slice keeps a changed endpoint: %+v", ep)
				}
			}
		})
	}
}

// TestPlanIndexedDuplicateRemovedBeforePlaced: an identity given by two
// items, in no slice yet, loses the item whose version was current; the
// endpoint added is the surviving item's version (found by a review's
// randomized differential test: the index kept the removed version as the
// one to add).
func TestPlanIndexedDuplicateRemovedBeforePlaced(t *testing.T) {
	w := newIdxWorld(t, 3)
	for i := 0; i < 5; i++ {
		w.set(i, item(i, true, httpPorts))
	}
	w.sync()
	w.sync()
	w.x.SetItem("ns/zz", item(5, true, httpPorts)) // a new identity, in no slice
	w.set(5, item(5, false, httpPorts))            // the same identity from a second item
	w.set(5, nil)                                  // that item goes
	w.sync()                                       // fails when the plans differ
	w.sync()
}
