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

package check

// RuleID identifies a rule; it is stable and appears in every finding.
type RuleID string

// The rules. Rules returns them with their severities and descriptions;
// the package documentation explains the terms used ("built-in",
// "selector-derived").
const (
	// Slice metadata.

	RuleMissingServiceName RuleID = "missing-service-name"
	RuleMissingManagedBy   RuleID = "missing-managed-by"
	RuleHeadlessLabel      RuleID = "headless-label"
	RuleLabelsDrift        RuleID = "labels-drift"

	// Ownership and life cycle.

	RuleOrphan         RuleID = "orphan-slice"
	RuleOwnerMissing   RuleID = "owner-missing"
	RuleOwnerStaleUID  RuleID = "owner-stale-uid"
	RuleOwnerMismatch  RuleID = "owner-mismatch"
	RuleExternalName   RuleID = "externalname-service-slice"
	RuleDefaultNoSelec RuleID = "default-for-selectorless-service"

	// Controllers (KEP-4770 delegation, mirroring).

	RuleDelegatedBuiltin RuleID = "delegated-builtin-slice"
	RuleDelegatedForeign RuleID = "delegated-foreign-slice"
	RuleMultipleManagers RuleID = "multiple-managers"
	RuleMirrorSelector   RuleID = "mirror-for-selector-service"
	RuleMirrorIneligible RuleID = "mirror-ineligible"
	RuleMirrorDrift      RuleID = "mirror-drift"

	// Addresses and endpoints.

	RuleAPILimits          RuleID = "api-limits"
	RuleAddressType        RuleID = "address-type-mismatch"
	RuleAddressFamily      RuleID = "address-family-not-served"
	RuleDuplicateEndpoint  RuleID = "duplicate-endpoint"
	RuleEndpointPodMissing RuleID = "endpoint-pod-missing"
	RuleEndpointNotSelect  RuleID = "endpoint-pod-not-selected"
	RuleEndpointTerminal   RuleID = "endpoint-pod-terminal"
	RuleEndpointAddress    RuleID = "endpoint-address-not-pod-ip"
	RuleEndpointConditions RuleID = "endpoint-conditions"
	RuleEndpointNodeName   RuleID = "endpoint-nodename"
	RuleEndpointZone       RuleID = "endpoint-zone"
	RuleEndpointHostname   RuleID = "endpoint-hostname"
	RulePortMismatch       RuleID = "port-mismatch"
)

// Rule describes one rule.
type Rule struct {
	// ID is the rule's identifier.
	ID RuleID `json:"id"`
	// Severity is the severity of its findings; "error|warning" when it
	// depends on the case (see Summary).
	Severity string `json:"severity"`
	// Summary says what the rule finds, in one or two sentences.
	Summary string `json:"summary"`
	// Source is the authority for the rule (Kubernetes source, KEP, issue).
	Source string `json:"source"`
}

