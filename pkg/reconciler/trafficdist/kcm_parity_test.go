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

package trafficdist

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kcm "k8s.io/endpointslice/trafficdist"
	"k8s.io/utils/ptr"
)

// TestKCMParity runs random inputs through ReconcileHints and KCM's
// k8s.io/endpointslice/trafficdist.ReconcileHints and compares the results
// (strictly, including nil versus empty), and checks that this package
// neither modifies the unchanged slices nor writes into the caller's arrays.
func TestKCMParity(t *testing.T) {
	iterations := 5000
	if testing.Short() {
		iterations = 500
	}
	sentinel := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "sentinel"}}
	for seed := range uint64(iterations) {
		g := &gen{r: rand.New(rand.NewPCG(seed, 7))}
		td := g.trafficDistribution()
		toCreate, toUpdate, unchanged := g.slices("create", sentinel), g.slices("update", sentinel), g.slices("unchanged", sentinel)
		unchangedBackup := deepCopy(unchanged)
		unchangedArray := slices.Clone(unchanged)

		kc, ku, kn := kcm.ReconcileHints(td, deepCopy(toCreate), deepCopy(toUpdate), slices.Clone(unchanged))
		oc, ou, on := ReconcileHints(td, toCreate, toUpdate, unchanged)

		for what, pair := range map[string][2][]*discovery.EndpointSlice{
			"create": {kc, oc}, "update": {ku, ou}, "unchanged": {kn, on},
		} {
			if diff := cmp.Diff(pair[0], pair[1]); diff != "" {
				t.Fatalf("seed %d, trafficDistribution %v: %s differs from KCM (-kcm +slicekit):\n%s", seed, ptr.Deref(td, "<nil>"), what, diff)
			}
		}
		if diff := cmp.Diff(unchangedBackup, unchanged); diff != "" {
			t.Fatalf("seed %d: unchanged slices modified:\n%s", seed, diff)
		}
		if !slices.Equal(unchangedArray, unchanged) {
			t.Fatalf("seed %d: caller's unchanged array modified", seed)
		}
		for name, a := range map[string][]*discovery.EndpointSlice{"create": toCreate, "update": toUpdate, "unchanged": unchanged} {
			for _, s := range a[len(a):cap(a)] {
				if s != sentinel {
					t.Fatalf("seed %d: spare capacity of the caller's %s array written", seed, name)
				}
			}
		}
	}
}

type gen struct {
	r *rand.Rand
	n int
}

func (g *gen) trafficDistribution() *string {
	switch g.r.IntN(6) {
	case 0:
		return nil
	case 1:
		return ptr.To("PreferClose")
	case 2:
		return ptr.To("PreferSameZone")
	case 3:
		return ptr.To("PreferSameNode")
	case 4:
		return ptr.To("SomethingElse")
	default:
		return ptr.To("")
	}
}

func (g *gen) endpoint() discovery.Endpoint {
	g.n++
	ep := discovery.Endpoint{Addresses: []string{fmt.Sprintf("10.0.%d.%d", g.n/250, g.n%250)}}
	switch g.r.IntN(6) {
	case 0:
	case 1:
		ep.Conditions.Ready = ptr.To(false)
	default:
		ep.Conditions.Ready = ptr.To(true)
	}
	if g.r.IntN(5) != 0 {
		ep.Zone = ptr.To([]string{"zone-a", "zone-b"}[g.r.IntN(2)])
	}
	if g.r.IntN(5) != 0 {
		ep.NodeName = ptr.To([]string{"node-1", "node-2"}[g.r.IntN(2)])
	}
	switch g.r.IntN(6) {
	case 0, 1:
	case 2:
		ep.Hints = &discovery.EndpointHints{}
	case 3:
		ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
	case 4:
		ep.Hints = &discovery.EndpointHints{ForNodes: []discovery.ForNode{{Name: "node-1"}}}
	default:
		// The hints the heuristics would set.
		ep.Hints = &discovery.EndpointHints{}
		if ep.Zone != nil {
			ep.Hints.ForZones = []discovery.ForZone{{Name: *ep.Zone}}
		}
		if ep.NodeName != nil && g.r.IntN(2) == 0 {
			ep.Hints.ForNodes = []discovery.ForNode{{Name: *ep.NodeName}}
		}
		if ep.Hints.ForZones == nil && ep.Hints.ForNodes == nil {
			ep.Hints = nil
		}
	}
	return ep
}

// slices returns nil, an empty slice or a few EndpointSlices, sometimes with
// spare capacity filled with sentinel.
func (g *gen) slices(prefix string, sentinel *discovery.EndpointSlice) []*discovery.EndpointSlice {
	n := g.r.IntN(4)
	if n == 0 && g.r.IntN(2) == 0 {
		return nil
	}
	out := make([]*discovery.EndpointSlice, n, n+g.r.IntN(3))
	for i := range out[:cap(out)] {
		out[:cap(out)][i] = sentinel
	}
	for i := range n {
		s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, i)}}
		for range g.r.IntN(5) {
			s.Endpoints = append(s.Endpoints, g.endpoint())
		}
		out[i] = s
	}
	return out
}

func deepCopy(in []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	if in == nil {
		return nil
	}
	out := make([]*discovery.EndpointSlice, len(in), cap(in))
	for i, s := range in {
		out[i] = s.DeepCopy()
	}
	return out
}
