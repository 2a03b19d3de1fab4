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
	discovery "k8s.io/api/discovery/v1"
	clientdiscovery "k8s.io/client-go/discovery"

	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// RuleControllerAPIMissing is the rule of APIFindings.
const RuleControllerAPIMissing RuleID = "controller-api-missing"

// APIFindings checks, in a live cluster, that the server serves the APIs
// (registry.Registration.Needs) of each controller of regs that inv shows
// in use: a Service asks for it (KEP-4770 label
// service.kubernetes.io/endpoint-controller-name) or a slice carries its
// managed-by value (its oracles' ControllerName, with options' settings).
// Each such controller whose API the server lacks is a warning on its
// first Service (else slice), naming the API and the release that
// introduced it: `slicekit run` leaves the controller out there, so those
// Services get no slices from it. It asks discovery once, and not at all
// when no such controller is in use; a failed discovery is a warning too.
func APIFindings(dc clientdiscovery.DiscoveryInterface, inv *Inventory, regs []registry.Registration, options map[string]registry.Options) []Finding {
	used := map[string]ObjectRef{}
	var inUse []registry.Registration
	for _, r := range regs {
		if len(r.Needs) == 0 {
			continue
		}
		if ref, ok := usedBy(inv, registry.Oracles([]registry.Registration{r}, options)); ok {
			used[r.Name] = ref
			inUse = append(inUse, r)
		}
	}
	if len(inUse) == 0 {
		return nil
	}
	unserved, err := registry.FindUnserved(dc, inUse)
	if err != nil {
		return []Finding{{Severity: SeverityWarning, Rule: RuleControllerAPIMissing, Object: used[inUse[0].Name],
			Reason: "cannot tell whether the server serves the APIs its controller needs: " + err.Error()}}
	}
	var out []Finding
	for _, u := range unserved {
		out = append(out, Finding{Severity: SeverityWarning, Rule: RuleControllerAPIMissing, Object: used[u.Controller],
			Reason: u.Message() + ": `slicekit run` leaves the controller out, so these Services get no slices from it"})
	}
	return out
}

// usedBy returns the first Service that asks for one of oracles' controller
// names, else the first slice that one manages, and whether there is one.
func usedBy(inv *Inventory, oracles []registry.Oracle) (ObjectRef, bool) {
	names := map[string]bool{}
	for _, o := range oracles {
		names[o.ControllerName] = true
	}
	if len(names) == 0 {
		return ObjectRef{}, false
	}
	for _, s := range inv.Services {
		if names[s.Labels[wellknown.LabelEndpointControllerName]] {
			return ObjectRef{Kind: "Service", Namespace: s.Namespace, Name: s.Name}, true
		}
	}
	for _, s := range inv.EndpointSlices {
		if names[s.Labels[discovery.LabelManagedBy]] {
			return ObjectRef{Kind: "EndpointSlice", Namespace: s.Namespace, Name: s.Name}, true
		}
	}
	return ObjectRef{}, false
}
