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

package suite

// Feature is a tag naming part of the EndpointSlice controller contract.
// A test runs only when the implementation claims every feature the test
// lists.
type Feature string

const (
	// SupportEndpointSlices: the controller publishes the selected Pods of
	// the Services it serves in EndpointSlices labelled
	// kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by
	// (its name), owned by the Service through a controller ownerReference,
	// with the Service's ports resolved on each Pod, and only the selected,
	// running Pods. Every implementation that publishes status.podIPs
	// claims it (a DRA networkData controller claims SupportDRANetworkData
	// instead).
	SupportEndpointSlices Feature = "EndpointSlices"

	// SupportEndpointConditions: ready, serving and terminating follow the
	// Pod through readiness changes and termination (serving = Pod Ready,
	// terminating = deletionTimestamp set, ready = serving and not
	// terminating).
	SupportEndpointConditions Feature = "EndpointConditions"

	// SupportPublishNotReadyAddresses: with spec.publishNotReadyAddresses
	// every endpoint is ready, whatever the Pod says.
	SupportPublishNotReadyAddresses Feature = "PublishNotReadyAddresses"

	// SupportEndpointTopology: nodeName is the Pod's node and zone the
	// node's topology.kubernetes.io/zone label.
	SupportEndpointTopology Feature = "EndpointTopology"

	// SupportForeignSlices: the controller never writes (updates, deletes
	// or adopts) an EndpointSlice whose managed-by label names another
	// controller, even when it names one of its Services.
	SupportForeignSlices Feature = "ForeignSlices"

	// SupportDefaultController: the controller is a cluster's default one
	// (such as endpointslice-controller.k8s.io): it serves Services without
	// the KEP-4770 label service.kubernetes.io/endpoint-controller-name,
	// never writes slices for a Service labelled for another controller,
	// deletes its slices when such a label is added and writes them again
	// when it is removed. Excludes SupportControllerNameLabel.
	SupportDefaultController Feature = "DefaultController"

	// SupportControllerNameLabel: the controller serves exactly the
	// Services labelled service.kubernetes.io/endpoint-controller-name with
	// its name (KEP-4770), ignores unlabelled ones, and deletes its slices
	// when the label is removed or names another controller. Excludes
	// SupportDefaultController.
	SupportControllerNameLabel Feature = "ControllerNameLabel"

	// SupportConsumerRules: the controller's slices keep what the
	// EndpointSlice consumers (kube-proxy, CoreDNS, Cilium, Istio, Envoy
	// Gateway, ingress-nginx, kyverno, MetalLB, kube-vip) assume of a
	// slice, as `slicekit check`'s consumer rules judge it
	// (check.ConsumerRules): service-name and headless labels, ready set,
	// ports with numbers, one address per endpoint, nodeName under Local
	// traffic policies, hints on every ready endpoint or none, canonical
	// IPs, a readable trigger-time annotation.
	SupportConsumerRules Feature = "ConsumerRules"

	// SupportSelectorlessForm: a Service labelled for the controller that
	// has no spec.selector selects its Pods by the annotation
	// slicekit.dev/selector (kubectl label-selector syntax, set-based
	// requirements included, Pods of the Service's namespace). The built-in
	// controllers of kube-controller-manager leave such a Service alone, so
	// this form works where they cannot be turned off. A slicekit
	// extension; not in LabelledControllerFeatures.
	SupportSelectorlessForm Feature = "SelectorlessForm"

	// SupportDRANetworkData: the endpoints of a Service labelled for the
	// controller and annotated slicekit.dev/dra-claim "<pod claim
	// name>/<request name>" carry the addresses the Pods' network devices
	// report in their ResourceClaims (status.devices[].networkData.ips,
	// KEP-4817, prefix length stripped), never status.podIPs; a Pod whose
	// claim has no networkData yet, or is reserved for another consumer
	// too, has no endpoint; a driver's status write alone updates the
	// slices. slicekit's dra-network controller
	// (docs/dra-network.md); not in LabelledControllerFeatures. The suite
	// writes the claims' status as a driver would, so the test runs in the
	// StatusSubresource mode only. It needs no other feature: such a
	// controller's addresses are not status.podIPs, which the other tests
	// expect.
	SupportDRANetworkData Feature = "DRANetworkData"
)

// AllFeatures returns every feature.
func AllFeatures() []Feature {
	return []Feature{
		SupportEndpointSlices, SupportEndpointConditions, SupportPublishNotReadyAddresses,
		SupportEndpointTopology, SupportForeignSlices, SupportDefaultController, SupportControllerNameLabel,
		SupportSelectorlessForm, SupportConsumerRules, SupportDRANetworkData,
	}
}

// DefaultControllerFeatures returns the features of a complete default
// controller (kube-controller-manager's EndpointSlice controller with
// KEP-4770, or slicekit's).
func DefaultControllerFeatures() []Feature {
	return []Feature{
		SupportEndpointSlices, SupportEndpointConditions, SupportPublishNotReadyAddresses,
		SupportEndpointTopology, SupportForeignSlices, SupportDefaultController, SupportConsumerRules,
	}
}

// LabelledControllerFeatures returns the features of a complete custom
// controller serving the Services labelled with its name.
func LabelledControllerFeatures() []Feature {
	return []Feature{
		SupportEndpointSlices, SupportEndpointConditions, SupportPublishNotReadyAddresses,
		SupportEndpointTopology, SupportForeignSlices, SupportControllerNameLabel, SupportConsumerRules,
	}
}
