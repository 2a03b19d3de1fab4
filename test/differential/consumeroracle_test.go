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
	"net/netip"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/check"
)

var flagConsumerSteps = flag.Int("differential.consumersteps", 3000, "TestConsumerOracle runs scenarios until at least this many steps have run (1000 with -short)")

// consumerMutants are the single-fault operators of the consumer rules
// (pkg/check consumers.go) that leave the Service as it is; they also run
// in TestCheckOracle. serviceConsumerMutants need a Service property the
// generator does not produce (a Local traffic policy, two cluster IPs) and
// set it on their copy of the Service first; they run in
// TestConsumerOracle only, which checks the copy's baseline too.
var consumerMutants = []mutant{
	{"unset ready", []check.RuleID{check.RuleReadyUnset}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].Conditions.Ready = nil
		}
		return ok
	}},
	{"unset port number", []check.RuleID{check.RulePortUnset}, func(m *mutationState) bool {
		p := m.portRef()
		if p == nil {
			return false
		}
		p.Port = nil
		return true
	}},
	{"port number 0", []check.RuleID{check.RulePortUnset}, func(m *mutationState) bool {
		p := m.portRef()
		if p == nil {
			return false
		}
		p.Port = ptr.To[int32](0)
		return true
	}},
	{"second address", []check.RuleID{check.RuleMultipleAddresses}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if ok {
			s.Endpoints[i].Addresses = append(s.Endpoints[i].Addresses, m.freshIP(s.AddressType))
		}
		return ok
	}},
	{"partial zone hints", []check.RuleID{check.RulePartialHints}, func(m *mutationState) bool {
		// A slice with two ready endpoints: take the zone hints off one
		// of them when all have some, or give one a hint when none has.
		var cands []*discovery.EndpointSlice
		for _, s := range m.slices {
			if servedPorts(s) > 0 && len(readyIndexes(s)) >= 2 {
				cands = append(cands, s)
			}
		}
		if len(cands) == 0 {
			return false
		}
		s := cands[m.rng.IntN(len(cands))]
		ready := readyIndexes(s)
		with := 0
		for _, i := range ready {
			if h := s.Endpoints[i].Hints; h != nil && len(h.ForZones) > 0 {
				with++
			}
		}
		i := ready[m.rng.IntN(len(ready))]
		switch with {
		case len(ready):
			s.Endpoints[i].Hints = nil
		case 0:
			s.Endpoints[i].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: pick(m.rng, zones)}}}
		default:
			return false // already partial (an endpoint without zone): not a correct state to mutate
		}
		return true
	}},
	{"non-canonical address", []check.RuleID{check.RuleNonCanonicalIP}, func(m *mutationState) bool {
		s, i, ok := m.endpointRef()
		if !ok {
			return false
		}
		e := &s.Endpoints[i]
		a, err := netip.ParseAddr(e.Addresses[0])
		if err != nil {
			return false
		}
		if a.Is4() {
			b := a.As4()
			e.Addresses[0] = fmt.Sprintf("0%d.%d.%d.%d", b[0], b[1], b[2], b[3]) // a leading zero, read as decimal
		} else {
			e.Addresses[0] = strings.ToUpper(a.StringExpanded())
		}
		return true
	}},
	{"unreadable trigger time", []check.RuleID{check.RuleTriggerTime}, func(m *mutationState) bool {
		s := m.slices[m.rng.IntN(len(m.slices))]
		if s.Annotations == nil {
			s.Annotations = map[string]string{}
		}
		s.Annotations[corev1.EndpointsLastChangeTriggerTime] = "garbage"
		return true
	}},
	{"headless label on a cluster-IP Service", []check.RuleID{check.RuleHeadlessLabel}, func(m *mutationState) bool {
		if ip := m.svc.Spec.ClusterIP; ip == "" || ip == corev1.ClusterIPNone {
			return false
		}
		s := m.slices[m.rng.IntN(len(m.slices))]
		s.Labels[corev1.IsHeadlessService] = ""
		return true
	}},
	{"secondary-network slice beside the primary one", []check.RuleID{check.RuleMergedNetworks}, func(m *mutationState) bool {
		// Another controller publishes other addresses of the same Pods
		// under the Service's name.
		for _, s := range m.slices {
			if len(s.Endpoints) == 0 || s.AddressType == discovery.AddressTypeFQDN {
				continue
			}
			n := s.DeepCopy()
			n.Name += "-secondary"
			n.Labels[discovery.LabelManagedBy] = foreignController
			for i := range n.Endpoints {
				n.Endpoints[i].Addresses = []string{m.freshIP(n.AddressType)}
			}
			m.slices = append(m.slices, n)
			return true
		}
		return false
	}},
}

