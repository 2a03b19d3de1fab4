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

package tests

import (
	"testing"

	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

func init() {
	register(suite.ConformanceTest{
		ShortName:   "PublishNotReadyAddresses",
		Description: "With publishNotReadyAddresses every endpoint is ready, also not-ready and terminating Pods, while serving and terminating still tell the truth.",
		Features:    []suite.Feature{suite.SupportEndpointSlices, suite.SupportEndpointConditions, suite.SupportPublishNotReadyAddresses},
		Manifests:   []string{"publish-not-ready-addresses.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1", "web-2", "web-3")
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, []kubernetes.Endpoint{
				ep(ips[0], "web-1", true, true, false),
				ep(ips[1], "web-2", true, false, false),
				ep(ips[2], "web-3", true, true, false),
			})
			s.DeletePod(t, ns, "web-3")
			terminating := kubernetes.Endpoint{Address: ips[2], Pod: "web-3", Ready: ptr.To(true), Terminating: ptr.To(true)}
			if s.PodMode == suite.PodModeStatusSubresource {
				terminating.Serving = ptr.To(true)
			}
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, []kubernetes.Endpoint{
				ep(ips[0], "web-1", true, true, false),
				ep(ips[1], "web-2", true, false, false),
				terminating,
			})
		},
	})
}
