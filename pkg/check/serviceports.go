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

// Rules that compare a slice with its Service's spec: headless label, address family, ports.

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
)

// checkHeadless compares the headless label with the Service.
func (c *checker) checkHeadless(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	_, labelled := s.Labels[corev1.IsHeadlessService]
	ip := svc.Spec.ClusterIP
	switch {
	case labelled && ip != "" && ip != corev1.ClusterIPNone:
		c.add(SeverityError, RuleHeadlessLabel, ref,
			"labelled %s but Service %s has cluster IP %s: kube-proxy ignores this slice (it watches only slices without the label)", corev1.IsHeadlessService, svc.Name, ip)
	case !labelled && ip == corev1.ClusterIPNone && r == roleDefault:
		c.add(SeverityWarning, RuleHeadlessLabel, ref, "Service %s is headless but the slice lacks the %s label: kube-proxy, which proxies no headless Service, watches and caches it for nothing", svc.Name, corev1.IsHeadlessService)
	}
}

// checkFamily checks the slice's address type against the Service's IP
// families.
//
// The secondary-network and dra-network controllers publish both families
// for a headless Service whatever its spec.ipFamilies (their addresses are
// not bound to the cluster's families; pkg/source/networkstatus and
// pkg/source/networkdata AddressTypes): their slices of a headless
// Service are not judged.
func (c *checker) checkFamily(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	if len(svc.Spec.IPFamilies) == 0 {
		return
	}
	if svc.Spec.ClusterIP == corev1.ClusterIPNone && c.cfg.podAddressController(s.Labels[discovery.LabelManagedBy]) {
		return
	}
	var fam corev1.IPFamily
	switch s.AddressType {
	case discovery.AddressTypeIPv4:
		fam = corev1.IPv4Protocol
	case discovery.AddressTypeIPv6:
		fam = corev1.IPv6Protocol
	default:
		return
	}
	if !slices.Contains(svc.Spec.IPFamilies, fam) {
		c.add(sev(r == roleDefault), RuleAddressFamily, ref, "addressType %s but Service %s has ipFamilies %v", s.AddressType, svc.Name, svc.Spec.IPFamilies)
	}
}

// protocolOf returns p or TCP (the API default).
func protocolOf(p *corev1.Protocol) corev1.Protocol {
	if p == nil || *p == "" {
		return corev1.ProtocolTCP
	}
	return *p
}

func svcProtocol(p corev1.Protocol) corev1.Protocol {
	if p == "" {
		return corev1.ProtocolTCP
	}
	return p
}

// checkServicePorts checks every slice port against the Service's ports:
// name, protocol and, for a numeric targetPort, the number.
func (c *checker) checkServicePorts(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	derived := selectorDerived(svc, r)
	byName := map[string]*corev1.ServicePort{}
	var names []string
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		byName[p.Name] = p
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	for _, p := range s.Ports {
		name := deref(p.Name)
		sp := byName[name]
		switch {
		case sp == nil:
			c.add(sev(derived), RulePortMismatch, ref, "port %q is not a port of Service %s (ports: %s)", name, svc.Name, strings.Join(names, ", "))
		case protocolOf(p.Protocol) != svcProtocol(sp.Protocol):
			c.add(sev(derived), RulePortMismatch, ref, "port %q has protocol %s, Service %s has %s", name, protocolOf(p.Protocol), svc.Name, svcProtocol(sp.Protocol))
		case derived && p.Port != nil && sp.TargetPort.Type == 0 && *p.Port != numericTarget(sp) && !unsetTargetPortZero(sp, *p.Port):
			c.add(SeverityError, RulePortMismatch, ref, "port %q is %d, but Service %s's targetPort is %d", name, *p.Port, svc.Name, numericTarget(sp))
		case derived && !equalStrPtr(p.AppProtocol, sp.AppProtocol):
			// KCM copies the Service port's appProtocol (k8s.io/endpointslice
			// utils.go getEndpointPorts).
			c.add(sev(r == roleDefault), RulePortMismatch, ref, "port %q has appProtocol %s, Service %s's port has %s", name, strPtrWord(p.AppProtocol), svc.Name, strPtrWord(sp.AppProtocol))
		}
	}
}

// equalStrPtr reports whether a and b are both nil or point to equal
// strings (KCM's port hash tells nil from "").
func equalStrPtr(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// strPtrWord returns "unset" for nil, else the quoted value.
func strPtrWord(p *string) string {
	if p == nil {
		return "unset"
	}
	return fmt.Sprintf("%q", *p)
}

// unsetTargetPortZero reports whether sp has no targetPort (the zero
// IntOrString, which the API server defaults to the port) and got is 0:
// KCM's FindPort returns the zero value as it is, so a Service object that
// was not defaulted yields port 0.
func unsetTargetPortZero(sp *corev1.ServicePort, got int32) bool {
	return sp.TargetPort.Type == 0 && sp.TargetPort.IntVal == 0 && got == 0
}

// numericTarget returns the numeric targetPort of sp (its port when unset).
func numericTarget(sp *corev1.ServicePort) int32 {
	if sp.TargetPort.IntVal == 0 {
		return sp.Port
	}
	return sp.TargetPort.IntVal
}
