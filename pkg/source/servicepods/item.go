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
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/klog/v2"
	utilnet "k8s.io/utils/net"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// PodItem returns what pod contributes to the desired endpoints of svc:
// the per-Pod step of Desired, which Desired runs for every Pod (KCM
// behaviours C16-C21; k8s.io/endpointslice reconciler.go
// reconcileByAddressType). The incremental path (the Service controller's index, through
// source.IncrementalSource) runs it for
// the Pods that changed and hands the result to reconciler.Index.SetItem.
//
//   - (nil, nil): the pod fails ShouldPodBeInEndpoints(pod, true) and
//     contributes nothing, not even a port group;
//   - (item, nil): item.Ports is EndpointPorts(svc, pod) and item.Endpoints
//     holds, per address type of AddressTypes(svc) in order, the endpoint
//     PodToEndpoint(pod, node, svc, EndpointAddresses(pod, at)) when it has
//     an address of that family;
//   - (item, *SkippedPodError): the pod's Node does not exist and the
//     Service does not publish not-ready addresses: the item has the ports
//     (the group exists, as in KCM) but no endpoint;
//   - (nil, error): the Node lookup failed otherwise.
//
// The caller must not modify pod or the result's shared parts.
func PodItem(ctx context.Context, svc *corev1.Service, pod *corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Item, error) {
	if svc == nil || pod == nil || nodes == nil {
		return nil, fmt.Errorf("servicepods: PodItem needs a Service, a Pod and a NodeGetter")
	}
	return podItem(ctx, svc, pod, nodes)
}

func podItem(ctx context.Context, svc *corev1.Service, pod *corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Item, error) {
	if !podendpoint.ShouldPodBeInEndpoints(pod, true) {
		return nil, nil
	}
	item := &reconciler.Item{Ports: podendpoint.EndpointPorts(ctx, svc, pod)}
	var node *corev1.Node
	n, err := nodes.Get(pod.Spec.NodeName)
	switch {
	case err == nil:
		node = n
	case apierrors.IsNotFound(err):
		if !svc.Spec.PublishNotReadyAddresses {
			return item, &podendpoint.SkippedPodError{Pod: pod.Name, Namespace: svc.Namespace, Service: svc.Name, Node: pod.Spec.NodeName}
		}
	default:
		return nil, fmt.Errorf("getting Node %q of Pod %s for Service %s: %w", pod.Spec.NodeName, klog.KObj(pod), klog.KObj(svc), err)
	}
	for _, at := range podendpoint.AddressTypes(svc) {
		ep := podendpoint.PodToEndpoint(pod, node, svc, EndpointAddresses(pod, at))
		if len(ep.Addresses) > 0 {
			item.Endpoints = append(item.Endpoints, reconciler.ItemEndpoint{AddressType: at, Endpoint: ep})
		}
	}
	return item, nil
}

// EndpointAddresses returns the entries of pod.status.podIPs of the family
// of addressType, in their order, each parsed with k8s.io/utils/net
// ParseIPSloppy and formatted again, so irregular forms (leading zeros,
// uncompressed IPv6) come out canonical (KCM behaviour C16;
// k8s.io/endpointslice utils.go getEndpointAddresses). An entry that is not
// an IPv6 address counts as IPv4, as in KCM; an unparsable entry (which the
// API server never accepts) would be written as "<nil>". status.podIP is not
// read. The result is never nil; it is empty for addressType FQDN.
func EndpointAddresses(pod *corev1.Pod, addressType discovery.AddressType) []string {
	addresses := []string{}
	for _, podIP := range pod.Status.PodIPs {
		ip := utilnet.ParseIPSloppy(podIP.IP)
		isIPv6 := utilnet.IsIPv6(ip)
		if isIPv6 && addressType == discovery.AddressTypeIPv6 {
			addresses = append(addresses, ip.String())
		}
		if !isIPv6 && addressType == discovery.AddressTypeIPv4 {
			addresses = append(addresses, ip.String())
		}
	}
	return addresses
}
