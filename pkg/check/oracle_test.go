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
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/render"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/casefile"
)

// renderedCase renders case id's input (default controllers plus the
// secondary-network controller named caseSecondaryName) and returns the
// objects other than slices and the rendered slices.
func renderedCase(t *testing.T, id string) ([]runtime.Object, []*discovery.EndpointSlice) {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	c := casefile.MustLoad(t, id)
	var objs []runtime.Object
	for _, o := range c.Input {
		switch o.(type) {
		case *unstructured.Unstructured, *discovery.EndpointSlice:
		default:
			objs = append(objs, o)
		}
	}
	copts := builtin.NewControllerOptions()
	copts.Controllers = []string{"*", secondarynetwork.RegistrationName}
	copts.For(secondarynetwork.RegistrationName).(*secondarynetwork.Options).ControllerName = caseSecondaryName
	res, err := render.Render(ctx, objs, render.Options{Controllers: copts})
	if err != nil {
		t.Fatal(err)
	}
	return objs, res.EndpointSlices
}

// TestOracleFaultsOnRenderedCases injects single faults into rendered
// states of the mirroring and secondary-network cases (the differential
// oracle test covers the default controller): each must be flagged by the
// rule that names it, and the unmodified state must be clean.
func TestOracleFaultsOnRenderedCases(t *testing.T) {
	find := func(ss []*discovery.EndpointSlice, managedBy, addr string) (*discovery.EndpointSlice, int) {
		for _, s := range ss {
			if s.Labels[discovery.LabelManagedBy] != managedBy {
				continue
			}
			for i, e := range s.Endpoints {
				if slices.Contains(e.Addresses, addr) {
					return s, i
				}
			}
		}
		t.Fatalf("no endpoint %s managed by %s", addr, managedBy)
		return nil, 0
	}
	type fault struct {
		name      string
		managedBy string
		addr      string
		mutate    func(s *discovery.EndpointSlice, i int)
		want      RuleID
	}
	mirror := wellknown.MirroringControllerName
	tests := []struct {
		id     string
		faults []fault
	}{
		{"30", []fault{
			// 10.0.0.11 is listed ready and not ready: not-ready wins.
			{"ready where not-ready wins", mirror, "10.0.0.11", func(s *discovery.EndpointSlice, i int) { s.Endpoints[i].Conditions.Ready = ptr.To(true) }, RuleMirrorDrift},
			{"dropped mirrored endpoint", mirror, "10.0.0.12", func(s *discovery.EndpointSlice, i int) { s.Endpoints = slices.Delete(s.Endpoints, i, i+1) }, RuleMirrorDrift},
			{"re-addressed mirrored endpoint", mirror, "10.0.0.13", func(s *discovery.EndpointSlice, i int) { s.Endpoints[i].Addresses = []string{"10.0.0.99"} }, RuleMirrorDrift},
			{"duplicated mirrored endpoint", mirror, "10.0.0.14", func(s *discovery.EndpointSlice, i int) {
				s.Endpoints = append(s.Endpoints, *s.Endpoints[i].DeepCopy())
			}, RuleDuplicateEndpoint},
			{"wrong nodeName", mirror, "10.0.0.12", func(s *discovery.EndpointSlice, i int) { s.Endpoints[i].NodeName = ptr.To("node-z") }, RuleMirrorDrift},
		}},
		{"15", []fault{
			// Only the first 1000 addresses of a subset are mirrored, ready
			// ones first: not-ready 10.0.4.1 is beyond the limit.
			{"not-ready address beyond the per-subset limit", mirror, "10.0.3.232", func(s *discovery.EndpointSlice, i int) {
				s.Endpoints[i].Addresses = []string{"10.0.4.1"}
				s.Endpoints[i].Conditions.Ready = ptr.To(false)
			}, RuleMirrorDrift},
		}},
		{"19", []fault{
			{"dropped secondary endpoint", caseSecondaryName, "10.0.1.11", func(s *discovery.EndpointSlice, i int) { s.Endpoints = slices.Delete(s.Endpoints, i, i+1) }, RuleEndpointMissing},
			{"primary address instead of the attachment's", caseSecondaryName, "10.0.1.11", func(s *discovery.EndpointSlice, i int) { s.Endpoints[i].Addresses = []string{"10.0.0.11"} }, RuleEndpointAddress},
			{"flipped readiness", caseSecondaryName, "10.0.1.13", func(s *discovery.EndpointSlice, i int) { s.Endpoints[i].Conditions.Ready = ptr.To(true) }, RuleEndpointConditions},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			objs, rendered := renderedCase(t, tc.id)
			inv := func(ss []*discovery.EndpointSlice) *Inventory {
				all := slices.Clone(objs)
				for _, s := range ss {
					all = append(all, s)
				}
				return NewInventory(all)
			}
			cfg := secondaryConfig(caseSecondaryName)
			if rep := Check(ctx, inv(rendered), cfg); rep.Errors() > 0 {
				t.Fatalf("the rendered state has errors:\n%s", findingLines(rep))
			}
			for _, f := range tc.faults {
				t.Run(f.name, func(t *testing.T) {
					ss := make([]*discovery.EndpointSlice, len(rendered))
					for i, s := range rendered {
						ss[i] = s.DeepCopy()
					}
					s, i := find(ss, f.managedBy, f.addr)
					f.mutate(s, i)
					rep := Check(ctx, inv(ss), cfg)
					if !slices.ContainsFunc(rep.Findings, func(x Finding) bool { return x.Rule == f.want && x.Severity == SeverityError }) {
						t.Errorf("no %s error:\n%s", f.want, findingLines(rep))
					}
				})
			}
		})
	}
}

