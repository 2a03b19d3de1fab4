# slicekit Makefile. `make help` lists the targets.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -o errexit -o nounset -o pipefail -c
GO ?= go
GOLANGCI_LINT_VERSION ?= v2.15.0
# Everything compiles as the release image's binary does (static, no build
# paths: CGO_ENABLED=0, -trimpath), so the image build (tools/image) reuses
# the packages the tests compiled instead of compiling them again.
export CGO_ENABLED ?= 0
export GOFLAGS := $(strip $(GOFLAGS) -trimpath)
BIN := $(CURDIR)/bin
# elapsed prints how long this make has run, in seconds, and what is done
# (CI's log shows where a run's time goes: docs/testing.md).
MAKE_START := $(shell date +%s)
elapsed = echo "make: $(1) after $$(( $$(date +%s) - $(MAKE_START) ))s"
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

# Where install-plugin puts kubectl-slicekit: GOBIN, else GOPATH/bin.
PLUGIN_DIR ?= $(or $(shell $(GO) env GOBIN),$(shell $(GO) env GOPATH)/bin)

.PHONY: install-plugin
install-plugin: build ## Install bin/slicekit as the kubectl plugin kubectl-slicekit in PLUGIN_DIR (default: GOBIN or GOPATH/bin; must be on PATH).
	install -d '$(PLUGIN_DIR)'
	install -m 0755 $(BIN)/slicekit '$(PLUGIN_DIR)/kubectl-slicekit'
	@echo "Installed $(PLUGIN_DIR)/kubectl-slicekit: try 'kubectl slicekit version'."

# plugin-archives: the release archives plugins/krew/slicekit.yaml points to.
PLUGIN_VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo v0.0.0-dev)
PLUGIN_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64

