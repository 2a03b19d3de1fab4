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

package differential

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/endpointslice"
	endpointsliceutil "k8s.io/endpointslice/util"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

var flagOracleSteps = flag.Int("differential.oraclesteps", 10000, "TestCheckOracle runs scenarios until at least this many steps have run (2000 with -short)")

// mutant is one single-fault operator of TestCheckOracle: apply changes a
// deep copy of KCM's slices of the step (the slices the controller owns)
// and returns false when the operator does not apply to the state; rules
// are the findings that name the fault (any of them counts, any severity).
type mutant struct {
	name  string
	rules []check.RuleID
	apply func(m *mutationState) bool
}

// mutationState is one correct state (KCM's output of a step) being
// mutated.
type mutationState struct {
	rng    *rand.Rand
	svc    *corev1.Service
	pods   []*corev1.Pod
	nodes  []*corev1.Node
	maxPer int32
	slices []*discovery.EndpointSlice // deep copies, free to change
}

// endpointRef picks a random endpoint of a random slice that has one.
func (m *mutationState) endpointRef() (*discovery.EndpointSlice, int, bool) {
	var with []*discovery.EndpointSlice
	for _, s := range m.slices {
		if len(s.Endpoints) > 0 {
			with = append(with, s)
		}
	}
	if len(with) == 0 {
		return nil, 0, false
	}
	s := with[m.rng.IntN(len(with))]
	return s, m.rng.IntN(len(s.Endpoints)), true
}

// portRef picks a random port of a random slice that has one; nil when
// no slice has a port.
func (m *mutationState) portRef() *discovery.EndpointPort {
	var with []*discovery.EndpointSlice
	for _, s := range m.slices {
		if len(s.Ports) > 0 {
			with = append(with, s)
		}
	}
	if len(with) == 0 {
		return nil
	}
	s := with[m.rng.IntN(len(with))]
	return &s.Ports[m.rng.IntN(len(s.Ports))]
}

// freshIP returns an address of the family of at that no Pod has.
func (m *mutationState) freshIP(at discovery.AddressType) string {
	if at == discovery.AddressTypeIPv6 {
		return fmt.Sprintf("fd00:dead::%x", 1+m.rng.IntN(60000))
	}
	return fmt.Sprintf("10.254.%d.%d", m.rng.IntN(250), 1+m.rng.IntN(250))
}

