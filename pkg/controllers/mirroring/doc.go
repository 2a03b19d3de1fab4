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

// Package mirroring is slicekit's drop-in replacement for
// kube-controller-manager's (KCM) EndpointSlice mirroring controller
// (k8s.io/kubernetes v1.37.2 pkg/controller/endpointslicemirroring; its
// --controllers name is endpointslice-mirroring), built on slicekit's one
// generic reconciler (pkg/reconciler) with an Endpoints owner and the
// Endpoints source (pkg/source/endpointsmirroring), and honouring KEP-4770's Service
// label service.kubernetes.io/endpoint-controller-name.
//
// Projects such as Knative write Endpoints objects by hand for selectorless
// Services; consumers that read only EndpointSlices (kube-proxy, CoreDNS,
// gateways) see them only once they are mirrored. This controller mirrors
// them.
//
// # What is the same as KCM
//
// Rules b1 to b14 of docs/kep4770.md:
//   - Eligibility (b1): an Endpoints object is mirrored when it exists, is
//     not labelled endpointslice.kubernetes.io/skip-mirror=true, has no
//     control-plane.alpha.kubernetes.io/leader annotation, and a Service of
//     the same namespace and name exists with a nil selector. Otherwise every
//     slice mirrored for the name is deleted.
//   - Content (b3 to b7, b10): the subsets are re-packed; per re-packed
//     subset at most MirroringMaxEndpointsPerSubset addresses are mirrored,
//     ready ones first (Warning event TooManyAddressesToMirror); invalid IPs
//     are skipped (Warning event InvalidIPAddress); one slice per address
//     type and port list, no placeholder.
//   - Metadata (b8, b9): labels and annotations copied from the Endpoints
//     (without the trigger-time and last-applied-configuration annotations),
//     kubernetes.io/service-name and managed-by
//     endpointslicemirroring-controller.k8s.io, a controller owner reference
//     to the Endpoints; a slice is rewritten only when an endpoint, a label,
//     an annotation or the owner's UID changed (a slice still owned by an
//     earlier Endpoints object of the same name is adopted).
//   - Triggers and queue (b11, b12): Endpoints events when the old or new
//     version is mirrorable; Service add and delete when the selector is nil,
//     update when the selector changes between nil and non-nil; events on
//     this controller's slices that are not the echo of its own writes,
//     after MirroringEndpointSliceUpdatesBatchPeriod. The queue is named
//     endpoint_slice_mirroring, backs off exponentially from 1s to 100s
//     under an overall 10 qps (burst 100) limit and drops a key after 15
//     retries. Creates are skipped while the Endpoints object is being
//     deleted; a create refused because the namespace is terminating ends
//     the sync silently.
//   - Metrics under KCM's names (subsystem
//     endpoint_slice_mirroring_controller) on an injected registerer:
//     endpoints_added_per_sync, endpoints_updated_per_sync,
//     endpoints_removed_per_sync, addresses_skipped_per_sync,
//     endpoints_sync_duration, endpoints_desired, num_endpoint_slices,
//     desired_endpoint_slices, changes{operation}; plus workqueue_* for
//     name="endpoint_slice_mirroring".
//
// # Where it differs from KCM, on purpose
//
//   - A stale informer cache is never acted on, also when deleting: the
//     generations this controller wrote are tracked (reconciler.Tracker)
//     and a sync on an older cache is retried (syncs{result="stale"}).
//   - Slices pending deletion are ignored, as KCM's EndpointSlice
//     controller does, so a finalizer cannot wedge the stale-cache check.
//   - Deletions carry a UID precondition; updates carry the resourceVersion
//     they were computed from (KCM's mirroring updates are unconditional).
//   - When several slices share an address type and port list, the one with
//     the most endpoints is kept (KCM: the first one the lister returns).
//   - An Endpoints label named kubernetes.io/service-name or
//     endpointslice.kubernetes.io/managed-by is overwritten on the slice as
//     in KCM, but does not make every sync rewrite the slice (KCM compares
//     it with the slice's overwritten value and always finds a difference).
//
// The differential test in test/mirroring runs this controller and KCM's
// side by side on random change sequences and finds the same slices with at
// most KCM's number of writes.
//
// # KEP-4770 delegation
//
// With the ExternalEndpointController gate on (the default here; KCM never
// shipped it), an Endpoints object whose Service is labelled
// service.kubernetes.io/endpoint-controller-name with any value other than
// this controller's name is not mirrored (rule (a)8), and the slices
// mirrored for it before the label came are deleted, with a Normal event
// EndpointSlicesHandedOver on the Service. Adding or removing the label
// queues the Endpoints object; removing it mirrors again. After the caches
// have synced, Run sweeps once: every delegated Service that still has a
// mirrored slice is queued, so slices left behind while the controller was
// down are deleted. Slices whose managed-by label names another controller
// are never listed, written or deleted.
//
// # Selector removal
//
// An Endpoints object written by KCM's Endpoints controller (labelled
// endpoints.kubernetes.io/managed-by=endpoint-controller, or, unlabelled,
// carrying kube-controller-manager's managedFields entry and no other
// manager's subsets: selectorless.KCMEndpoints) on a Service without a
// selector is the Endpoints
// controller's leftover from before the selector was removed
// (kubernetes#118376, regression case 34), not hand-written endpoints. With
// Options.SelectorRemovalCleanup (the SelectorRemovalCleanup feature gate,
// default on) it is not mirrored and slices mirrored from it are deleted
// (Normal EndpointSlicesRemoved event on the Service, counter
// endpoint_slice_mirroring_controller_selector_removal_deleted_slices_total).
// KCM's shouldMirror ignores that label and mirrors it. Trade-off: a user who
// edits such a leftover by hand must drop the label (or, unlabelled, change
// its subsets) for it to be mirrored.
//
// # Usage
//
//	factory := informers.NewSharedInformerFactory(client, 0)
//	c, err := mirroring.New(ctx, client, factory, mirroring.Options{Registerer: reg})
//	...
//	factory.Start(ctx.Done())
//	err = c.Run(ctx, 0) // Options.MirroringConcurrentServiceEndpointSyncs workers; blocks until ctx is done
//
// SyncEndpoints and SyncAll are exported so that an offline renderer can
// drive the same code to a fixed point without Run.
//
// New installs no informer transform: the caches hold whole objects. The
// manager registers the controller through Registration (registration.go:
// its --mirroring-* Flags, and what it reads: Services, Endpoints and
// EndpointSlices) and installs the transforms composed from every enabled
// controller's Reads; a program calling New directly may do the same
// before starting the factory (package informertransform):
//
//	err := informertransform.Compose(mirroring.Registration.Reads).Install(factory)
package mirroring
