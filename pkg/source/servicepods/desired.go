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
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

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
func Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes podendpoint.NodeGetter, opts podendpoint.Options) (*reconciler.Desired, error) {
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

	cached := podendpoint.CachedNodes(nodes)
	var errs []error
	items := make([]*reconciler.Item, len(sorted))
	for i, pod := range sorted {
		item, err := podItem(ctx, svc, pod, cached)
		var skip *podendpoint.SkippedPodError
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
		AddressTypes: podendpoint.AddressTypes(svc),
		Hints:        podendpoint.Hints(svc, opts),
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
