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

package endpointslice

import (
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/slicekit/slicekit/pkg/slicecontroller"
)

// RBACRules returns the RBAC rules the EndpointSlice controller needs: the
// Service controller's (slicecontroller.RBACRules, KCM's
// system:controller:endpointslice-controller minus events update).
// `slicekit run` checks them at start-up (pkg/preflight) and config/rbac is
// tested against them. Each call returns a new slice.
func RBACRules() []rbacv1.PolicyRule { return slicecontroller.RBACRules() }
