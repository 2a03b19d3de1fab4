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

package deploytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	"sigs.k8s.io/yaml"
)

// componentPolicies decodes config/components/admission-policies, by
// "Kind name".
func componentPolicies(t *testing.T) map[string]any {
	t.Helper()
	dir := filepath.Join("..", "..", "config", "components", "admission-policies")
	out := map[string]any{}
	for _, f := range []string{"pod_address_inputs.yaml", "endpointslice_writers.yaml"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range strings.Split(string(data), "\n---\n") {
			if strings.Contains(doc, "kind: ValidatingAdmissionPolicyBinding") {
				b := &admissionv1.ValidatingAdmissionPolicyBinding{}
				if err := yaml.UnmarshalStrict([]byte(doc), b); err != nil {
					t.Fatal(err)
				}
				out["ValidatingAdmissionPolicyBinding "+b.Name] = b.Spec
				continue
			}
			p := &admissionv1.ValidatingAdmissionPolicy{}
			if err := yaml.UnmarshalStrict([]byte(doc), p); err != nil {
				t.Fatal(err)
			}
			out["ValidatingAdmissionPolicy "+p.Name] = p.Spec
		}
	}
	return out
}

// chartPolicies returns the admission policies and bindings of r, by
// "Kind name" (specs only: the chart adds its labels).
func chartPolicies(t *testing.T, r rendered) map[string]any {
	t.Helper()
	out := map[string]any{}
	for key, u := range r {
		switch u.GetKind() {
		case "ValidatingAdmissionPolicy":
			out["ValidatingAdmissionPolicy "+u.GetName()] = decode[admissionv1.ValidatingAdmissionPolicy](t, r, key).Spec
		case "ValidatingAdmissionPolicyBinding":
			out["ValidatingAdmissionPolicyBinding "+u.GetName()] = decode[admissionv1.ValidatingAdmissionPolicyBinding](t, r, key).Spec
		}
	}
	return out
}

// TestAdmissionPoliciesMatchConfig: with the secondary-network controller
// (its default name), the chart renders exactly the policies of
// config/components/admission-policies, which test/admission checks live.
func TestAdmissionPoliciesMatchConfig(t *testing.T) {
	r := render(t, map[string]any{"controllers": map[string]any{"secondaryNetwork": map[string]any{"enabled": true}}})
	if d := cmp.Diff(componentPolicies(t), chartPolicies(t, r)); d != "" {
		t.Errorf("admission policies (-config +chart):\n%s", d)
	}
	for key, u := range r {
		if strings.HasPrefix(key, "ValidatingAdmissionPolicy") && u.GetLabels()["slicekit.dev/admission-policy"] == "" {
			t.Errorf("%s lacks the label slicekit.dev/admission-policy (the start-up check finds policies by it)", key)
		}
	}
}

// TestAdmissionPoliciesFollowControllers: installed by default exactly when
// an annotation-fed controller is enabled; the CEL profiles' declared keys
// and names are guarded; admissionPolicies.enabled overrides.
func TestAdmissionPoliciesFollowControllers(t *testing.T) {
	cel := controllerValues(true, true, false, false, true)
	cel["controllers"].(map[string]any)["cel"].(map[string]any)["profiles"] = []any{
		map[string]any{"name": "a.example.com", "addresses": "[pod.metadata.annotations['a.example.com/ip']]", "podAnnotations": []any{"a.example.com/ip"}, "podLabels": []any{"tier"}},
		map[string]any{"name": "b.example.com", "addresses": "pod.status.podIPs.map(p, p.ip)"},
	}
	off := controllerValues(false, false, false, true, false)
	off["admissionPolicies"] = map[string]any{"enabled": false}
	for _, tc := range []struct {
		name string
		vals map[string]any
		want []string // substrings of the policies' variables, "" for none rendered
	}{
		{"defaults", nil, nil},
		{"secondary-network", controllerValues(false, false, false, true, false),
			[]string{"'k8s.v1.cni.cncf.io/network-status'", "'secondary.example.com'", "'system:serviceaccount:slicekit-system:slicekit'"}},
		{"cel", cel, []string{"'a.example.com/ip'", "'tier'", "'a.example.com'", "'b.example.com'"}},
		{"disabled", off, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := chartPolicies(t, render(t, tc.vals))
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Errorf("policies rendered: %v", got)
				}
				return
			}
			if len(got) != 4 {
				t.Fatalf("%d policies and bindings rendered, want 4", len(got))
			}
			var exprs []string
			for _, v := range got {
				if s, ok := v.(admissionv1.ValidatingAdmissionPolicySpec); ok {
					for _, x := range s.Variables {
						exprs = append(exprs, x.Expression)
					}
				}
			}
			all := strings.Join(exprs, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("policies lack %s:\n%s", w, all)
				}
			}
			if tc.name == "cel" && strings.Contains(all, "network-status") {
				t.Error("cel alone guards network-status")
			}
		})
	}
}
