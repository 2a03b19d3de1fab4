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

// Package besidekcm holds the integration test of slicekit beside an
// unmodified kube-controller-manager v1.37.2 (built by `make controlplane`
// from tools/controlplane) running all its default controllers, as on a
// managed cluster whose built-in endpoint controllers cannot be turned off:
// slicekit runs only `secondary-network,selectorless-cleanup`, and the
// regression cases 33, 34 and 36 of testdata/cases must pass live. For case
// 36 a watch records every EndpointSlice and Endpoints event and the test
// measures how long primary addresses stay visible after the selector
// removal. The same cases also run against slicekit alone
// (`--controllers=*,endpoints,secondary-network`, no kube-controller-manager).
//
// The test needs etcd, kube-apiserver and kube-controller-manager in
// $SLICEKIT_BIN_DIR (default bin/); it is skipped under -short and fails,
// naming the build command, when kube-controller-manager is missing.
package besidekcm