.PHONY: plugin-archives
plugin-archives: ## Build bin/plugin/slicekit_<PLUGIN_VERSION>_<os>_<arch>.tar.gz (binary and LICENSE) for PLUGIN_PLATFORMS, the archives of the krew manifest.
	@for p in $(PLUGIN_PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
	  dir=$(BIN)/plugin/slicekit_$(PLUGIN_VERSION)_$${os}_$${arch}; \
	  rm -rf "$$dir"; mkdir -p "$$dir"; \
	  echo "building $$dir.tar.gz"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -o "$$dir/slicekit$$ext" ./cmd/slicekit; \
	  cp LICENSE "$$dir/"; \
	  tar -C "$$dir" -czf "$$dir.tar.gz" "slicekit$$ext" LICENSE; \
	  rm -rf "$$dir"; \
	done
	@cd $(BIN)/plugin && sha256sum slicekit_$(PLUGIN_VERSION)_*.tar.gz

.PHONY: architecture
architecture: ## Redraw docs/architecture.md's layers and package map from `go list` (hack/layers; make verify fails when it is stale).
	$(GO) run ./hack/layers -write

.PHONY: verify
verify: ## gofmt, go vet, license headers, package layering and docs/architecture.md (hack/layers), library API compatibility (hack/apidiff.sh), golangci-lint (.golangci.yml), go.mod tidy.
	GOLANGCI_LINT_VERSION=$(GOLANGCI_LINT_VERSION) hack/verify.sh

.PHONY: test
test: controlplane verify ## Everything CI runs: verify, all tests (unit, fuzz seeds, differential, integration on a real kube-apiserver), the mirroring differential test, the README's Quick start.
	@$(call elapsed,control plane built and verify passed)
	$(GO) test -count=1 -timeout 30m $$($(GO) list ./... | grep -v /test/differential)
	@$(call elapsed,go test ./... passed)
	@# The differential test against KCM, verbose so the log shows its step count and writes.
	$(GO) test -count=1 -v ./test/differential/ 2>&1 | grep -E '^(--- |ok|FAIL|PASS|panic)|differential \(|difference|check oracle|consumer oracle'
	$(MAKE) test-mirroring
	@$(call elapsed,differential and mirroring tests passed)
	$(MAKE) test-library
	@$(call elapsed,library tests passed)
	$(MAKE) test-image
	@$(call elapsed,image test passed)
	$(MAKE) test-deploy
	@$(call elapsed,deploy test passed)
	@# README.md's Quick start, run as written in a fresh clone of HEAD.
	hack/quickstart.sh
	@$(call elapsed,Quick start passed)

# The k8s.io versions test-library-matrix runs the library's tests against
# (the newest patch of each minor above the go.mod's own v0.34 floor, which
# test-library runs; the root module's v0.37.2 runs in the root module's build).
LIBRARY_K8S_VERSIONS ?= v0.35.10 v0.36.6 v0.37.2

.PHONY: test-library
test-library: ## The reconciler library module's tests (pkg/reconciler, at its go.mod's k8s.io versions), the example controllers' (examples/library/*), the proof that an adopter inherits no heavy dependency (hack/library.sh lean), and the examples' slices judged by check and the conformance assertions (test/library).
	hack/library.sh test

.PHONY: test-library-matrix
test-library-matrix: ## The library module's tests against each k8s.io version of LIBRARY_K8S_VERSIONS, each in a temporary copy of the module.
	LIBRARY_K8S_VERSIONS='$(LIBRARY_K8S_VERSIONS)' hack/library.sh matrix

E2E_MODES ?= slicekit,none
E2E_FLAGS ?=

.PHONY: e2e
e2e: build ## Kubernetes' own e2e tests (EndpointSlice, mirroring, Endpoints) on a simulated cluster: slicekit, then the negative control (E2E_MODES=slicekit,none,kcm).
	@# Check E2E_MODES and E2E_FLAGS before the (long, on a cold cache) build.
	$(GO) run ./test/e2e -modes '$(E2E_MODES)' $(E2E_FLAGS) -dry-run >/dev/null
	hack/build-controlplane.sh e2e
	$(GO) run ./test/e2e -modes '$(E2E_MODES)' $(E2E_FLAGS)

.PHONY: test-short
test-short: ## Unit tests only (no control plane needed).
	$(GO) test -short -count=1 ./...

.PHONY: lint
lint: ## golangci-lint (version pinned in GOLANGCI_LINT_VERSION, built from the Go module proxy) on the root module, the library module, its examples and test/library.
	$(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION) run --allow-serial-runners ./...
	for m in pkg/reconciler examples/library/*/ test/library; do (cd $$m && $(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION) run --allow-serial-runners ./...) || exit 1; done

.PHONY: bench
bench: ## Benchmarks: slicekit's reconciler and KCM's side by side (BENCH=regexp).
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -count $(BENCHCOUNT) ./test/differential/...

# bench-render knobs: BENCH_RENDER selects sizes (pods=1k, pods=10k, pods=100k, pods=100k-json, pods=100k-list, minpods=10k, minpods=100k,
# services=1k×10, services=10k×10); BENCH_RENDER_LARGE= (empty) skips the 100k sizes.
BENCH_RENDER ?= BenchmarkRender
BENCH_RENDER_LARGE ?= 1

.PHONY: bench-render
bench-render: ## Render benchmark: `slicekit render` of realistic Pods (1k/10k/100k Pods, 1k and 10k Services × 10 Pods) beside KCM's EndpointSlice reconciler on the same input; cpu-s/op, peak-RSS-MB (BENCH_RENDER=regexp).
	SLICEKIT_BENCH_LARGE=$(BENCH_RENDER_LARGE) $(GO) test -run '^$$' -bench '$(BENCH_RENDER)' -benchtime 1x -timeout 3h ./pkg/render/

# bench-live knobs (see test/benchlive): BENCH_LIVE_SERVICES is a list (1,1000,5000: N Services
# in one namespace each, compared in a summary); BENCH_LIVE_SMALL=1 is a quick run
# (one Service of 200 Pods, 100 Services × 5 Pods, 20 flips, a roll of 200 Pods).
BENCH_LIVE_SMALL ?=
ifneq ($(BENCH_LIVE_SMALL),)
BENCH_LIVE_SIZES ?= 200
BENCH_LIVE_SERVICES ?= 100
BENCH_LIVE_FLIPS ?= 20
BENCH_LIVE_ROLL_PODS ?= 200
endif
BENCH_LIVE_SIZES ?= 1000,10000
BENCH_LIVE_SERVICES ?= 1000
BENCH_LIVE_PODS_PER_SERVICE ?= 5
BENCH_LIVE_FLIPS ?= 100
BENCH_LIVE_ROLL_PODS ?= 1000
BENCH_LIVE_ROLL_STEP ?= 25
BENCH_LIVE_ORDER ?= kcm,slicekit
BENCH_LIVE_FLAGS ?=
BENCH_LIVE_NICE ?= nice -n 10
BENCH_LIVE_OUT ?= $(BIN)/bench-live.md

.PHONY: bench-live
bench-live: build ## Live benchmark: KCM's EndpointSlice controller, then `slicekit run`, on one kube-apiserver; Markdown table to stdout and BENCH_LIVE_OUT (knobs: BENCH_LIVE_SIZES, _SERVICES, _FLIPS, _ROLL_PODS, ...; BENCH_LIVE_SMALL=1 quick).
	hack/build-controlplane.sh etcd kube-apiserver kube-controller-manager
	$(GO) build -o $(BIN)/benchlive ./test/benchlive
	$(BENCH_LIVE_NICE) $(BIN)/benchlive -slicekit $(BIN)/slicekit -out '$(BENCH_LIVE_OUT)' -artifacts $(BIN)/bench-live \
	  -sizes '$(BENCH_LIVE_SIZES)' -services $(BENCH_LIVE_SERVICES) -pods-per-service $(BENCH_LIVE_PODS_PER_SERVICE) \
	  -flips $(BENCH_LIVE_FLIPS) -roll-pods $(BENCH_LIVE_ROLL_PODS) -roll-step $(BENCH_LIVE_ROLL_STEP) \
	  -order '$(BENCH_LIVE_ORDER)' $(BENCH_LIVE_FLAGS)

.PHONY: fuzz
fuzz: ## Run the differential fuzz target, the incremental-vs-full planner target, then the render/check input fuzz target, each for FUZZTIME (default 60s).
	$(GO) test -run '^$$' -fuzz FuzzDifferential -fuzztime $${FUZZTIME:-60s} ./test/differential/
	$(GO) test -run '^$$' -fuzz FuzzIncremental -fuzztime $${FUZZTIME:-60s} ./pkg/source/servicepods/
	$(GO) test -run '^$$' -fuzz FuzzRenderAndCheck -fuzztime $${FUZZTIME:-60s} ./cmd/slicekit/app/

include hack/controlplane.mk
include hack/demo.mk
include test/mirroring/mirroring.mk
include tools/image/image.mk
include tools/deploytest/deploytest.mk
include test/dataplane/dataplane.mk
