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
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kcm "k8s.io/endpointslice/topologycache"
	"k8s.io/utils/ptr"
)

// TestKCMParity runs random inputs through this package and through KCM's
// k8s.io/endpointslice/topologycache and compares the results. Nodes are in
// at most two zones: with three or more, KCM's results depend on Go map
// iteration order (which receiving zone gets a redistributed endpoint).
func TestKCMParity(t *testing.T) {
	iterations := 1000
	if testing.Short() {
		iterations = 200
	}
	for seed := range uint64(iterations) {
		g := &parityGen{r: rand.New(rand.NewPCG(seed, 42))}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			runParity(t, g)
		})
		if t.Failed() {
			return
		}
	}
}

func runParity(t *testing.T, g *parityGen) {
	logger := logr.Discard()
	ours := NewTopologyCache()
	theirs := kcm.NewTopologyCache()

	keys := []string{"ns/a", "ns/b"}
	addrTypes := []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}

	for step := range 6 {
		switch g.r.IntN(6) {
		case 0:
			nodes := g.nodes()
			ours.SetNodes(logger, deepCopyNodes(nodes))
			theirs.SetNodes(logger, deepCopyNodes(nodes))
		case 1:
			key, at := keys[g.r.IntN(2)], addrTypes[g.r.IntN(2)]
			ours.RemoveHints(key, at)
			theirs.RemoveHints(key, at)
		case 2:
			in := g.sliceInfo(keys, addrTypes)
			oursSI, theirsSI := toOurs(in), toKCM(in)
			oc, ou := RemoveHintsFromSlices(oursSI)
			kc, ku := kcm.RemoveHintsFromSlices(theirsSI)
			compare(t, step, "RemoveHintsFromSlices create", kc, oc)
			compare(t, step, "RemoveHintsFromSlices update", ku, ou)
			compare(t, step, "RemoveHintsFromSlices unchanged", theirsSI.Unchanged, oursSI.Unchanged)
			checkUnchangedInputs(t, step, in)
		default:
			in := g.sliceInfo(keys, addrTypes)
			oursSI, theirsSI := toOurs(in), toKCM(in)
			oc, ou, oe := ours.AddHints(logger, oursSI)
			kc, ku, ke := theirs.AddHints(logger, theirsSI)
			compare(t, step, "AddHints create", kc, oc)
			compare(t, step, "AddHints update", ku, ou)
			compare(t, step, "AddHints unchanged", theirsSI.Unchanged, oursSI.Unchanged)
			var oursEvents, theirsEvents []EventBuilder
			for _, e := range oe {
				oursEvents = append(oursEvents, *e)
			}
			for _, e := range ke {
				theirsEvents = append(theirsEvents, EventBuilder{EventType: e.EventType, Reason: e.Reason, Message: e.Message})
			}
			compare(t, step, "AddHints events", theirsEvents, oursEvents)
			checkUnchangedInputs(t, step, in)
		}

		compare(t, step, "GetOverloadedServices",
			slices.Sorted(slices.Values(theirs.GetOverloadedServices())),
			slices.Sorted(slices.Values(ours.GetOverloadedServices())))
		for _, key := range keys {
			compare(t, step, "HasPopulatedHints "+key, theirs.HasPopulatedHints(key), ours.HasPopulatedHints(key))
		}
	}
}

func compare(t *testing.T, step int, what string, kcmResult, ourResult any) {
	t.Helper()
	if diff := cmp.Diff(kcmResult, ourResult); diff != "" {
		t.Errorf("step %d: %s differs from KCM (-kcm +slicekit):\n%s", step, what, diff)
	}
}

// parityInput is one SliceInfo, kept pristine: each implementation gets deep
// copies of the slices to create and update, and the same Unchanged objects
// (as they would come from an informer cache), which must not be modified.
type parityInput struct {
	key                         string
	addrType                    discovery.AddressType
	toCreate, toUpdate          []*discovery.EndpointSlice
	unchanged, unchangedBackups []*discovery.EndpointSlice
}

func toOurs(in *parityInput) *SliceInfo {
	return &SliceInfo{ServiceKey: in.key, AddressType: in.addrType,
		ToCreate: deepCopySlices(in.toCreate), ToUpdate: deepCopySlices(in.toUpdate), Unchanged: slices.Clone(in.unchanged)}
}

