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

// Package endpoints computes the desired EndpointSlice endpoints of a
// core/v1 Endpoints object exactly as kube-controller-manager's (KCM)
// EndpointSlice mirroring controller does (k8s.io/kubernetes v1.37.2
// pkg/controller/endpointslicemirroring). It is the "source" half of the
// mirroring controller (github.com/slicekit/slicekit/pkg/controllers/mirroring);
// the generic reconciler in pkg/reconciler is the other half and turns the
// result into EndpointSlices. It also holds KCM's canonical Endpoints layout
// (RepackSubsets), which the Endpoints controller
// (github.com/slicekit/slicekit/pkg/controllers/endpoints) writes.
//
// A mirroring controller typically does, for an Endpoints object that is to
// be mirrored (rules b1 to b14 of docs/kep4770.md):
//
//	res, err := endpoints.Desired(ep, endpoints.Options{MaxEndpointsPerSubset: 1000})
//	// record res.InvalidAddresses / res.AddressesSkipped as Warning events
//	err = r.Reconcile(ctx, ep, res.Desired, existingMirroredSlices, time.Time{})
//
// Rules and the KCM code they come from:
//   - subsets are first re-packed into the canonical layout: ports that are
//     served by the same set of addresses (with the same readiness) are
//     merged into one subset, addresses are de-duplicated by IP and
//     targetRef UID, not-ready wins over ready (pkg/api/v1/endpoints
//     util.go RepackSubsets; RepackSubsets here, byte-for-byte the same
//     order);
//   - per re-packed subset at most MaxEndpointsPerSubset addresses are
//     mirrored, ready addresses first, then not-ready ones; the rest are
//     skipped and counted (rule b4; reconciler.go reconcile);
//   - addresses whose IP does not parse are skipped and counted (rule b5;
//     utils.go addressToEndpoint, AddressToEndpoint here);
//   - an address becomes an endpoint with the re-stringified IP, ready =
//     true for addresses and false for notReadyAddresses, no serving or
//     terminating condition, the targetRef and nodeName copied, the
//     hostname when not empty, no zone and no hints (rule b6;
//     AddressToEndpoint);
//   - ports keep name, port, protocol and appProtocol (rule b7; utils.go
//     epPortsToEpsPorts, EndpointPorts here);
//   - endpoints are grouped by address family (IPv4 unless the IP has no
//     4-byte form) and port list: one group, and so one slice, per group
//     (rule b3; reconciler_helpers.go desiredCalc).
//
// Nothing in this package modifies its inputs, which may come straight from
// informer caches, and no returned value aliases them.
package endpointsmirroring
