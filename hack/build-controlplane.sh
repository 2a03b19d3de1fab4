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
#   KUBE_VERSION=v1.32.13 hack/build-controlplane.sh [COMPONENT...]
#   KUBE_VERSION=v1.32.13 hack/build-controlplane.sh --bin-dir   # print where they go
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
#   e2e.test                 tools/controlplane: go test -c k8s.io/kubernetes/test/e2e
#                            (one module with kube-apiserver, so the packages
#                            they share compile once)
#   ginkgo                   tools/controlplane: github.com/onsi/ginkgo/v2 v2.32.0
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
# Other Kubernetes versions: with KUBE_VERSION set to a release other than
# tools/controlplane's (any k8s.io/kubernetes version the Go module proxy
# serves, e.g. v1.32.13), kube-apiserver, kube-controller-manager,
# kube-scheduler and kubectl are built from that release into
# <repo>/bin/kube-<version>/, from a module generated in the gitignored
# <repo>/bin/.skew/<version>/: `require k8s.io/kubernetes <version>` plus that
# release's own staging replace block (from its go.mod, each ./staging/src/k8s.io/X
# mapped to the published k8s.io/X v0.<minor>.<patch>), and the same main.go
# files as tools/controlplane. etcd is the same 3.6.16 for every version
# (its v3 API serves kube-apiserver 1.32 and later): it is built in (or reused
# from) the default directory and linked into the version's directory. A
# reused kube-* binary must report the wanted version, else it is rebuilt.
#
# Environment:
#   KUBE_VERSION      Kubernetes release to build (default: tools/controlplane's, v1.37.2)
#   SLICEKIT_BIN_DIR  output directory for the default version (default: <repo>/bin);
#                     other versions always go to <repo>/bin/kube-<version>
#   FORCE=1           rebuild even if the binaries exist

set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEFAULT_BIN_DIR="${SLICEKIT_BIN_DIR:-${REPO_ROOT}/bin}"
TOOLS_DIR="${REPO_ROOT}/tools"
FORCE="${FORCE:-0}"

