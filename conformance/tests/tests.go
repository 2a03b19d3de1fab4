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
	"embed"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

// Manifests holds the fixtures, one YAML file beside each test.
//
//go:embed *.yaml
var Manifests embed.FS

// ConformanceTests are the tests of the suite. Each test file appends its
// test in an init function.
var ConformanceTests []suite.ConformanceTest

// register adds a test to ConformanceTests.
func register(t suite.ConformanceTest) { ConformanceTests = append(ConformanceTests, t) }

// order is the order of the report: the core contract first, then
// conditions, topology, coexistence and KEP-4770.
var order = []string{
	"SlicesPublished", "SlicesOwnedByService", "OnlySelectedPods", "TerminalPodsExcluded", "NamedTargetPort",
	"ReadinessConditions", "TerminationConditions", "PublishNotReadyAddresses", "EndpointTopology",
	"ConsumerRules",
	"ForeignSlicesUntouched",
	"LabelledForOtherController", "LabelAddedHandsOver",
	"LabelRemovalHandsBack", "LabelChangeHandsOver", "UnlabelledServicesIgnored",
}

// All returns ConformanceTests in report order (tests missing from the
// order list come last, by name).
func All() []suite.ConformanceTest {
	rank := map[string]int{}
	for i, n := range order {
		rank[n] = i
	}
	out := slices.Clone(ConformanceTests)
	slices.SortStableFunc(out, func(a, b suite.ConformanceTest) int {
		ra, oka := rank[a.ShortName]
		rb, okb := rank[b.ShortName]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a.ShortName, b.ShortName)
	})
	return out
}

// podIPs returns the IP of each named Pod in ns.
func podIPs(t *testing.T, s *suite.ConformanceTestSuite, ns string, names ...string) []string {
	t.Helper()
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = getPod(t, s, ns, n).Status.PodIP
		if out[i] == "" {
			t.Fatalf("Pod %s/%s has no IP", ns, n)
		}
	}
	return out
}

func getPod(t *testing.T, s *suite.ConformanceTestSuite, ns, name string) *corev1.Pod {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), s.TimeoutConfig.APICall)
	defer cancel()
	p, err := s.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("getting Pod %s/%s: %v", ns, name, err)
	}
	return p
}

// newPod returns a Pod like the fixtures' (container app, port http 8080).
func newPod(name string, labels map[string]string, ready bool) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels, Annotations: map[string]string{}},
		Spec: corev1.PodSpec{
			TerminationGracePeriodSeconds: ptr.To[int64](1),
			Containers: []corev1.Container{{Name: "app", Image: suite.ImagePlaceholder,
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}},
		},
	}
	if !ready {
		p.Annotations[suite.AnnotationReady] = "false"
	}
	return p
}

// ep is an expected endpoint with its Pod and conditions.
func ep(address, pod string, ready, serving, terminating bool) kubernetes.Endpoint {
	return kubernetes.Endpoint{Address: address, Pod: pod, Ready: ptr.To(ready), Serving: ptr.To(serving), Terminating: ptr.To(terminating)}
}

// epAny is an expected endpoint whose conditions are not checked.
func epAny(address, pod string) kubernetes.Endpoint {
	return kubernetes.Endpoint{Address: address, Pod: pod}
}
