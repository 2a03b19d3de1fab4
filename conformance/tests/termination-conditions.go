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
		ShortName: "TerminationConditions",
		Description: "A terminating Pod stays published with terminating=true and ready=false, serving following its Ready condition " +
			"(kubernetes#116285), and disappears once it is gone.",
		Features:  []suite.Feature{suite.SupportEndpointSlices, suite.SupportEndpointConditions},
		Manifests: []string{"termination-conditions.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1", "web-2")
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{ep(ips[0], "web-1", true, true, false), ep(ips[1], "web-2", false, false, false)})

			s.DeletePod(t, ns, "web-1")
			s.DeletePod(t, ns, "web-2")
			terminating := kubernetes.Endpoint{Address: ips[0], Pod: "web-1", Ready: ptr.To(false), Terminating: ptr.To(true)}
			if s.PodMode == suite.PodModeStatusSubresource {
				// Without kubelet the Pod stays Ready while it terminates.
				terminating.Serving = ptr.To(true)
			}
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{terminating, ep(ips[1], "web-2", false, false, true)})

			s.ReleasePod(t, ns, "web-1")
			s.ReleasePod(t, ns, "web-2")
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, nil)
		},
	})
}