func toKCM(in *parityInput) *kcm.SliceInfo {
	return &kcm.SliceInfo{ServiceKey: in.key, AddressType: in.addrType,
		ToCreate: deepCopySlices(in.toCreate), ToUpdate: deepCopySlices(in.toUpdate), Unchanged: slices.Clone(in.unchanged)}
}

func checkUnchangedInputs(t *testing.T, step int, in *parityInput) {
	t.Helper()
	compare(t, step, "unchanged inputs (modified in place)", in.unchangedBackups, in.unchanged)
}

func deepCopySlices(in []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	if in == nil {
		return nil
	}
	out := make([]*discovery.EndpointSlice, len(in))
	for i, s := range in {
		out[i] = s.DeepCopy()
	}
	return out
}

func deepCopyNodes(in []*v1.Node) []*v1.Node {
	out := make([]*v1.Node, len(in))
	for i, n := range in {
		out[i] = n.DeepCopy()
	}
	return out
}

type parityGen struct {
	r *rand.Rand
	n int
	// zoneAShare is the probability that an endpoint in zone-a or zone-b is
	// in zone-a.
	zoneAShare float64
}

func (g *parityGen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

func (g *parityGen) nodes() []*v1.Node {
	var nodes []*v1.Node
	for i := range g.r.IntN(6) {
		labels := map[string]string{}
		switch zone := g.pick("zone-a", "zone-b", "zone-a", "zone-b", "", "-"); zone {
		case "-": // no zone label
		default:
			labels[v1.LabelTopologyZone] = zone
		}
		if g.r.IntN(10) == 0 {
			labels["node-role.kubernetes.io/control-plane"] = ""
		}
		allocatable := v1.ResourceList{}
		if cpu := g.pick("1", "2", "500m", "3500m", "0", "-"); cpu != "-" {
			allocatable[v1.ResourceCPU] = resource.MustParse(cpu)
		}
		var conditions []v1.NodeCondition
		if status := g.pick("True", "True", "True", "False", "-"); status != "-" {
			conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionStatus(status)}}
		}
		nodes = append(nodes, &v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("node-", i), Labels: labels},
			Status:     v1.NodeStatus{Allocatable: allocatable, Conditions: conditions},
		})
	}
	return nodes
}

func (g *parityGen) endpoint() discovery.Endpoint {
	g.n++
	ep := discovery.Endpoint{Addresses: []string{fmt.Sprintf("10.0.%d.%d", g.n/250, g.n%250)}}
	switch g.r.IntN(10) {
	case 0:
	case 1, 2:
		ep.Conditions.Ready = ptr.To(false)
	default:
		ep.Conditions.Ready = ptr.To(true)
	}
	switch x := g.r.Float64(); {
	case x < 0.88: // zone-a or zone-b, skewed per SliceInfo
		if g.r.Float64() < g.zoneAShare {
			ep.Zone = ptr.To("zone-a")
		} else {
			ep.Zone = ptr.To("zone-b")
		}
	case x < 0.94:
		ep.Zone = ptr.To("zone-c")
	case x < 0.97:
		ep.Zone = ptr.To("")
	}
	switch g.r.IntN(8) {
	case 0, 1, 2:
	case 3:
		ep.Hints = &discovery.EndpointHints{}
	case 4:
		ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}, {Name: "zone-b"}}}
	case 5:
		ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: g.pick("zone-a", "zone-b", "zone-c")}}}
	default:
		if ep.Zone != nil {
			ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: *ep.Zone}}}
		}
	}
	return ep
}

func (g *parityGen) slices(prefix string) []*discovery.EndpointSlice {
	n := g.r.IntN(4)
	if n == 0 && g.r.IntN(2) == 0 {
		return nil
	}
	out := make([]*discovery.EndpointSlice, 0, n+g.r.IntN(3)) // sometimes spare capacity
	for i := range n {
		s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, i)}}
		for range g.r.IntN(12) {
			s.Endpoints = append(s.Endpoints, g.endpoint())
		}
		out = append(out, s)
	}
	return out
}

func (g *parityGen) sliceInfo(keys []string, addrTypes []discovery.AddressType) *parityInput {
	g.zoneAShare = g.r.Float64()
	in := &parityInput{
		key:       keys[g.r.IntN(len(keys))],
		addrType:  addrTypes[g.r.IntN(len(addrTypes))],
		toCreate:  g.slices("create"),
		toUpdate:  g.slices("update"),
		unchanged: g.slices("unchanged"),
	}
	in.unchangedBackups = deepCopySlices(in.unchanged)
	return in
}
