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

# Makefile fragment for test/dataplane: slicekit's EndpointSlices carried by
# the real kube-proxy (nftables and iptables modes) and CoreDNS, with KCM as
# the reference, and the image run by podman. The root Makefile includes it.

# Including this fragment must not change the including Makefile's default
# goal; it is restored at the end.
DATAPLANE_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

DATAPLANE_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# Knobs: the proxy modes, flips per controller for the latency table, the
# table's file (bench-dataplane).
DATAPLANE_MODES ?= nftables,iptables
DATAPLANE_FLIPS ?= 5
BENCH_DATAPLANE_FLIPS ?= 30
BENCH_DATAPLANE_OUT ?= $(BIN)/bench-dataplane.md

.PHONY: dataplane-deps test-dataplane bench-dataplane

dataplane-deps: build ## Install what test-dataplane needs (nftables, iptables, conntrack, podman, runc: apt-get, as root, when missing); build the control plane, kube-proxy and CoreDNS.
	hack/dataplane-deps.sh
	hack/build-controlplane.sh etcd kube-apiserver kube-controller-manager dataplane

# The podman test runs the linux/amd64 image: test-dataplane builds that
# platform only (the arm64 cross-compile is `make image`'s).
test-dataplane: IMAGE_PLATFORMS = linux/amd64
test-dataplane: dataplane-deps image ## Traffic through the real kube-proxy (nftables, iptables) and CoreDNS from slicekit's slices, KCM as reference, negative control; 0 failed requests through migration, restart, kill -9, failover; the image run by podman (root).
	SLICEKIT_DATAPLANE=1 SLICEKIT_DATAPLANE_MODES='$(DATAPLANE_MODES)' SLICEKIT_DATAPLANE_FLIPS=$(DATAPLANE_FLIPS) \
	  $(GO) test -count=1 -v -timeout 30m ./$(DATAPLANE_DIR)/ 2>&1 | tee $(BIN)/test-dataplane.log | \
	  grep -E '^\s*(---|ok|FAIL|PASS|panic|\|)|\.go:[0-9]+: ' ; \
	  exit $${PIPESTATUS[0]}

bench-dataplane: dataplane-deps ## Flip → traffic change latency through kube-proxy, KCM and slicekit side by side (BENCH_DATAPLANE_FLIPS per controller and mode), Markdown in BENCH_DATAPLANE_OUT.
	rm -f '$(BENCH_DATAPLANE_OUT)'
	SLICEKIT_DATAPLANE=1 SLICEKIT_DATAPLANE_MODES='$(DATAPLANE_MODES)' SLICEKIT_DATAPLANE_FLIPS=$(BENCH_DATAPLANE_FLIPS) \
	  SLICEKIT_DATAPLANE_REPORT='$(BENCH_DATAPLANE_OUT)' \
	  $(GO) test -count=1 -v -timeout 60m -run 'TestDataplane' ./$(DATAPLANE_DIR)/
	@cat '$(BENCH_DATAPLANE_OUT)'

.DEFAULT_GOAL := $(DATAPLANE_SAVED_DEFAULT_GOAL)
