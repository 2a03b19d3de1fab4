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

// Rules of one slice as a whole: who manages it, its limits and address types.

import (
	"fmt"
	"net/netip"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

func (c *checker) checkSlice(s *discovery.EndpointSlice) {
	ref := sliceRef(s)
	mgr := s.Labels[discovery.LabelManagedBy]
	r := c.role(mgr)
	svcName := s.Labels[discovery.LabelServiceName]

	c.checkLimits(ref, s)
	c.checkAddressTypes(ref, s)
	c.checkCapacity(ref, s, r)
	if r == roleNone && !isAPIServerSlice(s) {
		c.add(SeverityWarning, RuleMissingManagedBy, ref, "no %s label: no controller claims this slice", discovery.LabelManagedBy)
	}
	if isAPIServerSlice(s) {
		// Written by kube-apiserver for default/kubernetes, without
		// managed-by or owner: only the checks above apply.
		return
	}
	if svcName == "" {
		c.add(sev(r.builtin()), RuleMissingServiceName, ref, "no %s label: no Service uses this slice (managed by %q): %s", discovery.LabelServiceName, mgr, consumersOfServiceName)
		return
	}
	if !c.inv.Have.Services {
		return
	}
	svc := c.services[nn(s.Namespace, svcName)]
	if svc == nil {
		c.add(SeverityError, RuleOrphan, ref, "Service %s/%s does not exist (slice managed by %q)", s.Namespace, svcName, mgr)
		return
	}

	stale := false
	if target, ok := c.delegatedTo(svc); ok {
		switch {
		case r.builtin():
			stale = true
			c.add(SeverityError, RuleDelegatedBuiltin, ref,
				"stale: Service %s is labelled %s=%q (KEP-4770) but this slice is still managed by %s%s",
				svc.Name, wellknown.LabelEndpointControllerName, target, mgr, selectorlessHint(svc, r))
		case r == roleOther && target != "" && mgr != target && !c.inDeclaredSet(s):
			// A declared slice set (Config.SliceSetLabels) is published
			// beside the Service's controller on purpose (remote
			// clusters, another network), whoever that controller is.
			c.add(SeverityError, RuleDelegatedForeign, ref,
				"Service %s is labelled %s=%q (KEP-4770) but this slice is managed by a third controller %q",
				svc.Name, wellknown.LabelEndpointControllerName, target, mgr)
		}
	}

	switch r {
	case roleMirror:
		c.checkMirror(ref, s, svc)
	case roleDefault:
		c.checkDefault(ref, s, svc, stale)
	default:
		if svc.Spec.Type == corev1.ServiceTypeExternalName {
			c.add(SeverityWarning, RuleExternalName, ref, "Service %s is of type ExternalName: nothing consumes its endpoints", svc.Name)
		}
		c.checkServiceOwner(ref, s, svc, false)
	}
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		return
	}
	c.checkHeadless(ref, s, svc, r)
	c.checkFamily(ref, s, svc, r)
	c.checkServicePorts(ref, s, svc, r)
	if r == roleDefault && !stale && selectorDerived(svc, r) && svc.DeletionTimestamp == nil {
		c.checkHints(ref, s, svc)
	}
	if selectorDerived(svc, r) && c.inv.Have.Pods {
		c.checkPodEndpoints(ref, s, svc, r)
	}
}

// checkLimits applies the API's size limits.
func (c *checker) checkLimits(ref ObjectRef, s *discovery.EndpointSlice) {
	if n := len(s.Endpoints); n > maxEndpoints {
		c.add(SeverityError, RuleAPILimits, ref, "%d endpoints, the API allows at most %d per slice", n, maxEndpoints)
	}
	if n := len(s.Ports); n > maxPorts {
		c.add(SeverityError, RuleAPILimits, ref, "%d ports, the API allows at most %d per slice", n, maxPorts)
	}
	seen := map[string]bool{}
	for _, p := range s.Ports {
		name := deref(p.Name)
		if seen[name] {
			c.add(SeverityError, RuleAPILimits, ref, "port name %q appears twice; port names must be unique in a slice", name)
		}
		seen[name] = true
	}
	for i, e := range s.Endpoints {
		switch n := len(e.Addresses); {
		case n == 0:
			c.add(SeverityError, RuleAPILimits, ref, "endpoint %d has no address; the API requires 1 to %d", i, maxAddresses)
		case n > maxAddresses:
			c.add(SeverityError, RuleAPILimits, ref, "endpoint %s has %d addresses, the API allows at most %d", epName(i, &e), n, maxAddresses)
		}
		if e.Hints != nil {
			if n := len(e.Hints.ForZones); n > maxZoneHints {
				c.add(SeverityError, RuleAPILimits, ref, "endpoint %s has %d zone hints, the API allows at most %d", epName(i, &e), n, maxZoneHints)
			}
			if n := len(e.Hints.ForNodes); n > maxNodeHints {
				c.add(SeverityError, RuleAPILimits, ref, "endpoint %s has %d node hints, the API allows at most %d", epName(i, &e), n, maxNodeHints)
			}
		}
	}
}

// epName names an endpoint by its first address, else its index.
func epName(i int, e *discovery.Endpoint) string {
	if len(e.Addresses) > 0 {
		return e.Addresses[0]
	}
	return fmt.Sprintf("#%d", i)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// checkAddressTypes checks every address against the slice's addressType.
func (c *checker) checkAddressTypes(ref ObjectRef, s *discovery.EndpointSlice) {
	at := s.AddressType
	switch at {
	case discovery.AddressTypeIPv4, discovery.AddressTypeIPv6, discovery.AddressTypeFQDN:
	default:
		c.add(SeverityError, RuleAddressType, ref, "addressType %q is not one of IPv4, IPv6, FQDN", at)
		return
	}
	for _, e := range s.Endpoints {
		for _, a := range e.Addresses {
			if ok, what := addressMatches(at, a); !ok {
				c.add(SeverityError, RuleAddressType, ref, "address %q in a slice of addressType %s is %s", a, at, what)
			}
		}
	}
}

// addressMatches reports whether a is an address of type at, and if not,
// what it is.
func addressMatches(at discovery.AddressType, a string) (bool, string) {
	ip, err := netip.ParseAddr(a)
	switch at {
	case discovery.AddressTypeFQDN:
		if err == nil {
			return false, "an IP address"
		}
		if msgs := validation.IsDNS1123Subdomain(a); len(msgs) > 0 {
			return false, "not a domain name"
		}
		return true, ""
	case discovery.AddressTypeIPv4:
		switch {
		case err != nil:
			return false, "not a valid IP address"
		case !ip.Is4():
			return false, "an IPv6 address"
		}
	case discovery.AddressTypeIPv6:
		switch {
		case err != nil:
			return false, "not a valid IP address"
		case ip.Is4() || ip.Is4In6():
			return false, "an IPv4 address"
		case ip.Zone() != "":
			return false, "an IPv6 address with a zone"
		}
	}
	return true, ""
}
