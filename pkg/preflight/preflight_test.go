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

package preflight

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// fakeAuthorizer returns a clientset whose SelfSubjectAccessReviews allow
// exactly the "namespace group resource[/sub] verb" keys of allowed, and
// whose SelfSubjectReview names user. asked records the questions.
func fakeAuthorizer(user string, allowed map[string]bool, asked *[]string) *fake.Clientset {
	c := fake.NewClientset()
	c.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		ssar := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		ra := ssar.Spec.ResourceAttributes
		key := ra.Namespace + " " + ra.Group + " " + joinSub(ra.Resource, ra.Subresource) + " " + ra.Verb
		*asked = append(*asked, key)
		out := ssar.DeepCopy()
		out.Status.Allowed = allowed[key]
		return true, out, nil
	})
	c.PrependReactor("create", "selfsubjectreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if user == "" {
			return true, nil, errors.New("not served")
		}
		return true, &authenticationv1.SelfSubjectReview{Status: authenticationv1.SelfSubjectReviewStatus{UserInfo: authenticationv1.UserInfo{Username: user}}}, nil
	})
	return c
}

func TestCheck(t *testing.T) {
	reqs := []Requirement{
		{Component: `controller "endpoints"`, Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"services", "pods"}, Verbs: []string{"list", "watch"}},
			{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"list", "create", "update", "delete"}},
		}},
		{Component: `controller "endpointslice"`, Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"services"}, Verbs: []string{"list", "watch"}},
			{APIGroups: []string{""}, Resources: []string{"services/finalizers"}, Verbs: []string{"update"}},
			{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"create"}},
		}},
		{Component: "leader election", Namespace: "kube-system", Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "update"}},
		}},
	}
	all := map[string]bool{}
	for _, k := range []string{
		" / services list", " / services watch", " / pods list", " / pods watch",
		" / endpoints list", " / endpoints create", " / endpoints update", " / endpoints delete",
		" / services/finalizers update", " discovery.k8s.io endpointslices create",
		"kube-system coordination.k8s.io leases get", "kube-system coordination.k8s.io leases update",
	} {
		all[strings.Replace(k, " / ", "  ", 1)] = true
	}
	without := func(keys ...string) map[string]bool {
		m := map[string]bool{}
		for k, v := range all {
			m[k] = v
		}
		for _, k := range keys {
			delete(m, k)
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		user    string
		allowed map[string]bool
		want    []Denial
		wantMsg []string
	}{
		{name: "all allowed", allowed: all},
		{
			name: "endpoints writes and a lease verb denied", user: "system:serviceaccount:slicekit-system:slicekit",
			allowed: without("  endpoints create", "  endpoints update", "  endpoints delete", "kube-system coordination.k8s.io leases update"),
			want: []Denial{
				{Component: `controller "endpoints"`, Resource: "endpoints", Verb: "create"},
				{Component: `controller "endpoints"`, Resource: "endpoints", Verb: "update"},
				{Component: `controller "endpoints"`, Resource: "endpoints", Verb: "delete"},
				{Component: "leader election", Namespace: "kube-system", APIGroup: "coordination.k8s.io", Resource: "leases", Verb: "update"},
			},
			wantMsg: []string{
				"the API server denies system:serviceaccount:slicekit-system:slicekit 4 permission(s)",
				`controller "endpoints" cannot create, update, delete endpoints in all namespaces: add the rule {apiGroups: [""], resources: [endpoints], verbs: [create, update, delete]} to a ClusterRole bound to system:serviceaccount:slicekit-system:slicekit`,
				`leader election cannot update leases.coordination.k8s.io in namespace kube-system: add the rule {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [update]} to a Role in namespace kube-system bound to system:serviceaccount:slicekit-system:slicekit`,
			},
		},
		{
			name: "a shared permission is denied to each component that needs it", allowed: without("  services watch", "  services/finalizers update"),
			want: []Denial{
				{Component: `controller "endpoints"`, Resource: "services", Verb: "watch"},
				{Component: `controller "endpointslice"`, Resource: "services", Verb: "watch"},
				{Component: `controller "endpointslice"`, Resource: "services/finalizers", Verb: "update"},
			},
			wantMsg: []string{
				"the API server denies this client 3 permission(s)",
				`controller "endpointslice" cannot update services/finalizers in all namespaces: add the rule {apiGroups: [""], resources: [services/finalizers], verbs: [update]} to a ClusterRole bound to this client's user`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []string
			err := Check(t.Context(), fakeAuthorizer(tc.user, tc.allowed, &asked), reqs)
			if len(asked) != len(all) {
				t.Errorf("asked %d questions, want %d distinct ones: %q", len(asked), len(all), asked)
			}
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			var mp *MissingPermissionsError
			if !errors.As(err, &mp) || !IsMissingPermissions(err) {
				t.Fatalf("Check returned %v, want a *MissingPermissionsError", err)
			}
			if d := cmp.Diff(tc.want, mp.Denials); d != "" {
				t.Errorf("denials (-want +got):\n%s", d)
			}
			for _, w := range tc.wantMsg {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message lacks %q:\n%s", w, err)
				}
			}
		})
	}
}

func TestCheckRejectsUnsupportedRules(t *testing.T) {
	for _, rule := range []rbacv1.PolicyRule{
		{APIGroups: []string{"*"}, Resources: []string{"pods"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"*"}},
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}, ResourceNames: []string{"a"}},
		{NonResourceURLs: []string{"/healthz"}, Verbs: []string{"get"}},
	} {
		var asked []string
		err := Check(t.Context(), fakeAuthorizer("", nil, &asked), []Requirement{{Component: "x", Rules: []rbacv1.PolicyRule{rule}}})
		if err == nil || IsMissingPermissions(err) {
			t.Errorf("rule %+v: got %v, want an error about the rule", rule, err)
		}
	}
}

func TestCheckReviewError(t *testing.T) {
	c := fake.NewClientset()
	c.PrependReactor("create", "selfsubjectaccessreviews", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("connection refused")
	})
	err := Check(t.Context(), c, []Requirement{{Component: "x", Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"list"}}}}})
	if err == nil || IsMissingPermissions(err) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("got %v, want the review error", err)
	}
}
