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

// Package admission tests slicekit's ValidatingAdmissionPolicies
// (config/components/admission-policies, docs/security.md) on a real
// kube-apiserver (test/harness/testenv), impersonating the
// identities the policies tell apart: a namespace editor (bound to
// system:aggregate-to-edit and system:aggregate-to-view, the namespace's
// edit role), the Multus ServiceAccount, slicekit's ServiceAccount, the
// garbage collector, and a cluster admin.
package admission
