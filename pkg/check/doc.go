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

// Package check implements `slicekit check`: it judges the EndpointSlices
// of a cluster or of a dump against the EndpointSlice contract, whichever
// controller wrote them, and reports findings (severity, object, rule,
// one-line reason).
//
// # Using it
//
// Check(ctx, inventory, config) is the pure checker over a set of objects
// (an Inventory of Services, Pods, Nodes, Endpoints and EndpointSlices).
// LoadCluster lists an Inventory from a cluster, ReadFiles and Decode read
// it from multi-document YAML or JSON (strict decoding, List kinds too).
// Run wires them behind command-line Options (AddFlags, Validate) and
// returns the exit status: 0 without error findings (warnings alone pass),
// 1 with at least one, 2 for usage and input errors. NewCommand is a ready
// cobra command around Run.
//
// # Terms
//
// The default controller is the one whose managed-by value is
// Config.DefaultControllerName (kube-controller-manager's
// endpointslice-controller.k8s.io, or slicekit's drop-in); the mirroring
// controller is Config.MirroringControllerName. Both are "built-in". A
// Service is delegated when it carries the KEP-4770 label
// service.kubernetes.io/endpoint-controller-name with a value other than
// the default controller's name (any value, even "": the label works by
// presence). A slice is selector-derived when its Service has a selector,
// is not of type ExternalName, and the slice is not mirrored: its endpoints
// must then be the Service's selected Pods, whichever controller wrote it
// (custom controllers such as a secondary-network one may publish other
// addresses of those Pods; only the default controller must publish
// status.podIPs).
//
// # What is not a finding
//
// Missing slices, mostly: the check judges what exists, so a Service
// whose controller publishes no ready endpoint for it, or that has slices
// of other writers only, is not judged for its controller's missing
// slices. A Service without any slice at all although its controller
// publishes ready endpoints is a warning (slices-missing); once a Service
// has slices of its controller, a missing endpoint is a finding
// (endpoint-missing). Rules that need a kind absent from the
// input (for example Pods in a dump of slices only) are skipped and listed
// in Report.Skipped. kube-apiserver's own default/kubernetes slice, which
// has no managed-by label, is not reported for it. A cluster is read
// object kind by object kind, not atomically: a controller caught in the
// middle of an update can show as endpoint-level errors (conditions, gone
// Pods) that a second run no longer finds.
//
// # Rules
//
// Rules() lists every rule with its severity, summary and authority; the
// command prints them with --list-rules. In short:
//
//   - missing-service-name, missing-managed-by: slice metadata.
//   - orphan-slice: the Service is gone.
//   - owner-missing, owner-stale-uid, owner-mismatch: controller
//     ownerReference to the Service (to the Endpoints for mirrored slices);
//     slices of other controllers and hand-written ones need no owner.
//   - delegated-builtin-slice: a delegated Service still has default or
//     mirroring slices (stale, KEP-4770); delegated-foreign-slice: slices of
//     a third controller, except those of a declared slice set.
//   - multiple-managers: an undelegated Service's slices come from several
//     controllers (warning); the slices of a declared slice set
//     (Config.SliceSetLabels, --slice-set-label) are not counted.
//   - mirror-for-selector-service, mirror-ineligible, mirror-drift:
//     mirrored slices that must not exist or differ from what the mirroring
//     controller publishes for their Endpoints (computed by its own source,
//     pkg/source/endpointsmirroring).
//   - default-for-selectorless-service, externalname-service-slice: slices
//     the default controller no longer maintains or must not write (errors:
//     the leftovers of kubernetes#118376).
//   - endpoints-selector-leftover, mirror-of-selector-leftover: the
//     Endpoints controller's object for a Service without selector, and its
//     mirrored slices (kubernetes#118376). delegated-builtin-slice findings
//     on a Service that still has a selector carry a hint towards the
//     selectorless form (annotation slicekit.dev/selector).
//   - api-limits, address-type-mismatch, address-family-not-served,
//     duplicate-endpoint (the same endpoint, by KCM's identity: addresses,
//     hostname and target, twice for a Service; with declared slice sets,
//     an error within a set and a warning across sets),
//     max-endpoints-per-slice.
//   - endpoint-missing (completeness): an endpoint the responsible
//     controller publishes is absent, computed by that controller's own
//     source (pkg/source/servicepods for the default controller; for a
//     Service delegated to another, the source of that controller's
//     oracle in Config.Oracles, which its registration provides,
//     registry.Oracle; without one, the report's Skipped says so). It
//     only judges Services
//     that have at least one slice of that controller and are not being
//     deleted.
//   - slices-missing (missing.go, warning): a Service without any slice
//     although its controller (the default one, or a pod-address
//     controller the check knows) publishes ready endpoints for it.
//   - endpoint-pod-missing, endpoint-pod-not-selected, endpoint-pod-terminal,
//     endpoint-address-not-pod-ip, endpoint-conditions, endpoint-nodename,
//     endpoint-zone, endpoint-hostname: selector-derived endpoints against
//     their Pods (endpoint-nodename also flags, in the slices of the default
//     controller and of the secondary-network one, a Pod whose Node is
//     absent from an input with Nodes: they skip it, as KCM does, unless
//     publishNotReadyAddresses).
//   - admission-policy-missing (live clusters only, admission.go): the
//     secondary-network controller's slices exist but slicekit's admission
//     policies (docs/security.md) are not installed and bound.
//   - controller-api-missing (live clusters only, apis.go): a Service asks
//     for a controller whose API the server does not serve (dra-network
//     before Kubernetes 1.34); `slicekit run` leaves it out.
//   - port-mismatch: slice ports against the Service's ports (name,
//     protocol, number, appProtocol) and the Pods' container ports.
//   - endpoint-hints: hints the default controller would remove or set
//     otherwise (trafficDistribution, topology mode; hints.go).
//   - empty-slice-stale: an empty slice of the default controller that KCM
//     deletes (warning; hints.go).
//   - headless-label, labels-drift: slice labels against the Service.
//   - consumer rules (consumers.go, ConsumerRules; docs/consumers.md):
//     what kube-proxy, CoreDNS, Cilium, Istio, Envoy Gateway,
//     ingress-nginx, kyverno, MetalLB and kube-vip assume of any slice,
//     whichever controller wrote it; each finding names the consumer it
//     breaks: ready-unset, port-unset, multiple-addresses,
//     nodename-for-local-policy, partial-hints, non-canonical-ip,
//     trigger-time, pod-targetref-secondary-network, merged-networks (with
//     missing-service-name and headless-label).
//
// The report holds every finding and its summary counts them all. Only
// the text output (WriteText) shortens per-endpoint rules: it lists at most
// MaxTextFindingsPerObjectRule findings per object and rule, followed by a
// note (not a finding) that says how many more there are; -o json (WriteJSON)
// lists them all.
package check