# The Kubernetes release tools/controlplane pins (read from its go.mod, no go
# invocation needed).
DEFAULT_KUBE_VERSION="$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v1\./ { print $2; exit }' "${TOOLS_DIR}/controlplane/go.mod")"
KUBE_VERSION="${KUBE_VERSION:-${DEFAULT_KUBE_VERSION}}"
if [[ ! "${KUBE_VERSION}" =~ ^v1\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "KUBE_VERSION=${KUBE_VERSION}: want a Kubernetes release such as v1.32.13" >&2
  exit 2
fi
# KUBE_MODULE_DIR is the module the kube-* components are built from.
if [[ "${KUBE_VERSION}" == "${DEFAULT_KUBE_VERSION}" ]]; then
  BIN_DIR="${DEFAULT_BIN_DIR}"
  KUBE_MODULE_DIR="${TOOLS_DIR}/controlplane"
else
  BIN_DIR="${REPO_ROOT}/bin/kube-${KUBE_VERSION}"
  KUBE_MODULE_DIR="${REPO_ROOT}/bin/.skew/${KUBE_VERSION}"
fi

if [[ "${1:-}" == "--bin-dir" ]]; then
  echo "${BIN_DIR}"
  exit 0
fi

mkdir -p "${BIN_DIR}"
BIN_DIR="$(cd "${BIN_DIR}" && pwd)"

# The tools modules are not part of any go.work and must resolve their own
# dependencies; -mod=mod lets go fill go.sum gaps instead of failing.
export GOWORK=off
export GOFLAGS="${GOFLAGS:+${GOFLAGS} }-mod=mod"
export CGO_ENABLED="${CGO_ENABLED:-0}"

# stamped_version BINARY prints the Kubernetes version a kube-* binary reports
# (`--version`: "Kubernetes v1.37.2"), or nothing.
stamped_version() {
  local out
  out="$("$1" --version 2>/dev/null)" || return 0
  echo "${out##* }"
}

# build NAME MODULE_DIR PACKAGE [LDFLAGS]
build() {
  local name="$1" dir="$2" pkg="$3" ldflags="${4:-}"
  local out="${BIN_DIR}/${name}"
  if [[ "${FORCE}" != "1" && -x "${out}" ]]; then
    local have=""
    case "${name}" in
      kube-apiserver | kube-controller-manager | kube-scheduler) have="$(stamped_version "${out}")" ;;
    esac
    if [[ -z "${have}" || "${have}" == "${KUBE_VERSION}" ]]; then
      echo "reusing ${out} (delete it or set FORCE=1 to rebuild)"
      return 0
    fi
    echo "${out} is ${have}, not ${KUBE_VERSION}: rebuilding"
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
  (cd "${KUBE_MODULE_DIR}" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
}
kube_ldflags() {
  local v
  v="$(kube_version)"
  echo "-X k8s.io/component-base/version.gitVersion=${v} -X k8s.io/component-base/version.gitTreeState=clean"
}

# skew_module writes the module of a non-default KUBE_VERSION into
# KUBE_MODULE_DIR (once): that release's go directive and godebug lines, a
# require of k8s.io/kubernetes, its staging replace block pointed at the
# published staging modules, and tools/controlplane's main.go files.
skew_module() {
  [[ "${KUBE_MODULE_DIR}" == "${TOOLS_DIR}/controlplane" ]] && return 0
  if [[ "${FORCE}" != "1" && -s "${KUBE_MODULE_DIR}/go.mod" ]]; then
    return 0
  fi
  local gomod staging_version
  echo "generating ${KUBE_MODULE_DIR#"${REPO_ROOT}"/} for k8s.io/kubernetes ${KUBE_VERSION} ..."
  gomod="$(cd "${TOOLS_DIR}/controlplane" && go mod download -json "k8s.io/kubernetes@${KUBE_VERSION}" |
    sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')"
  if [[ ! -s "${gomod}" ]]; then
    echo "cannot download k8s.io/kubernetes@${KUBE_VERSION} from the Go module proxy" >&2
    return 1
  fi
  staging_version="v0.${KUBE_VERSION#v1.}"
  rm -rf "${KUBE_MODULE_DIR}"
  mkdir -p "${KUBE_MODULE_DIR}"
  {
    echo "// Generated by hack/build-controlplane.sh from k8s.io/kubernetes@${KUBE_VERSION}'s go.mod; do not edit."
    echo "module slicekit.local/controlplane-${KUBE_VERSION}"
    echo
    grep -E '^(go|godebug) ' "${gomod}"
    echo
    echo "require k8s.io/kubernetes ${KUBE_VERSION}"
    echo
    echo "replace ("
    awk -v v="${staging_version}" '
      /^replace \(/ { in_block = 1; next }
      in_block && /^\)/ { exit }
      in_block && $2 == "=>" && $3 ~ /^\.\/staging\/src\// { printf "\t%s => %s %s\n", $1, $1, v }
    ' "${gomod}"
    echo ")"
  } >"${KUBE_MODULE_DIR}/go.mod"
  if ! grep -q '=> k8s.io/api ' "${KUBE_MODULE_DIR}/go.mod"; then
    echo "no staging replace block found in ${gomod}" >&2
    return 1
  fi
  # The proxy does not serve every staging module at every patch (it has
  # no k8s.io/endpointslice v0.32.13, say): use that module's newest served
  # patch of the same minor below it, and say so.
  local mod served
  for mod in $(awk '$2 == "=>" { print $1 }' "${KUBE_MODULE_DIR}/go.mod"); do
    if (cd "${KUBE_MODULE_DIR}" && go mod download "${mod}@${staging_version}" >/dev/null 2>&1); then
      continue
    fi
    served="$(cd "${KUBE_MODULE_DIR}" && go list -m -versions "${mod}" 2>/dev/null | tr ' ' '\n' |
      awk -v want="${staging_version}" '
        BEGIN { split(want, w, "."); }
        { split($1, v, "."); if (v[1] == w[1] && v[2] == w[2] && v[3] + 0 < w[3] + 0 && v[3] + 0 >= best) { best = v[3] + 0; out = $1 } }
        END { print out }')" || served=""
    if [[ -z "${served}" ]]; then
      # Harmless unless the build imports it (go build then names it).
      echo "the Go module proxy serves no ${mod} ${staging_version%.*}.x at or below ${staging_version}: left as it is"
      continue
    fi
    echo "the Go module proxy has no ${mod} ${staging_version}: using ${served}"
    sed -i "s#^\t${mod} => ${mod} ${staging_version}\$#\t${mod} => ${mod} ${served}#" "${KUBE_MODULE_DIR}/go.mod"
  done
  local c
  for c in kube-apiserver kube-controller-manager kube-scheduler; do
    mkdir -p "${KUBE_MODULE_DIR}/${c}"
    cp "${TOOLS_DIR}/controlplane/${c}/main.go" "${KUBE_MODULE_DIR}/${c}/main.go"
  done
}

# etcd_for_version: the default version builds etcd in BIN_DIR; another
# version reuses (building it if needed) the default directory's etcd and
# links it into BIN_DIR.
etcd_for_version() {
  if [[ "${BIN_DIR}" == "$(mkdir -p "${DEFAULT_BIN_DIR}" && cd "${DEFAULT_BIN_DIR}" && pwd)" ]]; then
    build etcd "${TOOLS_DIR}/controlplane/etcd" .
    return
  fi
  (BIN_DIR="$(cd "${DEFAULT_BIN_DIR}" && pwd)" && build etcd "${TOOLS_DIR}/controlplane/etcd" .)
  local src
  src="$(cd "${DEFAULT_BIN_DIR}" && pwd)/etcd"
  if [[ "${FORCE}" == "1" || ! -x "${BIN_DIR}/etcd" || ! "${src}" -ef "${BIN_DIR}/etcd" ]]; then
    ln -f "${src}" "${BIN_DIR}/etcd" 2>/dev/null || cp -f "${src}" "${BIN_DIR}/etcd"
    echo "linked ${BIN_DIR}/etcd to ${src}"
  fi
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
    etcd) etcd_for_version ;;
    kube-apiserver | kube-controller-manager | kube-scheduler)
      skew_module
      build "$1" "${KUBE_MODULE_DIR}" "./$1" "$(kube_ldflags)" ;;
    kubectl)
      skew_module
      build kubectl "${KUBE_MODULE_DIR}" k8s.io/kubernetes/cmd/kubectl "$(kube_ldflags)" ;;
    kwok)
      build kwok "${TOOLS_DIR}/kwok" sigs.k8s.io/kwok/cmd/kwok
      kwok_stages ;;
    e2e.test) build e2e.test "${TOOLS_DIR}/controlplane" k8s.io/kubernetes/test/e2e "$(kube_ldflags)" ;;
    ginkgo) build ginkgo "${TOOLS_DIR}/controlplane" github.com/onsi/ginkgo/v2/ginkgo ;;
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

# Only the control-plane components exist for other versions; the rest are
# pinned in their own modules.
if [[ "${KUBE_VERSION}" != "${DEFAULT_KUBE_VERSION}" ]]; then
  for component in "$@"; do
    case "${component}" in
      etcd | kube-apiserver | kube-controller-manager | kube-scheduler | kubectl) ;;
      *)
        echo "${component} is built only for ${DEFAULT_KUBE_VERSION}; with KUBE_VERSION=${KUBE_VERSION} build etcd, kube-apiserver, kube-controller-manager, kube-scheduler or kubectl" >&2
        exit 2 ;;
    esac
  done
fi

total_start=${SECONDS}
if [[ $# -eq 0 ]]; then
  set -- etcd kube-apiserver kube-controller-manager
fi
for component in "$@"; do
  build_one "${component}"
done
echo "components (Kubernetes ${KUBE_VERSION}) ready in ${BIN_DIR} (total $((SECONDS - total_start))s)"