var oracleMutants = []mutant{
	{"drop endpoint", []check.RuleID{check.RuleEndpointMissing}, func(m *mutationState) bool {
		// While the Service is being deleted KCM skips creates, so a
		// missing endpoint is a state KCM itself produces: not a fault.
		if m.svc.DeletionTimestamp != nil {
			return false
		}
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints = slices.Delete(s.Endpoints, i, i+1)
		}
		return ok
	}},
	{"duplicate endpoint", []check.RuleID{check.RuleDuplicateEndpoint}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if !ok {
			return false
		}
		var same []*discovery.EndpointSlice
		for _, o := range m.slices {
			if o.AddressType == s.AddressType {
				same = append(same, o)
			}
		}
		target := same[m.rng.IntN(len(same))]
		target.Endpoints = append(target.Endpoints, *s.Endpoints[i].DeepCopy())
		return true
	}},
	{"re-address endpoint", []check.RuleID{check.RuleEndpointAddress}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].Addresses = []string{m.freshIP(s.AddressType)}
		}
		return ok
	}},
	{"flip ready", []check.RuleID{check.RuleEndpointConditions}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].Conditions.Ready = flip(s.Endpoints[i].Conditions.Ready)
		}
		return ok
	}},
	{"flip serving", []check.RuleID{check.RuleEndpointConditions}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].Conditions.Serving = flip(s.Endpoints[i].Conditions.Serving)
		}
		return ok
	}},
	{"flip terminating", []check.RuleID{check.RuleEndpointConditions}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].Conditions.Terminating = flip(s.Endpoints[i].Conditions.Terminating)
		}
		return ok
	}},
	{"wrong port", []check.RuleID{check.RulePortMismatch}, func(m *mutationState) bool {
		// A slice with ports and endpoints: the ports of an empty slice
		// serve nothing.
		var with []*discovery.EndpointSlice
		for _, s := range m.slices {
			if len(s.Ports) > 0 && len(s.Endpoints) > 0 {
				with = append(with, s)
			}
		}
		if len(with) == 0 {
			return false
		}
		s := with[m.rng.IntN(len(with))]
		p := &s.Ports[m.rng.IntN(len(s.Ports))]
		p.Port = ptr.To(ptr.Deref(p.Port, 0) + 1 + int32(m.rng.IntN(3)))
		return true
	}},
	{"wrong protocol", []check.RuleID{check.RulePortMismatch}, func(m *mutationState) bool {
		p := m.portRef()
		if p == nil {
			return false
		}
		if ptr.Deref(p.Protocol, corev1.ProtocolTCP) == corev1.ProtocolUDP {
			p.Protocol = ptr.To(corev1.ProtocolTCP)
		} else {
			p.Protocol = ptr.To(corev1.ProtocolUDP)
		}
		return true
	}},
	{"stale owner UID", []check.RuleID{check.RuleOwnerStaleUID}, func(m *mutationState) bool {
		s := m.slices[m.rng.IntN(len(m.slices))]
		for i := range s.OwnerReferences {
			if s.OwnerReferences[i].Kind == "Service" {
				s.OwnerReferences[i].UID = types.UID(fmt.Sprintf("stale-%d", m.rng.IntN(1000)))
				return true
			}
		}
		return false
	}},
	{"wrong zone", []check.RuleID{check.RuleEndpointZone}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if !ok {
			return false
		}
		e := &s.Endpoints[i]
		cur := ptr.Deref(e.Zone, "")
		e.Zone = ptr.To(pick(m.rng, slices.DeleteFunc(slices.Clone(append(zones, "zone-z")), func(z string) bool { return z == cur })))
		return true
	}},
	{"wrong nodeName", []check.RuleID{check.RuleEndpointNodeName}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].NodeName = ptr.To(fmt.Sprintf("node-elsewhere-%d", m.rng.IntN(9)))
		}
		return ok
	}},
	{"wrong hostname", []check.RuleID{check.RuleEndpointHostname}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			e := &s.Endpoints[i]
			e.Hostname = ptr.To(ptr.Deref(e.Hostname, "host") + "-x")
		}
		return ok
	}},
	{"stale targetRef UID", []check.RuleID{check.RuleEndpointPodMissing}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok && s.Endpoints[i].TargetRef != nil {
			s.Endpoints[i].TargetRef.UID = "earlier-pod-uid"
			return true
		}
		return false
	}},
	{"targetRef removed", []check.RuleID{check.RuleEndpointPodMissing}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].TargetRef = nil
		}
		return ok
	}},
	{"missing service-name label", []check.RuleID{check.RuleMissingServiceName}, func(m *mutationState) bool {
		s := m.slices[m.rng.IntN(len(m.slices))]
		delete(s.Labels, discovery.LabelServiceName)
		return true
	}},
	{"label drift", []check.RuleID{check.RuleLabelsDrift}, func(m *mutationState) bool {
		s := m.slices[m.rng.IntN(len(m.slices))]
		s.Labels["drift.example.com/x"] = "y"
		return true
	}},
	{"wrong address type", []check.RuleID{check.RuleAddressType}, func(m *mutationState) bool {
		s, _, ok := m.endpointRef()
		if !ok {
			return false
		}
		if s.AddressType == discovery.AddressTypeIPv4 {
			s.AddressType = discovery.AddressTypeIPv6
		} else {
			s.AddressType = discovery.AddressTypeIPv4
		}
		return true
	}},
	{"wrong appProtocol", []check.RuleID{check.RulePortMismatch}, func(m *mutationState) bool {
		// KCM copies the Service port's appProtocol (getEndpointPorts).
		p := m.portRef()
		if p == nil {
			return false
		}
		if p.AppProtocol == nil {
			p.AppProtocol = ptr.To("example.com/mutated")
		} else {
			p.AppProtocol = nil
		}
		return true
	}},
	{"stray hints", []check.RuleID{check.RuleEndpointHints}, func(m *mutationState) bool {
		// Hints on an endpoint of a Service that asks for none: KCM
		// removes them (RemoveHintsFromSlices). Services with topology
		// mode Auto or a valid trafficDistribution are left out (their
		// hints depend on the cluster or the endpoint).
		// A Service being deleted is not synced by KCM: not a fault.
		if m.svc.DeletionTimestamp != nil || podendpoint.TopologyAuto(m.svc.Annotations) || podendpoint.Hints(m.svc, podendpoint.Options{}).TrafficDistribution != nil {
			return false
		}
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: pick(m.rng, zones)}}}
		}
		return ok
	}},
	{"stale empty slice", []check.RuleID{check.RuleEmptySliceStale}, func(m *mutationState) bool {
		// An empty placeholder (no ports) beside a slice with endpoints,
		// when the empty port group is not desired: KCM deletes it (C31).
		// The group is desired, for every address type, as soon as one Pod
		// KCM considers (ShouldPodBeInEndpoints) resolves none of the
		// Service's ports (FindPort): KCM records a Pod's port group
		// before it looks at its Node and addresses, and keeps empty
		// slices of desired groups. Both functions are KCM's own.
		if m.svc.DeletionTimestamp != nil {
			return false // not synced by KCM: not a fault
		}
		for _, p := range m.pods {
			if !endpointsliceutil.ShouldPodBeInEndpoints(p, true) { // as reconciler.go calls it
				continue
			}
			resolves := false
			for i := range m.svc.Spec.Ports {
				if _, err := endpointslice.FindPort(p, &m.svc.Spec.Ports[i]); err == nil {
					resolves = true
				}
			}
			if !resolves {
				return false
			}
		}
		for _, s := range m.slices {
			if len(s.Endpoints) > 0 {
				e := s.DeepCopy()
				e.Name += "-empty"
				e.Endpoints, e.Ports = []discovery.Endpoint{}, nil
				m.slices = append(m.slices, e)
				return true
			}
		}
		return false
	}},
	{"slice beyond max endpoints", []check.RuleID{check.RuleMaxEndpointsPerSlice, check.RuleAPILimits}, func(m *mutationState) bool {
		// Move endpoints of the same group (address type and ports) into
		// one slice until it holds more than the controller's maximum: the
		// published endpoints stay the same, only the packing is wrong.
		groups := map[string][]*discovery.EndpointSlice{}
		var keys []string
		for _, s := range m.slices {
			k := string(s.AddressType) + " " + fmtPorts(s.Ports)
			if groups[k] == nil {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], s)
		}
		var fit []string
		for _, k := range keys {
			n := 0
			for _, s := range groups[k] {
				n += len(s.Endpoints)
			}
			if n > int(m.maxPer) {
				fit = append(fit, k)
			}
		}
		if len(fit) == 0 {
			return false
		}
		g := groups[fit[m.rng.IntN(len(fit))]]
		into := g[0]
		for _, s := range g[1:] {
			for len(into.Endpoints) <= int(m.maxPer) && len(s.Endpoints) > 0 {
				into.Endpoints = append(into.Endpoints, s.Endpoints[0])
				s.Endpoints = s.Endpoints[1:]
			}
		}
		return len(into.Endpoints) > int(m.maxPer)
	}},
}

