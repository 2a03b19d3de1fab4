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

# The slicekit demo (`make demo`), from a clean clone:
#   1. builds bin/slicekit and, when missing, the local control plane
#      (bin/etcd, bin/kube-apiserver: `make controlplane`, ~5-10 min cold);
#   2. starts the control plane (hack/up.sh; .local/kubeconfig), unless one
#      is already running, which is then left running at the end;
#   3. runs `bin/slicekit run` in the background (log: .local/demo-slicekit.log;
#      the Lease in namespace default);
#   4. tells the story with hack/demoapply (no kubectl needed; Pod and Node
#      status are set through the status subresource, as there is no
#      kubelet), printing the slices as tables: examples/ applied; demo/web
#      labelled for another controller (slices deleted, the
#      EndpointSlicesHandedOver Event); the label removed (slices back); the
#      mirrored hand-written Endpoints of demo/legacy; slicekit stopped and
#      demo/web labelled again: `slicekit check` finds the stale slice (exit
#      1); slicekit started again: its start-up sweep removes it, check is
#      clean;
#   5. stops slicekit (SIGTERM) and the control plane it started, also on
#      error or Ctrl-C; on a control plane that was already running it
#      deletes the demo objects instead.
#
# Environment:
#   DEMO_HEALTH_PORT   slicekit's /healthz and /readyz port (default 18081)
#   DEMO_METRICS_PORT  slicekit's /metrics port (default 18080)
#   DEMO_KEEP=1        leave slicekit and the control plane running

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${REPO_ROOT}"
LOCAL_DIR="${REPO_ROOT}/.local"
KUBECONFIG_FILE="${LOCAL_DIR}/kubeconfig"
# Not the Quick start's .local/slicekit.log: a failure shows this run's log only.
SLICEKIT_LOG="${LOCAL_DIR}/demo-slicekit.log"
HEALTH_PORT="${DEMO_HEALTH_PORT:-18081}"
METRICS_PORT="${DEMO_METRICS_PORT:-18080}"
KEEP="${DEMO_KEEP:-0}"
mkdir -p "${LOCAL_DIR}" bin

