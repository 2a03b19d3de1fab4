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

// Package preflight asks the API server, before a controller starts,
// whether the client may do everything the controller does: one
// SelfSubjectAccessReview (authorization.k8s.io/v1) per verb and resource
// of the controller's RBAC rules. A missing permission otherwise shows only
// as Forbidden write errors once the controller runs; the preflight names
// the component, the verb, the resource and the rule to add.
//
// Each controller package declares its rules next to its code (an
// RBACRules function, e.g. pkg/controllers/endpointslice.RBACRules);
// pkg/manager composes the rules of the enabled controllers into
// Requirements and runs Check at start-up (`slicekit run --preflight`).
package preflight

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Requirement is what one component needs from the API server.
type Requirement struct {
	// Component names who needs the rules, as messages name it: for
	// example `controller "endpoints"` or "leader election".
	Component string
	// Namespace is where the rules must hold: "" for every namespace (a
	// ClusterRole bound by a ClusterRoleBinding), else that one namespace
	// (a Role bound by a RoleBinding there).
	Namespace string
	// Rules are the resource rules the component needs. Resources may name
	// a subresource ("services/finalizers"). Wildcards and non-resource
	// URLs are not supported.
	Rules []rbacv1.PolicyRule
}

// Denial is one verb on one resource the API server does not allow.
type Denial struct {
	// Component is the Requirement's Component.
	Component string
	// Namespace is the Requirement's Namespace ("" for all namespaces).
	Namespace string
	// APIGroup is the resource's API group ("" for the core group).
	APIGroup string
	// Resource is the resource, with "/subresource" when there is one.
	Resource string
	// Verb is the denied verb.
	Verb string
	// Reason is the authorizer's reason or evaluation error, often empty.
	Reason string
}

// Rule returns the RBAC rule that grants the denial's verbs (one rule for
// the given verbs of the denial's group and resource).
func (d Denial) Rule(verbs ...string) rbacv1.PolicyRule {
	if len(verbs) == 0 {
		verbs = []string{d.Verb}
	}
	return rbacv1.PolicyRule{APIGroups: []string{d.APIGroup}, Resources: []string{d.Resource}, Verbs: verbs}
}

// MissingPermissionsError is returned by Check when the API server denies
// at least one permission. Its message has one line per component and
// resource, naming the verbs and the rule to add.
type MissingPermissionsError struct {
	// User is the user name the API server authenticated the client as
	// (SelfSubjectReview); "" when it could not be asked.
	User string
	// Denials are sorted by component, namespace, group, resource and verb.
	Denials []Denial
}

// Missing is one line of a MissingPermissionsError: the denied verbs of one
// component on one resource, and the rule that grants them.
type Missing struct {
	Component, Namespace string
	// Verbs are the denied verbs in the order of the component's rules.
	Verbs []string
	// Rule grants exactly the denied verbs.
	Rule rbacv1.PolicyRule
}

// Grouped returns the denials grouped by component, namespace and resource.
func (e *MissingPermissionsError) Grouped() []Missing {
	var out []Missing
	for _, d := range e.Denials {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if last.Component == d.Component && last.Namespace == d.Namespace &&
				last.Rule.APIGroups[0] == d.APIGroup && last.Rule.Resources[0] == d.Resource {
				last.Verbs = append(last.Verbs, d.Verb)
				last.Rule.Verbs = last.Verbs
				continue
			}
		}
		verbs := []string{d.Verb}
		out = append(out, Missing{Component: d.Component, Namespace: d.Namespace, Verbs: verbs, Rule: d.Rule(verbs...)})
	}
	return out
}

// Error lists every missing permission with the rule to add.
func (e *MissingPermissionsError) Error() string {
	var b strings.Builder
	who := "this client"
	if e.User != "" {
		who = e.User
	}
	fmt.Fprintf(&b, "the API server denies %s %d permission(s) the enabled components need:", who, len(e.Denials))
	for _, m := range e.Grouped() {
		fmt.Fprintf(&b, "\n%s", m.Describe(e.User))
	}
	return b.String()
}

// Describe returns one line: the component, the denied verbs, the resource
// and the rule to add, bound to user ("" for unknown).
func (m Missing) Describe(user string) string {
	where, role := "in all namespaces", "a ClusterRole bound to "
	if m.Namespace != "" {
		where, role = "in namespace "+m.Namespace, "a Role in namespace "+m.Namespace+" bound to "
	}
	if user == "" {
		role += "this client's user"
	} else {
		role += user
	}
	return fmt.Sprintf("%s cannot %s %s %s: add the rule %s to %s",
		m.Component, strings.Join(m.Verbs, ", "), resourceName(m.Rule.APIGroups[0], m.Rule.Resources[0]), where, FormatRule(m.Rule), role)
}

// resourceName returns "resource" for the core group and
// "resource.group" otherwise, as kubectl names resources.
func resourceName(group, resource string) string {
	if group == "" {
		return resource
	}
	if r, sub, ok := strings.Cut(resource, "/"); ok {
		return r + "." + group + "/" + sub
	}
	return resource + "." + group
}

// FormatRule returns rule in YAML flow style, as config/rbac writes rules:
// {apiGroups: [""], resources: [endpoints], verbs: [create, update]}.
func FormatRule(rule rbacv1.PolicyRule) string {
	groups := make([]string, len(rule.APIGroups))
	for i, g := range rule.APIGroups {
		if g == "" {
			g = `""`
		}
		groups[i] = g
	}
	return fmt.Sprintf("{apiGroups: [%s], resources: [%s], verbs: [%s]}",
		strings.Join(groups, ", "), strings.Join(rule.Resources, ", "), strings.Join(rule.Verbs, ", "))
}