// opScore counts one operator's mutants.
type opScore struct {
	applied, flagged int
	missed           []string // a few descriptions of unflagged mutants
}

// kcmStep runs KCM's reconciler alone on the step (the oracle side of
// runStep) and returns every slice afterwards.
func (h *harness) kcmStep(in stepInput) []*discovery.EndpointSlice {
	h.setNodes(in.nodes)
	var handed []*discovery.EndpointSlice
	for _, s := range in.slices {
		if listed(s, in.svc.Name) {
			handed = append(handed, s)
		}
	}
	h.kcmStore.reset(in.slices)
	svc, pods := in.svc.DeepCopy(), copyPods(in.pods)
	tt := h.kcmTT.ComputeEndpointLastChangeTriggerTime(svc.Namespace, svc, pods)
	_ = h.kcm.Reconcile(h.logger, svc, pods, copySlices(handed), tt)
	return h.kcmStore.list()
}

// isKnownKCMFault reports whether f is an error that KCM's output
// deserves: a slice still labelled service.kubernetes.io/headless after
// the Service got a cluster IP. KCM's setEndpointSliceLabels only reports
// a change of the non-reserved labels, so it never rewrites the headless
// label of an otherwise unchanged slice; kube-proxy then ignores the slice
// (kubernetes#105986: a headless Service turned ExternalName and back to
// ClusterIP; the generator changes spec.clusterIP directly). check is
// right to report it, so TestCheckOracle counts these separately instead
// of as false positives.
func isKnownKCMFault(f check.Finding, svc *corev1.Service) bool {
	return f.Rule == check.RuleHeadlessLabel && svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != corev1.ClusterIPNone
}

