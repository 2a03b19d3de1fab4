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
#                                   versions, then each example's tests, then
#                                   lean and the test module test/library
#   hack/library.sh lean            a fresh module importing every package of
#                                   the library (and nothing else) must not
#                                   gain any of slicekit's heavy dependencies
#                                   in its go.sum; nor may the examples'
#   hack/library.sh matrix [V...]   the library's tests against each k8s.io
#                                   version V (default LIBRARY_K8S_VERSIONS),
#                                   each in a temporary copy of the module whose
#                                   k8s.io requirements are raised to V; the
#                                   root module's own version in its build
#   hack/library.sh tidy            fail when go mod tidy would change the
#                                   library's or an example's go.mod or go.sum
#   hack/library.sh vet             go vet on the library and the examples
#   hack/library.sh check           `slicekit check` on the slices each example
#                                   writes in its test (SLICEKIT: the binary;
#                                   default bin/slicekit, built when missing)
set -o errexit -o nounset -o pipefail
cd "$(dirname "$0")/.."

# v0.34 is the go.mod's own floor, which "test" runs; the matrix adds the
# later minors (the root module's version runs in the root module's build).
LIBRARY_K8S_VERSIONS=${LIBRARY_K8S_VERSIONS:-v0.35.10 v0.36.6 v0.37.2}
# The k8s.io modules the library's go.mod requires, moved together.
k8s_modules="k8s.io/api k8s.io/apimachinery k8s.io/client-go k8s.io/component-base k8s.io/endpointslice"
library=pkg/reconciler
examples=$(ls -d examples/library/*/)
# The dependencies of slicekit's root module that an adopter of the library
# must never inherit (module path patterns, as in go.sum).
heavy='sigs.k8s.io/controller-runtime|github.com/google/cel-go|sigs.k8s.io/kustomize|helm.sh/helm|github.com/google/go-containerregistry|github.com/spf13/cobra|k8s.io/kubernetes '

lean() {
  local tmp fail=0 root=$PWD
  tmp=$(mktemp -d)
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" RETURN
  local pkgs
  pkgs=$(cd "$library" && go list ./... | grep -v /internal/)
  {
    echo "// A consumer that imports every package of the library and nothing else."
    echo "package main"
    echo "import ("
    for p in $pkgs; do echo "	_ \"$p\""; done
    echo ")"
    echo "func main() {}"
  } >"$tmp/main.go"
  (cd "$tmp" && go mod init example.com/adopter >/dev/null 2>&1 &&
    go mod edit -require=github.com/slicekit/slicekit/pkg/reconciler@v0.0.0-00010101000000-000000000000 \
      -replace=github.com/slicekit/slicekit/pkg/reconciler="$root/$library" &&
    go mod tidy >/dev/null 2>&1 && go build ./...) || { echo "lean: a fresh module importing the library does not build"; return 1; }
  local sums="$tmp/go.sum $library/go.sum"
  for e in $examples; do sums="$sums ${e}go.sum"; done
  for f in $sums; do
    if found=$(grep -E "^($heavy)" "$f" | cut -d' ' -f1 | sort -u | tr '\n' ' ') && [ -n "$found" ]; then
      case "$f" in "$tmp"/*) f="the fresh module's go.sum" ;; esac
      echo "lean: $f lists $found"; fail=1
    fi
  done
  [ "$fail" = 0 ] && echo "lean: a fresh module importing the library's $(echo "$pkgs" | wc -w) packages: $(wc -l <"$tmp/go.sum") go.sum lines, none of controller-runtime, cel-go, kustomize, helm, go-containerregistry, cobra, k8s.io/kubernetes (nor in the library's or the examples' go.sum)"
  return "$fail"
}

case "${1:-test}" in
test)
  (cd "$library" && go test -count=1 ./...)
  for e in $examples; do (cd "$e" && go test -count=1 ./...); done
  lean
  (cd test/library && go test -count=1 ./...)
  ;;
lean)
  lean
  ;;
matrix)
  shift || true
  versions=${*:-$LIBRARY_K8S_VERSIONS}
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # The root module's own k8s.io version: there the library's tests run in
  # the root module's build (go test of the library's import paths), which
  # shares the packages make test has compiled.
  root_k8s=$(go list -m -f '{{.Version}}' k8s.io/client-go)
  for v in $versions; do
    start=$(date +%s)
    if [ "$v" = "$root_k8s" ]; then
      # shellcheck disable=SC2046
      go test -count=1 $(cd "$library" && go list ./...) >"$tmp/$v.log" 2>&1 || {
        cat "$tmp/$v.log"; echo "library tests at k8s.io $v (the root module's build): FAIL"; exit 1; }
      echo "library tests at k8s.io $v: ok ($(grep -c '^ok' "$tmp/$v.log") packages, $(( $(date +%s) - start ))s, in the root module's build)"
      continue
    fi
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
  for m in "$library" $examples test/library; do (cd "$m" && go vet ./...); done
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
    # The examples' slice sets (the reconciler's Config.SetLabel).
    "$slicekit" check -f "$f" \
      --slice-set-label remote-clusters.example.com=multicluster.kubernetes.io/source-cluster \
      --slice-set-label network-mirror.example.com=network-mirror.example.com/source-endpointslice || fail=1
  done
  exit "$fail"
  ;;
*) echo "usage: hack/library.sh [test|lean|matrix [VERSION...]|tidy|vet|check]" >&2; exit 2 ;;
esac
