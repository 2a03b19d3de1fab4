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

# Starts the local control plane (etcd + kube-apiserver, see
# hack/localcluster) in the background, builds it first if needed, and waits
# until the API server answers through .local/kubeconfig.
#
#   .local/kubeconfig         admin kubeconfig (context slicekit-local)
#   .local/localcluster.pid   PID of the localcluster process (hack/down.sh)
#   .local/localcluster.log   localcluster's own output
#   .local/controlplane.log   etcd and kube-apiserver output
#
# Idempotent: if the cluster is already running it only says so.
#
# Environment:
#   KUBE_VERSION          Kubernetes release of etcd/kube-apiserver (default: v1.37.2,
#                         tools/controlplane's); another one, e.g. v1.32.13, is built
#                         into bin/kube-<version>/ first (see hack/build-controlplane.sh)
#   SLICEKIT_LOCAL_DIR    directory for the files above (default: <repo>/.local)
#   LOCALCLUSTER_PORT     API server port on 127.0.0.1 (default: any free port)
#   LOCALCLUSTER_TIMEOUT  seconds to wait for readiness (default: 120)

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCAL_DIR="${SLICEKIT_LOCAL_DIR:-${REPO_ROOT}/.local}"
PID_FILE="${LOCAL_DIR}/localcluster.pid"
KUBECONFIG_FILE="${LOCAL_DIR}/kubeconfig"
LOG_FILE="${LOCAL_DIR}/localcluster.log"
BIN="${REPO_ROOT}/bin/localcluster"
TIMEOUT="${LOCALCLUSTER_TIMEOUT:-120}"

# is_ours PID: PID is alive and is a localcluster process.
is_ours() {
  local pid="$1"
  kill -0 "${pid}" 2>/dev/null || return 1
  [[ -r "/proc/${pid}/cmdline" ]] || return 0 # no procfs: trust the PID file
  tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null | grep -q 'localcluster'
}

usage() {
  cat <<EOT
Local control plane running (pid $(cat "${PID_FILE}")), logs in ${LOG_FILE}.
  export KUBECONFIG=${KUBECONFIG_FILE}
  kubectl get --raw /readyz          # or any client-go program
  ${BIN} -check -kubeconfig ${KUBECONFIG_FILE}  # kubectl-free readiness check
Stop it with: make down   (or hack/down.sh)
EOT
}

mkdir -p "${LOCAL_DIR}"

if [[ -f "${PID_FILE}" ]]; then
  pid="$(cat "${PID_FILE}")"
  if [[ -n "${pid}" ]] && is_ours "${pid}"; then
    echo "localcluster already running"
    usage
    exit 0
  fi
  echo "removing stale ${PID_FILE} (pid ${pid:-?} is not a running localcluster)"
  rm -f "${PID_FILE}"
fi

"${REPO_ROOT}/hack/build-controlplane.sh" etcd kube-apiserver
# localcluster (through test/harness/testenv) reads SLICEKIT_BIN_DIR.
SLICEKIT_BIN_DIR="$("${REPO_ROOT}/hack/build-controlplane.sh" --bin-dir)"
export SLICEKIT_BIN_DIR

start=${SECONDS}
echo "building ${BIN} ..."
(cd "${REPO_ROOT}" && go build -o "${BIN}" ./hack/localcluster)

rm -f "${KUBECONFIG_FILE}"
port_args=()
if [[ -n "${LOCALCLUSTER_PORT:-}" ]]; then
  port_args=(-port "${LOCALCLUSTER_PORT}")
fi
# setsid: the cluster must not get the terminal's SIGINT/SIGHUP meant for
# this script or a later foreground job; hack/down.sh stops it.
setsid "${BIN}" -kubeconfig "${KUBECONFIG_FILE}" -log "${LOCAL_DIR}/controlplane.log" "${port_args[@]}" \
  </dev/null >"${LOG_FILE}" 2>&1 &
pid=$!
launched=${SECONDS}
echo "${pid}" >"${PID_FILE}"
sleep 0.2
if kill -0 "${pid}" 2>/dev/null && ! is_ours "${pid}"; then
  echo "pid ${pid} is not localcluster (did setsid fork?); stop it by hand" >&2
  exit 1
fi
echo "localcluster started (pid ${pid}); waiting for the API server ..."

# Wait until localcluster has announced itself, written the kubeconfig and
# /readyz says ok through it; fail fast if localcluster exits.
ready() {
  grep -q 'running until SIGTERM' "${LOG_FILE}" 2>/dev/null &&
    "${BIN}" -check -kubeconfig "${KUBECONFIG_FILE}" -timeout 5s >/dev/null 2>&1
}
until ready; do
  if ! kill -0 "${pid}" 2>/dev/null; then
    echo "localcluster exited before becoming ready; last output:" >&2
    tail -n 30 "${LOG_FILE}" >&2 || true
    rm -f "${PID_FILE}"
    exit 1
  fi
  if ((SECONDS - launched > TIMEOUT)); then
    echo "API server not ready after ${TIMEOUT}s; see ${LOG_FILE} and ${LOCAL_DIR}/controlplane.log" >&2
    echo "stopping it: hack/down.sh" >&2
    "${REPO_ROOT}/hack/down.sh" || true
    exit 1
  fi
  sleep 0.5
done

echo "API server ready $((SECONDS - launched))s after launch ($((SECONDS - start))s with the localcluster build)"
cat "${LOG_FILE}"
usage
