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
		ShortName:   "ReadinessConditions",
		Description: "An endpoint's ready and serving follow its Pod's Ready condition (false, true, false again); terminating stays false.",
		Features:    []suite.Feature{suite.SupportEndpointSlices, suite.SupportEndpointConditions},
		Manifests:   []string{"readiness-conditions.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ip := podIPs(t, s, ns, "web-1")[0]
			must := func(ready bool) {
				t.Helper()
				kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
					[]kubernetes.Endpoint{ep(ip, "web-1", ready, ready, false)})
			}
			must(false)
			s.SetPodReady(t, ns, "web-1", true)
			must(true)
			s.SetPodReady(t, ns, "web-1", false)
			must(false)
		},
	})
}
