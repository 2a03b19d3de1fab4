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

// Package endpoints is slicekit's drop-in replacement for
// kube-controller-manager's (KCM) Endpoints controller (k8s.io/kubernetes
// v1.37.2 pkg/controller/endpoint/endpoints_controller.go; its --controllers
// name is endpoints), honouring KEP-4770's Service label
// service.kubernetes.io/endpoint-controller-name. The core/v1 Endpoints API
// is deprecated, but many consumers still read it; this controller keeps
// writing it so that KCM's can be switched off.
//
// # What is the same as KCM (behaviour C37 of the KEP-4770 spec)
//
// One Endpoints object per Service with a selector (none for ExternalName
// or selectorless Services), named like the Service. Each Pod the selector
// matches that should be in endpoints gives an address of the Service's
// first IP family, ready or not ready by the Pod's Ready condition (all
// ready with publishNotReadyAddresses; terminating Pods only then), per
// Service port it resolves; the subsets are re-packed into KCM's canonical
// layout (byte-for-byte the same order, pkg/source/endpointsmirroring
// RepackSubsets). Labels are the Service's plus
// service.kubernetes.io/headless for Services without a cluster IP and
// endpoints.kubernetes.io/managed-by: endpoint-controller; the
// endpoints.kubernetes.io/last-change-trigger-time annotation is set from
// the Pods' readiness changes. More than 1000 addresses are truncated,
// ready ones first and in proportion per subset, and the object is
// annotated endpoints.kubernetes.io/over-capacity: truncated. An object
// whose subsets, labels and capacity annotation are already right is not
// written. After an update the replaced resourceVersion is remembered, and
// a cache still holding it is stale (the sync is retried); an update that
// returns the same resourceVersion (a server-side no-op, as happens every
// sync for a truncated object) is not recorded, so the controller never
// wedges on it (edge case E5, kubernetes#127370). Triggers, batching
// (EndpointUpdatesBatchPeriod), the queue named endpoint with the default
// controller rate limiter, 15 retries, the event source endpoint-controller
// and the Warning events FailedToCreateEndpoint / FailedToUpdateEndpoint
// are KCM's.
//
// # Where it differs: deletion and KEP-4770
//
//   - Only Endpoints objects carrying endpoints.kubernetes.io/managed-by:
//     endpoint-controller are ever deleted, each with a UID precondition. KCM
//     deletes the Endpoints object of a missing Service by name, whoever
//     wrote it, and at start-up queues every Endpoints object to do so
//     (checkLeftoverEndpoints), which deletes hand-written Endpoints of
//     Services delegated to another controller at every restart (spec O3,
//     E9). Here there is no such start-up pass; instead an Endpoints object
//     that carries the label while its Service is missing or delegated is
//     queued when the cache sees it, and deleted.
//   - With the ExternalEndpointController gate on (the default here), a
//     Service labelled service.kubernetes.io/endpoint-controller-name with
//     any value other than endpoint-controller gets no Endpoints object from
//     this controller, and the one it wrote is deleted (with a Normal event
//     EndpointsHandedOver on the Service). Removing the label makes the
//     Service an ordinary one again. Pod churn of a delegated Service queues
//     nothing. With the gate off the label is ignored and, like every
//     Service label, copied to the Endpoints object (rule (a)9).
//
// # Selector removal
//
// KCM keeps the Endpoints object of a Service whose selector was removed, or
// that became ExternalName (kubernetes#118376, regression case 34), and its
// mirroring controller then mirrors it. With Options.SelectorRemovalCleanup
// (the SelectorRemovalCleanup feature gate, default on) this controller
// deletes it, only when it carries this controller's managed-by label (UID
// precondition; hand-written Endpoints of a selectorless Service are never
// touched), with a Normal EndpointsRemoved event naming the reason and the
// counter endpoint_controller_selector_removal_deleted_endpoints_total{reason}.
//
// # Usage
//
//	factory := informers.NewSharedInformerFactory(client, 0)
//	c, err := endpoints.New(ctx, client, factory, endpoints.Options{Registerer: reg})
//	...
//	factory.Start(ctx.Done())
//	err = c.Run(ctx, 0) // Options.ConcurrentEndpointSyncs workers; blocks until ctx is done
//
// SyncService and SyncAll are exported so that an offline renderer can drive
// the same code to a fixed point without Run.
//
// New installs no informer transform: the caches hold whole objects. The
// manager registers the controller through Registration (registration.go:
// its --concurrent-endpoint-syncs Flags, and what it reads: Services, Pods
// and whole Endpoints, since it updates Endpoints read from the cache) and
// installs the transforms composed from every enabled controller's Reads;
// a program calling New directly may do the same before starting the
// factory (package informertransform):
//
//	err := informertransform.Compose(endpoints.Registration.Reads).Install(factory)
package endpoints
