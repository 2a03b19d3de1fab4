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
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	utilnet "k8s.io/utils/net"
)

// The consumer rules: what the programs that read EndpointSlices (kube-proxy,
// CoreDNS, Cilium, Istio, Envoy Gateway, ingress-nginx, kyverno, MetalLB,
// kube-vip) assume of a slice, whichever controller wrote it. Each finding
// names the consumer the slice would break. The facts and their sources are
// in docs/consumers.md.
const (
	// RuleReadyUnset: an endpoint without conditions.ready.
	RuleReadyUnset RuleID = "ready-unset"
	// RulePortUnset: a slice port without a number (or 0), name or
	// protocol.
	RulePortUnset RuleID = "port-unset"
	// RuleMultipleAddresses: an endpoint with more than one address.
	RuleMultipleAddresses RuleID = "multiple-addresses"
	// RuleLocalPolicyNodeName: an endpoint without nodeName for a Service
	// with a Local traffic policy.
	RuleLocalPolicyNodeName RuleID = "nodename-for-local-policy"
	// RulePartialHints: some ready endpoints of a Service port have hints,
	// others none.
	RulePartialHints RuleID = "partial-hints"
	// RuleNonCanonicalIP: an address not in its canonical form.
	RuleNonCanonicalIP RuleID = "non-canonical-ip"
	// RuleTriggerTime: the last-change-trigger-time annotation is missing
	// from every slice of a controller, or cannot be read.
	RuleTriggerTime RuleID = "trigger-time"
	// RuleSecondaryPodTargetRef: a Pod targetRef on an endpoint of another
	// network than the Pod's status.podIPs, for a dual-stack Service.
	RuleSecondaryPodTargetRef RuleID = "pod-targetref-secondary-network"
	// RuleMergedNetworks: a Service's slices hold both Pods' status.podIPs
	// and other addresses of Pods.
	RuleMergedNetworks RuleID = "merged-networks"
)

// ConsumerRules returns the rules that protect what EndpointSlice
// consumers assume of a slice, in documentation order: the nine consumer
// rules of this file and the two older rules that serve consumers too
// (missing-service-name, headless-label). The conformance suite's
// ConsumerRules feature fails on any finding of these rules.
func ConsumerRules() []RuleID {
	return []RuleID{
		RuleMissingServiceName, RuleHeadlessLabel,
		RuleReadyUnset, RulePortUnset, RuleMultipleAddresses, RuleLocalPolicyNodeName, RulePartialHints,
		RuleNonCanonicalIP, RuleTriggerTime, RuleSecondaryPodTargetRef, RuleMergedNetworks,
	}
}

// consumerServiceRules are the consumer rules that need the Services.
var consumerServiceRules = []RuleID{RuleLocalPolicyNodeName, RuleSecondaryPodTargetRef}

// Consumers named by the findings.
const (
	consumersOfServiceName = "kube-proxy skips it; CoreDNS, Cilium, Istio and Envoy Gateway cannot attach it to a Service"
	consumersOfNilReady    = "ingress-nginx before PR #9550 and kyverno (#16543) panic on it; kube-proxy, CoreDNS, Cilium and Istio read it as ready"
)

// maxListed is the most addresses a consumer finding lists.
const maxListed = 3

// listSome returns up to maxListed items joined by ", " and a count of the
// others.
func listSome(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:maxListed], ", "), len(items)-maxListed)
}

// truthy reads an endpoint condition as the consumers do: nil is true.
func truthy(p *bool) bool { return p == nil || *p }

// checkConsumers applies the consumer rules to every slice of the input,
// foreign ones included, and to the slices of each service-name together.
func (c *checker) checkConsumers() {
	for _, s := range c.inv.EndpointSlices {
		ref := sliceRef(s)
		c.checkReadyUnset(ref, s)
		c.checkPortUnset(ref, s)
		c.checkMultipleAddresses(ref, s)
		c.checkCanonicalIPs(ref, s)
		c.checkTriggerTimeValue(ref, s)
		svc := c.consumerService(s)
		if svc == nil {
			continue
		}
		c.checkLocalPolicyNodeName(ref, s, svc)
		c.checkSecondaryPodTargetRef(ref, s, svc)
	}
	c.checkTriggerTimeWriters()
	for _, g := range c.serviceNameGroups() {
		c.checkPartialHints(g)
		c.checkMergedNetworks(g)
	}
}

