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

// Package podendpoint holds kube-controller-manager's (KCM) rules for the
// endpoint of a Pod in a Service, the building blocks every source that
// derives endpoints from the Pods a Service selects shares, whatever
// addresses it publishes (k8s.io/endpointslice v0.37.2; behaviours C15-C20,
// C34, C35 and edge case E14 of docs/kep4770.md):
//   - the address types of a Service's slices: utils.go
//     getAddressTypesForService (AddressTypes);
//   - its hints: utils.go hintsEnabled and reconciler.go
//     validTrafficDistribution (TopologyAuto, Hints, Options);
//   - pod inclusion: util/controller_utils.go ShouldPodBeInEndpoints
//     (ShouldPodBeInEndpoints);
//   - ports: utils.go getEndpointPorts and FindPort (EndpointPorts,
//     FindPort);
//   - endpoint fields: utils.go podToEndpoint and util/controller_utils.go
//     ShouldSetHostname and IsPodReady (PodToEndpoint, ShouldSetHostname,
//     IsPodReady, PodReadyCondition);
//   - the Node lookup: reconciler.go reconcileByAddressType (NodeGetter,
//     CachedNodes, and SkippedPodError for a Pod whose Node is missing).
//
// KCM's own source (status.podIPs) is pkg/source/servicepods; the
// pod-address sources (pkg/source Desired with a PodAddresses) use the same
// rules with other addresses. Nothing in this package modifies its inputs,
// which may come straight from informer caches, and no returned value
// aliases them, except that PodToEndpoint keeps the address slice it is
// given and PodReadyCondition points into the status it is given.
package podendpoint
