#!/usr/bin/env bash

# Copyright 2026 The slicekit Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Runs slicekit's live tests against another Kubernetes release: the
# kube-apiserver and kube-controller-manager of KUBE_VERSION, built from Go
# modules into bin/kube-<version>/ by hack/build-controlplane.sh (etcd 3.6.16
# shared).
#
#   KUBE_VERSION=v1.32.13 hack/test-skew.sh      (make test-skew KUBE_VERSION=v1.32.13)
#
# What runs, all with SLICEKIT_BIN_DIR=bin/kube-<version>:
#   - every package of the main module whose tests start a control plane
#     (they use test/harness/testenv): the controllers' integration tests,
#     the manager, check, the CLI, the conformance suite (conformance/),
#     the admission-policy tests (test/admission), the beside-KCM tests with
#     that release's kube-controller-manager and the adoption test
#     (test/besidekcm), and the process-level tests of test/skew (each
#     controller set starts and turns ready, `slicekit check` live, the
#     address guard without a Service CIDR source);
#   - tools/deploytest: the chart and kustomize output, server-side dry-run
#     against that kube-apiserver.
# Left out: test/dataplane (kube-proxy and CoreDNS of v1.37.2 under podman),
# test/e2e and test/benchlive (their own make targets).
#
# A test that needs an API the server lacks skips by discovery
# (testenv.SkipUnlessServed), naming the server version, the API and the
# first release that has it; the summary lists every skip with its reason
# and every failure. Exit status 1 when anything failed.
#
# Output: the summary on standard output; the tests' whole output in
# bin/test-skew-<version>.log, the summary in bin/test-skew-<version>.txt.
#
# Environment:
#   KUBE_VERSION        required: the release, e.g. v1.32.13
#   TEST_SKEW_RUN       optional `go test -run` regexp (to rerun a few tests)
#   TEST_SKEW_PACKAGES  optional: packages (./pkg/...) instead of the discovered ones
#   TEST_SKEW_TIMEOUT   per-package timeout (default 30m)

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${REPO_ROOT}"

KUBE_VERSION="${KUBE_VERSION:-}"
if [[ -z "${KUBE_VERSION}" ]]; then
  echo "set KUBE_VERSION, e.g. make test-skew KUBE_VERSION=v1.32.13" >&2
  exit 2
fi
export KUBE_VERSION
start=${SECONDS}

hack/build-controlplane.sh etcd kube-apiserver kube-controller-manager
built=${SECONDS}
SLICEKIT_BIN_DIR="$(hack/build-controlplane.sh --bin-dir)"
export SLICEKIT_BIN_DIR
# test/skew checks that the API server reports this version.
export SLICEKIT_KUBE_VERSION="${KUBE_VERSION}"

# The packages whose tests start a control plane, found by what they use, so
# that a new integration test is included without editing this list.
if [[ -n "${TEST_SKEW_PACKAGES:-}" ]]; then
  read -r -a packages <<<"${TEST_SKEW_PACKAGES}"
else
  mapfile -t packages < <(git ls-files --cached --others --exclude-standard -- '*_test.go' |
    grep -v '^tools/' |
    xargs grep -l -E 'testenv\.(Shared|Start|StartEnv|New)\(|controlPlane(WithKCM)?\(' |
    xargs -n1 dirname | sort -u |
    grep -v -E '^test/(dataplane|e2e|benchlive|differential|mirroring)(/|$)' |
    sed 's|^|./|')
fi

log="${REPO_ROOT}/bin/test-skew-${KUBE_VERSION}.log"
summary="${REPO_ROOT}/bin/test-skew-${KUBE_VERSION}.txt"
go build -o bin/testsummary ./hack/testsummary

run_args=(-count=1 -json -timeout "${TEST_SKEW_TIMEOUT:-30m}")
if [[ -n "${TEST_SKEW_RUN:-}" ]]; then
  run_args+=(-run "${TEST_SKEW_RUN}")
fi

echo "test-skew: Kubernetes ${KUBE_VERSION} from ${SLICEKIT_BIN_DIR} (built or reused in $((built - start))s)"
echo "test-skew: ${#packages[@]} packages: ${packages[*]}"
echo "test-skew: tools/deploytest (chart and kustomize server-side dry-run)"
rc=0
{
  go test "${run_args[@]}" "${packages[@]}" 2>&1 || true
  if [[ -z "${TEST_SKEW_PACKAGES:-}" ]]; then
    (cd tools/deploytest && go test "${run_args[@]}" ./... 2>&1) || true
  fi
} | bin/testsummary -log "${log}" -title "test-skew: Kubernetes ${KUBE_VERSION}, $(date -u +%Y-%m-%d)" | tee "${summary}" || rc=$?
echo "test-skew: Kubernetes ${KUBE_VERSION}: $([[ ${rc} == 0 ]] && echo passed || echo FAILED) in $((SECONDS - start))s (tests $((SECONDS - built))s); log ${log}, summary ${summary}"
exit "${rc}"
