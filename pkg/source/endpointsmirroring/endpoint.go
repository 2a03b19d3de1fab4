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

package endpointsmirroring

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	netutils "k8s.io/utils/net"
)

// ParseIP parses an Endpoints address the way KCM's mirroring controller
// does (k8s.io/utils/net ParseIPSloppy: IPv4 octets with leading zeros are
// accepted and read as decimal) and returns its canonical text and address
// type: IPv4 for an address with a 4-byte form (including IPv4-mapped IPv6
// addresses such as ::ffff:10.0.0.1, which become 10.0.0.1), IPv6
// otherwise. ok is false when ip is not an IP address (a name, a CIDR, an
// address with a zone, the empty string).
//
// Source: k8s.io/kubernetes pkg/controller/endpointslicemirroring utils.go
// addressToEndpoint.
func ParseIP(ip string) (canonical string, addressType discovery.AddressType, ok bool) {
	parsed := netutils.ParseIPSloppy(ip)
	if parsed == nil {
		return "", "", false
	}
	if parsed.To4() == nil {
		return parsed.String(), discovery.AddressTypeIPv6, true
	}
	return parsed.String(), discovery.AddressTypeIPv4, true
}

// AddressToEndpoint converts an Endpoints address to an EndpointSlice
// endpoint (mirroring rule b6): one address, the IP re-stringified by
// ParseIP; conditions.ready = ready and no serving or terminating
// condition; targetRef and nodeName copied; hostname set when not empty; no
// zone and no hints. It also returns the endpoint's address type. ok is
// false, and the endpoint zero, when the IP does not parse (ParseIP). The
// result shares nothing with address.
//
// Source: k8s.io/kubernetes pkg/controller/endpointslicemirroring utils.go
// addressToEndpoint (which shares the targetRef and nodeName pointers; this
// copies them).
func AddressToEndpoint(address *corev1.EndpointAddress, ready bool) (endpoint discovery.Endpoint, addressType discovery.AddressType, ok bool) {
	ip, at, ok := ParseIP(address.IP)
	if !ok {
		return discovery.Endpoint{}, "", false
	}
	endpoint = discovery.Endpoint{
		Addresses:  []string{ip},
		Conditions: discovery.EndpointConditions{Ready: &ready},
	}
	if address.TargetRef != nil {
		ref := *address.TargetRef
		endpoint.TargetRef = &ref
	}
	if address.NodeName != nil {
		node := *address.NodeName
		endpoint.NodeName = &node
	}
	if address.Hostname != "" {
		hostname := address.Hostname
		endpoint.Hostname = &hostname
	}
	return endpoint, at, true
}

// EndpointPorts converts the ports of an Endpoints subset to EndpointSlice
// ports (mirroring rule b7): name, port and protocol always set (pointers to
// copies, even when empty), appProtocol copied when set; same order. The
// result is never nil and shares nothing with ports.
//
// Source: k8s.io/kubernetes pkg/controller/endpointslicemirroring utils.go
// epPortsToEpsPorts.
func EndpointPorts(ports []corev1.EndpointPort) []discovery.EndpointPort {
	out := make([]discovery.EndpointPort, 0, len(ports))
	for i := range ports {
		p := ports[i].DeepCopy()
		out = append(out, discovery.EndpointPort{
			Name:        &p.Name,
			Port:        &p.Port,
			Protocol:    &p.Protocol,
			AppProtocol: p.AppProtocol,
		})
	}
	return out
}
