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

// Package dranetwork is slicekit's dra-network controller: the
// EndpointSlices of a Service carry the addresses that the Pods'
// network devices report in their ResourceClaims
// (ResourceClaim.status.devices[].networkData, Dynamic Resource Allocation,
// KEP-4817, GA in Kubernetes 1.37), instead of status.podIPs.
//
// It is an instance of the one Service controller
// (pkg/slicecontroller), like the secondary-network controller, and the
// model of a controller whose source reads a kind other than Pods. The
// source itself, the rules from a Pod to its claim's addresses, is
// package pkg/source/networkdata; this package holds the wiring:
//   - the kind it reads (ResourceClaimKind: informer, list, transform and
//     file validation, pkg/inputkinds), named in its Registration's Reads so
//     that `slicekit run`, `render` and `check` all read ResourceClaims;
//   - the Pod field it reads beyond the endpoint rules'
//     (podcache.ResourceClaims: spec.resourceClaims and
//     status.resourceClaimStatuses), which the Pod cache then keeps;
//   - the controller (New: networkdata.Source over the ResourceClaim
//     informer, whose events sync the Services of the Pods
//     networkdata.ClaimPods names), RBAC rules and Registration, whose
//     Oracle lets `slicekit check` run the same source over a dump.
//
// A Service is this controller's when it is labelled
// service.kubernetes.io/endpoint-controller-name=<controller name>
// (default dra-network.slicekit.dev, also its managed-by value) and
// annotated slicekit.dev/dra-claim (package networkdata; docs/dra-network.md).
package dranetwork
