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

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/klog/v2"
	utilnet "k8s.io/utils/net"

	"github.com/slicekit/slicekit/internal/controllerflags"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	// leaderAnnotation marks Endpoints used for leader election, which are
	// never mirrored (client-go resourcelock
	// LeaderElectionRecordAnnotationKey).
	leaderAnnotation = "control-plane.alpha.kubernetes.io/leader"

	// API limits of discovery.k8s.io/v1 (k8s.io/kubernetes
	// pkg/apis/discovery/validation).
	maxEndpoints = 1000
	maxAddresses = 100
	maxPorts     = 20000
	maxZoneHints = 8
	maxNodeHints = 8
)

// Config tunes Check.
type Config struct {
	// DefaultControllerName is the managed-by value of the default
	// EndpointSlice controller, the one that serves Services without the
	// KEP-4770 label. Empty means wellknown.EndpointSliceControllerName.
	DefaultControllerName string
	// MirroringControllerName is the managed-by value of the EndpointSlice
	// mirroring controller. Empty means wellknown.MirroringControllerName.
	MirroringControllerName string
	// MaxEndpointsPerSlice is the default controller's
	// --max-endpoints-per-slice (1..1000). 0 means
	// DefaultMaxEndpointsPerSlice, KCM's default.
	MaxEndpointsPerSlice int32
	// MirroringMaxEndpointsPerSubset is the mirroring controller's
	// --mirroring-max-endpoints-per-subset (1..1000). 0 means
	// DefaultMirroringMaxEndpointsPerSubset, KCM's default.
	MirroringMaxEndpointsPerSubset int32
	// SecondaryNetworkControllerName is the managed-by value (and KEP-4770
	// label value) of the secondary-network controller, whose desired
	// endpoints the check derives from the Multus network-status of the
	// Pods. Empty means DefaultSecondaryNetworkControllerName.
	SecondaryNetworkControllerName string
	// DRANetworkControllerName is the managed-by value (and KEP-4770
	// label value) of the dra-network controller, whose desired endpoints
	// the check derives from the networkData of the Pods' ResourceClaims
	// (pkg/controllers/dranetwork). Empty means
	// DefaultDRANetworkControllerName.
	DRANetworkControllerName string
}

// podAddressController reports whether managed-by value name is one of
// the pod-address controllers whose source the check runs (secondary
// network, dra-network): they publish both families for a headless Service
// and skip Pods on a missing Node (pkg/source Desired).
func (c Config) podAddressController(name string) bool {
	return name == c.SecondaryNetworkControllerName || name == c.DRANetworkControllerName
}

// withDefaults returns c with empty fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.DefaultControllerName == "" {
		c.DefaultControllerName = wellknown.EndpointSliceControllerName
	}
	if c.MirroringControllerName == "" {
		c.MirroringControllerName = wellknown.MirroringControllerName
	}
	if c.MaxEndpointsPerSlice == 0 {
		c.MaxEndpointsPerSlice = DefaultMaxEndpointsPerSlice
	}
	if c.MirroringMaxEndpointsPerSubset == 0 {
		c.MirroringMaxEndpointsPerSubset = DefaultMirroringMaxEndpointsPerSubset
	}
	if c.SecondaryNetworkControllerName == "" {
		c.SecondaryNetworkControllerName = DefaultSecondaryNetworkControllerName
	}
	if c.DRANetworkControllerName == "" {
		c.DRANetworkControllerName = DefaultDRANetworkControllerName
	}
	return c
}

// Validate checks c with its defaults applied (an empty or zero field
// means its default): the controller names must be label values that
// differ from each other, and the limits must be in KCM's ranges. The
// checks and their words are those of slicekit run and render (package
// internal/controllerflags); the errors name the flags of slicekit check.
func (c Config) Validate() error {
	return c.withDefaults().validate()
}