// oracleSelector is the selector TestCheckOracle gives the Service and the
// labels it gives every Pod: the generator hands the Pods to the
// reconcilers directly, so its Service has no selector.
var oracleSelector = map[string]string{"app": "oracle"}

// selected returns in with a copy of the Service that selects every Pod by
// oracleSelector and shallow copies of the Pods labelled with it.
func selected(in stepInput) stepInput {
	out := in
	out.svc = in.svc.DeepCopy()
	out.svc.Spec.Selector = oracleSelector
	out.pods = make([]*corev1.Pod, len(in.pods))
	for i, p := range in.pods {
		c := *p
		c.Labels = oracleSelector
		out.pods[i] = &c
	}
	return out
}

// checkInventory is the complete inventory of a step: the Service, its
// Pods and every Node, and the given slices.
func checkInventory(svc *corev1.Service, pods []*corev1.Pod, nodes []*corev1.Node, sl []*discovery.EndpointSlice) *check.Inventory {
	objs := []runtime.Object{svc}
	for _, p := range pods {
		objs = append(objs, p)
	}
	for _, n := range nodes {
		objs = append(objs, n)
	}
	for _, s := range sl {
		objs = append(objs, s)
	}
	inv := check.NewInventory(objs)
	inv.Have = check.Kinds{Services: true, Pods: true, Nodes: true, Endpoints: true}
	return inv
}

