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

package conformance_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/conformance/tests"
	"github.com/slicekit/slicekit/conformance/utils/suite"
	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestConsumerFindingsCatchABadController shows that the ConsumerRules
// test can fail: a "controller" (slices written by hand, as a faulty
// third-party controller would) publishes, for a Service with
// internalTrafficPolicy Local, a slice whose endpoint has neither ready nor
// nodeName, a port without number and no trigger-time annotation. The
// suite's ConsumerFindings must report each consumer rule involved, for
// that controller's slice only.
func TestConsumerFindingsCatchABadController(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	const bad = "bad.example.com"
	s, err := suite.NewConformanceTestSuite(suite.Options{
		Client:            env.Client,
		ControllerName:    bad,
		SupportedFeatures: suite.LabelledControllerFeatures(),
		ManifestFS:        tests.Manifests,
	})
	if err != nil {
		t.Fatal(err)
	}
	ns := s.Namespace(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{wellknown.LabelEndpointControllerName: bad}},
		Spec: corev1.ServiceSpec{
			Selector:              map[string]string{"app": "web"},
			InternalTrafficPolicy: ptr.To(corev1.ServiceInternalTrafficPolicyLocal),
			Ports:                 []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
		},
	}
	if _, err := env.Client.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	slice := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "web-bad", Labels: map[string]string{
			discovery.LabelServiceName: "web", discovery.LabelManagedBy: bad,
		}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.9.0.1"}}},
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}
	if _, err := env.Client.DiscoveryV1().EndpointSlices(ns).Create(ctx, slice, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	found, err := s.ConsumerFindings(ctx, ns, "web")
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []check.RuleID{check.RuleReadyUnset, check.RulePortUnset, check.RuleLocalPolicyNodeName, check.RuleTriggerTime} {
		if !slices.ContainsFunc(found, func(f string) bool { return strings.Contains(f, " "+string(rule)+" EndpointSlice "+ns+"/web-bad:") }) {
			t.Errorf("no %s finding on web-bad; findings:\n  %s", rule, strings.Join(found, "\n  "))
		}
	}
}
