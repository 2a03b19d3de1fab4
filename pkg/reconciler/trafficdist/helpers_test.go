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
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/utils/ptr"
)

// testEndpoint builds the endpoints of the test tables: one address, its
// zone ("" for none), its node and its readiness; ep, forZone, forNode and
// forZoneAndNode return it without hints or with the hints named.
type testEndpoint struct{ e discovery.Endpoint }

// readyEP returns a ready endpoint.
func readyEP(addr, zone, node string) testEndpoint { return newTestEndpoint(addr, zone, node, true) }

// notReadyEP returns an endpoint that is not ready.
func notReadyEP(addr, zone, node string) testEndpoint {
	return newTestEndpoint(addr, zone, node, false)
}

func newTestEndpoint(addr, zone, node string, ready bool) testEndpoint {
	e := discovery.Endpoint{
		Addresses:  []string{addr},
		NodeName:   ptr.To(node),
		Conditions: discovery.EndpointConditions{Ready: ptr.To(ready)},
	}
	if zone != "" {
		e.Zone = ptr.To(zone)
	}
	return testEndpoint{e}
}

// ep returns the endpoint without hints.
func (t testEndpoint) ep() discovery.Endpoint { return t.e }

// forZone returns the endpoint with the zone hint zone.
func (t testEndpoint) forZone(zone string) discovery.Endpoint {
	e := t.e
	e.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: zone}}}
	return e
}

// forNode returns the endpoint with the node hint node only.
func (t testEndpoint) forNode(node string) discovery.Endpoint {
	e := t.e
	e.Hints = &discovery.EndpointHints{ForNodes: []discovery.ForNode{{Name: node}}}
	return e
}

// forZoneAndNode returns the endpoint with the zone hint zone and the node
// hint node.
func (t testEndpoint) forZoneAndNode(zone, node string) discovery.Endpoint {
	e := t.e
	e.Hints = &discovery.EndpointHints{
		ForZones: []discovery.ForZone{{Name: zone}},
		ForNodes: []discovery.ForNode{{Name: node}},
	}
	return e
}

// slice returns an EndpointSlice of eps (no other field set, as the
// tables need).
func slice(eps ...discovery.Endpoint) *discovery.EndpointSlice {
	return &discovery.EndpointSlice{Endpoints: eps}
}
