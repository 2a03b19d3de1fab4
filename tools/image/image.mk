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

# Makefile fragment for the container image. The root Makefile includes it;
# tools/image is a separate Go module (go-containerregistry stays out of the
# product module).

# Including this fragment must not change the including Makefile's default
# goal; it is restored at the end.
IMAGE_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

IMAGE_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# The image reference, in one place. config/kustomization.yaml (images:)
# and charts/slicekit/values.yaml (image:) carry the same repository and
# tag; config/'s tests fail when they disagree with these two lines.
IMAGE_REPOSITORY ?= ghcr.io/slicekit/slicekit
IMAGE_TAG ?= latest
IMAGE ?= $(IMAGE_REPOSITORY):$(IMAGE_TAG)
# The image index's platforms (comma-separated, linux/amd64 required: the
# tarball's docker load half is that image).
IMAGE_PLATFORMS ?= linux/amd64,linux/arm64

.PHONY: image image-push test-image
image: ## Build bin/slicekit-image.tar: linux/amd64+arm64 image index (IMAGE_PLATFORMS), no Docker needed (IMAGE=ref names it; docker load, kind load image-archive).
	cd $(IMAGE_DIR) && $(GO) run . build -src $(CURDIR) -o $(BIN)/slicekit-image.tar -image '$(IMAGE)' -platforms '$(IMAGE_PLATFORMS)'

image-push: image ## Build, then push the image index to IMAGE=registry/name:tag (credentials from docker login / crane auth login).
	cd $(IMAGE_DIR) && $(GO) run . push -i $(BIN)/slicekit-image.tar '$(IMAGE)'

test-image: ## Test the image build: builds it (linux/amd64), checks index, platforms, config, layers, runs the binary.
	cd $(IMAGE_DIR) && $(GO) vet ./... && $(GO) test -count=1 -timeout 30m ./...

.DEFAULT_GOAL := $(IMAGE_SAVED_DEFAULT_GOAL)
