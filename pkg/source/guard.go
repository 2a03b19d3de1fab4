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

package source

import (
	"net/netip"
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// Reasons of the Problems of an AddressGuard's refusals (docs/security.md).
// A refused address is taken away from the Pod's endpoints; the Pod keeps
// its other addresses, and the slice write never fails because of it.
const (
	// ReasonAddressInServiceCIDR: the address is inside one of the
	// cluster's Service CIDRs (a ServiceCIDR object or
	// --service-cluster-ip-range), where Service cluster IPs, such as the
	// kubernetes Service's, are allocated: no Pod may claim one.
	ReasonAddressInServiceCIDR = "AddressInServiceCIDR"
	// ReasonNodeAddress: the address is an InternalIP or ExternalIP of a
	// Node (status.addresses): no Pod may claim one.
	ReasonNodeAddress = "NodeAddress"
	// ReasonAddressNotAllowed: the controller has an allow-list of CIDRs
	// (--pod-address-allowed-cidrs) and the address is in none of them.
	ReasonAddressNotAllowed = "AddressNotAllowed"
)

// refusalReasons are the reasons IsRefusal recognises.
var refusalReasons = []string{ReasonAddressInServiceCIDR, ReasonNodeAddress, ReasonAddressNotAllowed}

// IsRefusal reports whether reason is the reason of an AddressGuard's
// refusal (ReasonAddressInServiceCIDR, ReasonNodeAddress,
// ReasonAddressNotAllowed). Controllers report those Problems on the Pod
// as well as on the Service: the Pod's annotations (or whatever the source
// read) claimed an address no Pod may have.
func IsRefusal(reason string) bool { return slices.Contains(refusalReasons, reason) }

// AddressGuard decides whether a pod-address source may publish an address
// as an endpoint of a Pod. It exists because a pod-address source reads
// fields that other writers than the kubelet control (a Pod annotation, a
// CEL-selected field, a ResourceClaim's status): without it, whoever may
// write those fields chooses where a Service's traffic goes, which is what
// Kubernetes keeps from namespace editors by denying them EndpointSlice
// writes (CVE-2021-25740). KCM's own source (status.podIPs, written by the
// kubelet only) has no guard.
//
// Implementations must be safe for concurrent use and must not modify svc
// or pod (informer cache objects). pkg/source/addressguard builds the
// guard slicekit's controllers use.
type AddressGuard interface {
	// CheckAddress returns nil when addr may be an endpoint address of pod
	// for svc, else a *SkipError whose Reason is one of the refusal
	// reasons (ReasonAddressInServiceCIDR, ReasonNodeAddress,
	// ReasonAddressNotAllowed) or the implementation's own, and whose
	// message says why. addr is valid and unmapped (ParseEndpointIP).
	CheckAddress(svc *corev1.Service, pod *corev1.Pod, addr netip.Addr) error
}

// AddressGuardFunc adapts a function to an AddressGuard.
type AddressGuardFunc func(svc *corev1.Service, pod *corev1.Pod, addr netip.Addr) error

// CheckAddress returns f(svc, pod, addr).
func (f AddressGuardFunc) CheckAddress(svc *corev1.Service, pod *corev1.Pod, addr netip.Addr) error {
	return f(svc, pod, addr)
}

// AddressGuarded is a Source whose addresses an AddressGuard can check: a
// pod-address source (PodAddresses). The Service controller
// (pkg/slicecontroller) discovers it with a type assertion and
// always installs its guard, so that no pod-address source runs unguarded
// by mistake.
type AddressGuarded interface {
	Source
	// WithAddressGuard returns a copy of the source that also checks every
	// address with g (after its own guard, if it has one). A nil g returns
	// the source unchanged.
	WithAddressGuard(g AddressGuard) Source
}

// WithAddressGuard returns a copy of s whose Guard is g, or, when s
// already has a Guard, both (s.Guard first; an address must pass both).
// A nil g returns s unchanged. PodAddresses is thus an AddressGuarded.
func (s PodAddresses) WithAddressGuard(g AddressGuard) Source {
	if g == nil {
		return s
	}
	if s.Guard != nil {
		g = chainGuards{s.Guard, g}
	}
	s.Guard = g
	return s
}

// chainGuards checks an address with each guard in turn; the first
// refusal wins.
type chainGuards []AddressGuard

func (c chainGuards) CheckAddress(svc *corev1.Service, pod *corev1.Pod, addr netip.Addr) error {
	for _, g := range c {
		if err := g.CheckAddress(svc, pod, addr); err != nil {
			return err
		}
	}
	return nil
}

var _ AddressGuarded = PodAddresses{}
