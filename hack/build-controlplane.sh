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

# Builds Kubernetes components from Go sources in the module cache, so tests,
# the local cluster and the upstream e2e run need no downloaded release binaries.
#
#   hack/build-controlplane.sh [COMPONENT...]
#
# Components (default: etcd kube-apiserver kube-controller-manager, what tests
# and `make up` need; test/besidekcm runs the unmodified kube-controller-manager):
#   etcd                     tools/controlplane/etcd (go.etcd.io/etcd/server/v3 v3.6.16)
#   kube-apiserver           tools/controlplane      (k8s.io/kubernetes v1.37.2)
#   kube-controller-manager  tools/controlplane
#   kube-scheduler           tools/controlplane
#   kubectl                  tools/controlplane (k8s.io/kubernetes/cmd/kubectl), for
#                            the Quick start test on machines without kubectl
#   kwok                     tools/kwok (sigs.k8s.io/kwok v0.8.0) and kwok-stages.yaml,
#                            kwok's upstream "fast" Node and Pod Stages
#   e2e.test                 tools/e2e: go test -c k8s.io/kubernetes/test/e2e
#   ginkgo                   tools/e2e: github.com/onsi/ginkgo/v2 v2.32.0
#   e2e                      all of the above (what `make e2e` needs)
#   kube-proxy               tools/dataplane (k8s.io/kubernetes/cmd/kube-proxy), for test/dataplane
#   coredns                  tools/dataplane/coredns (github.com/coredns/coredns, kubernetes plugin)
#   dataplane                kube-proxy and coredns (what `make test-dataplane` adds)
#
# A binary that already exists is reused; delete it (or set FORCE=1) to rebuild.
# A cold build of etcd and kube-apiserver costs about 23 CPU-minutes (kube-apiserver most
# of it; kube-controller-manager then adds a few): 5+ minutes on an idle 2-core machine, far longer on a busy one. The
# other Kubernetes components reuse most of kube-apiserver's compiled packages.
#
# Environment:
#   SLICEKIT_BIN_DIR  output directory (default: <repo>/bin)
#   FORCE=1           rebuild even if the binaries exist

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN_DIR="${SLICEKIT_BIN_DIR:-${REPO_ROOT}/bin}"
TOOLS_DIR="${REPO_ROOT}/tools"
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
  if [[ "${name}" == *.test ]]; then
    (cd "${dir}" && go test -c -trimpath -ldflags="-s -w ${ldflags}" -o "${out}.tmp.$$" "${pkg}")
  else
    (cd "${dir}" && go build -trimpath -ldflags="-s -w ${ldflags}" -o "${out}.tmp.$$" "${pkg}")
  fi
  mv -f "${out}.tmp.$$" "${out}"
  echo "built ${out} in $((SECONDS - start))s"
}

# Stamp the release version so /version and clients report v1.37.x rather
# than v0.0.0-master (the e2e framework logs and checks it).
kube_version() {
  (cd "${TOOLS_DIR}/controlplane" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
}
kube_ldflags() {
  local v
  v="$(kube_version)"
  echo "-X k8s.io/component-base/version.gitVersion=${v} -X k8s.io/component-base/version.gitTreeState=clean"
}

# kwok_stages writes kwok's own "fast" Stages (Nodes turn Ready, scheduled Pods
# Running and Ready with a Pod IP, deleted Pods go away) from the kwok module
# into one config file for `kwok --config`.
kwok_stages() {
  local out="${BIN_DIR}/kwok-stages.yaml" dir f
  if [[ "${FORCE}" != "1" && -s "${out}" ]]; then
    echo "reusing ${out}"
    return 0
  fi
  dir="$(cd "${TOOLS_DIR}/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
  {
    echo "# kwok's upstream fast Stages (sigs.k8s.io/kwok kustomize/stage/{node,pod}/fast), written by hack/build-controlplane.sh"
    for f in "${dir}"/kustomize/stage/node/fast/*.yaml "${dir}"/kustomize/stage/pod/fast/*.yaml; do
      [[ "$(basename "${f}")" == kustomization.yaml ]] && continue
      echo "---"
      cat "${f}"
    done
  } >"${out}.tmp.$$"
  mv -f "${out}.tmp.$$" "${out}"
  echo "wrote ${out}"
}

build_one() {
  case "$1" in
    etcd) build etcd "${TOOLS_DIR}/controlplane/etcd" . ;;
    kube-apiserver | kube-controller-manager | kube-scheduler)
      build "$1" "${TOOLS_DIR}/controlplane" "./$1" "$(kube_ldflags)" ;;
    kubectl) build kubectl "${TOOLS_DIR}/controlplane" k8s.io/kubernetes/cmd/kubectl "$(kube_ldflags)" ;;
    kwok)
      build kwok "${TOOLS_DIR}/kwok" sigs.k8s.io/kwok/cmd/kwok
      kwok_stages ;;
    e2e.test) build e2e.test "${TOOLS_DIR}/e2e" k8s.io/kubernetes/test/e2e "$(kube_ldflags)" ;;
    ginkgo) build ginkgo "${TOOLS_DIR}/e2e" github.com/onsi/ginkgo/v2/ginkgo ;;
    kube-proxy) build kube-proxy "${TOOLS_DIR}/dataplane" ./kube-proxy "$(kube_ldflags)" ;;
    coredns) build coredns "${TOOLS_DIR}/dataplane/coredns" . ;;
    dataplane)
      build_one kube-proxy
      build_one coredns ;;
    e2e)
      for c in etcd kube-apiserver kube-controller-manager kube-scheduler kwok e2e.test ginkgo; do
        build_one "${c}"
      done ;;
    *)
      echo "unknown component $1 (see the comment at the top of $0)" >&2
      return 2 ;;
  esac
}

total_start=${SECONDS}
if [[ $# -eq 0 ]]; then
  set -- etcd kube-apiserver kube-controller-manager
fi
for component in "$@"; do
  build_one "${component}"
done
echo "components ready in ${BIN_DIR} (total $((SECONDS - total_start))s)"
