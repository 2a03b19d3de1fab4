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

# The reconciler library module (pkg/reconciler, its own go.mod) and the
# example controllers built on it (examples/library/*, one module each).
#
#   hack/library.sh test            the library's tests at its go.mod's k8s.io
#                                   versions, then each example's tests
#   hack/library.sh matrix [V...]   the library's tests against each k8s.io
#                                   version V (default LIBRARY_K8S_VERSIONS),
#                                   each in a temporary copy of the module whose
#                                   k8s.io requirements are raised to V
#   hack/library.sh tidy            fail when go mod tidy would change the
#                                   library's or an example's go.mod or go.sum
#   hack/library.sh vet             go vet on the library and the examples
#   hack/library.sh check           `slicekit check` on the slices each example
#                                   writes in its test (SLICEKIT: the binary;
#                                   default bin/slicekit, built when missing)
set -o errexit -o nounset -o pipefail
cd "$(dirname "$0")/.."

LIBRARY_K8S_VERSIONS=${LIBRARY_K8S_VERSIONS:-v0.34.13 v0.35.10 v0.36.6 v0.37.2}
# The k8s.io modules the library's go.mod requires, moved together.
k8s_modules="k8s.io/api k8s.io/apimachinery k8s.io/client-go k8s.io/component-base k8s.io/endpointslice"
library=pkg/reconciler
examples=$(ls -d examples/library/*/)

case "${1:-test}" in
test)
  (cd "$library" && go test -count=1 ./...)
  for e in $examples; do (cd "$e" && go test -count=1 ./...); done
  ;;
matrix)
  shift || true
  versions=${*:-$LIBRARY_K8S_VERSIONS}
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for v in $versions; do
    start=$(date +%s)
    dir="$tmp/$v"
    mkdir -p "$dir"
    cp -r "$library"/. "$dir"/
    reqs=""
    for m in $k8s_modules; do reqs="$reqs -require=$m@$v"; done
    # shellcheck disable=SC2086
    (cd "$dir" && go mod edit $reqs && go mod tidy && go test -count=1 ./... >"$dir.log" 2>&1) || {
      cat "$dir.log" 2>/dev/null; echo "library tests at k8s.io $v: FAIL"; exit 1; }
    echo "library tests at k8s.io $v: ok ($(grep -c '^ok' "$dir.log") packages, $(( $(date +%s) - start ))s, $(sed -n 's/^go //p' "$dir/go.mod") go line)"
  done
  ;;
tidy)
  fail=0
  for m in "$library" $examples; do
    if ! (cd "$m" && go mod tidy -diff >/dev/null 2>&1); then
      echo "$m: go mod tidy changes its go.mod or go.sum: run (cd $m && go mod tidy)"; fail=1
    fi
  done
  exit "$fail"
  ;;
vet)
  for m in "$library" $examples; do (cd "$m" && go vet ./...); done
  ;;
check)
  slicekit=${SLICEKIT:-bin/slicekit}
  if [ ! -x "$slicekit" ]; then go build -o "$slicekit" ./cmd/slicekit; fi
  dumps=$(mktemp -d)
  trap 'rm -rf "$dumps"' EXIT
  for e in $examples; do (cd "$e" && SLICEKIT_EXAMPLE_DUMP="$dumps" go test -count=1 -run '^TestSync$' ./... >/dev/null); done
  fail=0
  for f in "$dumps"/*.json; do
    echo "== examples/library/$(basename "$f" .json): slicekit check"
    "$slicekit" check -f "$f" || fail=1
  done
  exit "$fail"
  ;;
*) echo "usage: hack/library.sh [test|matrix [VERSION...]|tidy|vet|check]" >&2; exit 2 ;;
esac
