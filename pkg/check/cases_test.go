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
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/test/harness/casefile"
)

// caseState is one state of a case the checker judges.
type caseState struct {
	// name is "input", "before <checkpoint>" (the world after the
	// mutations preceding a checkpoint, before the controllers ran) or
	// "<checkpoint> expected" (the world with the checkpoint's expected
	// slices in place of the slices in its scope).
	name string
	objs []runtime.Object
	// expected marks the states built from expected slices.
	expected bool
}

// caseStates walks a case's steps (optional ones included) and returns
// its states. After each checkpoint with expected slices the world holds
// those slices, as a controller run would have left it.
func caseStates(t *testing.T, c *casefile.Case) []caseState {
	t.Helper()
	w := casefile.NewWorld(c.Input)
	states := []caseState{{name: "input", objs: w.Objects()}}
	dirty := false
	cp := 0
	for i := range c.Steps {
		a := &c.Steps[i]
		var err error
		switch {
		case a.Patch != nil:
			err = w.Patch(a.Patch)
		case a.Delete != nil:
			err = w.Delete(*a.Delete)
		case a.Apply != nil:
			err = w.ApplyFromMap(a.Apply)
		case a.Checkpoint != nil:
			cp++
			if !a.Checkpoint.HasExpected() {
				continue
			}
			name := a.Checkpoint.Name
			if name == "" {
				name = fmt.Sprintf("checkpoint %d", cp)
			}
			if dirty {
				states = append(states, caseState{name: "before " + name, objs: w.Objects()})
			}
			w.SetEndpointSlices(expectedSlices(t, c, a.Checkpoint, w.EndpointSlices()))
			states = append(states, caseState{name: name + " expected", objs: w.Objects(), expected: true})
			dirty = false
			continue
		default:
			continue
		}
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		dirty = true
	}
	return states
}

// expectedSlices returns the world's slices outside the checkpoint's scope
// plus its expected slices (named when they have no name).
func expectedSlices(t *testing.T, c *casefile.Case, cp *casefile.Checkpoint, current []*discovery.EndpointSlice) []discovery.EndpointSlice {
	t.Helper()
	var exp []discovery.EndpointSlice
	if cp.File != "" {
		var err error
		if exp, err = casefile.ReadSlices(filepath.Join(c.Dir, cp.File)); err != nil {
			t.Fatal(err)
		}
	}
	if cp.Slices != nil {
		exp = append(exp, *cp.Slices...)
	}
	exp = casefile.Filter(exp, cp.Services, cp.ManagedBy)
	inScope := map[string]bool{}
	for _, s := range casefile.Filter(derefSlices(current), cp.Services, cp.ManagedBy) {
		inScope[s.Namespace+"/"+s.Name] = true
	}
	var out []discovery.EndpointSlice
	for _, s := range current {
		if !inScope[s.Namespace+"/"+s.Name] {
			out = append(out, *s)
		}
	}
	for i := range exp {
		s := exp[i].DeepCopy()
		if s.Name == "" {
			s.Name = fmt.Sprintf("%s-expected-%d", s.Labels[discovery.LabelServiceName], i)
		}
		out = append(out, *s)
	}
	return out
}

func derefSlices(ss []*discovery.EndpointSlice) []discovery.EndpointSlice {
	out := make([]discovery.EndpointSlice, len(ss))
	for i, s := range ss {
		out[i] = *s
	}
	return out
}

