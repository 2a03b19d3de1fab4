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

package endpoints

import rbacv1 "k8s.io/api/rbac/v1"

// RBACRules returns the RBAC rules the Endpoints controller needs, in every
// namespace: read the Services and Pods it reconciles from; read and write
// Endpoints; and record Events. These are the rules of KCM's
// system:controller:endpoint-controller
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go)
// minus create on endpoints/restricted, which no admission plugin of the
// supported Kubernetes versions checks any more, and events update.
// `slicekit run` checks them at start-up (pkg/preflight). Each call returns
// a new slice.
func RBACRules() []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"services", "pods"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"get", "list", "watch", "create", "update", "delete"}},
		{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
	}
}
