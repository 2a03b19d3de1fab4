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

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

func init() {
	register(suite.ConformanceTest{
		ShortName:   "UnlabelledServicesIgnored",
		Description: "KEP-4770, custom controller: a Service without service.kubernetes.io/endpoint-controller-name never gets a slice of the controller (it belongs to the default one).",
		Features:    []suite.Feature{suite.SupportEndpointSlices, suite.SupportControllerNameLabel},
		Manifests:   []string{"unlabelled-services-ignored.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1")
			// web, handed to the controller, proves that it is at work.
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny(ips[0], "web-1")})
			kubernetes.ServiceMustKeepNoSlices(t, s.Client, s.TimeoutConfig, ns, "plain", s.ControllerName, func() {
				s.CreatePod(t, ns, newPod("web-2", map[string]string{"app": "web"}, true))
			})
		},
	})
}