// validate checks c as it is (no defaults): what Options.Validate does for
// the command line, where "" and 0 are invalid values, not defaults.
func (c Config) validate() error {
	names := []controllerflags.Name{
		{Flag: "--default-controller-name", Value: c.DefaultControllerName},
		{Flag: "--mirroring-controller-name", Value: c.MirroringControllerName},
		{Flag: "--secondary-network-controller-name", Value: c.SecondaryNetworkControllerName},
		{Flag: "--dra-network-controller-name", Value: c.DRANetworkControllerName},
	}
	var errs []error
	for _, n := range names {
		if err := controllerflags.ControllerName(n.Flag, n.Value); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, controllerflags.Distinct(names...)...)
	if err := controllerflags.MaxEndpointsPerSlice(c.MaxEndpointsPerSlice); err != nil {
		errs = append(errs, err)
	}
	if err := controllerflags.MirroringMaxEndpointsPerSubset(c.MirroringMaxEndpointsPerSubset); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// role is what a slice's managed-by value says about its writer.
type role int

const (
	roleNone    role = iota // no managed-by label
	roleDefault             // the default EndpointSlice controller
	roleMirror              // the mirroring controller
	roleOther               // any other controller
)

func (r role) builtin() bool { return r == roleDefault || r == roleMirror }

// Check runs every rule over inv and returns the findings. It reads the
// objects only. ctx supplies the logger.
func Check(ctx context.Context, inv *Inventory, cfg Config) *Report {
	cfg = cfg.withDefaults()
	logger := klog.FromContext(ctx)
	c := &checker{
		ctx:       ctx,
		cfg:       cfg,
		inv:       inv,
		services:  map[types.NamespacedName]*corev1.Service{},
		pods:      map[types.NamespacedName]*corev1.Pod{},
		nodes:     map[string]*corev1.Node{},
		endpoints: map[types.NamespacedName]*corev1.Endpoints{},
	}
	for _, o := range inv.Services {
		c.services[nn(o.Namespace, o.Name)] = o
	}
	for _, o := range inv.Pods {
		c.pods[nn(o.Namespace, o.Name)] = o
	}
	for _, o := range inv.Nodes {
		c.nodes[o.Name] = o
	}
	for _, o := range inv.Endpoints {
		c.endpoints[nn(o.Namespace, o.Name)] = o
	}
	for _, s := range inv.EndpointSlices {
		c.checkSlice(s)
	}
	c.checkServices()
	c.checkSelectorLeftovers()
	c.checkConsumers()

	rep := &Report{Findings: sortFindings(c.findings), Checked: inv.counts(), Skipped: c.skipped()}
	if rep.Findings == nil {
		rep.Findings = []Finding{}
	}
	logger.V(2).Info("Checked EndpointSlices", "endpointSlices", len(inv.EndpointSlices), "services", len(inv.Services),
		"errors", rep.Errors(), "warnings", rep.Warnings())
	return rep
}

type checker struct {
	// ctx carries the logger to the sources the oracle rules call.
	ctx       context.Context
	cfg       Config
	inv       *Inventory
	services  map[types.NamespacedName]*corev1.Service
	pods      map[types.NamespacedName]*corev1.Pod
	nodes     map[string]*corev1.Node
	endpoints map[types.NamespacedName]*corev1.Endpoints
	findings  []Finding
}

func nn(ns, name string) types.NamespacedName { return types.NamespacedName{Namespace: ns, Name: name} }

func (c *checker) add(sev Severity, rule RuleID, obj ObjectRef, format string, args ...any) {
	c.findings = append(c.findings, Finding{Severity: sev, Rule: rule, Object: obj, Reason: fmt.Sprintf(format, args...)})
}

func (c *checker) role(managedBy string) role {
	switch managedBy {
	case "":
		return roleNone
	case c.cfg.DefaultControllerName:
		return roleDefault
	case c.cfg.MirroringControllerName:
		return roleMirror
	}
	return roleOther
}

func sliceRef(s *discovery.EndpointSlice) ObjectRef {
	name := s.Name
	if name == "" {
		name = s.GenerateName + "(unnamed)"
	}
	return ObjectRef{Kind: "EndpointSlice", Namespace: s.Namespace, Name: name}
}

func serviceRef(ns, name string) ObjectRef {
	return ObjectRef{Kind: "Service", Namespace: ns, Name: name}
}

// sev returns err when cond, else warning.
func sev(cond bool) Severity {
	if cond {
		return SeverityError
	}
	return SeverityWarning
}

// isAPIServerSlice reports whether s is the slice kube-apiserver writes for
// default/kubernetes (without managed-by, pkg/controlplane/reconcilers
// endpointsadapter.go).
func isAPIServerSlice(s *discovery.EndpointSlice) bool {
	return s.Namespace == metav1.NamespaceDefault && s.Name == "kubernetes" && s.Labels[discovery.LabelServiceName] == "kubernetes"
}

// delegatedTo returns the KEP-4770 label value of svc and whether the
// Service is delegated away from the default controller: labelled, with a
// value other than the default controller's name (a Service labelled with
// the default controller's own name is served by it, like an unlabelled
// one; see package delegation).
func (c *checker) delegatedTo(svc *corev1.Service) (string, bool) {
	v, ok := svc.Labels[wellknown.LabelEndpointControllerName]
	return v, ok && v != c.cfg.DefaultControllerName
}

// selectorDerived reports whether the slice's endpoints are expected to
// be the Pods selected by svc: the Service has a selector, is not of type
// ExternalName, and the slice is not mirrored.
func selectorDerived(svc *corev1.Service, r role) bool {
	return svc.Spec.Selector != nil && svc.Spec.Type != corev1.ServiceTypeExternalName && r != roleMirror
}

func (c *checker) checkSlice(s *discovery.EndpointSlice) {
	ref := sliceRef(s)
	mgr := s.Labels[discovery.LabelManagedBy]
	r := c.role(mgr)
	svcName := s.Labels[discovery.LabelServiceName]

	c.checkLimits(ref, s)
	c.checkAddressTypes(ref, s)
	c.checkCapacity(ref, s, r)
	if r == roleNone && !isAPIServerSlice(s) {
		c.add(SeverityWarning, RuleMissingManagedBy, ref, "no %s label: no controller claims this slice", discovery.LabelManagedBy)
	}
	if isAPIServerSlice(s) {
		// Written by kube-apiserver for default/kubernetes, without
		// managed-by or owner: only the checks above apply.
		return
	}
	if svcName == "" {
		c.add(sev(r.builtin()), RuleMissingServiceName, ref, "no %s label: no Service uses this slice (managed by %q): %s", discovery.LabelServiceName, mgr, consumersOfServiceName)
		return
	}
	if !c.inv.Have.Services {
		return
	}
	svc := c.services[nn(s.Namespace, svcName)]
	if svc == nil {
		c.add(SeverityError, RuleOrphan, ref, "Service %s/%s does not exist (slice managed by %q)", s.Namespace, svcName, mgr)
		return
	}

	stale := false
	if target, ok := c.delegatedTo(svc); ok {
		switch {
		case r.builtin():
			stale = true
			c.add(SeverityError, RuleDelegatedBuiltin, ref,
				"stale: Service %s is labelled %s=%q (KEP-4770) but this slice is still managed by %s%s",
				svc.Name, wellknown.LabelEndpointControllerName, target, mgr, selectorlessHint(svc, r))
		case r == roleOther && target != "" && mgr != target:
			c.add(SeverityError, RuleDelegatedForeign, ref,
				"Service %s is labelled %s=%q (KEP-4770) but this slice is managed by a third controller %q",
				svc.Name, wellknown.LabelEndpointControllerName, target, mgr)
		}
	}

	switch r {
	case roleMirror:
		c.checkMirror(ref, s, svc)
	case roleDefault:
		c.checkDefault(ref, s, svc, stale)
	default:
		if svc.Spec.Type == corev1.ServiceTypeExternalName {
			c.add(SeverityWarning, RuleExternalName, ref, "Service %s is of type ExternalName: nothing consumes its endpoints", svc.Name)
		}
		c.checkServiceOwner(ref, s, svc, false)
	}
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		return
	}
	c.checkHeadless(ref, s, svc, r)
	c.checkFamily(ref, s, svc, r)
	c.checkServicePorts(ref, s, svc, r)
	if r == roleDefault && !stale && selectorDerived(svc, r) && svc.DeletionTimestamp == nil {
		c.checkHints(ref, s, svc)
	}
	if selectorDerived(svc, r) && c.inv.Have.Pods {
		c.checkPodEndpoints(ref, s, svc, r)
	}
}

