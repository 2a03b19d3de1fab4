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

// Package addressguard builds the source.AddressGuard of slicekit's
// pod-address controllers (secondary-network, CEL, and every other
// source.PodAddresses run by pkg/slicecontroller): it refuses
// the addresses no Pod may claim, whatever the source read.
//
// Why: a pod-address source reads fields that writers other than the
// kubelet control (the Multus network-status annotation, which any
// namespace editor may patch; whatever a CEL profile reads; a
// ResourceClaim's status). KCM's EndpointSlice controller publishes only
// status.podIPs, which only the kubelet writes, and Kubernetes keeps
// EndpointSlice writes from namespace editors since CVE-2021-25740:
// whoever writes a slice points a Service, and the load balancers,
// ingresses and network policies that trust it, at any address. The guard
// is slicekit's own defence, independent of the admission policies
// (config/components/admission-policies, docs/security.md), so that
// removing those policies still never publishes the addresses below.
//
// A Guard refuses, for one controller:
//   - addresses inside the cluster's Service CIDRs: the networking.k8s.io/v1
//     ServiceCIDR objects (watched when the API server serves them) and
//     the static ranges of --service-cluster-ip-range (Options.ServiceCIDRs),
//     for clusters without ServiceCIDR objects (reason
//     source.ReasonAddressInServiceCIDR);
//   - the InternalIP and ExternalIP addresses of every Node
//     (status.addresses; source.ReasonNodeAddress);
//   - when the controller has an allow-list (--pod-address-allowed-cidrs,
//     Options.AllowedCIDRs, keyed by controller name), every address
//     outside it (source.ReasonAddressNotAllowed).
//
// An address in the Pod's own status.podIPs (written by the kubelet only,
// what KCM publishes) is never refused as a Service CIDR or Node address:
// a host-network Pod's IPs are its Node's. The allow-list applies to it
// too. A refused address is taken away from the Pod's endpoints with a
// Problem (a Warning event on the Service and on the Pod, a metric reason);
// the Pod keeps its other addresses and the Service its other endpoints.
//
// Guard.OnChange tells the controller when what the guard refuses changes
// (Node addresses, ServiceCIDRs): it re-syncs its Services then.
//
// The allow-list is a flag, not a Service or network annotation, on
// purpose: it exists to bound what namespace users can choose, so only
// who deploys slicekit (a cluster admin) may set it.
package addressguard
