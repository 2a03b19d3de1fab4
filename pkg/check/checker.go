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
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
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
	// Oracles are the oracles of the controllers that serve the Services
	// labelled with their names (KEP-4770), from their registrations
	// (registry.Oracles): the slices of a Service delegated to one of them
	// are judged against its source (endpoint-missing and the rules that
	// depend on what the source publishes). A Service delegated to a
	// controller without one gets the generic rules only, and the report
	// says so (Report.Skipped). Their names must differ from each other
	// and from the two above.
	Oracles []registry.Oracle
	// SliceSetLabels declare the slice sets of controllers that publish
	// several sets of slices under one Service (the reconciler library's
	// Config.SetLabel: one set per remote cluster, per network, per source
	// slice): by managed-by value, the label key whose value names a
	// slice's set. The rules that judge all slices of a Service together
	// judge such a controller's sets each on its own: duplicate-endpoint is
	// an error within a set and a warning across sets (consumers merge
	// every slice of a Service, so they see the endpoint twice, but no
	// single writer published it twice), and the declared sets are
	// published beside the Service's controller on purpose, so they are
	// not counted by multiple-managers. A slice of such a controller
	// without the label belongs to its unnamed set. The built-in
	// controllers write no sets: naming them is an error (Validate).
	SliceSetLabels map[string]string
}

// sliceSet returns the set of slice s, a key naming its controller and its
// set, and whether s is in a set declared by Config.SliceSetLabels (its
// controller declares a set label and s carries it).
func (c Config) sliceSet(s *discovery.EndpointSlice) (string, bool) {
	m := s.Labels[discovery.LabelManagedBy]
	key, ok := c.SliceSetLabels[m]
	if !ok {
		return "", false
	}
	set, ok := s.Labels[key]
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s %s=%s", m, key, set), true
}

// oracle returns the oracle of the controller whose name (KEP-4770 label
// value and managed-by value) is name, or nil.
func (c Config) oracle(name string) *registry.Oracle {
	for i := range c.Oracles {
		if c.Oracles[i].ControllerName == name {
			return &c.Oracles[i]
		}
	}
	return nil
}

// podAddressController reports whether managed-by value name is that of
// a controller whose oracle is a pod-address source (the secondary-network
// and dra-network controllers): it publishes both families for a headless
// Service and skips Pods on a missing Node (pkg/source Desired).
func (c Config) podAddressController(name string) bool {
	o := c.oracle(name)
	return o != nil && o.PodAddresses
}

// podReadyServing reports whether the oracle of managed-by value name
// holds its endpoints' serving condition to the Pod Ready condition.
func (c Config) podReadyServing(name string) bool {
	o := c.oracle(name)
	return o != nil && o.PodReadyServing
}

// otherNetwork reports whether the oracle of managed-by value name says
// that the controller never publishes the Pods' status.podIPs.
func (c Config) otherNetwork(name string) bool {
	o := c.oracle(name)
	return o != nil && o.OtherNetwork
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
	return c
}

// Validate checks c with its defaults applied (an empty or zero field
// means its default): the controller names, the oracles' included, must
// be label values that differ from each other, and the limits must be in
// KCM's ranges. The checks and their words are those of slicekit run and
// render (pkg/registry validate.go); the errors name the flags of
// slicekit check, and an oracle by its index in Oracles.
func (c Config) Validate() error {
	var oracles []registry.ManagedBy
	var oracleErrs []error
	for i, o := range c.Oracles {
		n := registry.ManagedBy{Flag: fmt.Sprintf("Oracles[%d].ControllerName", i), Value: o.ControllerName}
		oracles = append(oracles, n)
		if err := registry.ControllerName(n.Flag, n.Value); err != nil {
			oracleErrs = append(oracleErrs, err)
		}
		if o.Source == nil {
			oracleErrs = append(oracleErrs, fmt.Errorf("oracle %d of Config.Oracles (%q): Source is nil", i, o.ControllerName))
		}
	}
	return c.withDefaults().validate(oracles, oracleErrs)
}