// checkLimits applies the API's size limits.
func (c *checker) checkLimits(ref ObjectRef, s *discovery.EndpointSlice) {
	if n := len(s.Endpoints); n > maxEndpoints {
		c.add(SeverityError, RuleAPILimits, ref, "%d endpoints, the API allows at most %d per slice", n, maxEndpoints)
	}
	if n := len(s.Ports); n > maxPorts {
		c.add(SeverityError, RuleAPILimits, ref, "%d ports, the API allows at most %d per slice", n, maxPorts)
	}
	seen := map[string]bool{}
	for _, p := range s.Ports {
		name := deref(p.Name)
		if seen[name] {
			c.add(SeverityError, RuleAPILimits, ref, "port name %q appears twice; port names must be unique in a slice", name)
		}
		seen[name] = true
	}
	for i, e := range s.Endpoints {
		switch n := len(e.Addresses); {
		case n == 0:
			c.add(SeverityError, RuleAPILimits, ref, "endpoint %d has no address; the API requires 1 to %d", i, maxAddresses)
		case n > maxAddresses:
			c.add(SeverityError, RuleAPILimits, ref, "endpoint %s has %d addresses, the API allows at most %d", epName(i, &e), n, maxAddresses)
		}
		if e.Hints != nil {
			if n := len(e.Hints.ForZones); n > maxZoneHints {
				c.add(SeverityError, RuleAPILimits, ref, "endpoint %s has %d zone hints, the API allows at most %d", epName(i, &e), n, maxZoneHints)
			}
			if n := len(e.Hints.ForNodes); n > maxNodeHints {
				c.add(SeverityError, RuleAPILimits, ref, "endpoint %s has %d node hints, the API allows at most %d", epName(i, &e), n, maxNodeHints)
			}
		}
	}
}

