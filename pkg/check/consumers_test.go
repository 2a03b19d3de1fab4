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

package check

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// consumerKeys returns "severity rule Kind ns/name" for the findings of
// the consumer rules, sorted.
func consumerKeys(r *Report) []string {
	out := []string{}
	for _, f := range r.Findings {
		if slices.Contains(ConsumerRules(), f.Rule) {
			out = append(out, string(f.Severity)+" "+string(f.Rule)+" "+f.Object.String())
		}
	}
	slices.Sort(out)
	return out
}

// customSlice is web-1's endpoint in a slice of the custom controller.
func customSlice(f *fixture, name string) *discovery.EndpointSlice {
	s := newSlice(name, "web", custom, podEndpoint(f.pod))
	s.Annotations = map[string]string{corev1.EndpointsLastChangeTriggerTime: "2026-01-02T03:04:05Z"}
	return s
}

// dualStack makes web a dual-stack Service and web-1 a dual-stack Pod.
func dualStack(f *fixture) {
	f.web.Spec.ClusterIPs = []string{"10.96.0.1", "fd00:96::1"}
	f.web.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	f.pod.Status.PodIPs = []corev1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00:10::1"}}
}

func TestConsumerRules(t *testing.T) {
	const (
		customRef = "EndpointSlice ns/web-custom"
		secondary = wellknown.SecondaryNetworkControllerName
	)
	tests := []struct {
		name string
		// mutate changes a fresh fixture.
		mutate func(f *fixture)
		// objects, when set, replaces the fixture's objects.
		objects func(f *fixture) []runtime.Object
		want    []string
		// reason must be in the first consumer finding.
		reason string
	}{
		{name: "the fixture is clean"},

		// missing-service-name and headless-label name their consumers.
		{
			name:   "missing service-name",
			mutate: func(f *fixture) { delete(f.slice.Labels, discovery.LabelServiceName) },
			want:   []string{"error missing-service-name " + webSlice},
			reason: "kube-proxy skips it; CoreDNS, Cilium, Istio and Envoy Gateway",
		},
		{
			name: "foreign slice without service-name, slices only",
			objects: func(f *fixture) []runtime.Object {
				s := customSlice(f, "web-custom")
				delete(s.Labels, discovery.LabelServiceName)
				return []runtime.Object{s}
			},
			want:   []string{"warning missing-service-name " + customRef},
			reason: "kube-proxy skips it",
		},
		{
			name:   "headless label on a Service with a cluster IP",
			mutate: func(f *fixture) { f.slice.Labels[corev1.IsHeadlessService] = "" },
			want:   []string{"error headless-label " + webSlice},
			reason: "kube-proxy ignores this slice",
		},

		// ready-unset
		{
			name: "ready unset on a custom slice",
			mutate: func(f *fixture) {
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Conditions.Ready = nil
				f.extra = append(f.extra, s)
			},
			want:   []string{"warning ready-unset " + customRef},
			reason: "ingress-nginx before PR #9550 and kyverno (#16543) panic",
		},
		{
			name: "ready unset on a foreign slice, slices only",
			objects: func(f *fixture) []runtime.Object {
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Conditions = discovery.EndpointConditions{}
				return []runtime.Object{s}
			},
			want: []string{"warning ready-unset " + customRef},
		},
		{
			name: "ready false is set",
			mutate: func(f *fixture) {
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Conditions.Ready = ptr.To(false)
				f.extra = append(f.extra, s)
			},
		},

		// port-unset
		{
			name:   "port without a number",
			mutate: func(f *fixture) { f.slice.Ports[0].Port = nil },
			want:   []string{"error port-unset " + webSlice},
			reason: "Envoy Gateway dereferences it and panics",
		},
		{
			name:   "port 0",
			mutate: func(f *fixture) { f.slice.Ports[0].Port = ptr.To[int32](0) },
			want:   []string{"error port-unset " + webSlice},
			reason: "kube-proxy skips the port",
		},
		{
			name: "port 0 copied from a Service never defaulted (no targetPort)",
			mutate: func(f *fixture) {
				f.web.Spec.Ports[0].TargetPort = intstr.IntOrString{}
				f.slice.Ports[0].Port = ptr.To[int32](0)
			},
			want:   []string{"warning port-unset " + webSlice},
			reason: "no API server defaulted",
		},
		{
			name:   "port without name and protocol",
			mutate: func(f *fixture) { f.mirror.Ports[0].Name, f.mirror.Ports[0].Protocol = nil, nil },
			want:   []string{"warning port-unset " + mirSlice, "warning port-unset " + mirSlice},
			reason: "kube-proxy",
		},

		// multiple-addresses
		{
			name: "two addresses in one endpoint",
			mutate: func(f *fixture) {
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Addresses = []string{"10.0.0.1", "10.0.0.2"}
				f.extra = append(f.extra, s)
			},
			want:   []string{"warning multiple-addresses " + customRef},
			reason: "kube-proxy uses only the first address",
		},

		{
			name: "FQDN slices are not read by kube-proxy",
			mutate: func(f *fixture) {
				f.mirror.AddressType = discovery.AddressTypeFQDN
				f.mirror.Endpoints[0].Addresses = []string{"a.example.com", "b.example.com"}
			},
		},

		// nodename-for-local-policy
		{
			name: "internalTrafficPolicy Local, nodeName missing",
			mutate: func(f *fixture) {
				f.web.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyLocal)
				s := customSlice(f, "web-custom")
				s.Endpoints[0].NodeName = nil
				f.slice = s
			},
			want:   []string{"error nodename-for-local-policy " + customRef},
			reason: "kube-proxy never counts them as local",
		},
		{
			name: "externalTrafficPolicy Local on a LoadBalancer, nodeName missing",
			mutate: func(f *fixture) {
				f.web.Spec.Type = corev1.ServiceTypeLoadBalancer
				f.web.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
				f.slice.Endpoints[0].NodeName = nil
			},
			want:   []string{"error nodename-for-local-policy " + webSlice},
			reason: "MetalLB and kube-vip",
		},
		{
			name: "Local policy, nodeName missing on a hand-written mirrored slice",
			mutate: func(f *fixture) {
				f.ext.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyLocal)
			},
			// 10.1.0.1 is ready; 10.1.0.2 is not ready (serving unset:
			// kube-proxy reads it as serving, a terminating fallback).
			want:   []string{"error nodename-for-local-policy " + mirSlice},
			reason: "2 endpoints without nodeName",
		},
		{
			name: "a headless Service is not proxied",
			mutate: func(f *fixture) {
				f.web.Spec.ClusterIP = corev1.ClusterIPNone
				f.web.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyLocal)
				s := customSlice(f, "web-custom")
				s.Labels[corev1.IsHeadlessService] = ""
				s.Endpoints[0].NodeName = nil
				f.slice = s
			},
		},
		{
			name: "Cluster policies need no nodeName",
			mutate: func(f *fixture) {
				f.web.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyCluster)
				s := customSlice(f, "web-custom")
				s.Endpoints[0].NodeName = nil
				f.slice = s
			},
		},
		{
			name: "Local policy, endpoint neither ready nor serving",
			mutate: func(f *fixture) {
				f.web.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyLocal)
				s := customSlice(f, "web-custom")
				s.Endpoints[0].NodeName = nil
				s.Endpoints[0].Conditions = discovery.EndpointConditions{Ready: ptr.To(false), Serving: ptr.To(false), Terminating: ptr.To(false)}
				f.slice = s
			},
		},
		{
			name: "Local policy, the Pod names no Node",
			mutate: func(f *fixture) {
				f.web.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyLocal)
				f.pod.Spec.NodeName = ""
				s := customSlice(f, "web-custom")
				s.Endpoints[0].NodeName = nil
				f.slice = s
			},
		},

		// partial-hints
		{
			name: "one ready endpoint with a zone hint, one without",
			mutate: func(f *fixture) {
				p2 := newPod("web-2", "10.0.0.2", true)
				f.extra = append(f.extra, p2)
				f.slice.Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
				f.slice.Endpoints = append(f.slice.Endpoints, podEndpoint(p2))
			},
			want:   []string{"warning partial-hints " + webSvc},
			reason: "1 of 2 ready IPv4 endpoints of port \"http\"/TCP have zone hints",
		},
		{
			name: "hints split across two controllers' slices",
			mutate: func(f *fixture) {
				p2 := newPod("web-2", "10.0.0.2", true)
				s := customSlice(f, "web-custom")
				s.Endpoints = []discovery.Endpoint{podEndpoint(p2)}
				f.extra = append(f.extra, p2, s)
				f.slice.Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
			},
			want:   []string{"warning partial-hints " + webSvc},
			reason: "10.0.0.2 in web-custom",
		},
		{
			name: "partial node hints",
			mutate: func(f *fixture) {
				p2 := newPod("web-2", "10.0.0.2", true)
				f.extra = append(f.extra, p2)
				f.slice.Endpoints = append(f.slice.Endpoints, podEndpoint(p2))
				f.slice.Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}, ForNodes: []discovery.ForNode{{Name: "node-a"}}}
				f.slice.Endpoints[1].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
			},
			want:   []string{"warning partial-hints " + webSvc},
			reason: "node hints",
		},
		{
			name: "a not-ready endpoint without hints does not count",
			mutate: func(f *fixture) {
				p2 := newPod("web-2", "10.0.0.2", false)
				f.extra = append(f.extra, p2)
				f.slice.Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
				f.slice.Endpoints = append(f.slice.Endpoints, podEndpoint(p2))
			},
		},
		{
			name: "hints on every ready endpoint",
			mutate: func(f *fixture) {
				p2 := newPod("web-2", "10.0.0.2", true)
				f.extra = append(f.extra, p2)
				f.slice.Endpoints = append(f.slice.Endpoints, podEndpoint(p2))
				for i := range f.slice.Endpoints {
					f.slice.Endpoints[i].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
				}
			},
		},
		{
			name: "another port is another group",
			mutate: func(f *fixture) {
				p2 := newPod("web-2", "10.0.0.2", true)
				s := customSlice(f, "web-custom")
				s.Endpoints = []discovery.Endpoint{podEndpoint(p2)}
				s.Ports[0].Name = ptr.To("metrics")
				f.extra = append(f.extra, p2, s)
				f.slice.Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
			},
		},

		// non-canonical-ip
		{
			name: "upper-case, uncompressed IPv6",
			mutate: func(f *fixture) {
				s := customSlice(f, "web-custom")
				s.AddressType = discovery.AddressTypeIPv6
				s.Endpoints[0].Addresses = []string{"FD00:0:0:0:0:0:0:1"}
				s.Endpoints[0].TargetRef = nil
				f.extra = append(f.extra, s)
			},
			want:   []string{"error non-canonical-ip " + customRef},
			reason: "FD00:0:0:0:0:0:0:1 (canonical fd00::1)",
		},
		{
			name: "IPv4 with leading zeros",
			mutate: func(f *fixture) {
				f.mirror.Endpoints[0].Addresses = []string{"10.1.0.01"}
			},
			want:   []string{"error non-canonical-ip " + mirSlice},
			reason: "CoreDNS answers a leading-zero IPv4 address as a name",
		},
		{
			name: "FQDN slices are not IPs",
			mutate: func(f *fixture) {
				f.mirror.AddressType = discovery.AddressTypeFQDN
				f.mirror.Endpoints[0].Addresses = []string{"Example.com"}
			},
		},

		// trigger-time
		{
			name: "unreadable trigger time",
			mutate: func(f *fixture) {
				f.slice.Annotations = map[string]string{corev1.EndpointsLastChangeTriggerTime: "yesterday"}
			},
			want:   []string{"warning trigger-time " + webSlice},
			reason: "is not an RFC 3339 time",
		},
		{
			name: "no slice of a custom controller carries it",
			mutate: func(f *fixture) {
				f.web.CreationTimestamp = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
				s := customSlice(f, "web-custom")
				s.Annotations = nil
				f.extra = append(f.extra, s)
			},
			want:   []string{"warning trigger-time " + customRef},
			reason: "kube-proxy's network_programming_duration_seconds",
		},
		{
			name: "one slice of the controller carries it",
			mutate: func(f *fixture) {
				f.web.CreationTimestamp = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
				s := customSlice(f, "web-custom")
				s.Annotations = nil
				f.extra = append(f.extra, s, customSlice(f, "web-custom-2"))
			},
		},
		{
			name: "no Services in the input: the controller is judged",
			objects: func(f *fixture) []runtime.Object {
				s := customSlice(f, "web-custom")
				s.Annotations = nil
				return []runtime.Object{s}
			},
			want: []string{"warning trigger-time " + customRef},
		},
		{
			name: "a Service without creationTimestamp gives no trigger time (KCM)",
			mutate: func(f *fixture) {
				s := customSlice(f, "web-custom")
				s.Annotations = nil
				f.extra = append(f.extra, s)
			},
		},
		{
			name: "the built-in controllers are not judged by presence",
			mutate: func(f *fixture) {
				f.web.CreationTimestamp = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
				f.ext.CreationTimestamp = f.web.CreationTimestamp
			},
		},

		// pod-targetref-secondary-network
		{
			name: "dual-stack Service, secondary address with a Pod targetRef",
			mutate: func(f *fixture) {
				dualStack(f)
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				f.slice = s
			},
			want:   []string{"warning pod-targetref-secondary-network " + customRef},
			reason: "Istio (dual stack) replaces the addresses with the Pod's status.podIPs",
		},
		{
			name: "single-stack Service",
			mutate: func(f *fixture) {
				f.pod.Status.PodIPs = []corev1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00:10::1"}}
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				f.slice = s
			},
		},
		{
			name: "dual-stack Service, secondary address without targetRef",
			mutate: func(f *fixture) {
				dualStack(f)
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				s.Endpoints[0].TargetRef = nil
				f.slice = s
			},
		},
		{
			name: "dual-stack Service, the Pod's own address",
			mutate: func(f *fixture) {
				dualStack(f)
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				f.slice = customSlice(f, "web-custom")
			},
		},
		{
			name: "no Pods in the input: slices of the secondary-network controller",
			objects: func(f *fixture) []runtime.Object {
				dualStack(f)
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: secondary}
				s := newSlice("web-custom", "web", secondary, podEndpoint(f.pod))
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				s.Annotations = map[string]string{corev1.EndpointsLastChangeTriggerTime: "2026-01-02T03:04:05Z"}
				return []runtime.Object{f.web, s}
			},
			want: []string{"warning pod-targetref-secondary-network " + customRef},
		},

		// merged-networks
		{
			name: "primary and secondary addresses of Pods under one service-name",
			mutate: func(f *fixture) {
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				f.extra = append(f.extra, s)
			},
			want:   []string{"warning merged-networks " + webSvc},
			reason: "kube-proxy and CoreDNS merge every slice of a service-name",
		},
		{
			name: "no Pods in the input: default and secondary-network controllers",
			objects: func(f *fixture) []runtime.Object {
				s := newSlice("web-custom", "web", secondary, podEndpoint(f.pod))
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				s.Annotations = map[string]string{corev1.EndpointsLastChangeTriggerTime: "2026-01-02T03:04:05Z"}
				return []runtime.Object{f.web, f.slice, s}
			},
			want:   []string{"warning merged-networks " + webSvc},
			reason: "slices of " + wellknown.EndpointSliceControllerName,
		},
		{
			name: "a stale address beside podIPs in one slice is no second network",
			mutate: func(f *fixture) {
				p2 := newPod("web-2", "10.0.0.2", true)
				e := podEndpoint(p2)
				e.Addresses = []string{"10.0.0.99"} // web-2's IP before it changed
				f.extra = append(f.extra, p2)
				f.slice.Endpoints = append(f.slice.Endpoints, e)
			},
		},
		{
			name: "secondary addresses alone",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				s := customSlice(f, "web-custom")
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				f.slice = s
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			f := newFixture()
			if tc.mutate != nil {
				tc.mutate(f)
			}
			objs := f.objects()
			if tc.objects != nil {
				objs = tc.objects(f)
			}
			rep := Check(ctx, NewInventory(objs), builtinConfig(Config{}))
			want := append([]string{}, tc.want...)
			slices.Sort(want)
			if d := cmp.Diff(want, consumerKeys(rep)); d != "" {
				t.Errorf("consumer findings (-want +got):\n%s\n%s", d, findingLines(rep))
			}
			if tc.reason == "" {
				return
			}
			for _, f := range rep.Findings {
				if slices.Contains(ConsumerRules(), f.Rule) {
					if !strings.Contains(f.Reason, tc.reason) {
						t.Errorf("first consumer finding's reason does not contain %q:\n%s", tc.reason, findingLines(rep))
					}
					return
				}
			}
		})
	}
}

// TestConsumerRulesListed checks that ConsumerRules names rules of Rules()
// and that every consumer finding names a consumer.
func TestConsumerRulesListed(t *testing.T) {
	known := map[RuleID]bool{}
	for _, r := range Rules() {
		known[r.ID] = true
	}
	for _, id := range ConsumerRules() {
		if !known[id] {
			t.Errorf("consumer rule %s is not in Rules()", id)
		}
	}
	consumers := []string{"kube-proxy", "CoreDNS", "Cilium", "Istio", "Envoy Gateway", "ingress-nginx", "kyverno", "MetalLB", "kube-vip", "API server"}
	isConsumer := map[RuleID]bool{}
	for _, id := range ConsumerRules() {
		isConsumer[id] = true
	}
	for _, r := range Rules() {
		if !isConsumer[r.ID] {
			continue
		}
		if !slices.ContainsFunc(consumers, func(c string) bool { return strings.Contains(r.Summary, c) }) {
			t.Errorf("rule %s names no consumer in its summary", r.ID)
		}
	}
}
