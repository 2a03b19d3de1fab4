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

package podendpoint

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	utilnet "k8s.io/utils/net"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// Options are the feature gates of KCM's rules that Hints (and servicepods
// Desired, which calls it) depend on. The zero value behaves like
// kube-controller-manager v1.37 with default feature gates.
type Options struct {
	// DisablePreferSameTrafficDistribution, when true, honours only the
	// PreferClose trafficDistribution, as KCM does with the
	// PreferSameTrafficDistribution feature gate off. By default (the gate
	// is GA and locked on since v1.35) PreferSameZone and PreferSameNode
	// are honoured too (KCM reconciler.go validTrafficDistribution).
	DisablePreferSameTrafficDistribution bool
}

// AddressTypes returns the address types of svc's EndpointSlices, without
// duplicates (KCM behaviour C15; k8s.io/endpointslice utils.go
// getAddressTypesForService, which returns an unordered set; the order here
// is fixed):
//   - one per entry of spec.ipFamilies (IPv4, IPv6; others ignored), in
//     that order;
//   - else, when spec.clusterIP is set and not None, the family of the
//     cluster IP (IPv6 if it parses as IPv6, otherwise IPv4);
//   - else (headless, or no cluster IP, and no families: an object from an
//     API server older than dual-stack) IPv4 then IPv6.
//
// It never returns FQDN and never returns an empty list.
func AddressTypes(svc *corev1.Service) []discovery.AddressType {
	var out []discovery.AddressType
	add := func(at discovery.AddressType) {
		for _, x := range out {
			if x == at {
				return
			}
		}
		out = append(out, at)
	}
	for _, family := range svc.Spec.IPFamilies {
		switch family {
		case corev1.IPv4Protocol:
			add(discovery.AddressTypeIPv4)
		case corev1.IPv6Protocol:
			add(discovery.AddressTypeIPv6)
		}
	}
	if len(out) > 0 {
		return out
	}
	if svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != corev1.ClusterIPNone {
		if utilnet.IsIPv6String(svc.Spec.ClusterIP) {
			return []discovery.AddressType{discovery.AddressTypeIPv6}
		}
		return []discovery.AddressType{discovery.AddressTypeIPv4}
	}
	return []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}
}

// TopologyAuto reports whether annotations ask for topology-aware hints: the
// value of service.kubernetes.io/topology-aware-hints when that key is
// present (even when empty), else of service.kubernetes.io/topology-mode, is
// "Auto" or "auto" (KCM behaviour C34; k8s.io/endpointslice utils.go
// hintsEnabled).
func TopologyAuto(annotations map[string]string) bool {
	val, ok := annotations[corev1.DeprecatedAnnotationTopologyAwareHints]
	if !ok {
		val, ok = annotations[corev1.AnnotationTopologyMode]
		if !ok {
			return false
		}
	}
	return val == "Auto" || val == "auto"
}

// Hints returns the hints svc asks for (KCM behaviours C34, C35;
// k8s.io/endpointslice reconciler.go reconcileByAddressType):
// TopologyAuto from the annotations (see TopologyAuto), and
// TrafficDistribution set to a copy of spec.trafficDistribution only when it
// is valid (PreferClose; PreferSameZone and PreferSameNode unless
// opts.DisablePreferSameTrafficDistribution) and topology mode is not Auto
// (KCM: canUseTrafficDistribution = valid && !hintsEnabled). The zero Hints
// removes every hint.
func Hints(svc *corev1.Service, opts Options) reconciler.Hints {
	h := reconciler.Hints{TopologyAuto: TopologyAuto(svc.Annotations)}
	if !h.TopologyAuto && validTrafficDistribution(svc.Spec.TrafficDistribution, opts) {
		h.TrafficDistribution = ptr.To(*svc.Spec.TrafficDistribution)
	}
	return h
}

// validTrafficDistribution is KCM reconciler.go validTrafficDistribution.
func validTrafficDistribution(td *string, opts Options) bool {
	if td == nil {
		return false
	}
	switch *td {
	case corev1.ServiceTrafficDistributionPreferClose:
		return true
	case corev1.ServiceTrafficDistributionPreferSameZone, corev1.ServiceTrafficDistributionPreferSameNode:
		return !opts.DisablePreferSameTrafficDistribution
	}
	return false
}
