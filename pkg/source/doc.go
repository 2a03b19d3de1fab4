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

// Package source is the contract between slicekit's controllers and the
// sources of endpoints: a source says what the desired endpoints of one
// Service are, plus the per-Pod (or Service-level) problems that left
// something out of them. Controllers (pkg/controllers/...) consume sources;
// no source package imports a controller package.
//
// Every source of a Service controller (pkg/slicecontroller)
// implements one interface, Source: Desired(ctx, Service, selected Pods,
// Nodes) returns the reconciler.Desired of the Service plus the Problems
// found, and PodUpdateMatters says which Pod updates beyond KCM's fields
// matter. KCM's own source (status.podIPs), the drop-in EndpointSlice
// controller's, is servicepods.Source; it implements this contract and
// IncrementalSource, and this package does not import it.
//
// For pod-address sources (endpoints are the Pods a Service selects, as in
// KCM, with addresses other than status.podIPs) PodAddresses implements
// Source: an AddressFunc returning a Pod's addresses, and optionally a
// ServingFunc, a CheckService, AddressTypes and a PodChanged predicate. A
// source names why it leaves a Pod out with a *SkipError (Skip); Desired
// turns a Service, its Pods, the Nodes and a PodAddresses into the
// reconciler.Desired of the Service plus the Problems found, which
// controllers report as events and metrics. An AddressGuard
// (PodAddresses.Guard, installed by the Service controller through
// WithAddressGuard; pkg/source/addressguard builds slicekit's) refuses
// addresses no Pod may claim, whoever wrote the input: inside the Service
// CIDRs, Node addresses, outside an allow-list (ReasonAddressInServiceCIDR,
// ReasonNodeAddress, ReasonAddressNotAllowed; docs/security.md).
// ParseEndpointIP is the rule
// for what an endpoint address may be (what the API server accepts in an
// EndpointSlice endpoint).
//
// Desired keeps everything but the addresses KCM's: inclusion, conditions,
// nodeName, zone, hostname, targetRef and ports come from KCM's rules for
// a Pod's endpoint (pkg/source/podendpoint, after k8s.io/endpointslice);
// addresses are validated, one endpoint per address as KCM writes one
// address per endpoint, grouped per address family so that a slice never
// mixes IPv4 and IPv6; an address claimed by two Pods goes to one
// deterministically (not terminating, oldest, then namespace/name). Pods
// left out, and addresses taken away, are Problems, never errors.
//
// The sub-packages are sources: servicepods (KCM's own, status.podIPs),
// endpointsmirroring (Endpoints objects, for the mirroring controller),
// networkstatus (Multus network-status, secondary networks), networkdata
// (DRA ResourceClaim networkData) and celpods (CEL expressions over Service
// and Pod); podendpoint holds the Pod rules they share, and addressguard
// the address guard.
package source