// consumerService returns the Service of s when the input has Services
// and the Service is one consumers serve (not ExternalName), else nil.
func (c *checker) consumerService(s *discovery.EndpointSlice) *corev1.Service {
	name := s.Labels[discovery.LabelServiceName]
	if name == "" || !c.inv.Have.Services {
		return nil
	}
	svc := c.services[nn(s.Namespace, name)]
	if svc == nil || svc.Spec.Type == corev1.ServiceTypeExternalName {
		return nil
	}
	return svc
}

func (c *checker) checkReadyUnset(ref ObjectRef, s *discovery.EndpointSlice) {
	var unset []string
	for i := range s.Endpoints {
		if s.Endpoints[i].Conditions.Ready == nil {
			unset = append(unset, epName(i, &s.Endpoints[i]))
		}
	}
	if len(unset) > 0 {
		c.add(SeverityWarning, RuleReadyUnset, ref, "%s without conditions.ready (%s): %s",
			plural(len(unset), "endpoint"), listSome(unset), consumersOfNilReady)
	}
}

func (c *checker) checkPortUnset(ref ObjectRef, s *discovery.EndpointSlice) {
	svc := c.consumerService(s)
	for i, p := range s.Ports {
		name := fmt.Sprintf("port #%d", i)
		if p.Name != nil {
			name = fmt.Sprintf("port %q", *p.Name)
		}
		switch {
		case p.Port == nil:
			c.add(SeverityError, RulePortUnset, ref, "%s has no number: Envoy Gateway dereferences it and panics; kube-proxy and Cilium skip the port", name)
		case *p.Port == 0 && svc != nil && p.Name != nil && undefaultedTargetPort(svc, *p.Name):
			// KCM's FindPort copies the zero targetPort of a Service
			// object no API server defaulted (a hand-made input).
			c.add(SeverityWarning, RulePortUnset, ref, "%s has number 0, copied from Service %s's port without targetPort (an object no API server defaulted): kube-proxy skips the port", name, svc.Name)
		case *p.Port == 0:
			c.add(SeverityError, RulePortUnset, ref, "%s has number 0: kube-proxy skips the port and the API server rejects it", name)
		}
		if p.Name == nil {
			c.add(SeverityWarning, RulePortUnset, ref, "%s has no name: kube-proxy skips the port (the API server would default it to \"\")", name)
		}
		if p.Protocol == nil {
			c.add(SeverityWarning, RulePortUnset, ref, "%s has no protocol: kube-proxy dereferences it and panics (the API server would default it to TCP)", name)
		}
	}
}

// undefaultedTargetPort reports whether svc has a port of that name with
// the zero targetPort, which the API server defaults to the port.
func undefaultedTargetPort(svc *corev1.Service, name string) bool {
	for i := range svc.Spec.Ports {
		if sp := &svc.Spec.Ports[i]; sp.Name == name {
			return unsetTargetPortZero(sp, 0)
		}
	}
	return false
}

func (c *checker) checkMultipleAddresses(ref ObjectRef, s *discovery.EndpointSlice) {
	if s.AddressType != discovery.AddressTypeIPv4 && s.AddressType != discovery.AddressTypeIPv6 {
		return // kube-proxy reads no FQDN slice
	}
	var multi []string
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		if len(e.Addresses) > 1 {
			multi = append(multi, fmt.Sprintf("%s (+%d)", epName(i, e), len(e.Addresses)-1))
		}
	}
	if len(multi) > 0 {
		c.add(SeverityWarning, RuleMultipleAddresses, ref,
			"%s with more than one address (%s): kube-proxy uses only the first address, CoreDNS and Cilium use all, so proxied traffic and DNS answers disagree; publish one address per endpoint",
			plural(len(multi), "endpoint"), listSome(multi))
	}
}

// canonicalForm returns the canonical form of the IP address a and
// whether a is an IP address the API's sloppy parser reads (k8s.io/utils/net
// ParseIPSloppy: IPv4 octets with leading zeros read as decimal).
func canonicalForm(a string) (string, bool) {
	ip := utilnet.ParseIPSloppy(a)
	if ip == nil {
		return "", false
	}
	return ip.String(), true
}