// IsMissingPermissions reports whether err is or wraps a
// *MissingPermissionsError.
func IsMissingPermissions(err error) bool {
	var e *MissingPermissionsError
	return errors.As(err, &e)
}

// attributes is one access question.
type attributes struct {
	namespace, group, resource, subresource, verb string
}

// Check asks the API server, with one SelfSubjectAccessReview per distinct
// namespace, group, resource and verb, whether client may do what reqs
// need. It returns nil when everything is allowed, a
// *MissingPermissionsError naming every denied permission, or another
// error when a review could not be made (the API server is unreachable, or
// a rule is malformed). ctx cancels the requests.
func Check(ctx context.Context, client kubernetes.Interface, reqs []Requirement) error {
	type need struct {
		req  *Requirement
		attr attributes
		// order keeps the verbs in the order the rules list them.
		order int
	}
	var needs []need
	seen := map[attributes]bool{}
	var questions []attributes
	for i := range reqs {
		r := &reqs[i]
		for _, rule := range r.Rules {
			if len(rule.NonResourceURLs) > 0 || len(rule.ResourceNames) > 0 {
				return fmt.Errorf("preflight: %s: only resource rules without resourceNames are supported: %+v", r.Component, rule)
			}
			for _, g := range rule.APIGroups {
				for _, res := range rule.Resources {
					for _, v := range rule.Verbs {
						if g == rbacv1.APIGroupAll || res == rbacv1.ResourceAll || v == rbacv1.VerbAll {
							return fmt.Errorf("preflight: %s: wildcards are not supported: %+v", r.Component, rule)
						}
						resource, sub, _ := strings.Cut(res, "/")
						a := attributes{namespace: r.Namespace, group: g, resource: resource, subresource: sub, verb: v}
						needs = append(needs, need{req: r, attr: a, order: len(needs)})
						if !seen[a] {
							seen[a] = true
							questions = append(questions, a)
						}
					}
				}
			}
		}
	}

	answers, err := review(ctx, client, questions)
	if err != nil {
		return err
	}
	var denials []Denial
	for _, n := range needs {
		ans := answers[n.attr]
		if ans.allowed {
			continue
		}
		res := n.attr.resource
		if n.attr.subresource != "" {
			res += "/" + n.attr.subresource
		}
		denials = append(denials, Denial{
			Component: n.req.Component, Namespace: n.attr.namespace, APIGroup: n.attr.group,
			Resource: res, Verb: n.attr.verb, Reason: ans.reason,
		})
	}
	if len(denials) == 0 {
		return nil
	}
	// Stable order: by component, namespace, group and resource; verbs in
	// the order the rules give them (SliceStable keeps it).
	slices.SortStableFunc(denials, func(a, b Denial) int {
		return cmp.Or(cmp.Compare(a.Component, b.Component), cmp.Compare(a.Namespace, b.Namespace),
			cmp.Compare(a.APIGroup, b.APIGroup), cmp.Compare(a.Resource, b.Resource))
	})
	denials = slices.CompactFunc(denials, func(a, b Denial) bool {
		return a.Component == b.Component && a.Namespace == b.Namespace && a.APIGroup == b.APIGroup && a.Resource == b.Resource && a.Verb == b.Verb
	})
	return &MissingPermissionsError{User: whoAmI(ctx, client), Denials: denials}
}

type answer struct {
	allowed bool
	reason  string
}

// reviewWorkers bounds the concurrent SelfSubjectAccessReviews (the
// client's rate limiter still applies).
const reviewWorkers = 4

// review asks every question, a few at a time.
func review(ctx context.Context, client kubernetes.Interface, questions []attributes) (map[attributes]answer, error) {
	answers := make(map[attributes]answer, len(questions))
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	work := make(chan attributes)
	for range min(reviewWorkers, len(questions)) {
		wg.Go(func() {
			for a := range work {
				ans, err := ask(ctx, client, a)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					answers[a] = ans
				}
				mu.Unlock()
			}
		})
	}
	for _, q := range questions {
		work <- q
	}
	close(work)
	wg.Wait()
	if len(errs) > 0 {
		return nil, fmt.Errorf("preflight: asking the API server for permissions (SelfSubjectAccessReview): %w", errors.Join(errs...))
	}
	return answers, nil
}

// ask makes one SelfSubjectAccessReview.
func ask(ctx context.Context, client kubernetes.Interface, a attributes) (answer, error) {
	ssar := &authorizationv1.SelfSubjectAccessReview{
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace:   a.namespace,
				Verb:        a.verb,
				Group:       a.group,
				Resource:    a.resource,
				Subresource: a.subresource,
			},
		},
	}
	res, err := client.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, ssar, metav1.CreateOptions{})
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", a.verb, resourceName(a.group, joinSub(a.resource, a.subresource)), err)
	}
	reason := res.Status.Reason
	if res.Status.EvaluationError != "" {
		reason = strings.TrimSpace(reason + " " + res.Status.EvaluationError)
	}
	return answer{allowed: res.Status.Allowed && !res.Status.Denied, reason: reason}, nil
}

func joinSub(resource, sub string) string {
	if sub == "" {
		return resource
	}
	return resource + "/" + sub
}

// whoAmI returns the user name the API server sees (SelfSubjectReview,
// authentication.k8s.io/v1), or "" when it cannot be asked.
func whoAmI(ctx context.Context, client kubernetes.Interface) string {
	res, err := client.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return ""
	}
	return res.Status.UserInfo.Username
}