// TestPodOnMissingNodeOnRenderedCase: in rendered case 19 (a Service
// delegated to the secondary-network controller), the Pod behind 10.0.1.11
// is moved to a Node that is not in the input, its endpoint following it:
// the controller skips such a Pod (as KCM does), so its slice is flagged
// with endpoint-nodename; with publishNotReadyAddresses it is not.
func TestPodOnMissingNodeOnRenderedCase(t *testing.T) {
	for _, tc := range []struct {
		name            string
		publishNotReady bool
		want            []string // managed-by values of the flagged slices
	}{
		{name: "skipped by the secondary-network controller", want: []string{caseSecondaryName}},
		{name: "publishNotReadyAddresses keeps it", publishNotReady: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			objs, rendered := renderedCase(t, "19")
			var pod string
			for _, s := range rendered {
				for _, e := range s.Endpoints {
					if slices.Contains(e.Addresses, "10.0.1.11") {
						pod = e.TargetRef.Name
					}
				}
			}
			all := []runtime.Object{}
			for _, o := range objs {
				switch v := o.(type) {
				case *corev1.Pod:
					if v.Name == pod {
						v = v.DeepCopy()
						v.Spec.NodeName = "node-gone"
						o = v
					}
				case *corev1.Service:
					v = v.DeepCopy()
					v.Spec.PublishNotReadyAddresses = tc.publishNotReady
					o = v
				}
				all = append(all, o)
			}
			managers := map[string]string{}
			for _, s := range rendered {
				s = s.DeepCopy()
				managers[s.Name] = s.Labels[discovery.LabelManagedBy]
				for i := range s.Endpoints {
					if e := &s.Endpoints[i]; e.TargetRef != nil && e.TargetRef.Name == pod {
						e.NodeName, e.Zone = ptr.To("node-gone"), nil
						if tc.publishNotReady {
							e.Conditions.Ready = ptr.To(true) // publishNotReadyAddresses makes every endpoint ready
						}
					}
				}
				all = append(all, s)
			}
			rep := Check(ctx, NewInventory(all), secondaryConfig(caseSecondaryName))
			got := []string{}
			for _, f := range rep.Findings {
				if f.Rule == RuleEndpointNodeName && f.Severity == SeverityError {
					got = append(got, managers[f.Object.Name])
				}
			}
			slices.Sort(got)
			want := append([]string{}, tc.want...)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("endpoint-nodename errors on slices of %v, want %v:\n%s", got, want, findingLines(rep))
			}
		})
	}
}

func TestConfigLimits(t *testing.T) {
	for _, tc := range []struct {
		cfg Config
		ok  bool
	}{
		{Config{}, true},
		{Config{MaxEndpointsPerSlice: 1000, MirroringMaxEndpointsPerSubset: 1}, true},
		{Config{MaxEndpointsPerSlice: 1001}, false},
		{Config{MaxEndpointsPerSlice: -1}, false},
		{Config{MirroringMaxEndpointsPerSubset: 1001}, false},
		{Config{Oracles: []registry.Oracle{{ControllerName: "a.example.com", Source: func(registry.OracleInput) source.Source { return nil }}}}, true},
		{Config{Oracles: []registry.Oracle{{ControllerName: "not a label value!", Source: func(registry.OracleInput) source.Source { return nil }}}}, false},
		{Config{Oracles: []registry.Oracle{{ControllerName: "a.example.com"}}}, false},
		{Config{Oracles: []registry.Oracle{{ControllerName: wellknown.EndpointSliceControllerName, Source: func(registry.OracleInput) source.Source { return nil }}}}, false},
	} {
		if err := tc.cfg.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: Validate() = %v, want ok=%t", tc.cfg, err, tc.ok)
		}
	}
}
