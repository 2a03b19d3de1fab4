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

// Package endpointslice is slicekit's drop-in replacement for
// kube-controller-manager's (KCM) EndpointSlice controller
// (k8s.io/kubernetes v1.37.2 pkg/controller/endpointslice/
// endpointslice_controller.go), honouring KEP-4770's Service label
// service.kubernetes.io/endpoint-controller-name. It is an instance of
// slicekit's one Service controller (pkg/slicecontroller, built
// on the generic reconciler pkg/reconciler) with KCM's source
// (servicepods.Source: pkg/source/servicepods, status.podIPs), the drop-in
// ownership (slicecontroller.DropIn) and KCM's names; this package holds
// its Options, informer transforms, RBAC rules and the names other
// packages refer to.
//
// # What is the same as KCM
//
// Informers for Pods, Services, EndpointSlices and Nodes; three queues
// (Services, Pod projection keys, topology); the same triggers, batching,
// rate limits and retry budget (behaviours C4 to C14 of
// docs/kep4770.md): a Service event queues the Service at
// once; a Pod event queues the Services whose selector matches the Pod's old
// or new labels after Options.BatchPeriod; an event on an EndpointSlice of
// this controller that is not the echo of its own write queues the Service
// after max(1s, BatchPeriod); a Node change that matters for topology hints
// re-checks the hint distribution. The Service queue is named endpoint_slice,
// backs off exponentially from 1s to 1000s under an overall 10 qps (burst
// 100) limit and drops a Service after 15 retries. The managed-by value
// defaults to KCM's (endpointslice-controller.k8s.io), so existing KCM slices
// are adopted without a rewrite; events carry KCM's source component
// endpoint-slice-controller and its reasons (FailedToUpdateEndpointSlices,
// FailedToListPods, FailedToListEndpointSlices, TopologyAwareHints*); metrics
// carry KCM's names (endpoint_slice_controller_*, workqueue_* for
// name="endpoint_slice") on an injected Prometheus registerer.
//
// # KEP-4770 delegation
//
// With the ExternalEndpointController gate on (the default here; KCM never
// shipped it), a Service labelled service.kubernetes.io/endpoint-controller-name
// with any value other than this controller's name is delegated
// (github.com/slicekit/slicekit/pkg/policy/delegation): this controller
// writes nothing for it and deletes the EndpointSlices it manages for it
// (those with its managed-by value and the Service's
// kubernetes.io/service-name label, each with a UID precondition), which the
// KEP promised and its implementation branch did not do (spec (e) O1, edge
// cases E7, E8). Adding the label therefore deletes this controller's slices;
// removing it is an ordinary sync that creates them again; changing the value
// does nothing more. Pod churn of a delegated Service queues nothing; Node
// churn can queue it only through the topology cache, from which its hints
// are removed on hand-over, and its sync makes no API call. After the caches
// have synced, Run sweeps once: every delegated Service that still has a
// slice of this controller is queued, so slices left behind while the
// controller was down (edge case E8) are deleted. When slices are deleted on
// hand-over, a Normal event EndpointSlicesHandedOver is recorded on the
// Service, naming the controller the Service is delegated to. With the gate
// off the label is ignored and, like any other Service label, copied to the
// slices (rule (a)9).
//
// # Selector removal
//
// KCM keeps the slices of a Service whose selector was removed, or that
// became ExternalName, forever (kubernetes#118376, regression case 33).
// With Options.SelectorRemovalCleanup (the SelectorRemovalCleanup feature
// gate, default on) this controller deletes them by the same path as the
// hand-over (reconciler.DeleteAll, UID preconditions), records a Normal
// EndpointSlicesRemoved event naming the reason, and counts them in
// endpoint_slice_controller_selector_removal_deleted_slices_total{reason};
// the slices come back when the Service selects Pods again. With the gate
// off it leaves them, as KCM does.
//
// # Coexistence
//
// Slices whose managed-by label names another controller are never listed
// for writing, updated or deleted. A second writer of this controller's own
// managed-by value (for instance KCM's controller still running) is detected
// from the slices' managedFields: every write is made with FieldManager set
// to the controller name, so a managedFields entry of another manager that
// appears or advances after the controller started is a foreign write. It is
// reported with a Warning event ConflictingEndpointSliceWriter on the
// Service, a log line and the counter
// endpoint_slice_controller_conflicting_writes_total{manager} (event and log
// at most once per slice and manager per Options.ConflictReportInterval), and
// the controller keeps reconciling, as KCM does.
//
// # Usage
//
//	factory := informers.NewSharedInformerFactory(client, 0)
//	c, err := endpointslice.New(ctx, client, factory, endpointslice.Options{Registerer: reg})
//	...
//	factory.Start(ctx.Done())
//	err = c.Run(ctx, 5) // blocks until ctx is done
//
// New installs no informer transform, so the caches hold whole objects.
// To trim them as `slicekit run` does, install the transforms composed from
// what the controllers sharing the factory read before starting it:
//
//	err := informertransform.Compose(endpointslice.Registration.Reads).Install(factory)
//
// New registers its event handlers, so it must be called before the
// factory is started.
// SyncService is exported so that an offline renderer can drive the same
// code to a fixed point without Run.
package endpointslice
