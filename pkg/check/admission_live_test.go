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
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestRunLiveAdmissionPolicies: on a real kube-apiserver, a namespace with
// slices of the secondary-network controller gets two
// admission-policy-missing warnings until both policies are installed and
// bound, then none.
func TestRunLiveAdmissionPolicies(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	client := env.Client
	ns := testenv.Namespace(t, client)
	const name = "sec-check.example.com"

	svc, err := client.CoreV1().Services(ns).Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "svc",
		Labels: map[string]string{wellknown.LabelEndpointControllerName: name}},
		Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: map[string]string{"app": "a"}, Ports: []corev1.ServicePort{{Name: "http", Port: 80}}}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.DiscoveryV1().EndpointSlices(ns).Create(ctx, &discovery.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: "svc-1", Labels: map[string]string{discovery.LabelServiceName: "svc", discovery.LabelManagedBy: name}},
		AddressType: discovery.AddressTypeIPv4,
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](80)}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Cleanups run last in, first out: the policies go before the slice
	// and Service, which the output policy would protect.
	t.Cleanup(func() {
		ctx := context.Background()
		_ = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			return client.DiscoveryV1().EndpointSlices(ns).Delete(ctx, "svc-1", metav1.DeleteOptions{}) == nil, nil
		})
		_ = client.CoreV1().Services(ns).Delete(ctx, svc.Name, metav1.DeleteOptions{})
	})

	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := env.WriteKubeConfig(kubeconfig, "test"); err != nil {
		t.Fatal(err)
	}
	run := func() []string {
		t.Helper()
		o := newBuiltinOptions()
		o.Kubeconfig, o.Namespace, o.Output = kubeconfig, ns, OutputJSON
		o.controllerOptions[secondarynetwork.RegistrationName].(*secondarynetwork.Options).ControllerName = name
		var out bytes.Buffer
		if _, err := Run(ctx, *o, &out); err != nil {
			t.Fatalf("Run: %v\n%s", err, out.String())
		}
		var doc struct{ Findings []Finding }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range doc.Findings {
			if f.Rule == RuleAdmissionPolicy {
				got = append(got, string(f.Severity)+" "+f.Object.Name)
			}
		}
		slices.Sort(got)
		return got
	}
	want := []string{"warning " + admissionpolicy.LabelPolicy + "=" + admissionpolicy.PolicyOutputs, "warning " + admissionpolicy.LabelPolicy + "=" + admissionpolicy.PolicyInputs}
	if d := cmp.Diff(want, run()); d != "" {
		t.Errorf("without policies (-want +got):\n%s", d)
	}

	// Minimal policies with the roles' labels, the keys and a binding;
	// what they enforce is test/admission's subject.
	for role, keys := range map[string]string{
		admissionpolicy.PolicyInputs:  "['" + wellknown.AnnotationNetworkStatus + "', '" + wellknown.AnnotationNetworkStatusLegacy + "']",
		admissionpolicy.PolicyOutputs: "['" + name + "']",
	} {
		pname := "check-test-" + role
		p := &admissionv1.ValidatingAdmissionPolicy{ObjectMeta: metav1.ObjectMeta{Name: pname, Labels: map[string]string{admissionpolicy.LabelPolicy: role}},
			Spec: admissionv1.ValidatingAdmissionPolicySpec{
				MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{RuleWithOperations: admissionv1.RuleWithOperations{
					Operations: []admissionv1.OperationType{admissionv1.Create},
					Rule:       admissionv1.Rule{APIGroups: []string{"example.com"}, APIVersions: []string{"v1"}, Resources: []string{"nothings"}}}}}},
				Variables:   []admissionv1.Variable{{Name: "keys", Expression: keys}},
				Validations: []admissionv1.Validation{{Expression: "true"}},
			}}
		if _, err := client.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = client.AdmissionregistrationV1().ValidatingAdmissionPolicies().Delete(context.Background(), pname, metav1.DeleteOptions{})
		})
		if role == admissionpolicy.PolicyOutputs {
			// Bound only after the first check below: Missing, then Installed.
			continue
		}
		bindPolicy(ctx, t, pname)
	}
	want = []string{"warning " + admissionpolicy.LabelPolicy + "=" + admissionpolicy.PolicyOutputs}
	if d := cmp.Diff(want, run()); d != "" {
		t.Errorf("with the input policy only (-want +got):\n%s", d)
	}
	bindPolicy(ctx, t, "check-test-"+admissionpolicy.PolicyOutputs)
	if d := cmp.Diff([]string(nil), run()); d != "" {
		t.Errorf("with both policies (-want +got):\n%s", d)
	}
}

// bindPolicy binds policy with Deny until the test ends.
func bindPolicy(ctx context.Context, t *testing.T, policy string) {
	t.Helper()
	b := &admissionv1.ValidatingAdmissionPolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: policy},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: policy, ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny}}}
	if _, err := testenv.Shared(t).Client.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, b, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = testenv.Shared(t).Client.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Delete(context.Background(), policy, metav1.DeleteOptions{})
	})
}