func (c *checker) checkCanonicalIPs(ref ObjectRef, s *discovery.EndpointSlice) {
	if s.AddressType != discovery.AddressTypeIPv4 && s.AddressType != discovery.AddressTypeIPv6 {
		return
	}
	var bad []string
	leadingZero, ipv6 := false, false
	for _, e := range s.Endpoints {
		for _, a := range e.Addresses {
			want, ok := canonicalForm(a)
			if !ok || want == a {
				continue
			}
			bad = append(bad, fmt.Sprintf("%s (canonical %s)", a, want))
			if strings.Contains(a, ":") {
				ipv6 = true
			} else {
				leadingZero = true
			}
		}
	}
	if len(bad) == 0 {
		return
	}
	var consumers []string
	consumers = append(consumers, "the API server rejects it on the next write")
	if leadingZero {
		consumers = append(consumers, "CoreDNS answers a leading-zero IPv4 address as a name (CNAME), not an A record")
	}
	if ipv6 {
		consumers = append(consumers, "CoreDNS finds no PTR record for a non-canonical IPv6 address")
	}
	c.add(SeverityError, RuleNonCanonicalIP, ref, "%s not in canonical form (%s): %s",
		plural(len(bad), "address"), listSome(bad), strings.Join(consumers, "; "))
}

// checkTriggerTimeValue reports a trigger-time annotation that is not an
// RFC 3339 time (kube-proxy parses it with time.RFC3339Nano).
func (c *checker) checkTriggerTimeValue(ref ObjectRef, s *discovery.EndpointSlice) {
	v, ok := s.Annotations[corev1.EndpointsLastChangeTriggerTime]
	if !ok {
		return
	}
	if _, err := time.Parse(time.RFC3339Nano, v); err != nil {
		c.add(SeverityWarning, RuleTriggerTime, ref,
			"annotation %s=%q is not an RFC 3339 time: kube-proxy and CoreDNS log an error and record no programming latency for this change",
			corev1.EndpointsLastChangeTriggerTime, v)
	}
}

// checkTriggerTimeWriters reports each controller other than the built-in
// ones none of whose slices in the input carries the trigger-time
// annotation, on its first slice with endpoints. A single slice without it
// is no fault: KCM removes it on writes no Pod readiness change or new
// Service triggered (k8s.io/endpointslice addTriggerTimeAnnotation).
func (c *checker) checkTriggerTimeWriters() {
	type writer struct {
		n, withEndpoints int
		has              bool
		first            *discovery.EndpointSlice
	}
	writers := map[string]*writer{}
	for _, s := range c.inv.EndpointSlices {
		mgr := s.Labels[discovery.LabelManagedBy]
		if r := c.role(mgr); r != roleOther {
			continue
		}
		if svc := c.services[nn(s.Namespace, s.Labels[discovery.LabelServiceName])]; c.inv.Have.Services && (svc == nil || svc.CreationTimestamp.IsZero()) {
			// KCM's first sync of a Service uses its creationTimestamp:
			// a Service never stored by an API server (a hand-made
			// input) gives no trigger time, and an orphan says nothing.
			continue
		}
		w := writers[mgr]
		if w == nil {
			w = &writer{}
			writers[mgr] = w
		}
		w.n++
		if hasKey(s.Annotations, corev1.EndpointsLastChangeTriggerTime) {
			w.has = true
		}
		if len(s.Endpoints) > 0 {
			w.withEndpoints++
			if w.first == nil || cmp.Or(cmp.Compare(s.Namespace, w.first.Namespace), cmp.Compare(s.Name, w.first.Name)) < 0 {
				w.first = s
			}
		}
	}
	for mgr, w := range writers {
		if w.has || w.first == nil {
			continue
		}
		c.add(SeverityWarning, RuleTriggerTime, sliceRef(w.first),
			"none of the %s of controller %s in the input carries the %s annotation: kube-proxy's network_programming_duration_seconds and CoreDNS's programming latency have no data for its Services (KCM writes it on every write a new Service or a Pod readiness change triggers)",
			plural(w.n, "slice"), mgr, corev1.EndpointsLastChangeTriggerTime)
	}
}

