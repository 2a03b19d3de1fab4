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

# The demo. Include from the root Makefile:  -include hack/demo.mk
# It uses the root Makefile's `build` target (bin/slicekit).
DEMO_HACK := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
DEMO_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

.PHONY: demo
demo: build ## Build what is missing, start a local control plane, run slicekit, apply examples/, print the slices as a table, stop.
	$(DEMO_HACK)/demo.sh

# apply-examples and delete-examples: the Quick start's way to put
# examples/ on the local control plane of `make up`, which has no kubelet:
# hack/demoapply creates the objects and sets Pod and Node status through
# the status subresource, as a kubelet would report it.
LOCAL_KUBECONFIG ?= .local/kubeconfig
READY_URL ?= http://127.0.0.1:8081/readyz
EXAMPLES ?= $(wildcard examples/*.yaml)

.PHONY: apply-examples delete-examples
apply-examples: ## Create examples/ on the `make up` cluster with Pod and Node status (no kubelet there), wait for slicekit (READY_URL) and the EndpointSlices, print them.
	@mkdir -p .local
	$(GO) build -o .local/demoapply ./hack/demoapply
	.local/demoapply -kubeconfig $(LOCAL_KUBECONFIG) -ready-url '$(READY_URL)' $(EXAMPLES)

delete-examples: ## Delete the objects of examples/ and their EndpointSlices from the `make up` cluster.
	@mkdir -p .local
	$(GO) build -o .local/demoapply ./hack/demoapply
	.local/demoapply -kubeconfig $(LOCAL_KUBECONFIG) -delete $(EXAMPLES)

.DEFAULT_GOAL := $(DEMO_SAVED_DEFAULT_GOAL)
