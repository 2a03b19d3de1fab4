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

// Package reconciler is slicekit's generic EndpointSlice reconciler: any
// owner object (a Service, an Endpoints object, a custom resource) plus any
// source of desired endpoints in, EndpointSlices packed, labelled, owned and
// tracked out, as kube-controller-manager (KCM) does for Services.
//
// KEP-4770 proposed such a reconciler and dropped it; k8s.io/endpointslice
// is bound to a Service and its Pods. This package keeps KCM's algorithm
// (k8s.io/endpointslice v0.37.2 reconciler.go and utils.go; behaviours C21 to
// C36 of the KEP-4770 spec) and makes the owner kind, the label policy and
// the endpoint source parameters:
//
//   - Config names the managed-by value, the owner's kind, the packing limit
//     (MaxEndpointsPerSlice), whether each address type keeps a placeholder
//     slice (KCM's EndpointSlice controller: yes; mirroring: no) and whether
//     ownership is enforced by controller owner reference UID.
//   - A MetadataPolicy decides labels and annotations: ServiceMetadata copies
//     Service labels (KCM C24), EndpointsMetadata copies Endpoints labels and
//     annotations (mirroring rule b8); callers may bring their own.
//   - A Desired value, built by a source such as
//     github.com/slicekit/slicekit/pkg/source/servicepods, lists the
//     supported address types and the desired endpoints grouped by address
//     type and port list, plus the hints mode.
//
// Reconciling is two steps, as in KCM. Plan is pure: it computes the slices
// to create, update and delete (packing and churn rules C28 to C32,
// placeholders C27, hints C34 and C35, create+delete recycled into update),
// deterministically, without touching its inputs. Apply writes the plan
// through client-go in the order creates, updates, deletes, records each
// write in a Tracker (generations, for stale-cache detection, C33) and in
// Prometheus metrics with KCM's names (C36) on an injected registry.
// Reconcile does both.
//
// Incremental planning: an Index holds one owner's desired
// endpoints by item (for a Service: by Pod) and learns which existing slice
// holds each; PlanIndexed then plans only the slices whose endpoints
// changed, plus the packing rules for endpoints that are in no slice, and
// returns the very Plan that Plan would for Index.Desired() and the same
// slices. Whenever the index cannot tell (first sync, reset, several port
// groups, placeholders, topology-aware hints, slices it does not know,
// duplicates), it plans with Plan and says why (the FullReason constants).
// Within a slice it plans, it reads only the endpoints whose desired
// version changed since the slice was last found identical to them, so a
// readiness flip reads about the same memory at 1,000 and at 50,000
// endpoints.
//
// For controllers of other projects: Config.SliceNamePrefix names the
// slices; Config.SetLabel keeps several slice sets per owner (one per
// remote cluster or network), each planned, tracked and released on its
// own through ForSet; Config.ServiceNameLabel and
// Config.DisableBlockOwnerDeletion adapt the labels and owner references;
// Tracker.Reset (or ReplaceTracker) starts a leadership term afresh;
// metrics.NewWithConstLabels tells apart the metrics of several
// reconcilers of one process. Desired is plain data, so any source of
// endpoints works, Pods or not. Package reconcilertest tests such a
// controller on client-go's fake clientset.
//
// This package is the Go module github.com/slicekit/slicekit/pkg/reconciler,
// which requires only k8s.io/api, apimachinery, client-go, klog and the
// Prometheus client (docs/library.md in the repository).
//
// The package never builds clients, informers or queues: controllers own
// those (see pkg/controllers). Slices whose managed-by label names another
// controller are never written, even when handed in by mistake.
package reconciler