started_cluster=0
applied=0
slicekit_pid=""
slicekit_started=0

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ "${KEEP}" == "1" ]]; then
    echo
    echo "DEMO_KEEP=1: leaving slicekit (pid ${slicekit_pid:-none}) and the control plane running."
    echo "  export KUBECONFIG=${KUBECONFIG_FILE}; stop with: kill ${slicekit_pid:-}; make down"
    exit "${rc}"
  fi
  if [[ -n "${slicekit_pid}" ]] && kill -0 "${slicekit_pid}" 2>/dev/null; then
    echo "==> stopping slicekit (pid ${slicekit_pid})"
    kill -TERM "${slicekit_pid}" 2>/dev/null || true
    for _ in $(seq 1 150); do
      kill -0 "${slicekit_pid}" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "${slicekit_pid}" 2>/dev/null; then
      echo "slicekit did not stop within 30s; sending SIGKILL" >&2
      kill -KILL "${slicekit_pid}" 2>/dev/null || true
    fi
    wait "${slicekit_pid}" 2>/dev/null || true
  fi
  if [[ "${started_cluster}" == "1" ]]; then
    echo "==> stopping the local control plane"
    "${REPO_ROOT}/hack/down.sh" || true
  elif [[ "${applied}" == "1" ]]; then
    echo "==> deleting the demo objects from the control plane that was already running"
    "${LOCAL_DIR}/demoapply" -kubeconfig "${KUBECONFIG_FILE}" -delete examples/*.yaml || true
  fi
  if [[ "${rc}" != "0" && "${slicekit_started}" == "1" ]]; then
    echo "demo failed (exit ${rc}); slicekit log: ${SLICEKIT_LOG}" >&2
    tail -n 20 "${SLICEKIT_LOG}" >&2 || true
  fi
  exit "${rc}"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "==> building bin/slicekit and the demo helper"
go build -o bin/slicekit ./cmd/slicekit
go build -o "${LOCAL_DIR}/demoapply" ./hack/demoapply

echo "==> control plane (bin/etcd, bin/kube-apiserver)"
"${REPO_ROOT}/hack/build-controlplane.sh" etcd kube-apiserver

if [[ -f "${LOCAL_DIR}/localcluster.pid" ]] && kill -0 "$(cat "${LOCAL_DIR}/localcluster.pid")" 2>/dev/null; then
  echo "==> using the local control plane that is already running (it is left running)"
  # A slicekit of the Quick start (default ports, Lease in slicekit-system)
  # would lead beside the demo's (Lease in default) and undo its story.
  if (exec 3<>/dev/tcp/127.0.0.1/8081) 2>/dev/null; then
    echo "demo: something serves 127.0.0.1:8081, probably the Quick start's slicekit run on this control plane;" >&2
    echo "demo: stop it first (kill %1, or kill its pid), or run make down, then make demo again" >&2
    started_cluster=""
    exit 1
  fi
else
  echo "==> starting the local control plane"
  started_cluster=1
  "${REPO_ROOT}/hack/up.sh"
fi

start_slicekit() {
  echo "==> starting slicekit run (log: ${SLICEKIT_LOG})"
  if [[ "${slicekit_started}" == "0" ]]; then
    : >"${SLICEKIT_LOG}"
  fi
  slicekit_started=1
  bin/slicekit run \
    --kubeconfig "${KUBECONFIG_FILE}" \
    --leader-elect-resource-namespace default \
    --metrics-bind-address "127.0.0.1:${METRICS_PORT}" \
    --health-probe-bind-address "127.0.0.1:${HEALTH_PORT}" \
    --v=2 >>"${SLICEKIT_LOG}" 2>&1 &
  slicekit_pid=$!
}

stop_slicekit() {
  echo "==> stopping slicekit (SIGTERM; it releases its Lease)"
  kill -TERM "${slicekit_pid}"
  wait "${slicekit_pid}" 2>/dev/null || true
  slicekit_pid=""
}

demoapply() { "${LOCAL_DIR}/demoapply" -kubeconfig "${KUBECONFIG_FILE}" "$@"; }

: >"${SLICEKIT_LOG}"
start_slicekit

echo
echo "==> 1. applying examples/ (Pod and Node status set as a kubelet would report it)"
applied=1
demoapply -ready-url "http://127.0.0.1:${HEALTH_PORT}/readyz" examples/*.yaml

echo
echo "==> 2. KEP-4770 hand-over: demo/web is labelled for another controller; slicekit deletes its slices"
demoapply -label demo/web=other.example.com

echo
echo "==> 3. hand-back: the label is removed; slicekit publishes demo/web's slices again"
demoapply -unlabel demo/web

echo
echo "==> 4. mirroring: demo/legacy has no selector and a hand-written Endpoints object;"
echo "       the mirroring controller's slice (managed-by endpointslicemirroring-controller.k8s.io) mirrors it"
demoapply -show demo | grep -E '^(SERVICE|demo/legacy|ENDPOINTS|demo/legacy )' || true

echo
echo "==> 5. a stopped controller leaves a stale slice: slicekit is stopped, then demo/web is labelled"
stop_slicekit
demoapply -label demo/web=other.example.com -no-wait
echo
echo "\$ bin/slicekit check --kubeconfig ${KUBECONFIG_FILE#"${REPO_ROOT}/"} -n demo"
set +o errexit
bin/slicekit check --kubeconfig "${KUBECONFIG_FILE}" -n demo
rc=$?
set -o errexit
if [[ "${rc}" != "1" ]]; then
  echo "slicekit check should have found the stale slice (exit 1), got exit ${rc}" >&2
  exit 1
fi

echo
echo "==> 6. slicekit starts again: its start-up sweep deletes the stale slice, and check is clean"
start_slicekit
demoapply -await-sweep demo/web
echo
echo "\$ bin/slicekit check --kubeconfig ${KUBECONFIG_FILE#"${REPO_ROOT}/"} -n demo"
bin/slicekit check --kubeconfig "${KUBECONFIG_FILE}" -n demo

if ! kill -0 "${slicekit_pid}" 2>/dev/null; then
  echo "slicekit exited early" >&2
  exit 1
fi
echo
if [[ "${KEEP}" == "1" ]]; then
  echo "slicekit metrics: http://127.0.0.1:${METRICS_PORT}/metrics"
else
  echo "slicekit's metrics: make demo DEMO_KEEP=1 leaves it running to read http://127.0.0.1:${METRICS_PORT}/metrics"
fi
echo "the same objects rendered offline: bin/slicekit render -f examples/"
