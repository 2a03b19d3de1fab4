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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

func init() {
	register(suite.ConformanceTest{
		ShortName: "SelectorlessForm",
		Description: "A Service labelled for the controller without spec.selector selects its Pods by the annotation slicekit.dev/selector " +
			"(set-based syntax included); changing the annotation changes the selected Pods.",
		Features:  []suite.Feature{suite.SupportEndpointSlices, suite.SupportControllerNameLabel, suite.SupportSelectorlessForm},
		Manifests: []string{"selectorless-form.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1", "blue-1", "other-1")
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny(ips[0], "web-1"), epAny(ips[1], "blue-1")})

			// A Pod labelled to match joins.
			p := s.CreatePod(t, ns, newPod("web-2", map[string]string{"app": "web"}, true))
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny(ips[0], "web-1"), epAny(ips[1], "blue-1"), epAny(p.Status.PodIP, "web-2")})

			// Another annotation selects other Pods.
			ctx := t.Context()
			err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
				svc, err := s.Client.CoreV1().Services(ns).Get(ctx, "web", metav1.GetOptions{})
				if err != nil {
					return err
				}
				svc.Annotations[wellknown.AnnotationSelector] = "app=other"
				_, err = s.Client.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{})
				return err
			})
			if err != nil {
				t.Fatalf("changing the annotation: %v", err)
			}
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny(ips[2], "other-1")})
		},
	})
}
