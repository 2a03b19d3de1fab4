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

// Package networkdata is the source of the dra-network controller
// (pkg/controllers/dranetwork): the addresses of a Service's endpoints are
// those that the Pods' network devices report in their ResourceClaims
// (ResourceClaim.status.devices[].networkData, Dynamic Resource Allocation,
// KEP-4817, GA in Kubernetes 1.37), instead of status.podIPs. It holds
// the source (Source: Addresses, Serving, CheckService, AddressTypes,
// PodChanged), the pure resolution from a Pod to its claim's addresses
// (Resolve), and the map from a claim to the Pods it concerns
// (ClaimPods). It reads no informer: the caller passes a ClaimGetter (a
// lister in the controller, the input's claims in `slicekit check`).
//
// # Rules (docs/dra-network.md)
//
// A Service is this controller's when it is labelled
// service.kubernetes.io/endpoint-controller-name=<controller name>
// (default dra-network.slicekit.dev, also its managed-by value) and
// annotated slicekit.dev/dra-claim: "<pod claim name>" or
// "<pod claim name>/<request name>" (ParseClaimRef). spec.selector, or the
// selectorless form (slicekit.dev/selector), picks the Pods. For each Pod:
//  1. the entry of spec.resourceClaims with the pod claim name; the claim is
//     its resourceClaimName, or for a template the name in
//     status.resourceClaimStatuses
//     (k8s.io/dynamic-resource-allocation/resourceclaim.Name), and then the
//     claim must be controlled by the Pod (resourceclaim.IsForPod);
//  2. the claim must be reserved for the Pod (status.reservedFor holds its
//     uid, resourceclaim.IsReservedForPod) and for no other consumer: the
//     addresses of a shared claim belong to no single Pod (KEP-4817,
//     Drawbacks);
//  3. the devices allocated for the request (status.allocation.devices.results
//     with that request, or a subrequest "<request>/<sub>" of a
//     firstAvailable request; every result when no request is named),
//     matched to status.devices by driver, pool, device and shareID;
//  4. their networkData.ips, interface addresses in CIDR form, with the
//     prefix length stripped; IPv4 to the IPv4 slices, IPv6 to the IPv6
//     ones. status.podIPs never appear.
//
// A Pod failing a step is left out with a Problem (a Warning event on the
// Service and the pod_problems metric, reason one of the Reason* constants).
// A device whose Ready condition is False makes the Pod's endpoints not
// serving (and so not ready). Readiness, terminating, nodeName, zone,
// hostname, named ports, placeholders and packing are the EndpointSlice
// controller's (pkg/source Desired).
//
// # Who writes what it reads
//
// status.devices is written by the device's driver only: since Kubernetes
// 1.36 the API server asks for a per-driver permission
// (resourceclaims/driver, DRAResourceClaimGranularStatusAuthorization), so
// a Pod's editor cannot choose the addresses, unlike the Multus
// network-status annotation. status.allocation and status.reservedFor are
// written by the scheduler and the resourceclaim controller. The Service
// annotation only chooses which of the selected Pods' claims is published.
package networkdata