// caseFindings are the findings each state of each case must produce, as
// "severity rule Kind namespace/name". A state that is not listed must
// produce none. Inputs that are "before the controller ran" without stale,
// foreign, duplicate or malformed slices are clean: missing slices are not
// findings. Expected states must have no errors; the warnings listed for
// them are deliberate (see the comments).
var caseFindings = map[string]map[string][]string{
	"01-mirror-cleanup-when-selector-added": {
		// The input (selectorless Service, mirrored slice matching its
		// Endpoints) is correct. Once the selector is added, the mirrored
		// slice is stale until the mirroring controller deletes it.
		"before step 3": {"error mirror-for-selector-service EndpointSlice ns-a/svc-a-expected-0"},
	},
	"09-dual-stack-address-types": {
		// pod-a4 got its IPv6 address after step 1: until the controller
		// runs, the IPv6 slices of svc-ds and svc-v6 lack it.
		"before step 3": {
			"error endpoint-missing Service ns-a/svc-ds",
			"error endpoint-missing Service ns-a/svc-v6",
		},
	},
	// 02 (ExternalName), 03 (terminal pods), 04 (terminating conditions),
	// 07 (sidecar ports), 08 (named ports), 09 (dual stack), 13, 15, 16
	// (mirroring), 19 (secondary network) and 20 (hostname): the inputs
	// hold no slice, only the objects the controllers start from, so they
	// are clean. Their fault classes have unit tests of their own
	// (TestRules: externalname-service-slice, endpoint-pod-terminal,
	// endpoint-conditions, port-mismatch, address-family-not-served,
	// mirror-*, api-limits, endpoint-address-not-pod-ip,
	// endpoint-hostname).
	"11-foreign-and-tampered-slices": {
		"input": {
			// pod-a1 is Ready but marked not ready/serving by hand.
			"error endpoint-conditions EndpointSlice ns-a/svc-a-tampered",
			// 10.0.0.99 was added by hand, without a Pod.
			"error endpoint-pod-missing EndpointSlice ns-a/svc-a-tampered",
			// The hand-made slice: a second manager for svc-a (it needs
			// no owner).
			"warning multiple-managers Service ns-a/svc-a",
		},
		// Checkpoint A keeps the foreign slice untouched, as it must: the
		// state is legal (no error) but svc-a still has a hand-made slice
		// next to the controller's.
		"A expected": {
			"warning multiple-managers Service ns-a/svc-a",
		},
		// Relabelled to the default controller's name, the former custom
		// slice claims the controller but has no owner and a Pod-less
		// endpoint.
		"before B": {
			"error owner-missing EndpointSlice ns-a/svc-a-custom",
			"error endpoint-pod-missing EndpointSlice ns-a/svc-a-custom",
		},
	},
	"17-mirror-eligibility": {
		// svc-none never exists: its mirrored slice is an orphan.
		"input": {"error orphan-slice EndpointSlice ns-a/svc-none-m1"},
		// Optional reverse step: skip-mirror is set again on Endpoints
		// svc-skip, so its mirrored slice must go.
		"before reverse": {"error mirror-ineligible EndpointSlice ns-a/svc-skip-expected-1"},
	},
	"18-endpoint-controller-name-label": {
		// Both built-in slices are stale once the label is on the Service.
		"input": {
			"error delegated-builtin-slice EndpointSlice ns-a/svc-a-default",
			"error delegated-builtin-slice EndpointSlice ns-a/svc-c-m1",
			// The stale default slice (pod-a1's podIP) and the custom
			// one (its secondary address 10.0.1.11) share svc-a's name:
			// kube-proxy and CoreDNS merge them.
			"warning merged-networks Service ns-a/svc-a",
			// svc-b, unlabelled, selects the ready pod-a1 and has no
			// slice yet: the default controller has not run.
			"warning slices-missing Service ns-a/svc-b",
		},
		// Optional follow-up: the label is removed from svc-a, so the
		// default controller's slice joins the custom controller's
		// svc-a-custom, which nobody removes (KEP-4770 E10): legal, but
		// two managers.
		"follow-up expected": {
			"warning multiple-managers Service ns-a/svc-a",
			"warning merged-networks Service ns-a/svc-a",
		},
	},
	"29-target-port-rollout": {
		// pod-a3 started after step 1: until the controller runs, it is
		// missing from the slices.
		"before step 3": {"error endpoint-missing Service ns-a/svc-a"},
		// pod-a1 and pod-a2 were deleted and pod-a4 started after step 3:
		// until the controller runs, the 8083 slice still lists the deleted
		// Pods (stale endpoints, traffic to gone backends) and pod-a4 is
		// missing. The state is the transient one the case is about, not a
		// correct one.
		"before step 5": {
			"error endpoint-pod-missing EndpointSlice ns-a/svc-a-expected-0",
			"error endpoint-pod-missing EndpointSlice ns-a/svc-a-expected-0",
			"error endpoint-missing Service ns-a/svc-a",
		},
	},
	// 30 (an address listed ready and not ready, one IP behind two
	// targets): every state is clean, with KCM's endpoint identity and
	// mirroring rules (TestOracleFaultsOnRenderedCases checks faulty variants).
	"33-selector-removed-slices-cleaned": {
		// The selector is gone but the default controller's slice still
		// lists pod-a1: the leftover of kubernetes#118376.
		"before step 3": {"error default-for-selectorless-service EndpointSlice ns-a/svc-a-expected-0"},
	},
	"34-selector-removed-endpoints-not-mirrored": {
		// svc-a's Endpoints is the Endpoints controller's leftover. Not
		// mirrored, it is a warning (nothing publishes it as a slice); the
		// expected state keeps it, because the case runs the mirroring
		// controller alone (slicekit's Endpoints controller or
		// selectorless-cleanup would delete it).
		"input":                 {"warning endpoints-selector-leftover Endpoints ns-a/svc-a"},
		"checkpoint 1 expected": {"warning endpoints-selector-leftover Endpoints ns-a/svc-a"},
	},
	"31-secondary-network-dual-stack": {
		// svc-a is dual-stack and its secondary-network endpoints name
		// their (dual-stack) Pods: Istio would replace the addresses
		// with the primary podIPs (consumer rule, a deliberate warning:
		// the targetRefs follow the built-in controller's contract).
		"checkpoint 1 expected": {
			"warning pod-targetref-secondary-network EndpointSlice ns-a/svc-a-expected-0",
			"warning pod-targetref-secondary-network EndpointSlice ns-a/svc-a-expected-1",
		},
	},
	"25-traffic-distribution-prefer-close": {
		// pod-a4's Node has no zone: KCM gives its endpoint no hint, so
		// kube-proxy ignores the hints of the two others (a true
		// warning on KCM's own output).
		"step 1 expected": {"warning partial-hints Service ns-a/svc-a"},
		// spec.trafficDistribution was removed: until the controller runs,
		// the two ready endpoints keep their zone hints, which kube-proxy
		// still honours (the fault the case is about).
		"before step 3": {
			"error endpoint-hints EndpointSlice ns-a/svc-a-expected-0",
			"error endpoint-hints EndpointSlice ns-a/svc-a-expected-0",
			"warning partial-hints Service ns-a/svc-a",
		},
	},
	"28-app-protocol": {
		// The Service port's appProtocol changed: until the controller
		// runs, the slice port carries the old one.
		"before step 4": {"error port-mismatch EndpointSlice ns-a/svc-a-expected-0"},
	},
	// The Endpoints object was recreated: the mirrored slice still names
	// the old uid as its owner until the mirroring controller runs.
	"37-mirror-endpoints-recreated-new-uid": {
		"input": {
			"error owner-stale-uid EndpointSlice ns-a/svc-a-m1",
		},
	},
	// Before step 3 the Pods started and only the placeholders exist
	// (endpoints missing, empty slices stale); before step 7 svc-b gained a
	// label its placeholder lacks.
	"38-placeholder-slice-per-family": {
		"before step 3": {
			"error endpoint-missing Service ns-a/svc-a",
			"error endpoint-missing Service ns-a/svc-a",
			"error endpoint-missing Service ns-a/svc-b",
			"warning empty-slice-stale EndpointSlice ns-a/svc-a-expected-0",
			"warning empty-slice-stale EndpointSlice ns-a/svc-a-expected-1",
			"warning empty-slice-stale EndpointSlice ns-a/svc-b-expected-2",
		},
		"before step 7": {
			"warning labels-drift EndpointSlice ns-a/svc-b-expected-2",
		},
	},
	// Before step 3 pod-c4 is gone but still listed; before step 5 a new
	// Pod is not listed yet.
	"39-topology-auto-overload-threshold": {
		"before step 3": {
			"error endpoint-pod-missing EndpointSlice ns-a/svc-a-expected-0",
			"error endpoint-pod-missing EndpointSlice ns-a/svc-b-expected-1",
			"error endpoint-pod-missing EndpointSlice ns-a/svc-c-expected-2",
		},
		"before step 5": {
			"error endpoint-missing Service ns-a/svc-a",
			"error endpoint-missing Service ns-a/svc-b",
			"error endpoint-missing Service ns-a/svc-c",
			"error endpoint-missing Service ns-a/svc-c",
		},
	},
	// The Pod's IP changed (step 2) and the Pod was recreated on another
	// Node (step 4): until the controller runs, the endpoint has the old IP,
	// Node and zone.
	"41-pod-ip-changed-or-recreated": {
		"before step 3": {
			"error endpoint-address-not-pod-ip EndpointSlice ns-a/svc-a-expected-0",
			"error endpoint-address-not-pod-ip EndpointSlice ns-a/svc-b-expected-1",
			"error endpoint-missing Service ns-a/svc-a",
			"error endpoint-missing Service ns-a/svc-b",
		},
		"before step 5": {
			"error endpoint-address-not-pod-ip EndpointSlice ns-a/svc-a-expected-0",
			"error endpoint-address-not-pod-ip EndpointSlice ns-a/svc-b-expected-1",
			"error endpoint-missing Service ns-a/svc-a",
			"error endpoint-missing Service ns-a/svc-b",
			"error endpoint-nodename EndpointSlice ns-a/svc-a-expected-0",
			"error endpoint-nodename EndpointSlice ns-a/svc-b-expected-1",
			"warning endpoint-zone EndpointSlice ns-a/svc-a-expected-0",
			"warning endpoint-zone EndpointSlice ns-a/svc-b-expected-1",
		},
	},
	// The driver wrote networkData for net-a3 (step 2) and changed
	// net-a1's address (step 4): until the dra-network controller runs, the
	// endpoint is missing or has the old address (checked with the
	// controller's own source, pkg/controllers/dranetwork).
	"45-dra-network-data": {
		"before step 3": {
			"error endpoint-missing Service ns-a/svc-a",
		},
		"before step 5": {
			"error endpoint-address-not-pod-ip Service ns-a/svc-a",
			"error endpoint-missing Service ns-a/svc-a",
		},
	},
	"21-service-labels-copied": {
		// svc-a-abc12 has team=red and old=leftover and lacks
		// app.kubernetes.io/name.
		"input": {"warning labels-drift EndpointSlice ns-a/svc-a-abc12"},
	},
}