// localPolicy returns which Local traffic policies svc has and whether
// load-balancer speakers (MetalLB, kube-vip) depend on nodeName.
func localPolicy(svc *corev1.Service) (policies []string, speakers bool) {
	if svc.Spec.InternalTrafficPolicy != nil && *svc.Spec.InternalTrafficPolicy == corev1.ServiceInternalTrafficPolicyLocal {
		policies = append(policies, "internalTrafficPolicy")
	}
	etpLocal := svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
	if etpLocal {
		policies = append(policies, "externalTrafficPolicy")
	}
	return policies, etpLocal && svc.Spec.Type == corev1.ServiceTypeLoadBalancer
}

func (c *checker) checkLocalPolicyNodeName(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service) {
	if s.AddressType != discovery.AddressTypeIPv4 && s.AddressType != discovery.AddressTypeIPv6 {
		return
	}
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		return // kube-proxy proxies no headless Service, and no speaker announces one
	}
	policies, speakers := localPolicy(svc)
	if len(policies) == 0 {
		return
	}
	var missing []string
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		if e.NodeName != nil && *e.NodeName != "" {
			continue
		}
		if !truthy(e.Conditions.Ready) && !truthy(e.Conditions.Serving) {
			continue // carries no traffic, not even as a terminating fallback
		}
		if pod := c.targetPod(s, e); pod != nil && pod.Spec.NodeName == "" {
			continue // the Pod names no Node: nobody can know it
		}
		missing = append(missing, epName(i, e))
	}
	if len(missing) == 0 {
		return
	}
	why := fmt.Sprintf("Service %s has %s Local, so kube-proxy never counts them as local endpoints and drops the traffic it would send them", svc.Name, strings.Join(policies, " and "))
	if speakers {
		why += "; MetalLB and kube-vip do not announce the load-balancer IP from their nodes"
	}
	c.add(SeverityError, RuleLocalPolicyNodeName, ref, "%s without nodeName (%s): %s",
		plural(len(missing), "endpoint"), listSome(missing), why)
}

// targetPod returns the Pod an endpoint's targetRef names, when the input
// has Pods and the Pod exists with the same uid (when both have one).
func (c *checker) targetPod(s *discovery.EndpointSlice, e *discovery.Endpoint) *corev1.Pod {
	tr := e.TargetRef
	if !c.inv.Have.Pods || tr == nil || tr.Kind != "Pod" {
		return nil
	}
	ns := cmp.Or(tr.Namespace, s.Namespace)
	pod := c.pods[nn(ns, tr.Name)]
	if pod == nil || tr.UID != "" && pod.UID != "" && tr.UID != pod.UID {
		return nil
	}
	return pod
}

// podIPSet returns the canonical status.podIPs (and status.podIP) of pod.
func podIPSet(pod *corev1.Pod) map[string]bool {
	ips := map[string]bool{}
	for _, ip := range pod.Status.PodIPs {
		ips[canonicalIP(ip.IP)] = true
	}
	if pod.Status.PodIP != "" {
		ips[canonicalIP(pod.Status.PodIP)] = true
	}
	return ips
}

// dualStackClusterIPs reports whether svc has two cluster IPs (Istio's
// condition: len(spec.clusterIPs) > 1). Without spec.clusterIPs (an object
// not defaulted by the API server), a cluster IP and two ipFamilies count.
func dualStackClusterIPs(svc *corev1.Service) bool {
	if len(svc.Spec.ClusterIPs) > 0 {
		return len(svc.Spec.ClusterIPs) > 1
	}
	ip := svc.Spec.ClusterIP
	return ip != "" && ip != corev1.ClusterIPNone && len(svc.Spec.IPFamilies) > 1
}

