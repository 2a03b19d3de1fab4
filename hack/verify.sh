#!/usr/bin/env bash
# Verifies formatting, vet, license headers and go.mod tidiness.
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

# The root module must be tidy (tools modules are checked when they are built).
cp go.mod /tmp/verify-go.mod.$$; cp go.sum /tmp/verify-go.sum.$$
go mod tidy >/dev/null
if ! diff -q /tmp/verify-go.mod.$$ go.mod >/dev/null || ! diff -q /tmp/verify-go.sum.$$ go.sum >/dev/null; then
  echo "go mod tidy changes go.mod or go.sum: run go mod tidy"; fail=1
  cp /tmp/verify-go.mod.$$ go.mod; cp /tmp/verify-go.sum.$$ go.sum
fi
rm -f /tmp/verify-go.mod.$$ /tmp/verify-go.sum.$$

exit $fail