// epName names an endpoint by its first address, else its index.
func epName(i int, e *discovery.Endpoint) string {
	if len(e.Addresses) > 0 {
		return e.Addresses[0]
	}
	return fmt.Sprintf("#%d", i)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// checkAddressTypes checks every address against the slice's addressType.
func (c *checker) checkAddressTypes(ref ObjectRef, s *discovery.EndpointSlice) {
	at := s.AddressType
	switch at {
	case discovery.AddressTypeIPv4, discovery.AddressTypeIPv6, discovery.AddressTypeFQDN:
	default:
		c.add(SeverityError, RuleAddressType, ref, "addressType %q is not one of IPv4, IPv6, FQDN", at)
		return
	}
	for _, e := range s.Endpoints {
		for _, a := range e.Addresses {
			if ok, what := addressMatches(at, a); !ok {
				c.add(SeverityError, RuleAddressType, ref, "address %q in a slice of addressType %s is %s", a, at, what)
			}
		}
	}
}

// addressMatches reports whether a is an address of type at, and if not,
// what it is.
func addressMatches(at discovery.AddressType, a string) (bool, string) {
	ip, err := netip.ParseAddr(a)
	switch at {
	case discovery.AddressTypeFQDN:
		if err == nil {
			return false, "an IP address"
		}
		if msgs := validation.IsDNS1123Subdomain(a); len(msgs) > 0 {
			return false, "not a domain name"
		}
		return true, ""
	case discovery.AddressTypeIPv4:
		switch {
		case err != nil:
			return false, "not a valid IP address"
		case !ip.Is4():
			return false, "an IPv6 address"
		}
	case discovery.AddressTypeIPv6:
		switch {
		case err != nil:
			return false, "not a valid IP address"
		case ip.Is4() || ip.Is4In6():
			return false, "an IPv4 address"
		case ip.Zone() != "":
			return false, "an IPv6 address with a zone"
		}
	}
	return true, ""
}

// checkMirror applies the rules of mirrored slices.
func (c *checker) checkMirror(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service) {
	svcName := svc.Name
	if svc.Spec.Selector != nil {
		c.add(SeverityError, RuleMirrorSelector, ref,
			"stale: Service %s has a selector, so the mirroring controller must have deleted this slice (kubernetes#105987)", svcName)
	}
	var ep *corev1.Endpoints
	if c.inv.Have.Endpoints {
		ep = c.endpoints[nn(s.Namespace, svcName)]
		switch {
		case ep == nil:
			c.add(SeverityError, RuleMirrorIneligible, ref, "Endpoints %s/%s, the source of this mirrored slice, does not exist", s.Namespace, svcName)
		case ep.Labels[discovery.LabelSkipMirror] == "true":
			c.add(SeverityError, RuleMirrorIneligible, ref, "Endpoints %s is labelled %s=true and must not be mirrored", svcName, discovery.LabelSkipMirror)
		case hasKey(ep.Annotations, leaderAnnotation):
			c.add(SeverityError, RuleMirrorIneligible, ref, "Endpoints %s carries the %s annotation (leader election) and must not be mirrored", svcName, leaderAnnotation)
		}
	}

	var ctrl *ownerRef
	for i := range s.OwnerReferences {
		o := &s.OwnerReferences[i]
		if o.Controller != nil && *o.Controller {
			ctrl = &ownerRef{o.APIVersion, o.Kind, o.Name, o.UID}
		}
	}
	switch {
	case ctrl == nil:
		c.add(SeverityError, RuleOwnerMissing, ref, "no controller ownerReference to Endpoints %s", svcName)
	case ctrl.apiVersion != "v1" || ctrl.kind != "Endpoints" || ctrl.name != svcName:
		c.add(SeverityError, RuleOwnerMismatch, ref, "the controller owner is %s %s, want Endpoints %s", ctrl.kind, ctrl.name, svcName)
	case ep != nil && ctrl.uid != "" && ep.UID != "" && ctrl.uid != ep.UID:
		c.add(SeverityError, RuleOwnerStaleUID, ref, "owned by Endpoints %s with uid %s, but the Endpoints object has uid %s", svcName, ctrl.uid, ep.UID)
	}
}

type ownerRef struct {
	apiVersion, kind, name string
	uid                    types.UID
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// canonicalIP returns the canonical form of an IP address as KCM writes
// it (k8s.io/utils/net ParseIPSloppy, then String: IPv4 octets with
// leading zeros read as decimal, IPv4-mapped IPv6 as IPv4), or s when it is
// not an IP address.
func canonicalIP(s string) string {
	if ip := utilnet.ParseIPSloppy(s); ip != nil {
		return ip.String()
	}
	return s
}

// checkDefault applies the rules specific to the default controller. The
// labels of a stale slice (of a delegated Service) are not compared: the
// slice must go.
func (c *checker) checkDefault(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, stale bool) {
	switch {
	case svc.Spec.Type == corev1.ServiceTypeExternalName:
		c.add(SeverityError, RuleExternalName, ref, "Service %s is of type ExternalName: the EndpointSlice controller must not write slices for it; a slice written before the change is stale (kubernetes#105986, kubernetes#118376)", svc.Name)
	case svc.Spec.Selector == nil:
		c.add(SeverityError, RuleDefaultNoSelec, ref,
			"stale: Service %s has no selector, so this slice lists Pods the Service no longer selects and the EndpointSlice controller never updates it again (kubernetes#118376)", svc.Name)
	}
	c.checkServiceOwner(ref, s, svc, true)
	if !stale {
		c.checkLabels(ref, s, svc)
	}
}

// checkServiceOwner checks the ownerReferences of a slice owned by its
// Service; required makes a missing controller reference an error.
//
// A placeholder of the default controller (no endpoint, no port) with a
// wrong owner is only a warning: KCM keeps it, because its placeholder
// comparison (k8s.io/endpointslice reconciler.go placeholderSliceCompare)
// looks at namespace and labels only; the garbage collector deletes it
// when its owner is gone, and KCM then creates a new one.
func (c *checker) checkServiceOwner(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, required bool) {
	placeholderSev, placeholderNote := SeverityError, ""
	if required && len(s.Endpoints) == 0 && len(s.Ports) == 0 {
		placeholderSev = SeverityWarning
		placeholderNote = " (an empty placeholder, which KCM keeps whatever its owner: it compares placeholders by labels only)"
	}
	var ctrl *ownerRef
	for i := range s.OwnerReferences {
		o := &s.OwnerReferences[i]
		isCtrl := o.Controller != nil && *o.Controller
		if isCtrl {
			ctrl = &ownerRef{o.APIVersion, o.Kind, o.Name, o.UID}
		}
		if o.APIVersion != "v1" || o.Kind != "Service" {
			continue
		}
		switch {
		case o.Name != svc.Name:
			c.add(SeverityError, RuleOwnerMismatch, ref, "owned by Service %s but labelled %s=%s", o.Name, discovery.LabelServiceName, svc.Name)
		case o.UID != "" && svc.UID != "" && o.UID != svc.UID:
			c.add(placeholderSev, RuleOwnerStaleUID, ref,
				"owned by an earlier Service %s (uid %s); the Service now has uid %s, so this slice is a leftover%s", svc.Name, o.UID, svc.UID, placeholderNote)
		}
	}
	switch {
	case ctrl == nil && required:
		c.add(placeholderSev, RuleOwnerMissing, ref, "no controller ownerReference to Service %s: the slice outlives the Service%s", svc.Name, placeholderNote)
	case ctrl == nil:
		// Another controller's slice (or a hand-written one, as in the
		// Kubernetes documentation's Services without selectors) needs no
		// owner: the EndpointSlice API does not require one and KEP-4770
		// leaves a named controller's slices to it.
	case required && (ctrl.apiVersion != "v1" || ctrl.kind != "Service"):
		c.add(placeholderSev, RuleOwnerMismatch, ref, "the controller owner is %s %s, want Service %s%s", ctrl.kind, ctrl.name, svc.Name, placeholderNote)
	}
}

// reservedLabels are the slice labels a Service's labels cannot set
// (k8s.io/endpointslice isReservedLabelKey).
var reservedLabels = map[string]bool{
	discovery.LabelServiceName: true,
	discovery.LabelManagedBy:   true,
	corev1.IsHeadlessService:   true,
}

// checkLabels compares the non-reserved labels of a default-controller
// slice with the Service's.
func (c *checker) checkLabels(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service) {
	var diffs []string
	keys := map[string]bool{}
	for k := range svc.Labels {
		keys[k] = true
	}
	for k := range s.Labels {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if reservedLabels[k] {
			continue
		}
		want, inSvc := svc.Labels[k]
		got, inSlice := s.Labels[k]
		switch {
		case inSvc && !inSlice:
			diffs = append(diffs, fmt.Sprintf("missing %s=%s", k, want))
		case !inSvc && inSlice:
			diffs = append(diffs, fmt.Sprintf("extra %s=%s", k, got))
		case want != got:
			diffs = append(diffs, fmt.Sprintf("%s=%s, Service has %s", k, got, want))
		}
	}
	if len(diffs) > 0 {
		c.add(SeverityWarning, RuleLabelsDrift, ref, "labels differ from Service %s's: %s", svc.Name, strings.Join(diffs, "; "))
	}
}

// checkHeadless compares the headless label with the Service.
func (c *checker) checkHeadless(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	_, labelled := s.Labels[corev1.IsHeadlessService]
	ip := svc.Spec.ClusterIP
	switch {
	case labelled && ip != "" && ip != corev1.ClusterIPNone:
		c.add(SeverityError, RuleHeadlessLabel, ref,
			"labelled %s but Service %s has cluster IP %s: kube-proxy ignores this slice (it watches only slices without the label)", corev1.IsHeadlessService, svc.Name, ip)
	case !labelled && ip == corev1.ClusterIPNone && r == roleDefault:
		c.add(SeverityWarning, RuleHeadlessLabel, ref, "Service %s is headless but the slice lacks the %s label: kube-proxy, which proxies no headless Service, watches and caches it for nothing", svc.Name, corev1.IsHeadlessService)
	}
}

// checkFamily checks the slice's address type against the Service's IP
// families.
//
// The secondary-network and dra-network controllers publish both families
// for a headless Service whatever its spec.ipFamilies (their addresses are
// not bound to the cluster's families; pkg/source/networkstatus and
// pkg/controllers/dranetwork AddressTypes): their slices of a headless
// Service are not judged.
func (c *checker) checkFamily(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	if len(svc.Spec.IPFamilies) == 0 {
		return
	}
	if svc.Spec.ClusterIP == corev1.ClusterIPNone && c.cfg.podAddressController(s.Labels[discovery.LabelManagedBy]) {
		return
	}
	var fam corev1.IPFamily
	switch s.AddressType {
	case discovery.AddressTypeIPv4:
		fam = corev1.IPv4Protocol
	case discovery.AddressTypeIPv6:
		fam = corev1.IPv6Protocol
	default:
		return
	}
	if !slices.Contains(svc.Spec.IPFamilies, fam) {
		c.add(sev(r == roleDefault), RuleAddressFamily, ref, "addressType %s but Service %s has ipFamilies %v", s.AddressType, svc.Name, svc.Spec.IPFamilies)
	}
}

// protocolOf returns p or TCP (the API default).
func protocolOf(p *corev1.Protocol) corev1.Protocol {
	if p == nil || *p == "" {
		return corev1.ProtocolTCP
	}
	return *p
}

func svcProtocol(p corev1.Protocol) corev1.Protocol {
	if p == "" {
		return corev1.ProtocolTCP
	}
	return p
}

// checkServicePorts checks every slice port against the Service's ports:
// name, protocol and, for a numeric targetPort, the number.
func (c *checker) checkServicePorts(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	derived := selectorDerived(svc, r)
	byName := map[string]*corev1.ServicePort{}
	var names []string
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		byName[p.Name] = p
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	for _, p := range s.Ports {
		name := deref(p.Name)
		sp := byName[name]
		switch {
		case sp == nil:
			c.add(sev(derived), RulePortMismatch, ref, "port %q is not a port of Service %s (ports: %s)", name, svc.Name, strings.Join(names, ", "))
		case protocolOf(p.Protocol) != svcProtocol(sp.Protocol):
			c.add(sev(derived), RulePortMismatch, ref, "port %q has protocol %s, Service %s has %s", name, protocolOf(p.Protocol), svc.Name, svcProtocol(sp.Protocol))
		case derived && p.Port != nil && sp.TargetPort.Type == 0 && *p.Port != numericTarget(sp) && !unsetTargetPortZero(sp, *p.Port):
			c.add(SeverityError, RulePortMismatch, ref, "port %q is %d, but Service %s's targetPort is %d", name, *p.Port, svc.Name, numericTarget(sp))
		case derived && !equalStrPtr(p.AppProtocol, sp.AppProtocol):
			// KCM copies the Service port's appProtocol (k8s.io/endpointslice
			// utils.go getEndpointPorts).
			c.add(sev(r == roleDefault), RulePortMismatch, ref, "port %q has appProtocol %s, Service %s's port has %s", name, strPtrWord(p.AppProtocol), svc.Name, strPtrWord(sp.AppProtocol))
		}
	}
}

// equalStrPtr reports whether a and b are both nil or point to equal
// strings (KCM's port hash tells nil from "").
func equalStrPtr(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// strPtrWord returns "unset" for nil, else the quoted value.
func strPtrWord(p *string) string {
	if p == nil {
		return "unset"
	}
	return fmt.Sprintf("%q", *p)
}

// unsetTargetPortZero reports whether sp has no targetPort (the zero
// IntOrString, which the API server defaults to the port) and got is 0:
// KCM's FindPort returns the zero value as it is, so a Service object that
// was not defaulted yields port 0.
func unsetTargetPortZero(sp *corev1.ServicePort, got int32) bool {
	return sp.TargetPort.Type == 0 && sp.TargetPort.IntVal == 0 && got == 0
}

// numericTarget returns the numeric targetPort of sp (its port when unset).
func numericTarget(sp *corev1.ServicePort) int32 {
	if sp.TargetPort.IntVal == 0 {
		return sp.Port
	}
	return sp.TargetPort.IntVal
}

// checkPodEndpoints checks every endpoint of a selector-derived slice
// against its Pod.
func (c *checker) checkPodEndpoints(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	// The controllers whose source the check runs skip Pods on a missing
	// Node: the default one, and the secondary-network and dra-network
	// ones for the Services delegated to them (pkg/source Desired).
	target, delegated := c.delegatedTo(svc)
	mgr := s.Labels[discovery.LabelManagedBy]
	skipsMissingNodes := r == roleDefault || delegated && c.cfg.podAddressController(target) && mgr == target
	slicePorts := map[string]*discovery.EndpointPort{}
	for i := range s.Ports {
		slicePorts[deref(s.Ports[i].Name)] = &s.Ports[i]
	}
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		name := epName(i, e)
		tr := e.TargetRef
		if tr == nil || tr.Kind != "Pod" {
			if r == roleDefault {
				c.add(SeverityError, RuleEndpointPodMissing, ref, "endpoint %s has no Pod targetRef: the EndpointSlice controller only publishes Pods", name)
			}
			continue
		}
		ns := tr.Namespace
		if ns == "" {
			ns = s.Namespace
		}
		pod := c.pods[nn(ns, tr.Name)]
		switch {
		case pod == nil:
			c.add(SeverityError, RuleEndpointPodMissing, ref, "endpoint %s: Pod %s/%s does not exist", name, ns, tr.Name)
			continue
		case tr.UID != "" && pod.UID != "" && tr.UID != pod.UID:
			c.add(SeverityError, RuleEndpointPodMissing, ref, "endpoint %s: Pod %s was replaced (targetRef uid %s, Pod uid %s)", name, tr.Name, tr.UID, pod.UID)
			continue
		case pod.Namespace != svc.Namespace || !sel.Matches(labels.Set(pod.Labels)):
			c.add(SeverityError, RuleEndpointNotSelect, ref, "endpoint %s: Pod %s/%s does not match the selector of Service %s (%s)", name, pod.Namespace, pod.Name, svc.Name, sel)
			continue
		case pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed:
			c.add(SeverityError, RuleEndpointTerminal, ref, "endpoint %s: Pod %s has ended (phase %s); its IP may belong to another Pod", name, pod.Name, pod.Status.Phase)
			continue
		}
		if r == roleDefault {
			c.checkPodIPs(ref, e, name, pod)
		}
		c.checkConditions(ref, e, name, pod, svc, r, mgr)
		c.checkTopology(ref, e, name, pod, svc, skipsMissingNodes)
		c.checkHostname(ref, e, name, pod, svc)
		c.checkPodPorts(ref, slicePorts, pod, svc, r)
	}
}

func (c *checker) checkPodIPs(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod) {
	ips := map[string]bool{}
	for _, ip := range pod.Status.PodIPs {
		ips[canonicalIP(ip.IP)] = true
	}
	if pod.Status.PodIP != "" {
		ips[canonicalIP(pod.Status.PodIP)] = true
	}
	for _, a := range e.Addresses {
		if !ips[canonicalIP(a)] {
			c.add(SeverityError, RuleEndpointAddress, ref, "endpoint %s: %s is not an IP of Pod %s (podIPs %v)", name, a, pod.Name, slices.Sorted(maps.Keys(ips)))
		}
	}
}

func boolWord(p *bool) string {
	if p == nil {
		return "unset"
	}
	return fmt.Sprint(*p)
}

// checkConditions compares ready/serving/terminating with the conditions
// the default controller derives from the Pod (servicepods.PodToEndpoint,
// k8s.io/endpointslice podToEndpoint). Unset conditions are accepted from
// controllers other than the default one.
//
// A custom controller other than the secondary-network one (managed-by
// mgr) may decide serving itself (a CEL profile's ready expression,
// KEP-4770 leaves the endpoints to the controller): for its endpoints only
// what every writer must keep is checked, when set: terminating follows the
// Pod's deletion, and ready is serving and not terminating, or true with
// publishNotReadyAddresses (KEP-1672).
func (c *checker) checkConditions(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod, svc *corev1.Service, r role, mgr string) {
	want := servicepods.PodToEndpoint(pod, nil, svc, nil).Conditions
	ready, serving, terminating := *want.Ready, *want.Serving, *want.Terminating
	if r == roleOther && mgr != c.cfg.SecondaryNetworkControllerName && e.Conditions.Serving != nil {
		serving = *e.Conditions.Serving
		ready = svc.Spec.PublishNotReadyAddresses || serving && !terminating
	}
	strict := r == roleDefault
	bad := func(got *bool, want bool) bool {
		if got == nil {
			return strict
		}
		return *got != want
	}
	cond := e.Conditions
	if bad(cond.Ready, ready) || bad(cond.Serving, serving) || bad(cond.Terminating, terminating) {
		c.add(SeverityError, RuleEndpointConditions, ref,
			"endpoint %s (Pod %s): ready=%s serving=%s terminating=%s, want ready=%t serving=%t terminating=%t",
			name, pod.Name, boolWord(cond.Ready), boolWord(cond.Serving), boolWord(cond.Terminating), ready, serving, terminating)
	}
}

// checkTopology compares nodeName and zone with the Pod and its Node. When
// the input has Nodes and skipsMissingNodes (the slice's controller is the
// default one, or the secondary-network one for its Service), an endpoint
// for a Pod whose Node does not exist is an error unless the Service has
// publishNotReadyAddresses: KCM skips such Pods (k8s.io/endpointslice
// reconciler.go reconcileByAddressType, nodeLister.Get NotFound; behaviour
// C18, edge case E14), and so do servicepods.Desired and source.Desired.
func (c *checker) checkTopology(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod, svc *corev1.Service, skipsMissingNodes bool) {
	node := pod.Spec.NodeName
	if c.inv.Have.Nodes && skipsMissingNodes && !svc.Spec.PublishNotReadyAddresses && c.nodes[node] == nil {
		what := fmt.Sprintf("the Pod's Node %s does not exist", node)
		if node == "" {
			what = "the Pod names no Node (a Node lookup of \"\" finds none)"
		}
		c.add(SeverityError, RuleEndpointNodeName, ref,
			"endpoint %s (Pod %s): %s; the slice's controller, like KCM, skips such Pods (Service %s has no publishNotReadyAddresses)",
			name, pod.Name, what, svc.Name)
	}
	if node == "" {
		if e.NodeName != nil {
			c.add(SeverityError, RuleEndpointNodeName, ref, "endpoint %s (Pod %s): nodeName is %s, the Pod is not scheduled to a Node", name, pod.Name, *e.NodeName)
		}
		if e.Zone != nil {
			c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is %q, the Pod is not scheduled to a Node", name, pod.Name, *e.Zone)
		}
		return
	}
	switch {
	case e.NodeName == nil:
		c.add(SeverityWarning, RuleEndpointNodeName, ref, "endpoint %s (Pod %s): nodeName is not set, the Pod runs on %s", name, pod.Name, node)
	case *e.NodeName != node:
		c.add(SeverityError, RuleEndpointNodeName, ref, "endpoint %s (Pod %s): nodeName is %s, the Pod runs on %s", name, pod.Name, *e.NodeName, node)
	}
	if !c.inv.Have.Nodes {
		return
	}
	n := c.nodes[node]
	if n == nil {
		if e.Zone != nil {
			c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is %q, but Node %s does not exist", name, pod.Name, *e.Zone, node)
		}
		return
	}
	zone := n.Labels[corev1.LabelTopologyZone]
	switch {
	case zone != "" && e.Zone == nil:
		c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is not set, Node %s is in zone %s", name, pod.Name, node, zone)
	case e.Zone != nil && *e.Zone != zone:
		c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is %q, Node %s is in zone %q", name, pod.Name, *e.Zone, node, zone)
	}
}

// checkHostname applies the subdomain rule (ShouldSetHostname).
func (c *checker) checkHostname(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod, svc *corev1.Service) {
	want := ""
	if pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && pod.Namespace == svc.Namespace {
		want = pod.Spec.Hostname
	}
	switch {
	case e.Hostname == nil && want != "":
		c.add(SeverityWarning, RuleEndpointHostname, ref, "endpoint %s (Pod %s): hostname is not set, want %q (the Pod's subdomain names this Service)", name, pod.Name, want)
	case e.Hostname != nil && want == "":
		c.add(SeverityError, RuleEndpointHostname, ref, "endpoint %s (Pod %s): hostname %q is set, but the Pod's subdomain %q does not name Service %s", name, pod.Name, *e.Hostname, pod.Spec.Subdomain, svc.Name)
	case e.Hostname != nil && *e.Hostname != want:
		c.add(SeverityError, RuleEndpointHostname, ref, "endpoint %s (Pod %s): hostname is %q, want %q", name, pod.Name, *e.Hostname, want)
	}
}

// checkPodPorts resolves every Service port on the Pod (FindPort) and
// compares with the slice's ports.
func (c *checker) checkPodPorts(ref ObjectRef, slicePorts map[string]*discovery.EndpointPort, pod *corev1.Pod, svc *corev1.Service, r role) {
	for i := range svc.Spec.Ports {
		sp := svc.Spec.Ports[i]
		sp.Protocol = svcProtocol(sp.Protocol)
		unset := sp.TargetPort.Type == 0 && sp.TargetPort.IntVal == 0
		if unset {
			sp.TargetPort.IntVal = sp.Port
		}
		want, ok := findPort(pod, &sp)
		got := slicePorts[sp.Name]
		switch {
		case ok && got != nil && got.Port != nil && *got.Port != want && (!unset || *got.Port != 0):
			c.add(SeverityError, RulePortMismatch, ref, "port %q is %d, but targetPort %s resolves to %d on Pod %s", sp.Name, *got.Port, sp.TargetPort.String(), want, pod.Name)
		case ok && got == nil && r == roleDefault:
			c.add(SeverityError, RulePortMismatch, ref, "port %q is missing, but targetPort %s resolves to %d on Pod %s", sp.Name, sp.TargetPort.String(), want, pod.Name)
		case !ok && got != nil:
			c.add(SeverityError, RulePortMismatch, ref, "port %q is published, but Pod %s has no %s container port named %q", sp.Name, pod.Name, sp.Protocol, sp.TargetPort.StrVal)
		}
	}
}

// findPort is k8s.io/endpointslice FindPort (v0.37.2): a numeric
// targetPort is taken as it is; a named one is looked up, with the same
// protocol, in the containers and then in the restartable (sidecar) init
// containers. Container ports without protocol count as TCP.
func findPort(pod *corev1.Pod, sp *corev1.ServicePort) (int32, bool) {
	if sp.TargetPort.Type == 0 {
		return sp.TargetPort.IntVal, true
	}
	name := sp.TargetPort.StrVal
	lookup := func(cs []corev1.Container, sidecarsOnly bool) (int32, bool) {
		for _, ct := range cs {
			if sidecarsOnly && (ct.RestartPolicy == nil || *ct.RestartPolicy != corev1.ContainerRestartPolicyAlways) {
				continue
			}
			for _, p := range ct.Ports {
				if p.Name == name && svcProtocol(p.Protocol) == sp.Protocol {
					return p.ContainerPort, true
				}
			}
		}
		return 0, false
	}
	if p, ok := lookup(pod.Spec.Containers, false); ok {
		return p, true
	}
	return lookup(pod.Spec.InitContainers, true)
}

// checkServices applies the rules over all slices of one Service:
// multiple-managers, duplicate-endpoint (duplicates.go), mirror-drift
// (mirrordrift.go) and endpoint-missing (completeness.go).
func (c *checker) checkServices() {
	type group struct {
		slices []*discovery.EndpointSlice
	}
	groups := map[types.NamespacedName]*group{}
	var order []types.NamespacedName
	for _, s := range c.inv.EndpointSlices {
		name := s.Labels[discovery.LabelServiceName]
		if name == "" {
			continue
		}
		k := nn(s.Namespace, name)
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
			order = append(order, k)
		}
		g.slices = append(g.slices, s)
	}
	for _, k := range order {
		g := groups[k]
		c.checkManagers(k, g.slices)
		c.checkDuplicates(k, g.slices)
		c.checkMirrorDrift(k, g.slices)
		c.checkCompleteness(k, g.slices)
	}
}

func (c *checker) checkManagers(k types.NamespacedName, ss []*discovery.EndpointSlice) {
	if !c.inv.Have.Services {
		return
	}
	svc := c.services[k]
	if svc == nil {
		return
	}
	if _, delegated := c.delegatedTo(svc); delegated {
		return // the per-slice delegated-* rules are more precise
	}
	count := map[string]int{}
	for _, s := range ss {
		if m := s.Labels[discovery.LabelManagedBy]; m != "" {
			count[m]++
		}
	}
	if len(count) < 2 {
		return
	}
	var parts []string
	for _, m := range slices.Sorted(maps.Keys(count)) {
		parts = append(parts, fmt.Sprintf("%s (%d)", m, count[m]))
	}
	c.add(SeverityWarning, RuleMultipleManagers, serviceRef(k.Namespace, k.Name),
		"slices come from %d controllers, which consumers merge: %s", len(count), strings.Join(parts, ", "))
}

// skipped lists the rules that could not run for lack of a kind.
func (c *checker) skipped() []Skip {
	if len(c.inv.EndpointSlices) == 0 {
		return nil
	}
	var out []Skip
	podRules := []RuleID{RuleEndpointPodMissing, RuleEndpointNotSelect, RuleEndpointTerminal, RuleEndpointAddress,
		RuleEndpointConditions, RuleEndpointNodeName, RuleEndpointZone, RuleEndpointHostname, RuleEndpointMissing, RuleEmptySliceStale}
	if !c.inv.Have.Services {
		rules := []RuleID{RuleOrphan, RuleOwnerMissing, RuleOwnerStaleUID, RuleOwnerMismatch, RuleExternalName, RuleDefaultNoSelec,
			RuleDelegatedBuiltin, RuleDelegatedForeign, RuleMultipleManagers, RuleMirrorSelector, RuleMirrorIneligible, RuleMirrorDrift,
			RuleAddressFamily, RuleHeadlessLabel, RuleLabelsDrift, RulePortMismatch, RuleEndpointHints}
		rules = append(rules, consumerServiceRules...)
		return append(out, Skip{Rules: append(rules, podRules...), Reason: "no Services in the input"})
	}
	if !c.inv.Have.Pods {
		out = append(out, Skip{Rules: podRules, Reason: "no Pods in the input (per-Pod port checks skipped too)"})
	} else if !c.inv.Have.Nodes {
		out = append(out, Skip{Rules: []RuleID{RuleEndpointZone}, Reason: "no Nodes in the input"})
	}
	if !c.inv.Have.Endpoints {
		out = append(out, Skip{Rules: []RuleID{RuleMirrorIneligible, RuleMirrorDrift}, Reason: "no Endpoints in the input"})
	}
	return out
}
