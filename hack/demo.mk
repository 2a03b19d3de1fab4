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

.DEFAULT_GOAL := $(DEMO_SAVED_DEFAULT_GOAL)
