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

package admissionpolicy

import (
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2/ktesting"
)

func policy(name, role string, vars ...string) *admissionv1.ValidatingAdmissionPolicy {
	p := &admissionv1.ValidatingAdmissionPolicy{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{LabelPolicy: role}}}
	for i, v := range vars {
		p.Spec.Variables = append(p.Spec.Variables, admissionv1.Variable{Name: string(rune('a' + i)), Expression: v})
	}
	return p
}

func binding(name, policy string, actions ...admissionv1.ValidationAction) *admissionv1.ValidatingAdmissionPolicyBinding {
	return &admissionv1.ValidatingAdmissionPolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: policy, ValidationActions: actions}}
}

func TestCheck(t *testing.T) {
	inputs := Need{Controller: "secondary-network.slicekit.dev", Policy: PolicyInputs, Keys: []string{"k8s.v1.cni.cncf.io/network-status"}}
	outputs := Need{Controller: "secondary-network.slicekit.dev", Policy: PolicyOutputs, Keys: []string{"secondary-network.slicekit.dev"}}
	inPolicy := policy("in", PolicyInputs, "['k8s.v1.cni.cncf.io/network-status', 'k8s.v1.cni.cncf.io/networks-status']")
	outPolicy := policy("out", PolicyOutputs, "['other.example.com']")
	for _, tc := range []struct {
		name      string
		objs      []runtime.Object
		forbidden bool
		want      []State
	}{
		{"nothing installed", nil, false, []State{Missing, Missing}},
		{"policies without bindings", []runtime.Object{inPolicy, outPolicy}, false, []State{Missing, Missing}},
		{"a warn-only binding does not count", []runtime.Object{inPolicy, binding("b", "in", admissionv1.Warn)}, false, []State{Missing, Missing}},
		{"bound; the output policy lacks the name", []runtime.Object{inPolicy, outPolicy, binding("b1", "in", admissionv1.Deny), binding("b2", "out", admissionv1.Deny, admissionv1.Audit)}, false, []State{Installed, Incomplete}},
		{"an unlabelled policy does not count", []runtime.Object{policy("x", "", "['k8s.v1.cni.cncf.io/network-status']"), binding("b", "x", admissionv1.Deny)}, false, []State{Missing, Missing}},
		{"forbidden", nil, true, []State{Unknown, Unknown}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			client := fake.NewClientset(tc.objs...)
			if tc.forbidden {
				client.PrependReactor("list", "validatingadmissionpolicies", func(k8stesting.Action) (bool, runtime.Object, error) {
					return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicies"}, "", nil)
				})
			}
			got := Check(ctx, client, []Need{inputs, outputs})
			if len(got) != 2 {
				t.Fatalf("%d results", len(got))
			}
			for i, r := range got {
				if r.State != tc.want[i] {
					t.Errorf("need %d: %s (%s), want %s", i, r.State, r.Message, tc.want[i])
				}
				if r.Message == "" || !strings.Contains(r.Message, r.Controller) {
					t.Errorf("need %d: message %q does not name the controller", i, r.Message)
				}
				if tc.forbidden && !strings.Contains(r.Message, "may not list") {
					t.Errorf("forbidden: message %q does not say so", r.Message)
				}
			}
		})
	}
	if got := Check(t.Context(), fake.NewClientset(), nil); len(got) != 0 {
		t.Errorf("no needs: %v", got)
	}
}
