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

# Stops the local control plane started by hack/up.sh: sends SIGTERM to the
# localcluster PID in .local/localcluster.pid (and to nothing else), waits
# for it to stop etcd and kube-apiserver, and removes the PID file.
# Idempotent: does nothing if it is not running.
#
# Environment:
#   SLICEKIT_LOCAL_DIR        directory hack/up.sh used (default: <repo>/.local)
#   LOCALCLUSTER_STOP_TIMEOUT seconds to wait before SIGKILL (default: 60)

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCAL_DIR="${SLICEKIT_LOCAL_DIR:-${REPO_ROOT}/.local}"
PID_FILE="${LOCAL_DIR}/localcluster.pid"
WAIT_SECONDS="${LOCALCLUSTER_STOP_TIMEOUT:-60}"

if [[ ! -f "${PID_FILE}" ]]; then
  echo "localcluster not running (no ${PID_FILE})"
  exit 0
fi

pid="$(cat "${PID_FILE}")"
if [[ ! "${pid}" =~ ^[0-9]+$ ]]; then
  echo "ignoring malformed ${PID_FILE}: ${pid}" >&2
  rm -f "${PID_FILE}"
  exit 0
fi

if ! kill -0 "${pid}" 2>/dev/null; then
  echo "localcluster (pid ${pid}) already gone"
  rm -f "${PID_FILE}" "${LOCAL_DIR}/kubeconfig"
  exit 0
fi
if [[ -r "/proc/${pid}/cmdline" ]] && ! tr '\0' ' ' <"/proc/${pid}/cmdline" | grep -q 'localcluster'; then
  echo "pid ${pid} is not localcluster any more; not touching it" >&2
  rm -f "${PID_FILE}"
  exit 0
fi

echo "stopping localcluster (pid ${pid}) ..."
kill -TERM "${pid}"
for ((i = 0; i < WAIT_SECONDS * 10; i++)); do
  kill -0 "${pid}" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "${pid}" 2>/dev/null; then
  echo "localcluster (pid ${pid}) did not stop within ${WAIT_SECONDS}s; sending SIGKILL" >&2
  echo "etcd and kube-apiserver may be left running; see ${LOCAL_DIR}/controlplane.log" >&2
  kill -KILL "${pid}" 2>/dev/null || true
fi
rm -f "${PID_FILE}"
echo "localcluster stopped"
