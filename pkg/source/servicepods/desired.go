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

package servicepods

import (
	"context"
	"errors"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/klog/v2"
	utilnet "k8s.io/utils/net"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// NodeGetter looks up a Node by name. A corelisters.NodeLister satisfies
// it. Get must return an error for which apierrors.IsNotFound is true when
// the Node does not exist; any other error is treated as a failure of the
// lookup itself.
type NodeGetter interface {
	Get(name string) (*corev1.Node, error)
}

// Options tune Desired. The zero value behaves like kube-controller-manager
// v1.37 with default feature gates.
type Options struct {
	// DisablePreferSameTrafficDistribution, when true, honours only the
	// PreferClose trafficDistribution, as KCM does with the
	// PreferSameTrafficDistribution feature gate off. By default (the gate
	// is GA and locked on since v1.35) PreferSameZone and PreferSameNode
	// are honoured too (KCM reconciler.go validTrafficDistribution).
	DisablePreferSameTrafficDistribution bool
}

// SkippedPodError reports a Pod left out of the desired endpoints because
// the Node named by its spec.nodeName does not exist (KCM behaviour C18,
// edge case E14). Desired returns one per skipped Pod, joined; the message
// is KCM's.
type SkippedPodError struct {
	// Pod is the skipped Pod's name; it is in the Service's namespace.
	Pod string
	// Namespace and Service name the Service.
	Namespace, Service string
	// Node is the missing Node's name (may be empty: an unscheduled pod).
	Node string
}

// Error is KCM's message; for a Pod without spec.nodeName (an IP but no
// Node: only a hand-written object) it says so instead of naming an empty
// Node.
func (e *SkippedPodError) Error() string {
	if e.Node == "" {
		return fmt.Sprintf("skipping Pod %s for Service %s/%s: the Pod has no spec.nodeName", e.Pod, e.Namespace, e.Service)
	}
	return fmt.Sprintf("skipping Pod %s for Service %s/%s: Node %s Not Found", e.Pod, e.Namespace, e.Service, e.Node)
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

// Desired returns the desired endpoints of svc given pods, the Pods its
// selector matches (KCM behaviours C15-C21, C34, C35; k8s.io/endpointslice
// reconciler.go Reconcile and reconcileByAddressType). The caller selects the
// pods and skips Services KCM does not manage (no selector, type
// ExternalName); Desired does not look at spec.selector or spec.type.
//
// For each address type of AddressTypes(svc), in order, and each pod in
// namespace/name order (KCM uses lister order; sorting makes the output
// deterministic):
//  1. pods failing ShouldPodBeInEndpoints(pod, true) are left out;
//  2. the pod's port list is EndpointPorts(svc, pod), and the group of that
//     address type and port list is created if it does not exist yet, before
//     the node lookup, so a group may stay empty, as in KCM;
//  3. the pod's Node is looked up by spec.nodeName. When it does not exist,
//     the pod is left out and a *SkippedPodError is recorded, unless
//     spec.publishNotReadyAddresses is set: then the pod is kept, without a
//     zone. Any other lookup error ends Desired at once with (nil, error),
//     as KCM returns it from reconcileByAddressType;
//  4. the endpoint is PodToEndpoint(pod, node, svc,
//     EndpointAddresses(pod, addressType)) and is added to the group only
//     when it has an address of that family.
//
// Groups are in order of first appearance per address type. Hints are
// Hints(svc, opts).
//
// Errors: with (nil, err) nothing may be reconciled (retry later). With a
// non-nil Desired and a non-nil error (every error then is a
// *SkippedPodError; each skipped pod is reported once, even for several
// address types), the caller reconciles the partial Desired, so the
// remaining endpoints are written, and then returns the error so the Service
// is retried, as KCM does. nodes must not be nil.
func Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes NodeGetter, opts Options) (*reconciler.Desired, error) {
	if svc == nil {
		return nil, errors.New("servicepods: Service is nil")
	}
	if nodes == nil {
		return nil, errors.New("servicepods: NodeGetter is nil")
	}
	logger := klog.FromContext(ctx)

	sorted := make([]*corev1.Pod, 0, len(pods))
	for _, p := range pods {
		if p != nil {
			sorted = append(sorted, p)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Namespace != sorted[j].Namespace {
			return sorted[i].Namespace < sorted[j].Namespace
		}
		return sorted[i].Name < sorted[j].Name
	})

	cached := CachedNodes(nodes)
	var errs []error
	items := make([]*reconciler.Item, len(sorted))
	for i, pod := range sorted {
		item, err := podItem(ctx, svc, pod, cached)
		var skip *SkippedPodError
		switch {
		case errors.As(err, &skip):
			logger.Info("skipping Pod for Service, Node not found", "pod", klog.KObj(pod), "service", klog.KObj(svc), "node", klog.KRef("", pod.Spec.NodeName))
			errs = append(errs, err)
		case err != nil:
			return nil, err
		}
		items[i] = item
	}

	d := &reconciler.Desired{
		AddressTypes: AddressTypes(svc),
		Hints:        Hints(svc, opts),
	}
	for _, at := range d.AddressTypes {
		groupIndex := map[string]int{}
		for _, item := range items {
			if item == nil {
				continue
			}
			key := reconciler.PortMapKey(item.Ports)
			gi, ok := groupIndex[key]
			if !ok {
				gi = len(d.Groups)
				groupIndex[key] = gi
				d.Groups = append(d.Groups, reconciler.EndpointGroup{AddressType: at, Ports: reconciler.CopyPorts(item.Ports)})
			}
			for j := range item.Endpoints {
				if item.Endpoints[j].AddressType == at {
					d.Groups[gi].Endpoints = append(d.Groups[gi].Endpoints, item.Endpoints[j].Endpoint)
				}
			}
		}
	}
	return d, errors.Join(errs...)
}