func (c *checker) checkSecondaryPodTargetRef(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service) {
	if !dualStackClusterIPs(svc) || s.AddressType != discovery.AddressTypeIPv4 && s.AddressType != discovery.AddressTypeIPv6 {
		return
	}
	secondaryController := c.cfg.otherNetwork(s.Labels[discovery.LabelManagedBy])
	var found []string
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		if e.TargetRef == nil || e.TargetRef.Kind != "Pod" {
			continue
		}
		if !c.inv.Have.Pods {
			if secondaryController {
				found = append(found, fmt.Sprintf("%s (Pod %s)", epName(i, e), e.TargetRef.Name))
			}
			continue
		}
		pod := c.targetPod(s, e)
		if pod == nil || len(pod.Status.PodIPs) < 2 {
			continue
		}
		ips := podIPSet(pod)
		for _, a := range e.Addresses {
			if !ips[canonicalIP(a)] {
				found = append(found, fmt.Sprintf("%s (Pod %s)", a, pod.Name))
				break
			}
		}
	}
	if len(found) == 0 {
		return
	}
	c.add(SeverityWarning, RuleSecondaryPodTargetRef, ref,
		"%s with a Pod targetRef and an address that is not the Pod's status.podIPs (%s), for dual-stack Service %s: Istio (dual stack) replaces the addresses with the Pod's status.podIPs, sending this Service's traffic to the primary network, and drops the endpoints of IPv6 slices; omit the targetRef or document it",
		plural(len(found), "endpoint"), listSome(found), svc.Name)
}

// serviceNameGroup is the slices of one namespace and service-name, as
// kube-proxy and CoreDNS merge them.
type serviceNameGroup struct {
	key    types.NamespacedName
	slices []*discovery.EndpointSlice
}

// serviceNameGroups returns the slices grouped by namespace and
// service-name, in input order (slices without the label are left out).
func (c *checker) serviceNameGroups() []*serviceNameGroup {
	idx := map[types.NamespacedName]*serviceNameGroup{}
	var out []*serviceNameGroup
	for _, s := range c.inv.EndpointSlices {
		name := s.Labels[discovery.LabelServiceName]
		if name == "" {
			continue
		}
		k := nn(s.Namespace, name)
		g := idx[k]
		if g == nil {
			g = &serviceNameGroup{key: k}
			idx[k] = g
			out = append(out, g)
		}
		g.slices = append(g.slices, s)
	}
	return out
}

// hintCount counts the ready endpoints of one port of one address family.
type hintCount struct {
	family, port              string
	ready, zoneHint, nodeHint int
	noZone, noNode            []string // ready endpoints without zone (node) hints, "address (slice)"
	noZoneNoZoneField         int      // of noZone, those without a zone
}

// checkPartialHints applies kube-proxy's rule (topologyModeFromHints):
// hints of a Service port are used only if every ready endpoint of it has
// some; endpoints are grouped by address family and port as kube-proxy
// groups them (all slices of the service-name, ports by name and protocol,
// ports without name or number skipped).
func (c *checker) checkPartialHints(g *serviceNameGroup) {
	counts := map[string]*hintCount{}
	var keys []string
	for _, s := range g.slices {
		if s.AddressType != discovery.AddressTypeIPv4 && s.AddressType != discovery.AddressTypeIPv6 {
			continue
		}
		for _, p := range s.Ports {
			if p.Name == nil || p.Port == nil || *p.Port == 0 {
				continue // kube-proxy skips these ports
			}
			k := fmt.Sprintf("%s %q/%s", s.AddressType, *p.Name, protocolOf(p.Protocol))
			hc := counts[k]
			if hc == nil {
				hc = &hintCount{family: string(s.AddressType), port: fmt.Sprintf("%q/%s", *p.Name, protocolOf(p.Protocol))}
				counts[k] = hc
				keys = append(keys, k)
			}
			for i := range s.Endpoints {
				e := &s.Endpoints[i]
				if len(e.Addresses) == 0 || !truthy(e.Conditions.Ready) {
					continue
				}
				hc.ready++
				where := fmt.Sprintf("%s in %s", e.Addresses[0], s.Name)
				if e.Hints != nil && len(e.Hints.ForZones) > 0 {
					hc.zoneHint++
				} else {
					hc.noZone = append(hc.noZone, where)
					if e.Zone == nil || *e.Zone == "" {
						hc.noZoneNoZoneField++
					}
				}
				if e.Hints != nil && len(e.Hints.ForNodes) > 0 {
					hc.nodeHint++
				} else {
					hc.noNode = append(hc.noNode, where)
				}
			}
		}
	}
	ref := serviceRef(g.key.Namespace, g.key.Name)
	for _, k := range keys {
		hc := counts[k]
		if hc.zoneHint > 0 && hc.zoneHint < hc.ready {
			cause := ""
			if hc.noZoneNoZoneField == len(hc.noZone) {
				cause = " (they have no zone: their Nodes lack the topology.kubernetes.io/zone label, and KCM's trafficDistribution heuristic gives such endpoints no hint either)"
			}
			c.add(SeverityWarning, RulePartialHints, ref,
				"%d of %d ready %s endpoints of port %s have zone hints, %d none (%s)%s: kube-proxy and ingress-nginx ignore every zone hint of the port and route cluster-wide",
				hc.zoneHint, hc.ready, hc.family, hc.port, len(hc.noZone), listSome(hc.noZone), cause)
		}
		if hc.nodeHint > 0 && hc.nodeHint < hc.ready {
			c.add(SeverityWarning, RulePartialHints, ref,
				"%d of %d ready %s endpoints of port %s have node hints, %d none (%s): kube-proxy ignores every node hint of the port (PreferSameNode) and falls back to zone hints",
				hc.nodeHint, hc.ready, hc.family, hc.port, len(hc.noNode), listSome(hc.noNode))
		}
	}
}

