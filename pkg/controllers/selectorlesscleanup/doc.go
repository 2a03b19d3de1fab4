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

// Package selectorlesscleanup implements the selectorless-cleanup
// controller (`slicekit run --controllers=...,selectorless-cleanup`, opt-in)
// for clusters whose kube-controller-manager (KCM) keeps its endpoint
// controllers, as on managed clusters where nobody can pass
// --controllers=-endpointslice-controller.
//
// KCM's controllers leave a Service without selector (or of type
// ExternalName) alone, but never delete what they wrote for it before the
// selector went (kubernetes#118376, regression cases 33, 34 and 36): the
// EndpointSlice controller's slices and the Endpoints controller's
// Endpoints object, which KCM's mirroring controller then mirrors. For every
// Service that has no selector or is of type ExternalName this controller
// deletes exactly those leftovers:
//
//   - EndpointSlices labelled endpointslice.kubernetes.io/managed-by=
//     endpointslice-controller.k8s.io and kubernetes.io/service-name=<name>
//     whose controller ownerReference is the Service (same UID);
//   - the Endpoints object of the Service's name written by KCM's Endpoints
//     controller (selectorless.KCMEndpoints): labelled
//     endpoints.kubernetes.io/managed-by=endpoint-controller (KCM 1.33 and
//     later) or, unlabelled, carrying a managedFields entry of
//     kube-controller-manager and no other manager's subsets (every KCM
//     version; the only mark of KCM 1.32 and older). KCM's mirroring
//     controller then deletes its mirror; its mirrored slices are never
//     touched here.
//
// Each deletion carries UID and resourceVersion preconditions, so an object
// replaced or changed since the cache saw it is never removed (the
// controller retries on the next event). Nothing else is ever deleted or
// written: not hand-written Endpoints (neither mark), not slices of
// any other controller, not objects of a Service that selects Pods.
//
// Each deletion records a Normal Event on the Service (EndpointSlicesRemoved,
// EndpointsRemoved) naming the reason, and counts in
// selectorless_cleanup_deletions_total{kind,reason,dry_run}. With DryRun
// (--selectorless-cleanup-dry-run) it deletes nothing and reports what it
// would delete: a Normal SelectorlessLeftoverFound Event, a log line and the
// same counter with dry_run="true".
//
// New installs no informer transform; the manager registers the
// controller through Registration (registration.go: --selectorless-cleanup-dry-run,
// and what it reads: Services, EndpointSlices, Endpoints) and installs the
// transforms composed from every enabled controller's Reads (package
// informertransform).
package selectorlesscleanup