// validate checks c as it is (no defaults): what Options.Validate does for
// the command line, where "" and 0 are invalid values, not defaults.
// oracles are the names of the controllers with an oracle, which must
// differ from the others, and oracleErrs the errors of their validation
// (their options' own).
func (c Config) validate(oracles []registry.ManagedBy, oracleErrs []error) error {
	names := []registry.ManagedBy{
		{Flag: "--controller-name", Value: c.DefaultControllerName},
		{Flag: "--mirroring-controller-name", Value: c.MirroringControllerName},
	}
	var errs []error
	for _, n := range names {
		if err := registry.ControllerName(n.Flag, n.Value); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, oracleErrs...)
	names = append(names, oracles...)
	errs = append(errs, registry.Distinct(names...)...)
	for _, m := range slices.Sorted(maps.Keys(c.SliceSetLabels)) {
		errs = append(errs, validateSliceSetLabel(m, c.SliceSetLabels[m], c.DefaultControllerName, c.MirroringControllerName)...)
	}
	if err := registry.InRange("--max-endpoints-per-slice", c.MaxEndpointsPerSlice, reconciler.MaxEndpointsPerSliceLimit); err != nil {
		errs = append(errs, err)
	}
	if err := registry.InRange("--mirroring-max-endpoints-per-subset", c.MirroringMaxEndpointsPerSubset, endpointsmirroring.MaxEndpointsPerSubsetLimit); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// validateSliceSetLabel checks one entry of Config.SliceSetLabels
// (--slice-set-label managedBy=key): a managed-by value that is not a
// built-in controller's, and a label key that is not one of the labels
// every slice's meaning depends on.
func validateSliceSetLabel(managedBy, key, defaultName, mirroringName string) []error {
	const flag = "--slice-set-label"
	var errs []error
	if err := registry.ControllerName(flag+" controller", managedBy); err != nil {
		errs = append(errs, err)
	}
	if managedBy != "" && (managedBy == defaultName || managedBy == mirroringName) {
		errs = append(errs, fmt.Errorf("%s %s=%s: the built-in controllers (%s, %s) write one slice set per Service", flag, managedBy, key, defaultName, mirroringName))
	}
	if msgs := validation.IsQualifiedName(key); len(msgs) > 0 {
		errs = append(errs, fmt.Errorf("%s %s=%q: not a label key: %s", flag, managedBy, key, strings.Join(msgs, "; ")))
	} else if reservedLabels[key] {
		errs = append(errs, fmt.Errorf("%s %s=%s: %s cannot tell slice sets apart (every slice's consumers read it)", flag, managedBy, key, key))
	}
	return errs
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
	c.checkMissingSlices()
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
	// statusless are the Pods with endpoints whose status has no phase
	// (the API server always sets one: the dump left status out); the
	// rules that compare an endpoint with the Pod's status skip them.
	statusless map[types.NamespacedName]bool
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

// inDeclaredSet reports whether s is in a slice set its controller
// declared (Config.SliceSetLabels).
func (c *checker) inDeclaredSet(s *discovery.EndpointSlice) bool {
	_, ok := c.cfg.sliceSet(s)
	return ok
}

// checkManagers applies multiple-managers to the slices of one Service:
// the slices of the declared slice sets (Config.SliceSetLabels) are left
// out, they are published beside the Service's controller on purpose.
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
		if c.inDeclaredSet(s) {
			continue // published beside the Service's controller on purpose
		}
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
		RuleEndpointConditions, RuleEndpointNodeName, RuleEndpointZone, RuleEndpointHostname, RuleEndpointMissing, RuleEmptySliceStale, RuleSlicesMissing}
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
	if n := len(c.statusless); n > 0 {
		out = append(out, Skip{Rules: []RuleID{RuleEndpointAddress, RuleEndpointConditions},
			Reason: fmt.Sprintf("for %d Pod(s) without status in the input (no status.phase, which the API server always sets: the dump left status out)", n)})
	}
	if !c.inv.Have.Endpoints {
		out = append(out, Skip{Rules: []RuleID{RuleMirrorIneligible, RuleMirrorDrift}, Reason: "no Endpoints in the input"})
	}
	if names := c.withoutOracle(); len(names) > 0 {
		out = append(out, Skip{Rules: []RuleID{RuleEndpointMissing},
			Reason: fmt.Sprintf("for the Services delegated to %s: check has no oracle of that controller (its registration provides none), so its slices get the generic rules only", strings.Join(names, ", "))})
	}
	return out
}

// withoutOracle returns, sorted, the KEP-4770 label values of the
// Services with a selector that are delegated to a controller without an
// oracle (Config.Oracles) and have slices of it: the oracle rules cannot
// judge them. None without Services or Pods in the input (the oracle rules
// are skipped for all then).
func (c *checker) withoutOracle() []string {
	if !c.inv.Have.Services || !c.inv.Have.Pods {
		return nil
	}
	names := map[string]bool{}
	for _, s := range c.inv.EndpointSlices {
		svc := c.services[nn(s.Namespace, s.Labels[discovery.LabelServiceName])]
		if svc == nil || svc.Spec.Selector == nil {
			continue
		}
		target, delegated := c.delegatedTo(svc)
		if delegated && s.Labels[discovery.LabelManagedBy] == target && c.cfg.oracle(target) == nil {
			names[target] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}
