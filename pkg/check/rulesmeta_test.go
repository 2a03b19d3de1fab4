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

// Tests of the rule list, the skipped rules, custom controller names and Config.

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestRulesAreDocumented checks that every rule used in a test is in
// Rules() and that Rules() has no duplicate.
func TestRulesAreDocumented(t *testing.T) {
	seen := map[RuleID]bool{}
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || r.Source == "" {
			t.Errorf("rule %s lacks a summary or source", r.ID)
		}
		switch r.Severity {
		case "error", "warning", "error|warning":
		default:
			t.Errorf("rule %s: severity %q", r.ID, r.Severity)
		}
	}
	if len(seen) != 47 {
		t.Errorf("Rules() has %d rules, want 47 (update this test with the package doc)", len(seen))
	}
}

func TestSkippedRules(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	tests := []struct {
		name string
		objs []runtime.Object
		want []string
	}{
		{"slices only", []runtime.Object{newSlice("a", "web", wellknown.EndpointSliceControllerName)}, []string{"no Services in the input"}},
		{"no pods", []runtime.Object{newFixture().web, newSlice("a", "web", wellknown.EndpointSliceControllerName)},
			[]string{"no Pods in the input (per-Pod port checks skipped too)", "no Endpoints in the input"}},
		{"no nodes", []runtime.Object{newFixture().web, newFixture().pod, newSlice("a", "web", wellknown.EndpointSliceControllerName)},
			[]string{"no Nodes in the input", "no Endpoints in the input"}},
		{"no slices", []runtime.Object{newFixture().web}, nil},
		{"Pods without status", func() []runtime.Object {
			f := newFixture()
			f.pod.Status = corev1.PodStatus{}
			return f.objects()
		}(), []string{"for 1 Pod(s) without status in the input (no status.phase, which the API server always sets: the dump left status out)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := Check(ctx, NewInventory(tc.objs), builtinConfig(Config{}))
			var got []string
			for _, s := range rep.Skipped {
				got = append(got, s.Reason)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("skipped (-want +got):\n%s", d)
			}
		})
	}
}

func TestCustomControllerNames(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	f := newFixture()
	// With other built-in names, web-abc and ext-m are third-party slices:
	// their owners and labels are not held to the built-in rules.
	f.slice.OwnerReferences = nil
	rep := Check(ctx, NewInventory(f.objects()), builtinConfig(Config{DefaultControllerName: "kcm.example.com", MirroringControllerName: "mirror.example.com"}))
	if got := findingKeys(rep); len(got) > 0 {
		t.Errorf("findings %v, want none", got)
	}
	if d := ""; d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		cfg     Config
		wantErr bool
	}{
		{Config{}, false},
		{Config{DefaultControllerName: "a.example.com", MirroringControllerName: "b.example.com"}, false},
		{Config{DefaultControllerName: "not a label value"}, true},
		{Config{DefaultControllerName: "x", MirroringControllerName: "x"}, true},
	}
	for _, tc := range tests {
		if err := tc.cfg.Validate(); (err != nil) != tc.wantErr {
			t.Errorf("Validate(%+v) = %v, want error %t", tc.cfg, err, tc.wantErr)
		}
	}
}
