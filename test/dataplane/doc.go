// Copyright 2026 The slicekit Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

// Package dataplane shows slicekit's EndpointSlices carried by their real
// consumers: the unmodified kube-proxy (nftables and iptables modes) and
// CoreDNS (kubernetes plugin), built from their Go modules by
// hack/build-controlplane.sh (components kube-proxy and coredns).
//
// Each test run starts a local control plane (test/harness/testenv)
// and, per proxy mode, a simulated node: a network namespace running
// kube-proxy and CoreDNS, reaching the API server through a forwarder whose
// listening socket lives in that namespace. Pods are network namespaces
// linked to the node by veth pairs, each with a small HTTP server (in the
// test process, listening inside the Pod's namespace) answering its Pod's
// name; their API objects' status is written through the status
// subresource, as a kubelet would. Requests come from a client namespace. No
// address lies outside the namespaces the test creates, and none of them
// has a route out.
//
// The same checks run with `slicekit run` as the endpoint controller and with
// kube-controller-manager's EndpointSlice and mirroring controllers as the
// reference; a negative control without any endpoint controller must fail
// them. Continuous requests are counted through migration from KCM to
// slicekit, restart, kill -9 and leader failover, and the flip → traffic
// change latency is measured for both controllers.
//
// The tests need root, iproute2, nftables, iptables and the binaries; they
// run only when SLICEKIT_DATAPLANE=1 (set by `make test-dataplane`), and
// are skipped otherwise.
package dataplane
