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

// Package skew holds the process-level tests of the `slicekit` binary
// against whatever kube-apiserver $SLICEKIT_BIN_DIR holds: `make test-skew
// KUBE_VERSION=v1.32.13` runs them (with the controllers' integration tests,
// the conformance suite, the chart's dry-run and test/besidekcm) against an
// older Kubernetes release built by hack/build-controlplane.sh; `make test`
// runs them against the default v1.37.2.
//
// TestControllerSetsStart starts `slicekit run` with each controller set
// users deploy (the default `*`, `*,secondary-network`, `*,cel`,
// `*,dra-network`, and the managed-cluster form
// `secondary-network,selectorless-cleanup`) and requires `/readyz` to
// answer ok, or, for a controller whose API the server lacks, a start-up
// that names the missing API (never a replica that stays unready without
// saying why). TestCheckLive runs `slicekit check` against slices the
// default controllers wrote. TestPodAddressGuardNeedsServiceCIDRs requires
// the pod-address controllers to refuse to start, naming
// --service-cluster-ip-range, on a server without ServiceCIDR objects when
// the flag is not given. TestWatchListFallback runs the default controllers
// and the Endpoints controller against a second kube-apiserver started with
// --feature-gates=WatchList=false: their informers must fall back from
// streaming lists to LIST and WATCH and the slices be written.
//
// When $SLICEKIT_KUBE_VERSION is set (test-skew sets it), every test first
// checks that the API server reports that version, so a run can never
// silently test the default binaries instead.
package skew
