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
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/test/harness/testenv"
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

// The API the admission policies need, as Helm's capabilities name it: a
// live cluster's discovery lists "group/version/Kind" besides the group
// versions (helm.sh/helm/v3/pkg/action.GetVersionSet).
const (
	policyAPI        = "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy"
	policyBindingAPI = "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding"
)

// discoveryCaps returns the capabilities a live install gets from a cluster
// of Kubernetes version kv: Helm's group versions and the kinds a real
// server lists for them (those slicekit and the policies touch), minus the
// entries in without.
func discoveryCaps(t *testing.T, kv string, without ...string) *chartutil.Capabilities {
	t.Helper()
	caps := capsOf(t, kv, without...)
	for _, k := range []string{
		"v1/Service", "v1/Pod", "v1/Node", "v1/Endpoints", "v1/Namespace", "v1/ServiceAccount", "v1/ConfigMap", "v1/Event",
		"apps/v1/Deployment", "discovery.k8s.io/v1/EndpointSlice", "coordination.k8s.io/v1/Lease",
		"rbac.authorization.k8s.io/v1/ClusterRole", "rbac.authorization.k8s.io/v1/ClusterRoleBinding",
		"rbac.authorization.k8s.io/v1/Role", "rbac.authorization.k8s.io/v1/RoleBinding",
		"admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration",
		"admissionregistration.k8s.io/v1/MutatingWebhookConfiguration",
		policyAPI, policyBindingAPI,
	} {
		if !slices.Contains(without, k) {
			caps.APIVersions = append(caps.APIVersions, k)
		}
	}
	return caps
}

// helmTemplateNotes is helmTemplate's manifest and NOTES, as renderCaps
// returns them.
func helmTemplateNotes(vals map[string]any, kubeVersion string, apiVersions ...string) (string, error) {
	rel, err := helmTemplate(vals, kubeVersion, apiVersions...)
	if err != nil {
		return "", err
	}
	return rel.Manifest + "\n---NOTES---\n" + rel.Info.Notes, nil
}

