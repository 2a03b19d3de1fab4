# slicekit Makefile. `make help` lists the targets.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -o errexit -o nounset -o pipefail -c
GO ?= go
GOLANGCI_LINT_VERSION ?= v2.15.0
BIN := $(CURDIR)/bin
BENCH ?= .
BENCHTIME ?= 1x
BENCHCOUNT ?= 5

.DEFAULT_GOAL := help

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_.-]+:.*## / {printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## Build bin/slicekit.
	$(GO) build -o $(BIN)/slicekit ./cmd/slicekit

.PHONY: verify
verify: ## gofmt, go vet, license headers, go.mod tidy.
	hack/verify.sh

.PHONY: test
test: controlplane verify ## Everything CI runs: verify, all tests (unit, differential, integration on a real kube-apiserver), the mirroring differential test.
	$(GO) test -count=1 -timeout 30m $$($(GO) list ./... | grep -v /test/differential)
	@# The differential test against KCM, verbose so the log shows its step count and writes.
	$(GO) test -count=1 -v ./test/differential/ 2>&1 | grep -E '^(--- |ok|FAIL|PASS|panic)|differential \(|difference|check oracle'
	$(MAKE) test-mirroring
	$(MAKE) test-image
	$(MAKE) test-deploy

E2E_MODES ?= slicekit,none
E2E_FLAGS ?=

.PHONY: e2e
e2e: build ## Kubernetes' own e2e tests (EndpointSlice, mirroring, Endpoints) on a simulated cluster: slicekit, then the negative control (E2E_MODES=slicekit,none,kcm).
	@# Check E2E_MODES and E2E_FLAGS before the (long, on a cold cache) build.
	$(GO) run ./hack/e2e -modes '$(E2E_MODES)' $(E2E_FLAGS) -dry-run >/dev/null
	hack/build-controlplane.sh e2e
	$(GO) run ./hack/e2e -modes '$(E2E_MODES)' $(E2E_FLAGS)

.PHONY: test-short
test-short: ## Unit tests only (no control plane needed).
	$(GO) test -short -count=1 ./...

.PHONY: lint
lint: ## golangci-lint (version pinned in GOLANGCI_LINT_VERSION, built from the Go module proxy).
	$(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION) run ./...

.PHONY: bench
bench: ## Benchmarks: slicekit's reconciler and KCM's side by side (BENCH=regexp).
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -count $(BENCHCOUNT) ./test/differential/...

.PHONY: fuzz
fuzz: ## Run the differential fuzz target for FUZZTIME (default 60s).
	$(GO) test -run '^$$' -fuzz FuzzDifferential -fuzztime $${FUZZTIME:-60s} ./test/differential/

include hack/controlplane.mk
include hack/demo.mk
include test/mirroring/mirroring.mk
include tools/image/image.mk
include tools/deploytest/deploytest.mk
