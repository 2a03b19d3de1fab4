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

// Package admissionpolicy checks that slicekit's ValidatingAdmissionPolicies
// (config/components/admission-policies, the chart's admissionPolicies;
// docs/security.md) are installed and bound in a cluster: the input policy
// (who may write the Pod annotations and labels an annotation-fed
// controller reads) and the output policy (only slicekit writes its
// controllers' EndpointSlices). `slicekit run` runs Check at start-up for
// the enabled controllers (a warning and the metric
// slicekit_admission_policy_installed), `slicekit check` for a live
// cluster.
//
// Policies are found by the label slicekit.dev/admission-policy (value
// PolicyInputs or PolicyOutputs), whatever their names; a policy counts as
// installed when a ValidatingAdmissionPolicyBinding with validationActions
// Deny names it, and as covering a key (an annotation key for the inputs,
// a managed-by value for the outputs) when the key appears quoted in its
// variables (the policies list them as CEL string literals).
package admissionpolicy

import (
	"context"
	"fmt"
	"slices"
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// LabelPolicy labels slicekit's policies and bindings with their role.
const LabelPolicy = "slicekit.dev/admission-policy"

// The roles of slicekit's policies (values of LabelPolicy).
const (
	// PolicyInputs guards the Pod annotations and labels that
	// annotation-fed controllers read.
	PolicyInputs = "pod-address-inputs"
	// PolicyOutputs guards the EndpointSlices of slicekit's controllers.
	PolicyOutputs = "endpointslice-writers"
)

// Need is what one controller needs from one policy.
type Need struct {
	// Controller names the controller (its managed-by value).
	Controller string
	// Policy is PolicyInputs or PolicyOutputs.
	Policy string
	// Keys must all be covered: Pod annotation or label keys
	// (PolicyInputs), managed-by values (PolicyOutputs).
	Keys []string
}

// State is the result of checking one Need.
type State string

// States of a Need.
const (
	// Installed: a policy with the role is bound (Deny) and covers every
	// key.
	Installed State = "Installed"
	// Missing: no policy with the role, or none bound with Deny.
	Missing State = "Missing"
	// Incomplete: bound, but some keys are not covered.
	Incomplete State = "Incomplete"
	// Unknown: the policies could not be listed (forbidden, or the API is
	// not served: before Kubernetes 1.30).
	Unknown State = "Unknown"
)

// Result is one checked Need.
type Result struct {
	Need
	// State says whether the need is met.
	State State
	// Policy names the bound policy found ("" when none).
	PolicyName string
	// Message explains the state in one sentence, with what to do.
	Message string
}

// RBACRules returns what Check needs: list ValidatingAdmissionPolicies
// and their bindings. Each call returns a new slice.
func RBACRules() []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{{
		APIGroups: []string{"admissionregistration.k8s.io"},
		Resources: []string{"validatingadmissionpolicies", "validatingadmissionpolicybindings"},
		Verbs:     []string{"list"},
	}}
}

// Check lists the policies and bindings once and returns one Result per
// need, in order. Listing errors (forbidden, not served) make every result
// Unknown with the error in its message; Check itself never fails.
func Check(ctx context.Context, client kubernetes.Interface, needs []Need) []Result {
	out := make([]Result, 0, len(needs))
	if len(needs) == 0 {
		return out
	}
	policies, perr := client.AdmissionregistrationV1().ValidatingAdmissionPolicies().List(ctx, metav1.ListOptions{LabelSelector: LabelPolicy})
	var bindings *admissionv1.ValidatingAdmissionPolicyBindingList
	berr := perr
	if perr == nil {
		bindings, berr = client.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().List(ctx, metav1.ListOptions{})
	}
	if berr != nil {
		why := berr.Error()
		if apierrors.IsForbidden(berr) {
			why = "slicekit may not list ValidatingAdmissionPolicies or their bindings (grant list on admissionregistration.k8s.io validatingadmissionpolicies and validatingadmissionpolicybindings): " + why
		}
		for _, n := range needs {
			out = append(out, Result{Need: n, State: Unknown, Message: fmt.Sprintf("cannot tell whether the %s policy guards controller %s: %s", n.Policy, n.Controller, why)})
		}
		return out
	}
	bound := map[string]bool{}
	for _, b := range bindings.Items {
		if slices.Contains(b.Spec.ValidationActions, admissionv1.Deny) {
			bound[b.Spec.PolicyName] = true
		}
	}
	for _, n := range needs {
		r := Result{Need: n, State: Missing}
		var missingKeys []string
		for _, p := range policies.Items {
			if p.Labels[LabelPolicy] != n.Policy || !bound[p.Name] {
				continue
			}
			var uncovered []string
			for _, k := range n.Keys {
				if !covers(&p, k) {
					uncovered = append(uncovered, k)
				}
			}
			if len(uncovered) == 0 {
				r.State, r.PolicyName, missingKeys = Installed, p.Name, nil
				break
			}
			r.State, r.PolicyName, missingKeys = Incomplete, p.Name, uncovered
		}
		switch r.State {
		case Installed:
			r.Message = fmt.Sprintf("the %s policy %s guards controller %s", n.Policy, r.PolicyName, n.Controller)
		case Incomplete:
			r.Message = fmt.Sprintf("the %s policy %s is bound but does not list %s of controller %s: add them to its variables (docs/security.md)",
				n.Policy, r.PolicyName, strings.Join(missingKeys, ", "), n.Controller)
		default:
			r.Message = fmt.Sprintf("no ValidatingAdmissionPolicy labelled %s=%s is installed and bound (validationActions Deny) for controller %s: %s (install config/components/admission-policies or the chart's admissionPolicies; docs/security.md)",
				LabelPolicy, n.Policy, n.Controller, consequence(n.Policy))
		}
		out = append(out, r)
	}
	return out
}

// consequence says what an unguarded need lets happen.
func consequence(policy string) string {
	if policy == PolicyInputs {
		return "anyone who may edit the Pods chooses the addresses it publishes"
	}
	return "any writer of EndpointSlices may change its slices until it heals them"
}

// covers reports whether policy lists key as a quoted CEL string in its
// variables.
func covers(p *admissionv1.ValidatingAdmissionPolicy, key string) bool {
	for _, v := range p.Spec.Variables {
		if strings.Contains(v.Expression, "'"+key+"'") || strings.Contains(v.Expression, `"`+key+`"`) {
			return true
		}
	}
	return false
}
