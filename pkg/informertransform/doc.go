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

// Package informertransform composes the client-go informer transforms of
// the controllers that share one informer factory in `slicekit run` and
// `slicekit render`.
//
// Each controller declares what it reads (Reads: which informers it uses,
// which Pod annotations and which Pod fields beyond the endpoint rules' it
// reads (podcache.Field), which other kinds it reads (pkg/inputkinds, each
// with its own transform), whether it may read any field of a Pod or
// Service, as CEL expressions do). Compose takes the declarations of the
// enabled controllers and returns one transform per informer that keeps the
// union of what they read, so that the caches hold no more than some
// enabled controller reads, whatever the order the controllers are created
// in. Install sets them on the factory's informers before the factory
// starts. Without transforms the controllers work the same, with more
// memory: a transform only removes fields nobody reads.
//
// Memory is the point: in a large cluster the Pod cache dominates a
// controller's resident memory, and KCM keeps whole Pods (docs/performance.md,
// RSS against kube-controller-manager's: `make bench-live`).
//
// The trimmed fields, by object:
//   - Pod: identity, labels, resourceVersion, generation, creation and
//     deletion timestamps; spec.nodeName, hostname, subdomain, the
//     containers' and init containers' names and ports (init containers'
//     restartPolicy, for sidecars); status.phase, podIP(s) and the Ready
//     condition's type, status and lastTransitionTime; the declared
//     annotations and the declared Pod fields (podcache.ResourceClaims:
//     spec.resourceClaims and status.resourceClaimStatuses). What KCM's
//     EndpointSlice and Endpoints controllers read (docs/kep4770.md
//     C15–C24). The transform caches
//     them as a compact *podcache.Record, not a *corev1.Pod (a Pod struct
//     is 1.2 KB however few fields are set): read a transformed Pod
//     informer with podcache.NewLister and podcache.FromObject, never with
//     the factory's Pods().Lister(), whose type assertion would panic on a
//     record.
//   - Service: everything but managedFields and the
//     kubectl.kubernetes.io/last-applied-configuration annotation.
//   - EndpointSlice: everything, with each managedFields entry reduced to
//     manager, operation, API version, time and subresource (the managed-by
//     conflict detector reads them; fieldsV1 is large and unread).
//   - Node: identity, labels (zone), timestamps, status.allocatable (CPU for
//     topology hints) and the conditions' types and statuses; plus
//     status.addresses when a controller declares NodeAddresses (the
//     address guard of pod-address sources).
//   - Endpoints: everything but the last-applied annotation (KCM's
//     mirroring controller does not copy it either), with each managedFields
//     entry reduced to manager, operation, API version, subresource and the
//     names of the top-level fields it owns (selectorless.KCMEndpoints reads
//     them to recognise what kube-controller-manager 1.32 and older wrote);
//     whole when a controller declares AllEndpointsFields (the Endpoints
//     controller, which writes cached Endpoints back).
//
// # Who installs them
//
// In slicekit the manager (pkg/manager, for `slicekit run` and `slicekit
// render`) composes the Reads of the enabled controllers (each controller
// package's Registration.Reads, pkg/registry) and installs them
// once, before it creates the controllers; no controller installs a
// transform itself. A program that calls a controller's New directly gets
// whole objects in its caches (correct, more memory); to trim them it
// composes the Reads of every controller on the factory and installs the
// result before starting the factory:
//
//	t := informertransform.Compose(endpointslice.Registration.Reads, mirroring.Registration.Reads)
//	if err := t.Install(factory); err != nil { ... }
//	// then endpointslice.New(...), mirroring.New(...), factory.Start(...)
//
// Leaving out a controller's Reads can hide fields it reads: compose all
// of them.
package informertransform
