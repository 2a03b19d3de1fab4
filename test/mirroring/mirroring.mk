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

# Makefile fragment for the mirroring differential test. The root Makefile
# includes it; test/mirroring is a separate Go module (it requires
# k8s.io/kubernetes, which the product module must never depend on).

# Including this fragment must not change the including Makefile's default
# goal; it is restored at the end.
MIRRORING_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

MIRRORING_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
MIRRORING_STEPS ?= 5000

.PHONY: test-mirroring
test-mirroring: ## Differential test: slicekit's mirroring controller vs KCM v1.37.2's on random Endpoints changes (MIRRORING_STEPS=5000, SLICEKIT_MIRRORING_SEED to replay).
	cd $(MIRRORING_DIR) && $(GO) vet ./... && $(GO) test -count=1 -v ./... -args -mirroring.steps=$(MIRRORING_STEPS)

.DEFAULT_GOAL := $(MIRRORING_SAVED_DEFAULT_GOAL)
