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

package slicecontroller

import rbacv1 "k8s.io/api/rbac/v1"

// RBACRules returns the RBAC rules every Service controller (the drop-in
// EndpointSlice controller and the custom controllers) needs, in every
// namespace: read the Services, Pods and Nodes it reconciles from;
// manage EndpointSlices; update services/finalizers, because its slices
// carry an owner reference to their Service with blockOwnerDeletion, which
// the OwnerReferencesPermissionEnforcement admission plugin allows only to
// who may update the owner's finalizers; and record Events (client-go's
// recorder creates and patches them). These are the rules of KCM's
// system:controller:endpointslice-controller
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go)
// minus events update, which the recorder does not use. `slicekit run`
// checks them at start-up (pkg/preflight) and config/rbac is tested
// against them. Each call returns a new slice.
func RBACRules() []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"services", "pods", "nodes"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{""}, Resources: []string{"services/finalizers"}, Verbs: []string{"update"}},
		{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"get", "list", "watch", "create", "update", "delete"}},
		{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
	}
}