// Rules returns every rule, in documentation order: one table for the
// whole package, so each rule is described once, beside the others, and
// the files that implement the rules hold only their RuleIDs and logic.
func Rules() []Rule {
	return []Rule{
		{RuleMissingServiceName, "error|warning",
			"A slice without the kubernetes.io/service-name label: no Service uses it (kube-proxy, CoreDNS and Cilium find a Service's slices by this label). Error for slices of the built-in controllers (they always set it), warning otherwise.",
			"discovery.k8s.io/v1 LabelServiceName; kube-proxy selects slices by this label"},
		{RuleMissingManagedBy, "warning",
			"A slice without the endpointslice.kubernetes.io/managed-by label: no controller claims it (kube-apiserver's own default/kubernetes slice is exempt).",
			"discovery.k8s.io/v1 LabelManagedBy; Kubernetes docs, EndpointSlices > Management"},
		{RuleHeadlessLabel, "error|warning",
			"The service.kubernetes.io/headless label disagrees with the Service: on a Service with a cluster IP kube-proxy ignores the slice (error); a slice of the default controller for a headless Service lacks it (warning).",
			"k8s.io/endpointslice setEndpointSliceLabels; kubernetes#105986"},
		{RuleLabelsDrift, "warning",
			"A slice of the default controller whose labels are not the Service's labels (minus reserved keys) plus the reserved ones.",
			"k8s.io/endpointslice setEndpointSliceLabels, kubernetes PR #94443"},
		{RuleOrphan, "error",
			"The Service named by kubernetes.io/service-name does not exist.",
			"KCM endpointslicemirroring syncEndpoints (deletes slices of missing Services); ownerRef garbage collection"},
		{RuleOwnerMissing, "error",
			"No controller ownerReference to the Service (default controller) or to the Endpoints object (mirroring controller). Slices of other controllers, and hand-written ones, need no owner.",
			"k8s.io/endpointslice newEndpointSlice; KCM endpointslicemirroring newEndpointSlice"},
		{RuleOwnerStaleUID, "error",
			"An ownerReference to the Service (or, for mirrored slices, the Endpoints) with another uid than the current object: a leftover of an earlier object of the same name.",
			"k8s.io/endpointslice reconciler ownedBy; kubernetes#94730"},
		{RuleOwnerMismatch, "error",
			"The slice is owned by another Service than the one its kubernetes.io/service-name names, or a built-in controller's slice is owned by the wrong kind.",
			"k8s.io/endpointslice newEndpointSlice"},
		{RuleExternalName, "error|warning",
			"A slice for a Service of type ExternalName. Error for the built-in controllers, warning for others.",
			"KCM endpointslice syncService (kubernetes#105986)"},
		{RuleDefaultNoSelec, "error",
			"A slice of the default controller for a Service without selector: the leftover of a selector removal, it lists Pods the Service no longer selects and KCM's controller never updates or deletes it (slicekit's does, gate SelectorRemovalCleanup).",
			"kubernetes#118376, #91072"},
		{RuleDelegatedBuiltin, "error",
			"A Service labelled service.kubernetes.io/endpoint-controller-name for another controller still has slices of the default or mirroring controller: stale (KEP-4770).",
			"KEP-4770 Design Details; spec (e) O1, E7, E8"},
		{RuleDelegatedForeign, "error",
			"A Service labelled for controller X has slices of a third controller (neither X nor built-in). The slices of a declared slice set (--slice-set-label) are published beside X on purpose and are not reported.",
			"KEP-4770 (the label names the controller that manages the Service's slices)"},
		{RuleMultipleManagers, "warning",
			"An unlabelled Service whose slices come from two or more controllers (consumers merge them). The slices of a declared slice set (--slice-set-label: a controller publishing sets beside the Service's controller, such as one per remote cluster) are not counted.",
			"Kubernetes docs, EndpointSlices > Management; KEP-4770 E10"},
		{RuleMirrorSelector, "error",
			"A mirrored slice for a Service that has a selector: the mirroring controller must delete it.",
			"KCM endpointslicemirroring syncEndpoints; kubernetes#105987, #103804"},
		{RuleMirrorIneligible, "error",
			"A mirrored slice whose Endpoints object is gone, is labelled endpointslice.kubernetes.io/skip-mirror=true, or carries the leader-election annotation.",
			"KCM endpointslicemirroring shouldMirror"},
		{RuleMirrorDrift, "error",
			"A mirrored slice differs from what the mirroring controller publishes for its Endpoints object, computed with the controller's own source (pkg/source/endpointsmirroring): an endpoint it does not publish (not listed, beyond --mirroring-max-endpoints-per-subset per re-packed subset, ready first, or with other ports), another ready condition (an address listed both ready and not ready is not ready) or nodeName; or, on the Endpoints object, an endpoint no mirrored slice holds. Endpoint identity is KCM's (addresses, hostname, target).",
			"KCM endpointslicemirroring reconciler.go reconcile, utils.go addressToEndpoint; pkg/api/v1/endpoints RepackSubsets; docs/kep4770.md b3-b7"},
		{RuleAPILimits, "error",
			"More than the API allows: 1000 endpoints per slice, 1..100 addresses per endpoint, 20000 ports, unique port names, 8 zone and 8 node hints.",
			"k8s.io/kubernetes pkg/apis/discovery/validation"},
		{RuleAddressType, "error",
			"An address that is not of the slice's addressType (or an unsupported addressType).",
			"k8s.io/kubernetes pkg/apis/discovery/validation validateEndpoints"},
		{RuleAddressFamily, "error|warning",
			"A slice of an address family the Service does not have in spec.ipFamilies. Error for the default controller, warning for others; not for the secondary-network controller's slices of a headless Service (it publishes both families).",
			"k8s.io/endpointslice getAddressTypesForService"},
		{RuleDuplicateEndpoint, "error|warning",
			"The same endpoint, by KCM's identity (its set of addresses, hostname and targetRef namespace/name), is published twice for one Service with the same address type and port set (in one slice or across slices, of any controllers), or twice in the default controller's slices of one address type (a Pod belongs to one port group). One IP behind two different targets is two endpoints, not a duplicate. With declared slice sets (--slice-set-label), each set is judged on its own: twice in one set is an error, once in each of two sets (or in a set and outside any) a warning, since consumers merge them.",
			"k8s.io/endpointslice util/endpointset.go hashEndpoint; kubernetes#118376 (E1), #105987, #121556"},
		{RuleEndpointPodMissing, "error",
			"In a selector-derived slice: the endpoint's Pod no longer exists (or was replaced), or an endpoint of the default controller has no Pod targetRef.",
			"k8s.io/endpointslice podToEndpoint"},
		{RuleEndpointNotSelect, "error",
			"In a selector-derived slice: the endpoint's Pod does not match the Service's selector.",
			"KCM endpointslice syncService (pods listed by selector)"},
		{RuleEndpointTerminal, "error",
			"In a selector-derived slice: the endpoint's Pod has phase Succeeded or Failed.",
			"k8s.io/endpointslice ShouldPodBeInEndpoints; kubernetes#109414, PR #110255"},
		{RuleEndpointAddress, "error",
			"In a slice of the default controller: an address that is not one of the Pod's status.podIPs. In a slice of the secondary-network or dra-network controller: an address that is not one of the Pod's addresses its source gives (network-status on the Service's networks; the claim's networkData), or any address of a selected Pod that source leaves out (not attached, no networkData yet, a shared claim, ...).",
			"k8s.io/endpointslice podToEndpoint; pkg/source/networkstatus; pkg/source/networkdata"},
		{RuleEndpointConditions, "error",
			"In a selector-derived slice: ready/serving/terminating disagree with the Pod (serving = Pod Ready, terminating = deletionTimestamp set, ready = publishNotReadyAddresses or serving and not terminating). A custom controller other than the secondary-network one may set serving itself (a CEL profile's ready expression): its endpoints are held to terminating and ready only.",
			"k8s.io/endpointslice podToEndpoint; KEP-1672; kubernetes#116285"},
		{RuleEndpointNodeName, "error|warning",
			"In a selector-derived slice: nodeName missing (warning) or not the Pod's spec.nodeName (error); or, when the input has Nodes, an endpoint of the default controller (or of the secondary-network controller for its Services) for a Pod whose Node does not exist, unless the Service has publishNotReadyAddresses (error: the controllers skip such Pods).",
			"k8s.io/endpointslice podToEndpoint, reconciler.go reconcileByAddressType (Node not found); docs/kep4770.md C18, E14"},
		{RuleEndpointZone, "warning",
			"In a selector-derived slice: zone missing or not the topology.kubernetes.io/zone label of the Pod's Node.",
			"k8s.io/endpointslice podToEndpoint (zone may lag Node changes)"},
		{RuleEndpointHostname, "error|warning",
			"In a selector-derived slice: hostname missing although the Pod's subdomain names the Service (warning), or set when it must not be or different (error).",
			"k8s.io/endpointslice ShouldSetHostname; kubernetes#124207, PR #84207"},
		{RulePortMismatch, "error|warning",
			"A slice port that the Service does not have (by name and protocol), a number other than the targetPort or than the Pod's named container port, an appProtocol other than the Service port's (KCM copies it; warning for controllers other than the default one), or (default controller) a resolvable port missing. Warning for slices that are not selector-derived.",
			"k8s.io/endpointslice getEndpointPorts, FindPort; kubernetes#127958"},

		// Oracle rules (oracle.go, completeness.go, mirrordrift.go).
		{RuleEndpointMissing, "error",
			"A Service that has slices of its controller (the default controller, or the secondary-network or dra-network controller named by --secondary-network-controller-name and --dra-network-controller-name) lacks an endpoint that controller publishes: a selected Pod that is not terminal, has an address of the slice's family (on the selected network for the secondary-network controller) and a known Node (or publishNotReadyAddresses), or one of its addresses. The desired endpoints come from the controller's own source code (pkg/source/servicepods for the default controller; for a delegated Service, the source of its controller's oracle, registry.Oracle: pkg/source/networkstatus, pkg/source/networkdata, the latter only when the input has ResourceClaims). Services being deleted are skipped; a Service without any slice of its controller is not judged here (see slices-missing).",
			"k8s.io/endpointslice reconciler.go reconcileByAddressType, utils.go podToEndpoint, util/controller_utils.go ShouldPodBeInEndpoints; docs/multus-network-status.md"},
		{RuleSlicesMissing, "warning",
			"A Service without any EndpointSlice (of any controller) although its controller publishes ready endpoints for it: a Service with a selector, not of type ExternalName, not being deleted, served by the default controller (unlabelled, or labelled with its name) or labelled for the secondary-network or dra-network controller, with at least one selected Pod its source publishes as ready. A running controller writes its slices on its first sync (KCM even writes an empty placeholder), so its controller is not running, is behind, or cannot write. A Service labelled for another controller, a Service without selector (slices by hand or mirrored) and an ExternalName Service are not judged. Judged only when the input has Services, Pods and EndpointSlices (a live cluster always does).",
			"k8s.io/endpointslice reconciler.go reconcile (placeholder slice), KCM endpointslice syncService; KEP-4770 (the label names the controller that writes the slices)"},
		{RuleMaxEndpointsPerSlice, "warning",
			"A slice of the default controller holds more endpoints than --max-endpoints-per-slice, or a mirrored slice more than --mirroring-max-endpoints-per-subset. The controllers never create or fill a slice beyond that, but leave a slice made larger by hand as it is (so this is a warning).",
			"k8s.io/endpointslice reconciler.go reconcileByPortMapping; KCM endpointslicemirroring reconciler.go"},

		// Hints and empty slices (hints.go).
		{RuleEndpointHints, "error",
			"An endpoint of the default controller whose hints (forZones, forNodes) are not the ones KCM writes: hints on a Service with neither a valid spec.trafficDistribution nor the topology-mode (or topology-aware-hints) annotation set to Auto (KCM removes every hint; kube-proxy would still route by them), or, with trafficDistribution PreferClose/PreferSameZone/PreferSameNode, a ready endpoint whose hints are not forZones=[its zone] (and, for PreferSameNode only, forNodes=[its node]). The expected hints come from the reconciler's port of KCM's trafficdist; with topology-mode Auto the hints depend on the whole cluster's CPU and are not judged.",
			"k8s.io/endpointslice reconciler.go reconcileByAddressType (canUseTrafficDistribution, RemoveHintsFromSlices), trafficdist/trafficdist.go, utils.go hintsEnabled; docs/kep4770.md C34, C35"},
		{RuleEmptySliceStale, "warning",
			"An empty slice (no endpoints) of the default controller whose port set no desired endpoint of its address type has, while the Service has endpoints of that address type: KCM deletes it (only when nothing is desired does it keep one empty placeholder). Harmless to consumers, hence a warning.",
			"k8s.io/endpointslice reconciler.go reconcileByAddressType (slices of port mappings no longer desired, placeholder); docs/kep4770.md C27, C31"},

		// Selector-removal leftovers (selectorless.go).
		{RuleEndpointsLeftover, "error|warning",
			"An Endpoints object written by the Endpoints controller (labelled endpoints.kubernetes.io/managed-by=endpoint-controller, or, unlabelled as kube-controller-manager 1.32 and older left it, with a managedFields entry of kube-controller-manager and no other manager's subsets) for a Service without selector or of type ExternalName: the Endpoints controller's leftover from before the selector was removed. Error when it is mirrored into a slice (it routes traffic to Pods the Service no longer selects), warning otherwise. Delete it, or run slicekit's Endpoints controller or the selectorless-cleanup controller.",
			"kubernetes#118376, #103804, #105987 (KCM never deletes it)"},
		{RuleMirrorLeftover, "error",
			"A mirrored slice of an Endpoints object that is the Endpoints controller's leftover (see " + string(RuleEndpointsLeftover) + "): it publishes Pods the Service no longer selects.",
			"kubernetes#118376 (KCM's shouldMirror ignores the managed-by label)"},

		// Consumer rules (consumers.go): what kube-proxy, CoreDNS, Istio, ... assume.
		{RuleReadyUnset, "warning",
			"An endpoint without conditions.ready. The API allows it and kube-proxy, CoreDNS, Cilium and Istio read it as ready, but ingress-nginx before PR #9550 and kyverno (#16543) dereference it and panic. Every built-in controller sets it.",
			"docs/consumers.md (rule 3); ingress-nginx internal/ingress/controller/endpointslices.go; kube-proxy pkg/proxy/endpointslicecache.go addEndpoints"},
		{RulePortUnset, "error|warning",
			"A slice port without a number, or 0 (error: Envoy Gateway dereferences the number and panics, kube-proxy and Cilium skip the port), or without a name or protocol (warning: kube-proxy skips a port without name and dereferences the protocol; the API server defaults both, so only objects that never went through it lack them). A 0 copied, as KCM does, from a Service port without targetPort (an object no API server defaulted) is a warning.",
			"docs/consumers.md (rule 4); kube-proxy pkg/proxy/endpointslicecache.go endpointInfoByServicePort; Envoy Gateway internal/gatewayapi/route.go"},
		{RuleMultipleAddresses, "warning",
			"An endpoint of an IPv4 or IPv6 slice with more than one address: kube-proxy uses only the first, while CoreDNS and Cilium use all of them, so DNS answers and proxied traffic disagree. The built-in controllers write one address per endpoint.",
			"docs/consumers.md (rule 5); kube-proxy pkg/proxy/endpointslicecache.go addEndpoints (Addresses[0]); discovery.k8s.io/v1 Endpoint.addresses (kubernetes#106267)"},
		{RuleLocalPolicyNodeName, "error",
			"An endpoint that can serve (ready or serving, nil counts as true) without nodeName, for a Service (not headless) with internalTrafficPolicy or externalTrafficPolicy Local: kube-proxy never counts it as local, so traffic meant for it is dropped; with externalTrafficPolicy Local, MetalLB and kube-vip do not announce its node. Endpoints of a Pod that names no Node (when the input has Pods) are left out: no writer can know the node.",
			"docs/consumers.md (rule 6); kube-proxy pkg/proxy/endpointslicecache.go (isLocal), topology.go; MetalLB speaker/layer2_controller.go nodesWithEndpoint"},
		{RulePartialHints, "warning",
			"Some ready endpoints of a Service port (one address family, across all slices of the service-name, whatever their controller) have zone (or node) hints and others have none: kube-proxy then ignores every zone (node) hint of the port and routes cluster-wide; ingress-nginx too. KCM itself leaves an endpoint without zone (its Node has no topology.kubernetes.io/zone label) without hints.",
			"docs/consumers.md (rule 7); kube-proxy pkg/proxy/topology.go topologyModeFromHints; k8s.io/endpointslice trafficdist"},
		{RuleNonCanonicalIP, "error",
			"An IPv4 or IPv6 address not in its canonical form (leading zeros, upper case, uncompressed IPv6, IPv4-mapped IPv6): the API server rejects it on the next write (StrictIPCIDRValidation, on by default since 1.36, for IPv4; always for IPv6); CoreDNS answers a leading-zero IPv4 address as a name (CNAME) and finds no PTR record for a non-canonical IPv6 one.",
			"docs/consumers.md (rule 9); k8s.io/kubernetes pkg/apis/discovery/validation validateEndpoints; apimachinery validation IsValidIP; CoreDNS plugin/etcd/msg HostType"},
		{RuleTriggerTime, "warning",
			"The endpoints.kubernetes.io/last-change-trigger-time annotation cannot be read as RFC 3339 (any slice), or no slice of a controller other than the built-in ones carries it (one finding per controller, on its first slice with endpoints; with Services in the input, only slices of Services with a creationTimestamp count): kube-proxy's network_programming_duration_seconds and CoreDNS's programming latency then have no data for its Services. KCM writes it on every write a new Service or a Pod readiness change triggered and removes it on other writes; the mirroring controller never writes it; so a single slice without it is no fault.",
			"docs/consumers.md (rule 10); k8s.io/endpointslice reconciler.go addTriggerTimeAnnotation, util/trigger_time_tracker.go"},
		{RuleSecondaryPodTargetRef, "warning",
			"An endpoint with a Pod targetRef whose address is not one of the Pod's status.podIPs (a secondary network), in a slice of a dual-stack Service (two cluster IPs), when the Pod has several podIPs (or, without Pods in the input, in a slice of the secondary-network controller): Istio with dual stack replaces the endpoint's addresses with the Pod's status.podIPs (its primary addresses) and drops the IPv6 slice's endpoints. Omit the targetRef, or document it.",
			"docs/consumers.md (rule 11); Istio pilot/pkg/serviceregistry/kube/controller/endpointslice.go (overrideAddresses)"},
		{RuleMergedNetworks, "warning",
			"The slices of one Service (one kubernetes.io/service-name, any controllers) include both a slice of Pods' status.podIPs and a slice of other addresses of Pods (a secondary network; a slice holding both kinds is one with stale endpoints, not another network), or, without Pods in the input, both slices of the default controller and of the secondary-network controller: kube-proxy and CoreDNS merge every slice of a service-name whatever its managed-by, so the Service's traffic and DNS answers go to both networks.",
			"docs/consumers.md (rule 2); kube-proxy pkg/proxy/endpointslicecache.go (slices by service-name); CoreDNS plugin/kubernetes/object/endpoint.go"},

		// Live clusters: admission policies (admission.go).
		{RuleAdmissionPolicy, "warning",
			"Live clusters only: the secondary-network controller's slices exist but slicekit's admission policies are not installed and bound (or cannot be listed): whoever may edit the Pods chooses their network-status addresses, and any EndpointSlice writer may change the slices (docs/security.md).",
			"CVE-2021-25740 (kubernetes#103675); config/components/admission-policies"},
		{RuleControllerAPIMissing, "warning",
			"Live clusters only: a Service asks for a controller (or slices carry its managed-by value) that reads an API the server does not serve, such as the dra-network controller's resource.k8s.io/v1 resourceclaims before Kubernetes 1.34: `slicekit run` leaves that controller out, so the Service gets no slices from it.",
			"docs/compatibility.md; registry.Registration.Needs"},
	}
}
