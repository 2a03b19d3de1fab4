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

// Package deploytest tests slicekit's deployment artifacts: the Helm chart
// (charts/slicekit) and the monitoring rules and dashboard
// (config/monitoring). It is a separate module so that Helm's library and
// Prometheus's PromQL parser stay out of the product module; it uses the
// root module (replace directive) for test/harness/testenv, pkg/manager and the
// kustomize base.
//
// The chart tests lint the chart with Helm's own linter (helm.sh/helm/v3
// pkg/lint), render it as 'helm template' does (pkg/action, client only) for
// the defaults and for every controller enabled, apply the output with
// server-side dry-run to the real kube-apiserver of test/harness/testenv, check
// that the defaults give the same RBAC rules and container as config/, that
// the ClusterRole follows the enabled controllers, and run the manager with
// every controller enabled under the chart's RBAC. The admission-policy tests
// render the chart with Helm's capabilities (chartutil.Capabilities: API
// versions and Kubernetes version) of a live cluster that serves
// ValidatingAdmissionPolicy, of one that does not, of a real kube-apiserver's
// discovery and of offline 'helm template', and check what is installed and
// what NOTES.txt says. The monitoring tests parse
// every PromQL expression of the rules and the dashboard and fail if a
// metric they use is not on /metrics of a running manager.
//
// Run with 'make test-deploy' (tools/deploytest/deploytest.mk).
package deploytest
