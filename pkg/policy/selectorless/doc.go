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

// Package selectorless holds the rules shared by slicekit's answer to the
// fault class "a Service stops selecting Pods but its endpoints stay"
// (kubernetes/kubernetes#118376, also #91072, #103576, #103804, #105987,
// #123471; regression cases 33, 34 and 36 in testdata/cases):
//
//   - SelectsNoPods tells whether a Service has no selector or is of type
//     ExternalName, and why, in the words Events use.
//   - The feature gate SelectorRemovalCleanup (default on) makes slicekit's
//     EndpointSlice and Endpoints controllers delete what they wrote for such
//     a Service and keeps the mirroring controller from mirroring the
//     Endpoints controller's leftover. Off, they behave as
//     kube-controller-manager v1.37.2 does (they leave everything).
//   - The annotation slicekit.dev/selector gives a Service handed to a
//     slicekit custom controller its Pod selector when the Service has no
//     spec.selector (the selectorless form, which kube-controller-manager's
//     controllers leave alone on clusters where they cannot be turned off);
//     ParseSelector reads it with k8s.io/apimachinery's label-selector
//     syntax.
//   - The labels by which kube-controller-manager marks what its controllers
//     wrote, for the selectorless-cleanup controller and `slicekit check`.
//   - RemovalMetrics counts the objects deleted (or, for the mirroring
//     controller, not mirrored) because of this rule.
package selectorless
