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
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/utils/ptr"
)

// testEndpoint builds the endpoints of the test tables: one address and
// its zone, ready, not ready or with readiness unset; ep and forZone return
// it without hints or with a zone hint.
type testEndpoint struct{ e discovery.Endpoint }

// testEP returns an endpoint whose conditions.ready is ready.
func testEP(addr, zone string, ready bool) testEndpoint {
	e := testEPNoReady(addr, zone)
	e.e.Conditions.Ready = ptr.To(ready)
	return e
}

// testEPNoReady returns an endpoint without conditions.ready.
func testEPNoReady(addr, zone string) testEndpoint {
	e := discovery.Endpoint{Addresses: []string{addr}}
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
