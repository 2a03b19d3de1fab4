#!/usr/bin/env bash
# Verifies formatting, vet, license headers, package layering and the
# architecture page drawn from it (hack/layers), go.mod
# tidiness, the library's API compatibility (hack/apidiff.sh), golangci-lint with the committed .golangci.yml (version pinned in
# the Makefile, GOLANGCI_LINT_VERSION, built from the Go module proxy) and
# that no tracked file reaches outside the repository.
set -o errexit -o nounset -o pipefail
cd "$(dirname "$0")/.."

fail=0
files=$(git ls-files --cached --others --exclude-standard '*.go')

unformatted=$(gofmt -l $files)
if [ -n "$unformatted" ]; then
  echo "gofmt needed on:"; echo "$unformatted"; fail=1
fi

for f in $files; do
  if ! head -n 5 "$f" | grep -q "Licensed under the Apache License"; then
    if ! head -n 20 "$f" | grep -q "Licensed under the Apache License"; then
      echo "missing license header: $f"; fail=1
    fi
  fi
done

go vet ./...
# The reconciler library (pkg/reconciler) and the example controllers
# (examples/library/*) are modules of their own, outside ./... above.
hack/library.sh vet
echo "verify: vet done after ${SECONDS}s"

# Layering: every package of the module in a declared layer, imports only
# going down the layers, the rules beyond them (hack/layers/layers.go), and
# docs/architecture.md's package map equal to what `go list` gives
# (`make architecture` redraws it).
if ! go run ./hack/layers; then
  echo "package layering or docs/architecture.md (hack/layers; make architecture redraws the page)"; fail=1
fi

# The repository stands alone: no tracked file may refer to a folder beside
# the checkout (such as the workplace's shared folder) or to a machine's absolute paths (the folder that
# holds the checkout, home folders). Test data lives in testdata/, facts in docs/.
parent="$(cd .. && pwd)"
# A checkout directly under / or a shared temporary folder has no parent of
# its own to leak: tests name /tmp paths on purpose.
case "${parent}" in / | /tmp | /var/tmp) parent="/nonexistent-parent-of-$$" ;; esac
outside=$( { git grep -nIE '\.\./shared([/"` ]|$)' -- . ':!hack/verify.sh' || true;
             git grep -nIF "${parent}/" -- . || true;
             git grep -nIE '(^|[^A-Za-z0-9_.~-])/(home|root|Users)/[A-Za-z0-9_.-]+' -- . ':!hack/verify.sh' || true; } | head -20)
if [ -n "$outside" ]; then
  echo "tracked files refer to paths outside the repository (copy what they need into testdata/ or docs/):"
  echo "$outside"; fail=1
fi

# golangci-lint with the committed configuration (.golangci.yml); a run
# waits for another golangci-lint on the machine (--allow-serial-runners)
# instead of failing. The first
# run builds golangci-lint (about 3 minutes on 2 cores); later runs reuse the
# Go build cache.
lint_version=${GOLANGCI_LINT_VERSION:-$(sed -n 's/^GOLANGCI_LINT_VERSION ?= *//p' Makefile)}
if ! go run "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@${lint_version}" run --allow-serial-runners ./...; then
  echo "golangci-lint ${lint_version} found issues (configuration: .golangci.yml)"; fail=1
fi
# The same configuration on the library module and the examples, modules of
# their own (golangci-lint finds .golangci.yml in a parent folder).
for m in pkg/reconciler examples/library/*/ test/library; do
  if ! (cd "$m" && go run "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@${lint_version}" run --allow-serial-runners ./...); then
    echo "golangci-lint ${lint_version} found issues in the module $m"; fail=1
  fi
done

echo "verify: golangci-lint done after ${SECONDS}s"

# The library's API (what custom controllers import) against the recorded
# baseline (golang.org/x/exp/cmd/apidiff; api/BASELINE, CHANGELOG.md).
if ! hack/apidiff.sh check; then
  echo "incompatible library API change (hack/apidiff.sh explains how to record one on purpose)"; fail=1
fi

# The root module must be tidy (tools modules are checked when they are built).
cp go.mod /tmp/verify-go.mod.$$; cp go.sum /tmp/verify-go.sum.$$
go mod tidy >/dev/null
if ! diff -q /tmp/verify-go.mod.$$ go.mod >/dev/null || ! diff -q /tmp/verify-go.sum.$$ go.sum >/dev/null; then
  echo "go mod tidy changes go.mod or go.sum: run go mod tidy"; fail=1
  cp /tmp/verify-go.mod.$$ go.mod; cp /tmp/verify-go.sum.$$ go.sum
fi
rm -f /tmp/verify-go.mod.$$ /tmp/verify-go.sum.$$
# Every module the root module's packages and tests build from is at the
# version tools/controlplane (kube-apiserver, kube-controller-manager,
# e2e.test) selects, so client-go, k8s.io/api, apimachinery, cel-go,
# protobuf & co. compile once for both: on a cold cache this is several
# minutes of CI (docs/testing.md). Bumping one of them means bumping it in
# both modules (or Kubernetes itself in tools/controlplane).
root_mods=$(go list -deps -test -f '{{with .Module}}{{if not .Main}}{{.Path}} {{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}{{end}}{{end}}' ./... | sort -u)
cp_mods=$(cd tools/controlplane && go list -m -f '{{.Path}} {{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}' all | sort -u)
misaligned=$(join <(echo "$root_mods") <(echo "$cp_mods") | awk '$2 != $3 {print "  "$1": root module "$2", tools/controlplane "$3}')
if [ -n "$misaligned" ]; then
  echo "the root module and tools/controlplane select different versions of modules both build (they must compile once; set the root's with go get):"
  echo "$misaligned"; fail=1
fi
# The modules that use this checkout's packages (replace => ../..) must stay
# tidy when those packages gain imports: a missing go.sum line fails them
# only when their tests run.
if ! hack/library.sh tidy; then fail=1; fi
for m in test/library test/mirroring tools/deploytest tools/dataplane tools/dataplane/coredns; do
  if ! (cd "$m" && go mod tidy -diff >/dev/null 2>&1); then
    echo "$m: go mod tidy changes its go.mod or go.sum: run (cd $m && go mod tidy)"; fail=1
  fi
done

echo "verify: done after ${SECONDS}s"
exit $fail
