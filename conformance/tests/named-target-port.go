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

	corev1 "k8s.io/api/core/v1"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

func init() {
	register(suite.ConformanceTest{
		ShortName: "NamedTargetPort",
		Description: "A named targetPort is resolved on each Pod: Pods declaring it with different numbers land in slices with their own number, " +
			"and a Pod that does not declare it is published without the port.",
		Features:  []suite.Feature{suite.SupportEndpointSlices},
		Manifests: []string{"named-target-port.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-a", "web-b", "web-c")
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny(ips[0], "web-a"), epAny(ips[1], "web-b"), epAny(ips[2], "web-c")})
			tcp := corev1.ProtocolTCP
			kubernetes.EndpointMustHavePorts(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, ips[0], []kubernetes.Port{{Name: "http", Port: 8080, Protocol: tcp}})
			kubernetes.EndpointMustHavePorts(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, ips[1], []kubernetes.Port{{Name: "http", Port: 9090, Protocol: tcp}})
			kubernetes.EndpointMustHavePorts(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, ips[2], nil)
		},
	})
}
