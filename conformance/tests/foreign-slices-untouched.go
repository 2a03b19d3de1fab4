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
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

func init() {
	register(suite.ConformanceTest{
		ShortName: "ForeignSlicesUntouched",
		Description: "A slice of the controller's Service managed by another controller is never updated, deleted or adopted, " +
			"and its endpoints never show up in the controller's slices, while the controller reconciles the Service through Pod churn.",
		Features:  []suite.Feature{suite.SupportEndpointSlices, suite.SupportForeignSlices},
		Manifests: []string{"foreign-slices-untouched.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ctx, cancel := context.WithTimeout(t.Context(), s.TimeoutConfig.APICall)
			defer cancel()
			foreign, err := s.Client.DiscoveryV1().EndpointSlices(ns).Get(ctx, "web-foreign", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rv := foreign.ResourceVersion

			ips := podIPs(t, s, ns, "web-1")
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{ep(ips[0], "web-1", true, true, false)})

			var web2 string
			kubernetes.SliceMustKeepResourceVersion(t, s.Client, s.TimeoutConfig, ns, "web-foreign", rv, func() {
				web2 = s.CreatePod(t, ns, newPod("web-2", map[string]string{"app": "web"}, true)).Status.PodIP
				s.SetPodReady(t, ns, "web-1", false)
			})
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{ep(ips[0], "web-1", false, false, false), ep(web2, "web-2", true, true, false)})
			kubernetes.SliceMustKeepResourceVersion(t, s.Client, s.TimeoutConfig, ns, "web-foreign", rv, nil)
		},
	})
}
