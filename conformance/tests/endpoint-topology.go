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

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

func init() {
	register(suite.ConformanceTest{
		ShortName:   "EndpointTopology",
		Description: "An endpoint's nodeName is its Pod's node and its zone the node's topology.kubernetes.io/zone label (none when the node has none).",
		Features:    []suite.Feature{suite.SupportEndpointSlices, suite.SupportEndpointTopology},
		Manifests:   []string{"endpoint-topology.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			pod := getPod(t, s, ns, "web-1")
			if pod.Spec.NodeName == "" {
				t.Fatalf("Pod web-1 is not bound to a node")
			}
			ctx, cancel := context.WithTimeout(t.Context(), s.TimeoutConfig.APICall)
			defer cancel()
			node, err := s.Client.CoreV1().Nodes().Get(ctx, pod.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("getting Node %s: %v", pod.Spec.NodeName, err)
			}
			kubernetes.EndpointMustHaveTopology(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				pod.Status.PodIP, pod.Spec.NodeName, node.Labels[corev1.LabelTopologyZone])
		},
	})
}
