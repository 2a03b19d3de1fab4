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
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

func init() {
	register(suite.ConformanceTest{
		ShortName:   "SlicesPublished",
		Description: "A Service's selected Pods are published in IPv4 slices labelled with the Service's name and the controller's managed-by value, each once, with their Pod as targetRef and the Service's port resolved.",
		Features:    []suite.Feature{suite.SupportEndpointSlices},
		Manifests:   []string{"slices-published.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1", "web-2")
			got := kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny(ips[0], "web-1"), epAny(ips[1], "web-2")})
			for _, sl := range got {
				if sl.AddressType != discovery.AddressTypeIPv4 {
					t.Errorf("slice %s: addressType %s, want IPv4", sl.Name, sl.AddressType)
				}
				if v := sl.Labels[discovery.LabelServiceName]; v != "web" {
					t.Errorf("slice %s: %s=%q, want web", sl.Name, discovery.LabelServiceName, v)
				}
			}
			for _, ip := range ips {
				kubernetes.EndpointMustHavePorts(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, ip,
					[]kubernetes.Port{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}})
			}
		},
	})
}
