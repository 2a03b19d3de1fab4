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

package networkstatus

import (
	"context"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Reasons of the Problems (Warning events on the Service, metric label
// values) of this source, besides package source's (InvalidAddress,
// DuplicateAddress, AddressFamilyMismatch).
const (
	// ReasonServiceNetworkMissing: the Service has no service-network
	// annotation; it gets no endpoints.
	ReasonServiceNetworkMissing = "ServiceNetworkMissing"
	// ReasonServiceNetworkInvalid: the service-network annotation cannot be
	// parsed; the Service gets no endpoints.
	ReasonServiceNetworkInvalid = "ServiceNetworkInvalid"
	// ReasonNetworkStatusMissing: the Pod has no network-status annotation
	// (Multus has not written it yet, or the Pod is not attached by
	// Multus).
	ReasonNetworkStatusMissing = "NetworkStatusMissing"
	// ReasonNetworkStatusInvalid: the Pod's network-status annotation is
	// malformed (see ParseNetworkStatus).
	ReasonNetworkStatusInvalid = "NetworkStatusInvalid"
	// ReasonNetworkNotAttached: no selected network is attached to the Pod.
	ReasonNetworkNotAttached = "NetworkNotAttached"
	// ReasonAmbiguousAttachment: a selected network is attached to the Pod
	// more than once (two network-status entries match it); the Pod is left
	// out. Selecting one interface (name@interface) resolves it.
	ReasonAmbiguousAttachment = "AmbiguousAttachment"
	// ReasonAttachmentWithoutIPs: the selected networks are attached, but
	// without IP addresses (L2, DPDK, SR-IOV without IPAM).
	ReasonAttachmentWithoutIPs = "AttachmentWithoutIPs"
)

// Source returns the source.PodAddresses (a source.Source) of the secondary-network
// controller: Addresses, CheckService, AddressTypes and PodChanged of this
// package, and the Pod Ready rule for readiness.
func Source() source.PodAddresses {
	return source.PodAddresses{
		Addresses:    Addresses,
		CheckService: CheckService,
		AddressTypes: AddressTypes,
		PodChanged:   PodChanged,
	}
}

// Desired returns the desired endpoints of svc, a Service labelled for the
// secondary-network controller, given pods, the Pods its selector matches:
// source.Desired with Source(). Each endpoint carries one address of the
// Pod on a network the Service selects, never one of status.podIPs; slices
// of one address type only get addresses of that family. Problems list the
// Pods left out (and a Service without a valid service-network
// annotation); errors are source.Desired's.
func Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Desired, []source.Problem, error) {
	return source.Desired(ctx, svc, pods, nodes, Source())
}

// CheckService reports a Service whose service-network annotation is
// missing (ReasonServiceNetworkMissing) or invalid
// (ReasonServiceNetworkInvalid), as a *source.SkipError.
func CheckService(_ context.Context, svc *corev1.Service) error {
	_, found, err := ServiceNetworks(svc)
	switch {
	case !found:
		return source.Skip(ReasonServiceNetworkMissing, "annotation %s is missing: no network is selected, so no endpoint is published", wellknown.AnnotationServiceNetwork)
	case err != nil:
		return source.Skip(ReasonServiceNetworkInvalid, "annotation %s: %w", wellknown.AnnotationServiceNetwork, err)
	}
	return nil
}

// AddressTypes returns the address types of svc's slices: both IPv4 and
// IPv6 for a headless Service (clusterIP None), else
// podendpoint.AddressTypes (spec.ipFamilies, KCM C15). A headless
// Service's families come from the cluster network, which says nothing
// about a secondary network's; a Service with a cluster IP keeps its
// families, so that its slices match the family of its cluster IP (which a
// secondary-network proxy maps to them).
func AddressTypes(svc *corev1.Service) []discovery.AddressType {
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		return []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}
	}
	return podendpoint.AddressTypes(svc)
}

// PodChanged reports whether the network-status annotation (either key)
// differs between two versions of a Pod.
func PodChanged(oldPod, curPod *corev1.Pod) bool {
	return oldPod.Annotations[wellknown.AnnotationNetworkStatus] != curPod.Annotations[wellknown.AnnotationNetworkStatus] ||
		oldPod.Annotations[wellknown.AnnotationNetworkStatusLegacy] != curPod.Annotations[wellknown.AnnotationNetworkStatusLegacy]
}

