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

package check

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/reconciler/trafficdist"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// Rules that judge what the default controller converges to beyond the
// endpoints themselves (hints.go).
const (
	// RuleEndpointHints: topology hints on an endpoint of the default
	// controller that KCM would remove or set otherwise.
	RuleEndpointHints RuleID = "endpoint-hints"
	// RuleEmptySliceStale: an empty slice of the default controller that
	// KCM would delete.
	RuleEmptySliceStale RuleID = "empty-slice-stale"
)

// checkHints applies endpoint-hints to a slice of the default controller
// for a Service it serves: it runs the slice, as an unchanged slice,
// through trafficdist.ReconcileHints with the hints the Service asks for
// (podendpoint.Hints, KCM's hintsEnabled and validTrafficDistribution). A
// slice the heuristic would update has wrong hints; the endpoints whose
// hints it changes are reported. Without any valid trafficDistribution the
// heuristic is KCM's RemoveHintsFromSlices (every hint removed).
func (c *checker) checkHints(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service) {
	h := podendpoint.Hints(svc, podendpoint.Options{})
	if h.TopologyAuto {
		return
	}
	_, updated, _ := trafficdist.ReconcileHints(h.TrafficDistribution, nil, nil, []*discovery.EndpointSlice{s})
	if len(updated) == 0 {
		return
	}
	want := updated[0]
	for i := range s.Endpoints {
		got := &s.Endpoints[i]
		w := &want.Endpoints[i]
		if hintsString(got.Hints) == hintsString(w.Hints) {
			continue
		}
		why := fmt.Sprintf("Service %s has neither a valid spec.trafficDistribution nor topology-mode Auto, so the EndpointSlice controller removes every hint", svc.Name)
		if h.TrafficDistribution != nil {
			why = fmt.Sprintf("Service %s has trafficDistribution %s", svc.Name, *h.TrafficDistribution)
		}
		c.add(SeverityError, RuleEndpointHints, ref, "endpoint %s: hints %s, want %s: %s", epName(i, got), hintsString(got.Hints), hintsString(w.Hints), why)
	}
}

// hintsString returns the hints as "forZones=[a] forNodes=[n]", or "none".
func hintsString(h *discovery.EndpointHints) string {
	if h == nil {
		return "none"
	}
	var zones, nodes []string
	for _, z := range h.ForZones {
		zones = append(zones, z.Name)
	}
	for _, n := range h.ForNodes {
		nodes = append(nodes, n.Name)
	}
	return fmt.Sprintf("forZones=[%s] forNodes=[%s]", strings.Join(zones, ","), strings.Join(nodes, ","))
}

// checkEmptySlices applies empty-slice-stale to the default controller's
// slices own of one Service, given the Service's desired endpoints: an
// empty slice whose port set (reconciler.PortMapKey, KCM's port mapping) is
// not the port set of any desired group of its address type is deleted by
// KCM when that address type has desired endpoints (C31; no placeholder is
// made then, C27). Groups without endpoints (all their Pods skipped) still
// count as desired port sets, as in KCM, whose port map entry precedes the
// Node lookup.
func (c *checker) checkEmptySlices(own []*discovery.EndpointSlice, desired *reconciler.Desired) {
	keys := map[discovery.AddressType]map[string]bool{}
	endpoints := map[discovery.AddressType]int{}
	for _, g := range desired.Groups {
		if keys[g.AddressType] == nil {
			keys[g.AddressType] = map[string]bool{}
		}
		keys[g.AddressType][reconciler.PortMapKey(g.Ports)] = true
		endpoints[g.AddressType] += len(g.Endpoints)
	}
	for _, s := range own {
		if len(s.Endpoints) > 0 || endpoints[s.AddressType] == 0 || keys[s.AddressType][reconciler.PortMapKey(s.Ports)] {
			continue
		}
		ports := "none"
		if len(s.Ports) > 0 {
			var ps []string
			for _, p := range s.Ports {
				ps = append(ps, fmt.Sprintf("%q %s/%d", deref(p.Name), protocolOf(p.Protocol), deref(p.Port)))
			}
			ports = strings.Join(ps, ", ")
		}
		c.add(SeverityWarning, RuleEmptySliceStale, sliceRef(s),
			"an empty slice (ports: %s) beside the Service's %d %s endpoint(s), which have other ports: the EndpointSlice controller deletes it",
			ports, endpoints[s.AddressType], s.AddressType)
	}
}
