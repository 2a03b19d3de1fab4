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

# Builds a local Kubernetes control plane (kube-apiserver and etcd) from Go
# sources in the module cache, so tests and the local cluster need no
# downloaded release binaries.
#
#   bin/kube-apiserver  from tools/controlplane       (k8s.io/kubernetes v1.37.2)
#   bin/etcd            from tools/controlplane/etcd  (go.etcd.io/etcd/server/v3 v3.6.16)
#
# A binary that already exists is reused; delete it (or set FORCE=1) to rebuild.
# A cold build costs about 23 CPU-minutes (kube-apiserver most of it): 5+ minutes
# on an idle 2-core machine, far longer on a busy one.
#
# Environment:
#   SLICEKIT_BIN_DIR  output directory (default: <repo>/bin)
#   FORCE=1           rebuild even if the binaries exist

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN_DIR="${SLICEKIT_BIN_DIR:-${REPO_ROOT}/bin}"
TOOLS_DIR="${REPO_ROOT}/tools/controlplane"
FORCE="${FORCE:-0}"

mkdir -p "${BIN_DIR}"
BIN_DIR="$(cd "${BIN_DIR}" && pwd)"

# The tools modules are not part of any go.work and must resolve their own
# dependencies; -mod=mod lets go fill go.sum gaps instead of failing.
export GOWORK=off
export GOFLAGS="${GOFLAGS:+${GOFLAGS} }-mod=mod"
export CGO_ENABLED="${CGO_ENABLED:-0}"

# build NAME MODULE_DIR PACKAGE [LDFLAGS]
build() {
  local name="$1" dir="$2" pkg="$3" ldflags="${4:-}"
  local out="${BIN_DIR}/${name}"
  if [[ "${FORCE}" != "1" && -x "${out}" ]]; then
    echo "reusing ${out} (delete it or set FORCE=1 to rebuild)"
    return 0
  fi
  echo "building ${out} from ${dir#"${REPO_ROOT}"/} ..."
  local start=${SECONDS}
  # Build to a temporary name so an interrupted build never leaves a
  # truncated binary behind that would be "reused" next time.
  (cd "${dir}" && go build -trimpath -ldflags="-s -w ${ldflags}" -o "${out}.tmp.$$" "${pkg}")
  mv -f "${out}.tmp.$$" "${out}"
  echo "built ${out} in $((SECONDS - start))s"
}

total_start=${SECONDS}
build etcd "${TOOLS_DIR}/etcd" .
# Stamp the release version so /version and clients report v1.37.x rather
# than v0.0.0-master.
kube_version="$(cd "${TOOLS_DIR}" && go list -m -f '{{.Version}}' k8s.io/kubernetes)"
build kube-apiserver "${TOOLS_DIR}" ./kube-apiserver \
  "-X k8s.io/component-base/version.gitVersion=${kube_version} -X k8s.io/component-base/version.gitTreeState=clean"
echo "control plane ready in ${BIN_DIR} (total $((SECONDS - total_start))s)"
