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

# The library's compatibility check (golang.org/x/exp/cmd/apidiff, version
# pinned in APIDIFF_VERSION), run by hack/verify.sh.
#
#   hack/apidiff.sh check    compare every library package with the baseline and
#                            fail on an incompatible change (a package gone counts);
#                            fail when the baseline has no CHANGELOG.md entry
#   hack/apidiff.sh update   make the committed HEAD the baseline (api/BASELINE
#                            holds its commit); then add the CHANGELOG.md entry
#                            "## API baseline <commit>" saying what broke and why
#
# The baseline is a commit of this repository: the check extracts the library
# packages' source at that commit (git archive) and compares their export data
# with the working tree's. Breaking the library on purpose is two commits: the
# change (verify fails), then `hack/apidiff.sh update` + the CHANGELOG entry.
#
# The library is what a custom controller or a conformance run imports: the
# reconciler, the sources, the Service controller engine and what wires it
# (informer transforms, input kinds, the Pod cache, well-known names), the
# checker and the conformance suite. Commands, the controllers' wiring,
# internal/ and test/ are not part of it.
set -o errexit -o nounset -o pipefail
cd "$(dirname "$0")/.."

APIDIFF_VERSION=${APIDIFF_VERSION:-v0.0.0-20261113113407-e3970619a1a4}
patterns="./pkg/source/... ./pkg/slicecontroller/... ./pkg/informertransform/...
  ./pkg/inputkinds/... ./pkg/podcache/... ./pkg/wellknown/... ./pkg/check/... ./conformance/..."
# The reconciler (pkg/reconciler/...) is a module of its own, checked the
# same way from its folder (at a baseline from before it was one, from the
# root module).
library=pkg/reconciler

# list_packages ROOT: the library packages of the tree at ROOT, one
# "<folder to load it from> <import path>" per line.
list_packages() {
  local root=$1 pat
  for pat in $patterns; do
    (cd "$root" && go list "$pat" 2>/dev/null || true) | sed "s#^#${root} #"
  done
  if [ -f "$root/$library/go.mod" ]; then
    (cd "$root/$library" && go list ./... 2>/dev/null || true) | sed "s#^#${root}/${library} #"
  else
    (cd "$root" && go list "./$library/..." 2>/dev/null || true) | sed "s#^#${root} #"
  fi
}

gobin="$PWD/bin/apidiff-${APIDIFF_VERSION}"
if [ ! -x "$gobin/apidiff" ]; then
  GOBIN="$gobin" go install "golang.org/x/exp/cmd/apidiff@${APIDIFF_VERSION}"
fi
apidiff="$gobin/apidiff"

case "${1:-check}" in
update)
  if ! git diff --quiet HEAD -- pkg conformance go.mod; then # pkg/reconciler/go.mod included
    echo "commit the library change first: the baseline is a commit" >&2; exit 1
  fi
  mkdir -p api
  git rev-parse HEAD >api/BASELINE
  c=$(cat api/BASELINE)
  echo "API baseline: ${c}. Add to CHANGELOG.md a section \"## API baseline ${c:0:12}\" saying what changed incompatibly and why, and commit both."
  ;;
check)
  c=$(cat api/BASELINE)
  if ! grep -q "^## API baseline ${c:0:12}" CHANGELOG.md; then
    echo "api/BASELINE is ${c:0:12} but CHANGELOG.md has no \"## API baseline ${c:0:12}\" section: say what changed and why"
    exit 1
  fi
  if ! git cat-file -e "${c}^{commit}" 2>/dev/null; then
    if [ "$(git rev-parse --is-shallow-repository)" = true ] && git fetch -q --unshallow 2>/dev/null \
        && git cat-file -e "${c}^{commit}" 2>/dev/null; then :; else
      echo "the API baseline commit ${c:0:12} is not in this clone (shallow?): API compatibility not checked" >&2
      exit 0
    fi
  fi
  old=$(mktemp -d); new=$(mktemp -d)
  trap 'rm -rf "$old" "$new"' EXIT
  git archive "$c" | tar -x -C "$old"
  # The baseline's source is loaded with today's dependency versions (the
  # root module's go.mod and go.sum), so that both sides are compared
  # against the same k8s.io/* and the baseline's packages reuse what the
  # build has compiled (with the baseline's own go.mod a dependency bump
  # since then meant compiling client-go & co. a second time). When the
  # baseline imports a module today's go.mod no longer has, it keeps its own.
  cp "$old/go.mod" "$old/go.mod.baseline"; cp "$old/go.sum" "$old/go.sum.baseline"
  cp go.mod go.sum "$old/"
  # shellcheck disable=SC2086
  if ! (cd "$old" && go list -deps $patterns >/dev/null 2>&1); then
    mv "$old/go.mod.baseline" "$old/go.mod"; mv "$old/go.sum.baseline" "$old/go.sum"
  fi
  module=$(go list -m)
  # A pattern that matches nothing at the baseline (a folder added since) is
  # left out there; one that matched and now lists fewer packages is a loss.
  oldpkgs=$(list_packages "$old")
  newpkgs=$(list_packages "$PWD")
  fail=0
  while read -r odir p; do
    [ -n "$p" ] || continue
    f=$(echo "${p#"${module}"/}" | tr / _).export
    ndir=$(awk -v p="$p" '$2 == p {print $1}' <<<"$newpkgs")
    if [ -z "$ndir" ]; then
      echo "library package ${p} is gone (or renamed): an incompatible change"; fail=1; continue
    fi
    (cd "$odir" && "$apidiff" -w "$old/$f" "$p")
    out=$(cd "$ndir" && "$apidiff" -incompatible "$old/$f" "$p")
    if [ -n "$out" ]; then
      echo "incompatible change to the library API of ${p}:"; echo "$out" | sed 's/^/  /'
      fail=1
    fi
  done <<<"$oldpkgs"
  if [ "$fail" -ne 0 ]; then
    echo "Custom controllers import this library: break it only on purpose. Commit, then"
    echo "hack/apidiff.sh update and a CHANGELOG.md entry (see the script's header)."
  fi
  exit "$fail"
  ;;
*) echo "usage: hack/apidiff.sh [check|update]" >&2; exit 2 ;;
esac
