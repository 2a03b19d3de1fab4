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

# Local control plane (etcd + kube-apiserver, and kube-controller-manager for
# test/besidekcm, built from source into bin/).
# Include from the root Makefile:  include hack/controlplane.mk
#
# Paths are relative to this file so the fragment works from any include.
CONTROLPLANE_HACK := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# Including this fragment must not change the including Makefile's default
# goal; it is restored at the end.
CONTROLPLANE_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

.PHONY: controlplane up down test-skew

# KUBE_VERSION (e.g. v1.32.13) selects another Kubernetes release; its
# binaries go to bin/kube-<version>/. Empty: tools/controlplane's (v1.37.2), in bin/.
KUBE_VERSION ?=

controlplane: ## Build bin/etcd, bin/kube-apiserver and bin/kube-controller-manager from source (KUBE_VERSION=v1.32.13: into bin/kube-v1.32.13/; reuses existing binaries; a cold build takes many minutes)
	KUBE_VERSION='$(KUBE_VERSION)' $(CONTROLPLANE_HACK)/build-controlplane.sh

up: ## Start a local control plane in the background (KUBE_VERSION=v1.32.13: that release); kubeconfig in .local/kubeconfig
	KUBE_VERSION='$(KUBE_VERSION)' $(CONTROLPLANE_HACK)/up.sh

test-skew: ## Live tests against another Kubernetes release (KUBE_VERSION=v1.32.13, built into bin/kube-<version>/): every controller set starts, integration tests, conformance, chart dry-run, beside that release's KCM, adoption with zero writes; skips named by discovery
	KUBE_VERSION='$(KUBE_VERSION)' $(CONTROLPLANE_HACK)/test-skew.sh

down: ## Stop the local control plane started by 'make up'
	$(CONTROLPLANE_HACK)/down.sh

.DEFAULT_GOAL := $(CONTROLPLANE_SAVED_DEFAULT_GOAL)