// TestCases checks every state of every case in testdata/cases: the faulty
// states are flagged with the right findings and the expected states have
// no errors.
func TestCases(t *testing.T) {
	dir := casefile.MustCasesDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			c, err := casefile.Load(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			want := caseFindings[name]
			states := caseStates(t, c)
			stateNames := map[string]bool{}
			sawExpected := false
			for _, st := range states {
				stateNames[st.name] = true
				sawExpected = sawExpected || st.expected
				t.Run(st.name, func(t *testing.T) {
					_, ctx := ktesting.NewTestContext(t)
					rep := Check(ctx, NewInventory(st.objs), builtinConfig(Config{}))
					got := []string{}
					for _, f := range rep.Findings {
						got = append(got, fmt.Sprintf("%s %s %s", f.Severity, f.Rule, f.Object))
					}
					w := append([]string{}, want[st.name]...)
					slices.Sort(w)
					slices.Sort(got)
					if w == nil {
						w = []string{}
					}
					if d := cmp.Diff(w, got); d != "" {
						t.Errorf("findings (-want +got):\n%s\nall findings:\n%s", d, findingLines(rep))
					}
					if st.expected && rep.Errors() > 0 {
						t.Errorf("the expected state has %d error(s)", rep.Errors())
					}
				})
			}
			if !sawExpected {
				t.Errorf("no expected state was built for %s", name)
			}
			for st := range want {
				if !stateNames[st] {
					t.Errorf("caseFindings names state %q, which %s does not have (states: %v)", st, name, stateNames)
				}
			}
		})
	}
	for name := range caseFindings {
		if !seen[name] {
			t.Errorf("caseFindings names case %q, which is not in %s", name, dir)
		}
	}
}

func findingLines(r *Report) string {
	s := ""
	for _, f := range r.Findings {
		s += "  " + f.String() + "\n"
	}
	return s
}
