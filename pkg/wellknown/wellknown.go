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

// Package wellknown holds, in one place, the names slicekit shares with
// Kubernetes, with other projects and with its users: labels, annotations,
// managed-by values, feature gates and controller names. Every other
// package refers to them from here, so that a name is spelled once.
//
// Where a name is Kubernetes' own, the constant says where it is defined
// upstream; k8s.io/api constants are used directly where they exist
// (discovery.LabelManagedBy, discovery.LabelServiceName,
// corev1.IsHeadlessService, ...), not repeated here.
package wellknown

// Labels and annotations.
const (
	// LabelEndpointControllerName is the KEP-4770 Service label naming the
	// endpoint controller that handles the Service; the built-in
	// controllers step aside for a Service labelled with another name
	// (docs/kep4770.md rules (a)1–(a)16).
	LabelEndpointControllerName = "service.kubernetes.io/endpoint-controller-name"

	// LabelEndpointsManagedBy is the label KCM's Endpoints controller puts
	// on the Endpoints objects it writes (KCM
	// pkg/controller/endpoint/endpoints_controller.go LabelManagedBy; no
	// k8s.io/api constant exists).
	LabelEndpointsManagedBy = "endpoints.kubernetes.io/managed-by"

	// AnnotationSelector is slicekit's selectorless form: on a Service
	// without spec.selector, a label selector (kubectl syntax) choosing the
	// Pods of a custom controller, which kube-controller-manager's
	// controllers leave alone.
	AnnotationSelector = "slicekit.dev/selector"

	// AnnotationNetworkStatus is the Multus network-status Pod annotation
	// (Kubernetes Network Plumbing Working Group de-facto standard, see
	// docs/multus-network-status.md); AnnotationNetworkStatusLegacy is its
	// older spelling, read when the current one is absent.
	AnnotationNetworkStatus       = "k8s.v1.cni.cncf.io/network-status"
	AnnotationNetworkStatusLegacy = "k8s.v1.cni.cncf.io/networks-status"

	// AnnotationServiceNetwork is the Service annotation naming the
	// secondary network whose addresses the Service's endpoints carry
	// (docs/multus-network-status.md).
	AnnotationServiceNetwork = "k8s.v1.cni.cncf.io/service-network"
	// AnnotationDRAClaim is the Service annotation of slicekit's
	// dra-network controller naming the Pods' claim whose devices'
	// networkData carries the endpoints' addresses: "<pod claim name>" or
	// "<pod claim name>/<request name>" (docs/dra-network.md).
	AnnotationDRAClaim = "slicekit.dev/dra-claim"
)

// Managed-by values: the values of endpointslice.kubernetes.io/managed-by
// (discovery.LabelManagedBy) and of LabelEndpointsManagedBy that
// kube-controller-manager's controllers write, which the drop-in
// controllers write too by default so that KCM's objects are adopted
// without a rewrite.
const (
	// EndpointSliceControllerName is KCM's EndpointSlice controller's
	// (pkg/controller/endpointslice/endpointslice_controller.go ControllerName).
	EndpointSliceControllerName = "endpointslice-controller.k8s.io"
	// MirroringControllerName is KCM's EndpointSlice mirroring
	// controller's
	// (pkg/controller/endpointslicemirroring/endpointslicemirroring_controller.go
	// ControllerName).
	MirroringControllerName = "endpointslicemirroring-controller.k8s.io"
	// EndpointsControllerName is KCM's Endpoints controller's value of
	// LabelEndpointsManagedBy
	// (pkg/controller/endpoint/endpoints_controller.go ControllerName).
	EndpointsControllerName = "endpoint-controller"
	// SecondaryNetworkControllerName is the default managed-by value and
	// KEP-4770 label value of slicekit's secondary-network controller.
	SecondaryNetworkControllerName = "secondary-network.slicekit.dev"
	// DRANetworkControllerName is the default managed-by value and
	// KEP-4770 label value of slicekit's dra-network controller.
	DRANetworkControllerName = "dra-network.slicekit.dev"
)

// Feature gates (--feature-gates of `slicekit run`).
const (
	// ExternalEndpointController (beta, default on): the drop-in
	// controllers honour LabelEndpointControllerName (KEP-4770).
	ExternalEndpointController = "ExternalEndpointController"
	// SelectorRemovalCleanup (beta, default on): the controllers delete
	// what they wrote for a Service that stops selecting Pods
	// (kubernetes#118376).
	SelectorRemovalCleanup = "SelectorRemovalCleanup"
)
