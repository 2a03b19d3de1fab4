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

// Package casefile loads the regression cases of testdata/cases (the
// repository's copy of reduced public bug reports) and runs them
// against any implementation in-process: it decodes the objects of a case
// strictly into k8s.io/api types, parses its steps.yaml, keeps an in-memory
// world that steps can patch, compares EndpointSlices with the cases'
// conventions and walks the steps through a Backend.
//
// It follows the conventions of the cases' README.md and of the casecheck
// tool that runs the same cases against the slicekit binary (testdata/cases/README.md),
// so a case passes here exactly when it passes there:
//   - server-assigned fields (name unless expected, generateName, uid,
//     resourceVersion, generation, creationTimestamp, managedFields) and the
//     endpoints.kubernetes.io/last-change-trigger-time annotation are
//     ignored;
//   - slices, endpoints and ports compare as unordered multisets; ports: []
//     equals ports: null; a port without name is "", without protocol TCP;
//   - an endpoint's targetRef compares by kind, namespace and name;
//   - an expected slice with a name is compared exactly with the actual
//     slice of that name.
//
// Tests find the cases with CasesDir (environment variable SLICEKIT_CASES,
// else testdata/cases of the module root) and must fail, not
// skip, when they are missing.
package casefile
