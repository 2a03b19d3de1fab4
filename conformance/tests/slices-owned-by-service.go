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
		ShortName:   "SlicesOwnedByService",
		Description: "Every slice of the controller has exactly one controller ownerReference, to its Service (uid included, blockOwnerDeletion set), so that it is garbage-collected with the Service.",
		Features:    []suite.Feature{suite.SupportEndpointSlices},
		Manifests:   []string{"slices-owned-by-service.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1")
			got := kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny(ips[0], "web-1")})
			ctx, cancel := context.WithTimeout(t.Context(), s.TimeoutConfig.APICall)
			defer cancel()
			svc, err := s.Client.CoreV1().Services(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			kubernetes.SlicesMustBeOwnedByService(t, got, svc, s.ControllerName)
		},
	})
}
