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

# Makefile fragment for the Helm chart's tests. The root Makefile includes
# it; tools/deploytest is a separate Go module (Helm's library stays out of
# the product module).

# Including this fragment must not change the including Makefile's default
# goal; it is restored at the end.
DEPLOYTEST_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

DEPLOYTEST_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: test-deploy
test-deploy: controlplane ## Test charts/slicekit: helm lint, render (defaults, every controller), server-side dry-run on a real kube-apiserver, agreement with config/, monitoring rules.
	cd $(DEPLOYTEST_DIR) && $(GO) vet ./... && $(GO) test -count=1 -timeout 30m ./...

HELM_VERSION ?= v3.22.0
HELM := $(GO) run helm.sh/helm/v3/cmd/helm@$(HELM_VERSION)

.PHONY: helm-lint helm-template
helm-lint: ## helm lint charts/slicekit with the helm CLI (HELM_VERSION, built from the Go module proxy on first use).
	$(HELM) lint charts/slicekit

helm-template: ## helm template charts/slicekit (HELM_ARGS='--set controllers.endpoints.enabled=true' and so on).
	@$(HELM) template slicekit charts/slicekit --namespace slicekit-system $(HELM_ARGS)

.DEFAULT_GOAL := $(DEPLOYTEST_SAVED_DEFAULT_GOAL)
