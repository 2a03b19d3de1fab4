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

package endpointslice

import (
	"context"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// Event reasons recorded on Services (slicecontroller's). The Warning
// reasons are KCM's (behaviour C14).
const (
	// ReasonFailedToUpdateEndpointSlices (Warning): a write failed, while
	// reconciling or while deleting slices on hand-over.
	ReasonFailedToUpdateEndpointSlices = slicecontroller.ReasonFailedToUpdateEndpointSlices
	// ReasonFailedToListPods (Warning): the Pod lister failed.
	ReasonFailedToListPods = slicecontroller.ReasonFailedToListPods
	// ReasonFailedToListEndpointSlices (Warning): the EndpointSlice lister
	// failed.
	ReasonFailedToListEndpointSlices = slicecontroller.ReasonFailedToListEndpointSlices
	// ReasonHandedOver (Normal, slicekit): this controller deleted its
	// EndpointSlices of a Service delegated to another controller by the
	// KEP-4770 label; the message names that controller and the number of
	// slices deleted. KEP-4770 itself defines no event (rule (a)14).
	ReasonHandedOver = slicecontroller.ReasonHandedOver
	// ReasonEndpointSlicesRemoved (Normal, slicekit): with the
	// SelectorRemovalCleanup gate on, this controller deleted its
	// EndpointSlices of a Service that has no selector or is of type
	// ExternalName; the message names the reason (kubernetes#118376).
	ReasonEndpointSlicesRemoved = selectorless.ReasonEndpointSlicesRemoved
	// ReasonConflictingWriter (Warning): an EndpointSlice carrying this
	// controller's managed-by value was written by another field manager.
	ReasonConflictingWriter = slicecontroller.ReasonConflictingWriter
)

const (
	// SelectorRemovalMetricName is the name, after the subsystem
	// endpoint_slice_controller and without _total, of the counter of
	// slices deleted because their Service selects no Pods (label reason:
	// no-selector, external-name).
	SelectorRemovalMetricName = "selector_removal_deleted_slices"

	// ConflictingWritesMetricName is the full name of the counter of
	// foreign writes observed on this controller's EndpointSlices, labelled
	// with the other field manager.
	ConflictingWritesMetricName = slicecontroller.ConflictingWritesMetricName

	// serviceQueueName names the Service queue in workqueue metrics (KCM).
	serviceQueueName = "endpoint_slice"
)

// Controller is the drop-in EndpointSlice controller: a
// slicecontroller.Controller with KCM's source (servicepods.Source), the
// KEP-4770 drop-in ownership (slicecontroller.DropIn) and KCM's names.
type Controller = slicecontroller.Controller

// New creates the drop-in EndpointSlice controller, which manages the
// EndpointSlices of Services with a selector as KCM's EndpointSlice
// controller does and hands Services labelled for another controller over
// to it (KEP-4770): slicecontroller.New with
//   - ownership slicecontroller.DropIn(opts.ControllerName, the
//     ExternalEndpointController gate), spec.selector only;
//   - source servicepods.Source (servicepods.Desired, status.podIPs);
//   - the managed-by conflict detector, topology hints per
//     opts.TopologyHints, KCM's metric names without a controller label
//     (plus SelectorRemovalMetricName), the queue endpoint_slice and
//     events from EventSourceComponent.
//
// New installs no informer transform: the caches hold whole objects
// unless the caller installs transforms first (the manager installs
// informertransform.Compose of the enabled controllers' Reads; Reads below
// is this controller's declaration).
//
// It registers its event handlers on the factory's Pod, Service,
// EndpointSlice and Node informers; call it before the factory is started,
// start the factory and then call Run. Defaults are filled in as
// documented on Options. New returns an error (prefixed "endpointslice: ")
// when client or factory is nil, when opts is invalid (every invalid field
// named), or when the metrics cannot be registered on
// opts.Registerer (for example because they already are). The KCM
// counterpart is NewController in
// pkg/controller/endpointslice/endpointslice_controller.go.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	opts = opts.complete()
	return slicecontroller.New(ctx, client, factory, slicecontroller.Options{
		Name:                   "endpointslice",
		ControllerName:         opts.ControllerName,
		ManagedBy:              opts.ControllerName,
		Ownership:              slicecontroller.DropIn(opts.ControllerName, ptr.Deref(opts.ExternalEndpointController, true)),
		Source:                 servicepods.Source(podendpoint.Options{}),
		TopologyHints:          opts.TopologyHints,
		KCMMetricNames:         true,
		DetectConflicts:        true,
		ConflictReportInterval: opts.ConflictReportInterval,
		BurstQuietPeriod:       opts.BurstQuietPeriod,
		SelectorRemovalMetric:  SelectorRemovalMetricName,
		QueueName:              serviceQueueName,
		EventSourceComponent:   EventSourceComponent,
		Pacer:                  opts.Pacer,
		Common: slicecontroller.Common{
			MaxEndpointsPerSlice:   opts.MaxEndpointsPerSlice,
			BatchPeriod:            opts.BatchPeriod,
			SelectorRemovalCleanup: opts.SelectorRemovalCleanup,
			Registerer:             opts.Registerer,
			EventRecorder:          opts.EventRecorder,
		},
	})
}
