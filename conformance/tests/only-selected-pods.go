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
		ShortName:   "OnlySelectedPods",
		Description: "Only the Pods matching the Service's selector are published, and the slices follow Pods that are relabelled in or out of the selector, created or deleted.",
		Features:    []suite.Feature{suite.SupportEndpointSlices},
		Manifests:   []string{"only-selected-pods.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			must := func(want ...kubernetes.Endpoint) {
				t.Helper()
				kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, want)
			}
			ips := podIPs(t, s, ns, "web-1", "web-2", "other-1")
			must(epAny(ips[0], "web-1"), epAny(ips[1], "web-2"))

			s.SetPodLabels(t, ns, "web-2", map[string]string{"app": "gone"})
			must(epAny(ips[0], "web-1"))

			s.SetPodLabels(t, ns, "other-1", map[string]string{"app": "web"})
			must(epAny(ips[0], "web-1"), epAny(ips[2], "other-1"))

			p := s.CreatePod(t, ns, newPod("web-3", map[string]string{"app": "web"}, true))
			must(epAny(ips[0], "web-1"), epAny(ips[2], "other-1"), epAny(p.Status.PodIP, "web-3"))

			s.DeletePod(t, ns, "web-1")
			must(epAny(ips[2], "other-1"), epAny(p.Status.PodIP, "web-3"))
		},
	})
}