var serviceConsumerMutants = []mutant{
	{"nodeName dropped under a Local policy", []check.RuleID{check.RuleLocalPolicyNodeName}, func(m *mutationState) bool {
		if m.svc.Spec.ClusterIP == corev1.ClusterIPNone {
			return false // kube-proxy proxies no headless Service
		}
		svc := m.svc.DeepCopy()
		if m.rng.IntN(2) == 0 {
			svc.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyLocal)
		} else {
			svc.Spec.Type = corev1.ServiceTypeLoadBalancer
			svc.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
		}
		m.svc = svc
		type ref struct {
			s *discovery.EndpointSlice
			i int
		}
		var cands []ref
		for _, s := range m.slices {
			if s.AddressType == discovery.AddressTypeFQDN {
				continue
			}
			for i := range s.Endpoints {
				c := s.Endpoints[i].Conditions
				if s.Endpoints[i].NodeName != nil && (ptr.Deref(c.Ready, true) || ptr.Deref(c.Serving, true)) {
					cands = append(cands, ref{s, i})
				}
			}
		}
		if len(cands) == 0 {
			return false
		}
		r := cands[m.rng.IntN(len(cands))]
		r.s.Endpoints[r.i].NodeName = nil
		return true
	}},
	{"Pod targetRef on a secondary address of a dual-stack Service", []check.RuleID{check.RuleSecondaryPodTargetRef}, func(m *mutationState) bool {
		if ip := m.svc.Spec.ClusterIP; ip == "" || ip == corev1.ClusterIPNone || len(m.svc.Spec.IPFamilies) < 2 {
			return false
		}
		svc := m.svc.DeepCopy()
		svc.Spec.ClusterIPs = []string{"10.96.0.10", "fd00:96::a"}
		m.svc = svc
		dual := map[string]bool{}
		for _, p := range m.pods {
			dual[p.Name] = len(p.Status.PodIPs) > 1
		}
		type ref struct {
			s *discovery.EndpointSlice
			i int
		}
		var cands []ref
		for _, s := range m.slices {
			for i, e := range s.Endpoints {
				if s.AddressType != discovery.AddressTypeFQDN && e.TargetRef != nil && dual[e.TargetRef.Name] {
					cands = append(cands, ref{s, i})
				}
			}
		}
		if len(cands) == 0 {
			return false
		}
		r := cands[m.rng.IntN(len(cands))]
		r.s.Endpoints[r.i].Addresses = []string{m.freshIP(r.s.AddressType)}
		return true
	}},
}

func init() { oracleMutants = append(oracleMutants, consumerMutants...) }

// servedPorts counts the ports of s that kube-proxy reads (named, with a
// number other than 0).
func servedPorts(s *discovery.EndpointSlice) int {
	n := 0
	for _, p := range s.Ports {
		if p.Name != nil && ptr.Deref(p.Port, 0) != 0 {
			n++
		}
	}
	return n
}

// readyIndexes returns the indexes of the endpoints of s that kube-proxy
// reads as ready (nil or true).
func readyIndexes(s *discovery.EndpointSlice) []int {
	var out []int
	for i, e := range s.Endpoints {
		if len(e.Addresses) > 0 && ptr.Deref(e.Conditions.Ready, true) {
			out = append(out, i)
		}
	}
	return out
}

// consumerFinding reports whether f is a finding of a consumer rule.
func consumerFinding(f check.Finding) bool { return slices.Contains(check.ConsumerRules(), f.Rule) }

