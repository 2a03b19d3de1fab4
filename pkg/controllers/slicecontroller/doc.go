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

// Package podsource is slicekit's shared "pod-derived custom controller":
// an EndpointSlice controller with the shape of KCM's (informers for Pods,
// Services, EndpointSlices and Nodes; Service, Pod and topology queues;
// KCM's triggers, batching, rate limits, retry budget, stale-cache tracker
// and metrics names), built on the generic reconciler (pkg/reconciler) and
// the servicepods building blocks, whose only differences from the
// default controller are
//
//   - which Services it handles: exactly those labelled
//     service.kubernetes.io/endpoint-controller-name=<Options.ControllerName>
//     (KEP-4770; the default controller steps aside for them, see
//     pkg/controllers/delegation), and
//   - where the endpoints' addresses come from: a source.Source, whose
//     AddressFunc returns a Pod's addresses instead of status.podIPs (and
//     whose optional ServingFunc replaces the Pod Ready rule).
//
// The secondary-network (Multus) controller
// (pkg/controllers/secondarynetwork, source
// pkg/source/networkstatus) and the CEL controllers
// (pkg/controllers/celprofiles, source pkg/source/celpods) are a
// Source plus wiring.
//
// # Endpoints
//
// The Source contract, and Desired, which turns a Service, its Pods, the
// Nodes and a Source into a reconciler.Desired plus Problems, live in
// pkg/source: sources never import controllers. This package calls
// source.Desired in every sync and reports the Problems.
//
// # Problems
//
// A Problem (a Pod without usable addresses, an ambiguous attachment, a
// duplicate address, a misconfigured Service, ...) never fails a sync: the
// Service gets its other endpoints. Each Problem is reported once, when it
// appears, as a Warning event on the Service (reason = the Problem's
// reason, message naming the Pod) and counted in
// <subsystem>_pod_problems_total{controller,reason}; the gauge
// <subsystem>_pod_problems{controller,reason} holds the standing ones.
// Events go on the Service rather than the Pod: its owner is the one
// looking for missing endpoints (kubectl describe service), several
// Services may select a Pod, and Pods come and go.
//
// # Hand-over
//
// When a Service loses the label, or its value changes to another
// controller's name, the controller deletes its own slices of the Service
// (managed-by = Options.ManagedBy and kubernetes.io/service-name; UID
// preconditions) with a Normal EndpointSlicesReleased event, and forgets the
// Service. After its caches synced, Run queues every Service that still has
// a slice of this controller without carrying its label, so slices left
// while it was down are deleted too. Slices of other controllers are never
// written.
//
// # Usage
//
//	c, err := podsource.New(ctx, client, factory, podsource.Options{
//		ControllerName: "example.com/my-controller",
//		Source:         source.Source{Addresses: myAddresses},
//	})
//	factory.Start(ctx.Done())
//	err = c.Run(ctx, 5)
//
// SyncService and SyncAll are exported so that `slicekit render` can drive
// the same code to a fixed point without Run, after filling the informers'
// indexers. Run, HasSynced and SyncAll are the manager's Controller
// interface (pkg/manager), which *Controller implements as it is.
//
// # Informer transforms
//
// The factory is shared with other controllers. An informer has one
// transform; the last one installed before the factory starts wins. A
// Source that reads Pod fields the EndpointSlice controller's transform
// (endpointslice.TransformPod) drops, such as annotations, must either
// install a superset (Options.PodTransform, as secondarynetwork does) or
// run with no Pod transform at all (the CEL controllers, which may read
// any field): the caller then sets SkipInformerTransforms on every
// controller of the factory.
package slicecontroller
