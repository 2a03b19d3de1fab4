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
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

// consumerServices are the Services of consumer-rules.yaml.
var consumerServices = []string{"local", "nodeport-local", "headless"}

func init() {
	register(suite.ConformanceTest{
		ShortName: "ConsumerRules",
		Description: "The slices of a Service with internalTrafficPolicy Local and PreferClose, of a NodePort Service with externalTrafficPolicy Local and of a headless Service " +
			"pass slicekit check's consumer rules (what kube-proxy, CoreDNS, Cilium, Istio, Envoy Gateway, ingress-nginx, kyverno, MetalLB and kube-vip assume) " +
			"and each Service has a slice with a readable last-change-trigger-time annotation.",
		Features:  []suite.Feature{suite.SupportEndpointSlices, suite.SupportConsumerRules},
		Manifests: []string{"consumer-rules.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			ips := podIPs(t, s, ns, "web-1", "web-2", "web-3")
			want := []kubernetes.Endpoint{epAny(ips[0], "web-1"), epAny(ips[1], "web-2"), epAny(ips[2], "web-3")}
			for _, svc := range consumerServices {
				got := kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, svc, s.ControllerName, want)
				// A new Service's first sync has a trigger time (its
				// creationTimestamp), and so have the Pods' readiness
				// changes: KCM writes the annotation on such writes.
				readable := false
				for _, sl := range got {
					if v, ok := sl.Annotations[corev1.EndpointsLastChangeTriggerTime]; ok {
						if _, err := time.Parse(time.RFC3339Nano, v); err == nil {
							readable = true
						}
					}
				}
				if !readable {
					t.Errorf("no slice of Service %s/%s managed by %s carries a readable %s annotation: kube-proxy and CoreDNS measure no programming latency for it",
						ns, svc, s.ControllerName, corev1.EndpointsLastChangeTriggerTime)
				}
			}
			s.ConsumerRulesMustPass(t, ns, consumerServices...)
		},
	})
}
