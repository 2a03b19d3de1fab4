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

# Runs README.md's Quick start as written, in a fresh clone of this
# repository's HEAD, and checks its transcript (`make test` runs it):
#
#   1. clones HEAD into a temporary directory (committed files only, as a
#      new user gets them);
#   2. takes the shell block between <!-- quickstart:begin --> and
#      <!-- quickstart:end --> of the clone's README.md and runs it with
#      bash -e (the first failing command fails the test);
#   3. checks the transcript: the slices table of `make apply-examples`, the
#      EndpointSlicesHandedOver Event, `slicekit check` clean, web's slice
#      back;
#   4. always stops what the block started (slicekit, the watch, the
#      control plane) and removes the clone.
#
# The control plane binaries (etcd, kube-apiserver) are reused from
# $SLICEKIT_BIN_DIR or this checkout's bin/ (built by `make controlplane`),
# so the clone does not rebuild them. Needs kubectl, as the Quick start does
# (built into $SLICEKIT_BIN_DIR from the module cache when PATH has none),
# and the ports slicekit uses by default (127.0.0.1:8080, :8081) free.
#
# Environment:
#   QUICKSTART_KEEP=1  keep the clone and its logs

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SLICEKIT_BIN_DIR="${SLICEKIT_BIN_DIR:-${REPO_ROOT}/bin}"

fail() {
  echo "quickstart: $*" >&2
  exit 1
}

# The Quick start uses kubectl. A machine without one (a fresh CI machine)
# gets the upstream kubectl v1.37.2 built from the module cache.
if ! command -v kubectl >/dev/null; then
  [[ -x "${SLICEKIT_BIN_DIR}/kubectl" ]] || "${REPO_ROOT}/hack/build-controlplane.sh" kubectl >&2
  export PATH="${SLICEKIT_BIN_DIR}:${PATH}"
fi
for b in etcd kube-apiserver; do
  [[ -x "${SLICEKIT_BIN_DIR}/${b}" ]] || fail "${SLICEKIT_BIN_DIR}/${b} is missing: run make controlplane first"
done
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in 8080 8081; do
  if port_busy "${p}"; then
    fail "port ${p} on 127.0.0.1 is in use; the Quick start's slicekit run needs it"
  fi
done

work="$(mktemp -d "${TMPDIR:-/tmp}/slicekit-quickstart.XXXXXX")"
clone="${work}/slicekit"
transcript="${work}/transcript.log"
git clone --quiet --no-hardlinks "${REPO_ROOT}" "${clone}"
git -C "${clone}" checkout --quiet --detach "$(git -C "${REPO_ROOT}" rev-parse HEAD)"

script="${work}/quickstart.sh"
awk '/<!-- quickstart:begin -->/ {on=1; next} /<!-- quickstart:end -->/ {on=0} on && !/^```/' \
  "${clone}/README.md" >"${work}/block.sh"
[[ -s "${work}/block.sh" ]] || fail "no Quick start block between the quickstart markers in README.md"
{
  echo 'set -o errexit -o nounset -o pipefail -o xtrace'
  cat "${work}/block.sh"
} >"${script}"

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  # Whatever the block left running: its background jobs are children of
  # the bash that ran it, which is gone; find them by the clone's path.
  if [[ -f "${clone}/.local/localcluster.pid" ]]; then
    (cd "${clone}" && hack/down.sh >/dev/null 2>&1) || true
  fi
  # Processes the block left behind (slicekit, the watch) run in the
  # clone's directory; nothing else does.
  local p
  for p in /proc/[0-9]*; do
    if [[ "$(readlink "${p}/cwd" 2>/dev/null)" == "${clone}" ]]; then
      kill "${p#/proc/}" 2>/dev/null || true
    fi
  done
  if [[ "${rc}" != "0" ]]; then
    echo "quickstart FAILED (exit ${rc}); transcript: ${transcript}; slicekit log: ${clone}/.local/slicekit.log" >&2
    tail -n 40 "${transcript}" >&2 || true
  elif [[ "${QUICKSTART_KEEP:-0}" != "1" ]]; then
    rm -rf "${work}"
  fi
  exit "${rc}"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "quickstart: running README.md's Quick start in ${clone}"
start=${SECONDS}
(cd "${clone}" && env -u KUBECONFIG bash "${script}") >"${transcript}" 2>&1 &
block_pid=$!
wait "${block_pid}" || fail "a Quick start command failed"

expect() {
  grep -q -- "$1" "${transcript}" || fail "the transcript lacks ${2}: ${1}"
}
expect 'ENDPOINTSLICE' 'the slices table of make apply-examples'
expect 'EndpointSlicesHandedOver' 'the hand-over Event'
expect 'No findings' 'a clean slicekit check'
expect '^web-[a-z0-9]\{5\} ' "web's slice published again after the label was removed"
echo "quickstart: every command ran as written in $((SECONDS - start))s; transcript checks passed"