// checkMergedNetworks reports a service-name whose slices include both a
// slice of primary addresses of Pods (status.podIPs) and a slice of other
// addresses of Pods. Slices are classified whole: a slice holding both
// kinds is a slice of Pods' addresses with stale endpoints (an IP that
// changed; endpoint-address-not-pod-ip and endpoint-missing judge those),
// not another network. With Pods in the input the addresses decide;
// without, the managed-by values of the default and the secondary-network
// controllers do.
func (c *checker) checkMergedNetworks(g *serviceNameGroup) {
	otherNames := map[string]bool{}
	var primary, secondary []string
	var primarySlices, secondarySlices []string
	for _, s := range g.slices {
		if s.AddressType != discovery.AddressTypeIPv4 && s.AddressType != discovery.AddressTypeIPv6 {
			continue
		}
		var prim, sec []string
		for i := range s.Endpoints {
			e := &s.Endpoints[i]
			if len(e.Addresses) == 0 {
				continue
			}
			if !c.inv.Have.Pods {
				switch mgr := s.Labels[discovery.LabelManagedBy]; {
				case mgr == c.cfg.DefaultControllerName:
					prim = append(prim, e.Addresses[0])
				case c.cfg.otherNetwork(mgr):
					sec = append(sec, e.Addresses[0])
					otherNames[mgr] = true
				}
				continue
			}
			pod := c.targetPod(s, e)
			if pod == nil {
				continue
			}
			ips := podIPSet(pod)
			for _, a := range e.Addresses {
				what := fmt.Sprintf("%s (Pod %s)", a, pod.Name)
				if ips[canonicalIP(a)] {
					prim = append(prim, what)
				} else {
					sec = append(sec, what)
				}
			}
		}
		switch {
		case len(prim) > 0 && len(sec) == 0:
			primary = append(primary, prim...)
			primarySlices = append(primarySlices, s.Name)
		case len(sec) > 0 && len(prim) == 0:
			secondary = append(secondary, sec...)
			secondarySlices = append(secondarySlices, s.Name)
		}
	}
	if len(primary) == 0 || len(secondary) == 0 {
		return
	}
	basis, other := "slices of Pods' status.podIPs", "slices of other addresses of Pods"
	if !c.inv.Have.Pods {
		basis, other = "slices of "+c.cfg.DefaultControllerName, "slices of "+strings.Join(slices.Sorted(maps.Keys(otherNames)), " and ")
	}
	slices.Sort(primarySlices)
	slices.Sort(secondarySlices)
	c.add(SeverityWarning, RuleMergedNetworks, serviceRef(g.key.Namespace, g.key.Name),
		"it has both %s (%s: %s) and %s (%s: %s): kube-proxy and CoreDNS merge every slice of a service-name whatever its managed-by, so traffic and DNS answers go to both networks; give the secondary network its own Service unless this is meant",
		basis, strings.Join(primarySlices, ", "), listSome(primary),
		other, strings.Join(secondarySlices, ", "), listSome(secondary))
}