// Addresses returns pod's addresses on the networks svc selects, in
// network-status order (a source.AddressFunc). The rules (multus-service
// pkg/service-controller/utils.go getEndpointAddresses, with the checks it
// lacked; docs/multus-network-status.md §1):
//
//   - the networks are ServiceNetworks(svc);
//   - the Pod's entries are its network-status annotation
//     (PodNetworkStatus); missing → ReasonNetworkStatusMissing, malformed →
//     ReasonNetworkStatusInvalid;
//   - an entry matches a network when it is not the cluster network
//     (default: true entries never match, so primary addresses never
//     appear), its QualifiedName(pod namespace) is the network's
//     namespace/name, and, when the network names an interface, its
//     interface is that one;
//   - a network matched by two or more entries → ReasonAmbiguousAttachment;
//     no network matched → ReasonNetworkNotAttached; matched entries with
//     no IPs at all → ReasonAttachmentWithoutIPs;
//   - the IPs of every matched entry are returned (a prefix length is
//     dropped); source.Desired validates them.
//
// Every failure is a *source.SkipError with the reason above.
func Addresses(_ context.Context, svc *corev1.Service, pod *corev1.Pod) ([]string, error) {
	refs, found, err := ServiceNetworks(svc)
	if !found || err != nil {
		// CheckService reports the Service; no pod gets an address.
		return nil, source.Skip(ReasonServiceNetworkInvalid, "Service has no valid %s annotation", wellknown.AnnotationServiceNetwork)
	}
	statuses, found, err := PodNetworkStatus(pod)
	switch {
	case !found:
		return nil, source.Skip(ReasonNetworkStatusMissing, "no %s annotation (not attached by Multus yet)", wellknown.AnnotationNetworkStatus)
	case err != nil:
		return nil, source.Skip(ReasonNetworkStatusInvalid, "annotation %s: %w", wellknown.AnnotationNetworkStatus, err)
	}

	var ips []string
	var attached, noIPs []string
	for _, ref := range refs {
		var matched []*NetworkStatus
		for i := range statuses {
			if matches(&statuses[i], ref, pod.Namespace) {
				matched = append(matched, &statuses[i])
			}
		}
		switch len(matched) {
		case 0:
			continue
		case 1:
		default:
			ifaces := make([]string, 0, len(matched))
			for _, m := range matched {
				ifaces = append(ifaces, fmt.Sprintf("%q", m.Interface))
			}
			return nil, source.Skip(ReasonAmbiguousAttachment,
				"network %s is attached %d times (interfaces %s); select one interface with %s@<interface>",
				ref, len(matched), strings.Join(ifaces, ", "), ref.Namespace+"/"+ref.Name)
		}
		m := matched[0]
		attached = append(attached, ref.String())
		if len(m.IPs) == 0 {
			noIPs = append(noIPs, fmt.Sprintf("%s on interface %q", ref, m.Interface))
			continue
		}
		for _, ip := range m.IPs {
			ips = append(ips, ipString(ip))
		}
	}
	if len(attached) == 0 {
		names := make([]string, 0, len(refs))
		for _, r := range refs {
			names = append(names, r.String())
		}
		return nil, source.Skip(ReasonNetworkNotAttached, "network(s) %s not attached (network-status has %s)",
			strings.Join(names, ", "), statusNames(statuses))
	}
	if len(ips) == 0 {
		return nil, source.Skip(ReasonAttachmentWithoutIPs, "attachment(s) without IP addresses: %s", strings.Join(noIPs, ", "))
	}
	return ips, nil
}

// matches reports whether entry s of a Pod in podNamespace is the network
// ref.
func matches(s *NetworkStatus, ref NetworkRef, podNamespace string) bool {
	if s.Default {
		return false
	}
	if s.QualifiedName(podNamespace) != ref.Namespace+"/"+ref.Name {
		return false
	}
	return ref.Interface == "" || s.Interface == ref.Interface
}

// statusNames lists the entries' names for a message.
func statusNames(statuses []NetworkStatus) string {
	if len(statuses) == 0 {
		return "no entry"
	}
	names := make([]string, 0, len(statuses))
	for i := range statuses {
		n := fmt.Sprintf("%q", statuses[i].Name)
		if statuses[i].Default {
			n += " (default)"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
