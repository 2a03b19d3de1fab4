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

// Package networkstatus is the source of slicekit's secondary-network
// (Multus) EndpointSlice controller: it reads the Multus annotations and
// returns each Pod's addresses on the networks a Service selects.
//
//   - ParseNetworkStatus parses a Pod's k8s.v1.cni.cncf.io/network-status
//     annotation (written by Multus: a JSON array of {name, interface, ips,
//     mac, mtu, default, dns, device-info, gateway}); PodNetworkStatus reads
//     it from a Pod, falling back to the legacy networks-status key.
//   - ParseServiceNetworks parses a Service's
//     k8s.v1.cni.cncf.io/service-network annotation (multus-service's
//     convention): "net", "ns/net", "net@iface", comma-separated, spaces
//     tolerated, or the JSON list form; a bare name is in the Service's
//     namespace.
//   - Addresses is the source.AddressFunc: the IPs of the Pod's
//     network-status entries matching a selected network; Source bundles
//     it with CheckService, AddressTypes and PodChanged; Desired is
//     source.Desired with that Source.
//
// Rules and where they come from: the annotation formats and pitfalls in
// docs/multus-network-status.md §1 (network-attachment-definition client types.go,
// multus docs/how-to-use.md); the address selection of multus-service
// (pkg/service-controller/utils.go getEndpointAddresses: the entry whose
// name is the annotation's namespace/name, a bare name qualified with the
// namespace); the endpoint rules of KCM (k8s.io/endpointslice utils.go
// podToEndpoint) through package source and servicepods. What multus-service
// lacked and this package adds: the cluster network (default: true) never
// matches, so primary addresses never appear; families are never mixed in
// a slice; a network attached twice, an attachment without IPs, a missing
// or malformed annotation, and an address on two Pods are Problems (Warning
// events and metrics) instead of wrong or crashing output.
//
// Address types: a Service with a cluster IP gets slices of its
// spec.ipFamilies (KCM), a headless Service gets IPv4 and IPv6 slices,
// because its families say nothing about a secondary network's.
//
// Nothing here reads the NetworkAttachmentDefinition custom resource, so
// the CRD need not be installed. Nothing modifies its inputs.
package networkstatus