// TestCheckOracle runs `slicekit check` (pkg/check) on the output of KCM's
// own EndpointSlice reconciler (k8s.io/endpointslice v0.37.2) after every
// step of the differential generator's scenarios (Services, Pods, Nodes,
// hand-edited slices): KCM's slices of the Service, with the Service, its
// Pods and the Nodes, must give no error. Then every single-fault operator
// (oracleMutants) is applied, once per step where it applies, to a copy of
// those slices, and the mutant must be flagged by a finding of the rule
// that names the fault. The log prints the mutation score per operator
// (docs/testing.md); the test fails below 99% overall or 100% for
// dropped endpoints.
func TestCheckOracle(t *testing.T) {
	steps := *flagOracleSteps
	if testing.Short() && steps > 2000 {
		steps = 2000
	}
	start := time.Now()
	scores := map[string]*opScore{}
	for _, op := range oracleMutants {
		scores[op.name] = &opScore{}
	}
	var nSteps, nScenarios, reported, badStates, warnings, kcmFaults int
	for i := 0; nSteps < steps; i++ {
		seed := scenarioSeed(*flagSeed, i)
		sc := newScenario(seed, genOptions{})
		h := newHarness(sc.maxPer)
		nScenarios++
		cfg := check.Config{MaxEndpointsPerSlice: sc.maxPer}
		for step := 0; step < sc.steps; step++ {
			if step > 0 {
				sc.mutate()
			}
			in := sc.input()
			sc.slices = h.kcmStep(in)
			nSteps++
			in = selected(in)
			var own []*discovery.EndpointSlice
			for _, s := range sc.slices {
				if listed(s, in.svc.Name) {
					own = append(own, s)
				}
			}
			ctx := h.ctx
			rep := check.Check(ctx, checkInventory(in.svc, in.pods, in.nodes, own), cfg)
			warnings += rep.Warnings()
			errs := 0
			for _, f := range rep.Findings {
				switch {
				case f.Severity != check.SeverityError:
				case isKnownKCMFault(f, in.svc):
					kcmFaults++
				default:
					errs++
				}
			}
			if errs > 0 {
				badStates++
				if reported++; reported <= 3 {
					var b strings.Builder
					for _, f := range rep.Findings {
						if f.Severity == check.SeverityError {
							fmt.Fprintf(&b, "  %s\n", f)
						}
					}
					b.WriteString("inputs:\n")
					fmtInput(&b, stepInput{svc: in.svc, pods: in.pods, nodes: in.nodes, slices: own})
					t.Errorf("check oracle: scenario %d (seed %d) step %d: check reports %d error(s) on KCM's output:\n%s",
						i, seed, step, errs, b.String())
				}
				continue // mutants of a state check already rejects say nothing
			}
			if rep.Errors() > 0 {
				continue // a known KCM fault: not a correct state to mutate
			}
			if len(own) == 0 {
				continue
			}
			rng := rand.New(rand.NewPCG(seed, uint64(step)))
			for _, op := range oracleMutants {
				m := &mutationState{rng: rng, svc: in.svc, pods: in.pods, nodes: in.nodes, maxPer: sc.maxPer, slices: copySlices(own)}
				if !op.apply(m) {
					continue
				}
				sc := scores[op.name]
				sc.applied++
				mrep := check.Check(ctx, checkInventory(in.svc, in.pods, in.nodes, m.slices), cfg)
				if slices.ContainsFunc(mrep.Findings, func(f check.Finding) bool { return slices.Contains(op.rules, f.Rule) }) {
					sc.flagged++
				} else if len(sc.missed) < 3 {
					var b strings.Builder
					fmt.Fprintf(&b, "scenario %d (seed %d) step %d; findings: %v\n", i, seed, step, mrep.Findings)
					fmtInput(&b, stepInput{svc: in.svc, pods: in.pods, nodes: in.nodes, slices: m.slices})
					sc.missed = append(sc.missed, b.String())
				}
			}
		}
	}
	names := make([]string, 0, len(scores))
	for n := range scores {
		names = append(names, n)
	}
	sort.Slice(names, func(a, b int) bool { return opIndex(names[a]) < opIndex(names[b]) })
	applied, flagged := 0, 0
	t.Logf("check oracle (master seed %d): %d scenarios, %d steps of KCM output checked, %d with errors, %d warnings, %d findings of KCM's own fault kubernetes#105986; %s",
		*flagSeed, nScenarios, nSteps, badStates, warnings, kcmFaults, time.Since(start).Round(time.Millisecond))
	t.Logf("check oracle: | operator | rule(s) | mutants | flagged | score |")
	for _, n := range names {
		s := scores[n]
		applied += s.applied
		flagged += s.flagged
		t.Logf("check oracle: | %s | %s | %d | %d | %s |", n, ruleList(n), s.applied, s.flagged, pct(s.flagged, s.applied))
	}
	t.Logf("check oracle: | all | | %d | %d | %s |", applied, flagged, pct(flagged, applied))
	for _, n := range names {
		for _, m := range scores[n].missed {
			t.Logf("check oracle: unflagged %q mutant: %s", n, m)
		}
	}
	if d := scores["drop endpoint"]; d.applied == 0 || d.flagged != d.applied {
		t.Errorf("check oracle: %d of %d dropped endpoints flagged, want all", d.flagged, d.applied)
	}
	if applied == 0 || flagged*100 < applied*99 {
		t.Errorf("check oracle: %d of %d mutants flagged, want at least 99%%", flagged, applied)
	}
}

func opIndex(name string) int {
	return slices.IndexFunc(oracleMutants, func(m mutant) bool { return m.name == name })
}

func ruleList(name string) string {
	var out []string
	for _, r := range oracleMutants[opIndex(name)].rules {
		out = append(out, "`"+string(r)+"`")
	}
	return strings.Join(out, ", ")
}

func pct(n, d int) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(n)/float64(d))
}