// TestConsumerOracle runs the consumer rules of `slicekit check` on the
// output of KCM's own EndpointSlice reconciler after every step of the
// differential generator's scenarios: they must find no error there
// (warnings are counted per rule: KCM's PreferClose leaves an endpoint
// without zone unhinted, for one, and kube-proxy then ignores the other
// hints). Then every consumer operator (consumerMutants and
// serviceConsumerMutants) is applied where it applies to a copy of those
// slices; a service operator's Service copy must leave KCM's slices free
// of the operator's rules before the fault is added. Every mutant must be
// flagged by the operator's rule: the score per operator must be 100%.
func TestConsumerOracle(t *testing.T) {
	steps := *flagConsumerSteps
	if testing.Short() && steps > 1000 {
		steps = 1000
	}
	ops := append(slices.Clone(consumerMutants), serviceConsumerMutants...)
	scores := map[string]*opScore{}
	for _, op := range ops {
		scores[op.name] = &opScore{}
	}
	warnings := map[check.RuleID]int{}
	var nSteps, badStates, baselineFlagged int
	for i := 0; nSteps < steps; i++ {
		seed := scenarioSeed(*flagSeed, i)
		sc := newScenario(seed, genOptions{})
		h := newHarness(sc.maxPer)
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
			rep := check.Check(h.ctx, checkInventory(in.svc, in.pods, in.nodes, own), cfg)
			var errs []string
			for _, f := range rep.Findings {
				switch {
				case !consumerFinding(f):
				case f.Severity == check.SeverityError && !isKnownKCMFault(f, in.svc):
					errs = append(errs, f.String())
				case f.Severity == check.SeverityWarning:
					warnings[f.Rule]++
				}
			}
			if len(errs) > 0 {
				if badStates++; badStates <= 3 {
					var b strings.Builder
					fmtInput(&b, stepInput{svc: in.svc, pods: in.pods, nodes: in.nodes, slices: own})
					t.Errorf("consumer oracle: scenario %d (seed %d) step %d: consumer rules report errors on KCM's output:\n  %s\ninputs:\n%s",
						i, seed, step, strings.Join(errs, "\n  "), b.String())
				}
				continue
			}
			if len(own) == 0 {
				continue
			}
			rng := rand.New(rand.NewPCG(seed, uint64(step)))
			for _, op := range ops {
				m := &mutationState{rng: rng, svc: in.svc, pods: in.pods, nodes: in.nodes, maxPer: sc.maxPer, slices: copySlices(own)}
				if !op.apply(m) {
					continue
				}
				hasRule := func(r *check.Report) bool {
					return slices.ContainsFunc(r.Findings, func(f check.Finding) bool { return slices.Contains(op.rules, f.Rule) })
				}
				if m.svc != in.svc && hasRule(check.Check(h.ctx, checkInventory(m.svc, in.pods, in.nodes, own), cfg)) {
					baselineFlagged++ // the Service copy alone draws the rule: no single fault
					continue
				}
				if hasRule(rep) {
					baselineFlagged++ // already flagged before the fault
					continue
				}
				s := scores[op.name]
				s.applied++
				if hasRule(check.Check(h.ctx, checkInventory(m.svc, in.pods, in.nodes, m.slices), cfg)) {
					s.flagged++
				} else if len(s.missed) < 3 {
					var b strings.Builder
					fmt.Fprintf(&b, "scenario %d (seed %d) step %d\n", i, seed, step)
					fmtInput(&b, stepInput{svc: m.svc, pods: in.pods, nodes: in.nodes, slices: m.slices})
					s.missed = append(s.missed, b.String())
				}
			}
		}
	}
	t.Logf("consumer oracle (master seed %d): %d steps of KCM output, %d with consumer errors; consumer warnings on KCM output by rule: %v; %d mutants skipped as already flagged",
		*flagSeed, nSteps, badStates, warnings, baselineFlagged)
	t.Logf("consumer oracle: | operator | rule(s) | mutants | flagged | score |")
	for _, op := range ops {
		s := scores[op.name]
		var rules []string
		for _, r := range op.rules {
			rules = append(rules, "`"+string(r)+"`")
		}
		t.Logf("consumer oracle: | %s | %s | %d | %d | %s |", op.name, strings.Join(rules, ", "), s.applied, s.flagged, pct(s.flagged, s.applied))
		for _, miss := range s.missed {
			t.Logf("consumer oracle: unflagged %q mutant: %s", op.name, miss)
		}
		if s.applied == 0 || s.flagged != s.applied {
			t.Errorf("consumer oracle: operator %q: %d of %d mutants flagged, want all (and at least one)", op.name, s.flagged, s.applied)
		}
	}
}
