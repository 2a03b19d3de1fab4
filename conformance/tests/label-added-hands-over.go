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
	"github.com/slicekit/slicekit/pkg/wellknown"
)

func init() {
	register(suite.ConformanceTest{
		ShortName: "LabelAddedHandsOver",
		Description: "KEP-4770, default controller: adding service.kubernetes.io/endpoint-controller-name (naming another controller, or empty) " +
			"deletes the default controller's slices, which stay away through Pod churn; removing the label brings them back.",
		Features:  []suite.Feature{suite.SupportEndpointSlices, suite.SupportDefaultController},
		Manifests: []string{"label-added-hands-over.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1")
			want := []kubernetes.Endpoint{epAny(ips[0], "web-1")}
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, want)

			for i, value := range []string{suite.OtherControllerName, ""} {
				s.SetServiceLabel(t, ns, "web", wellknown.LabelEndpointControllerName, ptr.To(value))
				kubernetes.ServiceMustHaveNoSlices(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName)
				kubernetes.ServiceMustKeepNoSlices(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, func() {
					p := s.CreatePod(t, ns, newPod([]string{"web-2", "web-3"}[i], map[string]string{"app": "web"}, true))
					want = append(want, epAny(p.Status.PodIP, p.Name))
				})
				s.SetServiceLabel(t, ns, "web", wellknown.LabelEndpointControllerName, nil)
				kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName, want)
			}
		},
	})
}