// TestAdmissionPoliciesNeedTheAPI: the chart installs the admission
// policies only where the cluster serves ValidatingAdmissionPolicy (a live
// install's discovery), renders them offline (helm template, whose API list
// names no kinds) for Kubernetes 1.30 and later, says in NOTES whether they
// were installed and, when not, why and what they need, and refuses an
// explicit admissionPolicies.enabled=true it cannot honour.
func TestAdmissionPoliciesNeedTheAPI(t *testing.T) {
	secondary := controllerValues(true, true, false, true, false)
	withPolicies := func(enabled any) map[string]any {
		v := controllerValues(true, true, false, true, false)
		v["admissionPolicies"] = map[string]any{"enabled": enabled}
		return v
	}
	withoutAPI := []string{policyAPI, policyBindingAPI}
	const (
		installedNote = "Admission policies installed"
		missingNote   = "WARNING: the admission policies were NOT installed"
	)
	for _, tc := range []struct {
		name   string
		render func(t *testing.T) (string, error)
		// policies is how many policies and bindings are rendered.
		policies int
		// notes must all be in NOTES (or, with failure, in the error);
		// absent must not be.
		notes, absent []string
		failure       bool
	}{
		{
			name:     "offline helm template: rendered",
			render:   func(*testing.T) (string, error) { return helmTemplateNotes(secondary, testedKubeVersion) },
			policies: 4, notes: []string{installedNote, "the secondary-network controller reads"}, absent: []string{missingNote},
		},
		{
			name:     "offline helm template --kube-version v1.32.0: rendered",
			render:   func(*testing.T) (string, error) { return helmTemplateNotes(secondary, "v1.32.0") },
			policies: 4, notes: []string{installedNote},
		},
		{
			name: "offline helm template --api-versions of another kind: rendered",
			render: func(*testing.T) (string, error) {
				return helmTemplateNotes(secondary, testedKubeVersion, "monitoring.coreos.com/v1/ServiceMonitor")
			},
			policies: 4, notes: []string{installedNote},
		},
		{
			name: "helm template --api-versions of a cluster without the API (as Argo CD passes them): skipped",
			render: func(*testing.T) (string, error) {
				return helmTemplateNotes(secondary, testedKubeVersion, "v1/Service", "apps/v1/Deployment")
			},
			notes: []string{missingNote, "does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy"},
		},
		{
			name:     "live, API served: installed",
			render:   func(t *testing.T) (string, error) { return renderCaps(secondary, discoveryCaps(t, "v1.37.2")) },
			policies: 4, notes: []string{installedNote, "kubectl get validatingadmissionpolicies"}, absent: []string{missingNote},
		},
		{
			name: "live 1.32, API served: installed",
			render: func(t *testing.T) (string, error) {
				return renderCaps(secondary, discoveryCaps(t, "v1.32.9-eks-1234567"))
			},
			policies: 4, notes: []string{installedNote},
		},
		{
			name: "live, API switched off, enabled by default: skipped, said in NOTES",
			render: func(t *testing.T) (string, error) {
				return renderCaps(secondary, discoveryCaps(t, "v1.33.5", withoutAPI...))
			},
			notes: []string{missingNote, "the cluster (Kubernetes v1.33.5) does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy",
				"Kubernetes 1.30 or later", "the secondary-network controller reads", "helm upgrade"},
			absent: []string{installedNote},
		},
		{
			name: "live, binding kind missing: skipped",
			render: func(t *testing.T) (string, error) {
				return renderCaps(secondary, discoveryCaps(t, "v1.37.2", policyBindingAPI))
			},
			notes: []string{missingNote},
		},
		{
			name: "live, API switched off, enabled=true: refused",
			render: func(t *testing.T) (string, error) {
				return renderCaps(withPolicies(true), discoveryCaps(t, "v1.37.2", withoutAPI...))
			},
			failure: true,
			notes:   []string{"admissionPolicies.enabled=true, but the cluster (Kubernetes v1.37.2) does not serve", "set admissionPolicies.enabled=false"},
		},
		{
			name: "live, API switched off, enabled=false: nothing to install, said in NOTES",
			render: func(t *testing.T) (string, error) {
				return renderCaps(withPolicies(false), discoveryCaps(t, "v1.37.2", withoutAPI...))
			},
			notes:  []string{"admissionPolicies.enabled=false: no admission policy guards", "the secondary-network controller reads"},
			absent: []string{missingNote, installedNote},
		},
		{
			name:   "live, API switched off, no annotation-fed controller: not wanted, not mentioned",
			render: func(t *testing.T) (string, error) { return renderCaps(nil, discoveryCaps(t, "v1.37.2", withoutAPI...)) },
			absent: []string{"dmission polic"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.render(t)
			if tc.failure {
				if err == nil {
					t.Fatal("rendered; want the chart to refuse")
				}
				for _, w := range tc.notes {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error lacks %q: %v", w, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			manifest, notes, _ := strings.Cut(out, "\n---NOTES---\n")
			if got := strings.Count(manifest, "\nkind: ValidatingAdmissionPolicy"); got != tc.policies {
				t.Errorf("%d policies and bindings rendered, want %d", got, tc.policies)
			}
			for _, w := range tc.notes {
				if !strings.Contains(notes, w) {
					t.Errorf("NOTES lack %q:\n%s", w, notes)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(notes, w) {
					t.Errorf("NOTES have %q:\n%s", w, notes)
				}
			}
		})
	}
}

// TestAdmissionPoliciesLiveDiscovery: Helm's capabilities from a real
// kube-apiserver's discovery (what helm install and upgrade see) name the
// policies' kinds as the chart looks them up, and the chart installs the
// policies there; the same set without those kinds gives the NOTES warning.
func TestAdmissionPoliciesLiveDiscovery(t *testing.T) {
	env := testenv.Shared(t)
	dc, err := discovery.NewDiscoveryClientForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	info, err := dc.ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	vs, err := action.GetVersionSet(dc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := chartutil.ParseKubeVersion(info.GitVersion)
	if err != nil {
		t.Fatal(err)
	}
	served, err := testenv.Serves(env.Config, "admissionregistration.k8s.io/v1", "validatingadmissionpolicies")
	if err != nil {
		t.Fatal(err)
	}
	if served != (vs.Has(policyAPI) && vs.Has(policyBindingAPI)) {
		t.Fatalf("server %s serves validatingadmissionpolicies: %v, but Helm's version set has %s: %v", info.GitVersion, served, policyAPI, vs.Has(policyAPI))
	}
	vals := controllerValues(true, true, false, true, false)
	for _, tc := range []struct {
		name    string
		drop    bool
		install bool
	}{
		{name: "as served", install: served},
		{name: "without the policy kinds", drop: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caps := chartutil.DefaultCapabilities.Copy()
			caps.KubeVersion = *kv
			caps.APIVersions = nil
			for _, v := range vs {
				if !tc.drop || (v != policyAPI && v != policyBindingAPI) {
					caps.APIVersions = append(caps.APIVersions, v)
				}
			}
			out, err := renderCaps(vals, caps)
			if err != nil {
				t.Fatal(err)
			}
			manifest, notes, _ := strings.Cut(out, "\n---NOTES---\n")
			if got := strings.Contains(manifest, "kind: ValidatingAdmissionPolicy"); got != tc.install {
				t.Errorf("policies rendered: %v, want %v (server %s)", got, tc.install, info.GitVersion)
			}
			if want := map[bool]string{true: "Admission policies installed", false: "the admission policies were NOT installed: the cluster (Kubernetes " + info.GitVersion}[tc.install]; !strings.Contains(notes, want) {
				t.Errorf("NOTES lack %q:\n%s", want, notes)
			}
		})
	}
}
