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
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
)

// checkMirrorDrift applies mirror-drift to the mirrored slices of one
// Service: it computes what the mirroring controller publishes for the
// Endpoints object with the controller's own source (pkg/source/endpointsmirroring
// Desired, mirroring rules b3-b7 of docs/kep4770.md: subsets re-packed,
// not-ready wins for an address listed both ready and not ready, addresses
// keyed by IP and target, at most MirroringMaxEndpointsPerSubset addresses
// per re-packed subset with ready ones first, invalid IPs skipped, one group
// per address type and port set) and compares, by KCM's endpoint identity:
//   - every endpoint of a mirrored slice must be a desired endpoint of the
//     slice's address type and port set, with the same ready condition and
//     nodeName;
//   - every desired endpoint must be in a mirrored slice (reported on the
//     Endpoints object), as soon as the Service has a mirrored slice.
//
// It runs only when the slices are to be mirrored at all: Services and
// Endpoints known, the Service not delegated (KEP-4770, b14) and without
// selector, the Endpoints present and eligible (no skip-mirror label, no
// leader-election annotation, b1); otherwise the per-slice rules
// (mirror-ineligible, mirror-for-selector-service, delegated-builtin-slice)
// report the slices. When several re-packed subsets share one address type
// and port set and exceed the limit together, KCM keeps an arbitrary subset
// of them (endpointsmirroring.Result.Truncated): such full groups are not
// compared.
func (c *checker) checkMirrorDrift(k types.NamespacedName, ss []*discovery.EndpointSlice) {
	if !c.inv.Have.Services || !c.inv.Have.Endpoints {
		return
	}
	svc := c.services[k]
	ep := c.endpoints[k]
	if svc == nil || ep == nil || svc.Spec.Selector != nil || !mirrorEligible(ep) {
		return
	}
	if _, delegated := c.delegatedTo(svc); delegated {
		return
	}
	var mirrored []*discovery.EndpointSlice
	for _, s := range ss {
		if c.role(s.Labels[discovery.LabelManagedBy]) == roleMirror {
			mirrored = append(mirrored, s)
		}
	}
	if len(mirrored) == 0 {
		return
	}
	res, err := endpointsmirroring.Desired(ep, endpointsmirroring.Options{MaxEndpointsPerSubset: c.cfg.MirroringMaxEndpointsPerSubset})
	if err != nil {
		return // the limit is validated with the Config
	}

	type want struct {
		ep   discovery.Endpoint
		seen bool
	}
	desired := map[string]*want{}
	var order []string
	identities := map[string]bool{} // identities desired under any group
	ambiguous := map[string]bool{}  // groups KCM truncates arbitrarily
	for _, g := range res.Desired.Groups {
		gk := string(g.AddressType) + "\x00" + portListKey(g.Ports)
		if res.Truncated > 0 && len(g.Endpoints) >= int(c.cfg.MirroringMaxEndpointsPerSubset) {
			ambiguous[gk] = true
			continue
		}
		for i := range g.Endpoints {
			id := endpointIdentity(&g.Endpoints[i])
			identities[id] = true
			key := gk + "\x00" + id
			if desired[key] == nil {
				order = append(order, key)
			}
			desired[key] = &want{ep: g.Endpoints[i]}
		}
	}

	for _, s := range mirrored {
		ref := sliceRef(s)
		gk := string(s.AddressType) + "\x00" + portsKey(s)
		if ambiguous[gk] {
			continue
		}
		for i := range s.Endpoints {
			e := &s.Endpoints[i]
			if len(e.Addresses) == 0 {
				continue // api-limits
			}
			id := endpointIdentity(e)
			w := desired[gk+"\x00"+id]
			switch {
			case w == nil && identities[id]:
				c.add(SeverityError, RuleMirrorDrift, ref, "endpoint %s: Endpoints %s does not list it with ports %s (addressType %s)",
					describeEndpoint(e), ep.Name, portsKey(s), s.AddressType)
				continue
			case w == nil:
				c.add(SeverityError, RuleMirrorDrift, ref, "endpoint %s is not mirrored from Endpoints %s (not listed, beyond the %d addresses mirrored per subset, or not a valid IP)",
					describeEndpoint(e), ep.Name, c.cfg.MirroringMaxEndpointsPerSubset)
				continue
			}
			w.seen = true
			wantReady := deref(w.ep.Conditions.Ready)
			if e.Conditions.Ready == nil || *e.Conditions.Ready != wantReady {
				why := ""
				if !wantReady {
					why = " (an address listed both ready and not ready is not ready: not-ready wins)"
				}
				c.add(SeverityError, RuleMirrorDrift, ref, "endpoint %s is ready=%s, Endpoints %s lists it as %s%s",
					describeEndpoint(e), boolWord(e.Conditions.Ready), ep.Name, readyWord(wantReady), why)
			}
			if deref(e.NodeName) != deref(w.ep.NodeName) {
				c.add(SeverityError, RuleMirrorDrift, ref, "endpoint %s has nodeName %q, Endpoints %s lists %q",
					describeEndpoint(e), deref(e.NodeName), ep.Name, deref(w.ep.NodeName))
			}
		}
	}
	epRef := ObjectRef{Kind: "Endpoints", Namespace: ep.Namespace, Name: ep.Name}
	for _, key := range order {
		w := desired[key]
		if w.seen {
			continue
		}
		c.add(SeverityError, RuleMirrorDrift, epRef, "%s endpoint %s (%s) is not in any mirrored slice of Service %s",
			addressTypeOf(key), describeEndpoint(&w.ep), readyWord(deref(w.ep.Conditions.Ready)), svc.Name)
	}
}

// mirrorEligible reports whether the mirroring controller mirrors ep at
// all (b1; KCM endpointslicemirroring shouldMirror): not labelled
// skip-mirror=true, no leader-election annotation.
func mirrorEligible(ep *corev1.Endpoints) bool {
	return ep.Labels[discovery.LabelSkipMirror] != "true" && !hasKey(ep.Annotations, leaderAnnotation)
}

func addressTypeOf(key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] == 0 {
			return key[:i]
		}
	}
	return key
}

func readyWord(r bool) string {
	if r {
		return "ready"
	}
	return "not ready"
}
