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

package podendpoint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/test/harness/testobjects"
)

func TestAddressTypes(t *testing.T) {
	v4, v6 := discovery.AddressTypeIPv4, discovery.AddressTypeIPv6
	tests := []struct {
		name      string
		clusterIP string
		families  []corev1.IPFamily
		want      []discovery.AddressType
	}{
		{name: "v4 family", clusterIP: "10.0.0.10", families: []corev1.IPFamily{corev1.IPv4Protocol}, want: []discovery.AddressType{v4}},
		{name: "v6 family", clusterIP: "fd00::a", families: []corev1.IPFamily{corev1.IPv6Protocol}, want: []discovery.AddressType{v6}},
		{name: "v4,v6 in order", families: []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}, want: []discovery.AddressType{v4, v6}},
		{name: "v6,v4 in order", families: []corev1.IPFamily{corev1.IPv6Protocol, corev1.IPv4Protocol}, want: []discovery.AddressType{v6, v4}},
		{name: "families win over the cluster IP", clusterIP: "10.0.0.10", families: []corev1.IPFamily{corev1.IPv6Protocol}, want: []discovery.AddressType{v6}},
		{name: "duplicates dropped", families: []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv4Protocol}, want: []discovery.AddressType{v4}},
		{name: "headless with families", clusterIP: corev1.ClusterIPNone, families: []corev1.IPFamily{corev1.IPv6Protocol}, want: []discovery.AddressType{v6}},
		{name: "no families: v4 cluster IP", clusterIP: "10.0.0.10", want: []discovery.AddressType{v4}},
		{name: "no families: v6 cluster IP", clusterIP: "2000::1", want: []discovery.AddressType{v6}},
		{name: "no families: unparsable cluster IP counts as v4", clusterIP: "bogus", want: []discovery.AddressType{v4}},
		{name: "unknown families only: cluster IP decides", clusterIP: "2000::1", families: []corev1.IPFamily{"IPv5"}, want: []discovery.AddressType{v6}},
		{name: "headless without families: both", clusterIP: corev1.ClusterIPNone, want: []discovery.AddressType{v4, v6}},
		{name: "no cluster IP, no families: both", want: []discovery.AddressType{v4, v6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := testobjects.RuleService(func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.IPFamilies = tc.clusterIP, tc.families })
			if diff := cmp.Diff(tc.want, AddressTypes(svc)); diff != "" {
				t.Errorf("AddressTypes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestShouldPodBeInEndpoints(t *testing.T) {
	tests := []struct {
		name                  string
		pod                   *corev1.Pod
		withTerm, withoutTerm bool
	}{
		{name: "running with IP", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1")), withTerm: true, withoutTerm: true},
		{name: "not ready is still included", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.WithReady(corev1.ConditionFalse)), withTerm: true, withoutTerm: true},
		{name: "pending with IP", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.WithPhase(corev1.PodPending)), withTerm: true, withoutTerm: true},
		{name: "unknown phase with IP", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.WithPhase(corev1.PodUnknown)), withTerm: true, withoutTerm: true},
		{name: "failed", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.WithPhase(corev1.PodFailed))},
		{name: "succeeded", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.WithPhase(corev1.PodSucceeded))},
		{name: "failed and terminating", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.WithPhase(corev1.PodFailed), testobjects.Terminating)},
		{name: "no IP", pod: testobjects.RulePod("p")},
		{name: "only status.podIP", pod: testobjects.RulePod("p", func(p *corev1.Pod) { p.Status.PodIP = "10.0.0.1" }), withTerm: true, withoutTerm: true},
		{name: "only status.podIPs", pod: testobjects.RulePod("p", func(p *corev1.Pod) { p.Status.PodIPs = []corev1.PodIP{{IP: "10.0.0.1"}} }), withTerm: true, withoutTerm: true},
		{name: "terminating", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.Terminating), withTerm: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ShouldPodBeInEndpoints(tc.pod, true); got != tc.withTerm {
				t.Errorf("includeTerminating=true: got %v, want %v", got, tc.withTerm)
			}
			if got := ShouldPodBeInEndpoints(tc.pod, false); got != tc.withoutTerm {
				t.Errorf("includeTerminating=false: got %v, want %v", got, tc.withoutTerm)
			}
		})
	}
}

func TestIsPodReady(t *testing.T) {
	tests := []struct {
		name       string
		conditions []corev1.PodCondition
		want       bool
	}{
		{name: "no conditions"},
		{name: "ready true", conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}, want: true},
		{name: "ready false", conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}},
		{name: "ready unknown", conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionUnknown}}},
		{name: "only containers ready", conditions: []corev1.PodCondition{{Type: corev1.ContainersReady, Status: corev1.ConditionTrue}}},
		{name: "first Ready condition counts", conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionFalse},
		}, want: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testobjects.RulePod("p", func(p *corev1.Pod) { p.Status.Conditions = tc.conditions })
			if got := IsPodReady(p); got != tc.want {
				t.Errorf("IsPodReady = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestShouldSetHostname(t *testing.T) {
	tests := []struct {
		name                string
		hostname, subdomain string
		podNS               string
		want                bool
	}{
		{name: "hostname and matching subdomain", hostname: "db-0", subdomain: "svc-a", podNS: testobjects.RuleNamespace, want: true},
		{name: "no hostname", subdomain: "svc-a", podNS: testobjects.RuleNamespace},
		{name: "other subdomain", hostname: "db-0", subdomain: "other", podNS: testobjects.RuleNamespace},
		{name: "no subdomain", hostname: "db-0", podNS: testobjects.RuleNamespace},
		{name: "other namespace", hostname: "db-0", subdomain: "svc-a", podNS: "ns-b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testobjects.RulePod("p", func(p *corev1.Pod) {
				p.Spec.Hostname, p.Spec.Subdomain, p.Namespace = tc.hostname, tc.subdomain, tc.podNS
			})
			if got := ShouldSetHostname(p, testobjects.RuleService()); got != tc.want {
				t.Errorf("ShouldSetHostname = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFindPort(t *testing.T) {
	always := ptr.To(corev1.ContainerRestartPolicyAlways)
	containers := func(cs ...corev1.Container) func(*corev1.Pod) {
		return func(p *corev1.Pod) { p.Spec.Containers = cs }
	}
	inits := func(cs ...corev1.Container) func(*corev1.Pod) {
		return func(p *corev1.Pod) { p.Spec.InitContainers = cs }
	}
	port := func(name string, num int32, proto corev1.Protocol) corev1.ContainerPort {
		return corev1.ContainerPort{Name: name, ContainerPort: num, Protocol: proto}
	}
	tests := []struct {
		name    string
		pod     *corev1.Pod
		target  intstr.IntOrString
		proto   corev1.Protocol
		want    int32
		wantErr bool
	}{
		{name: "int target", pod: testobjects.RulePod("p"), target: intstr.FromInt32(9376), proto: corev1.ProtocolTCP, want: 9376},
		{name: "int target needs no container port", pod: testobjects.RulePod("p", containers()), target: intstr.FromInt32(80), proto: corev1.ProtocolUDP, want: 80},
		{name: "named in a container", pod: testobjects.RulePod("p"), target: intstr.FromString("http"), proto: corev1.ProtocolTCP, want: 8080},
		{name: "named, protocol differs", pod: testobjects.RulePod("p"), target: intstr.FromString("http"), proto: corev1.ProtocolUDP, wantErr: true},
		{name: "named, protocol matches the second", pod: testobjects.RulePod("p", containers(corev1.Container{Ports: []corev1.ContainerPort{
			port("dns", 53, corev1.ProtocolTCP), port("dns", 5353, corev1.ProtocolUDP),
		}})), target: intstr.FromString("dns"), proto: corev1.ProtocolUDP, want: 5353},
		{name: "first container wins", pod: testobjects.RulePod("p", containers(
			corev1.Container{Ports: []corev1.ContainerPort{port("http", 1, corev1.ProtocolTCP)}},
			corev1.Container{Ports: []corev1.ContainerPort{port("http", 2, corev1.ProtocolTCP)}},
		)), target: intstr.FromString("http"), proto: corev1.ProtocolTCP, want: 1},
		{name: "missing name", pod: testobjects.RulePod("p"), target: intstr.FromString("https"), proto: corev1.ProtocolTCP, wantErr: true},
		{name: "unnamed port does not match", pod: testobjects.RulePod("p", containers(corev1.Container{Ports: []corev1.ContainerPort{port("", 8080, corev1.ProtocolTCP)}})),
			target: intstr.FromString("http"), proto: corev1.ProtocolTCP, wantErr: true},
		{name: "restartable init container (sidecar)", pod: testobjects.RulePod("p", inits(corev1.Container{RestartPolicy: always, Ports: []corev1.ContainerPort{port("https", 9443, corev1.ProtocolTCP)}})),
			target: intstr.FromString("https"), proto: corev1.ProtocolTCP, want: 9443},
		{name: "ordinary init container is ignored", pod: testobjects.RulePod("p", inits(corev1.Container{Ports: []corev1.ContainerPort{port("metrics", 9100, corev1.ProtocolTCP)}})),
			target: intstr.FromString("metrics"), proto: corev1.ProtocolTCP, wantErr: true},
		{name: "containers before sidecars", pod: testobjects.RulePod("p", inits(corev1.Container{RestartPolicy: always, Ports: []corev1.ContainerPort{port("http", 1, corev1.ProtocolTCP)}})),
			target: intstr.FromString("http"), proto: corev1.ProtocolTCP, want: 8080},
		{name: "sidecar protocol must match", pod: testobjects.RulePod("p", inits(corev1.Container{RestartPolicy: always, Ports: []corev1.ContainerPort{port("https", 9443, corev1.ProtocolUDP)}})),
			target: intstr.FromString("https"), proto: corev1.ProtocolTCP, wantErr: true},
		{name: "protocols compared as written", pod: testobjects.RulePod("p", containers(corev1.Container{Ports: []corev1.ContainerPort{port("http", 8080, "")}})),
			target: intstr.FromString("http"), proto: corev1.ProtocolTCP, wantErr: true},
		{name: "unknown targetPort type", pod: testobjects.RulePod("p"), target: intstr.IntOrString{Type: 7}, proto: corev1.ProtocolTCP, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindPort(tc.pod, &corev1.ServicePort{Name: "svc-port", Protocol: tc.proto, TargetPort: tc.target})
			if (err != nil) != tc.wantErr {
				t.Fatalf("FindPort error = %v, wantErr %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("FindPort = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestEndpointPorts(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	tcp, udp := corev1.ProtocolTCP, corev1.ProtocolUDP
	tests := []struct {
		name string
		svc  *corev1.Service
		pod  *corev1.Pod
		want []discovery.EndpointPort
	}{
		{name: "int target port", svc: testobjects.RuleService(), pod: testobjects.RulePod("p"), want: []discovery.EndpointPort{
			{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: &tcp},
		}},
		{name: "several ports in testobjects.RuleService order, appProtocol copied", svc: testobjects.RuleService(func(s *corev1.Service) {
			s.Spec.Ports = []corev1.ServicePort{
				{Name: "web", Port: 80, Protocol: tcp, TargetPort: intstr.FromString("http"), AppProtocol: ptr.To("kubernetes.io/h2c")},
				{Name: "dns", Port: 53, Protocol: udp, TargetPort: intstr.FromInt32(5353)},
			}
		}), pod: testobjects.RulePod("p"), want: []discovery.EndpointPort{
			{Name: ptr.To("web"), Port: ptr.To[int32](8080), Protocol: &tcp, AppProtocol: ptr.To("kubernetes.io/h2c")},
			{Name: ptr.To("dns"), Port: ptr.To[int32](5353), Protocol: &udp},
		}},
		{name: "unresolvable port left out", svc: testobjects.RuleService(func(s *corev1.Service) {
			s.Spec.Ports = []corev1.ServicePort{
				{Name: "a", Port: 80, Protocol: tcp, TargetPort: intstr.FromString("missing")},
				{Name: "b", Port: 81, Protocol: tcp, TargetPort: intstr.FromString("http")},
			}
		}), pod: testobjects.RulePod("p"), want: []discovery.EndpointPort{
			{Name: ptr.To("b"), Port: ptr.To[int32](8080), Protocol: &tcp},
		}},
		{name: "nothing resolves: empty, not nil", svc: testobjects.RuleService(func(s *corev1.Service) {
			s.Spec.Ports[0].TargetPort = intstr.FromString("missing")
		}), pod: testobjects.RulePod("p"), want: []discovery.EndpointPort{}},
		{name: "headless without ports: empty, not nil", svc: testobjects.RuleService(func(s *corev1.Service) {
			s.Spec.ClusterIP, s.Spec.Ports = corev1.ClusterIPNone, nil
		}), pod: testobjects.RulePod("p"), want: []discovery.EndpointPort{}},
		{name: "unnamed testobjects.RuleService port keeps the empty name", svc: testobjects.RuleService(func(s *corev1.Service) { s.Spec.Ports[0].Name = "" }), pod: testobjects.RulePod("p"),
			want: []discovery.EndpointPort{{Name: ptr.To(""), Port: ptr.To[int32](8080), Protocol: &tcp}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EndpointPorts(ctx, tc.svc, tc.pod)
			if got == nil {
				t.Fatal("EndpointPorts returned nil")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("EndpointPorts (-want +got):\n%s", diff)
			}
		})
	}
	// The result does not alias the Service.
	svc := testobjects.RuleService(func(s *corev1.Service) { s.Spec.Ports[0].AppProtocol = ptr.To("h2c") })
	got := EndpointPorts(ctx, svc, testobjects.RulePod("p"))
	*svc.Spec.Ports[0].AppProtocol = "changed"
	svc.Spec.Ports[0].Name = "changed"
	if *got[0].AppProtocol != "h2c" || *got[0].Name != "http" {
		t.Errorf("EndpointPorts aliases the Service: %+v", got[0])
	}
}

func TestPodToEndpointConditions(t *testing.T) {
	// The truth table of KCM podToEndpoint (case 04).
	tests := []struct {
		ready       corev1.ConditionStatus
		terminating bool
		pnra        bool
		want        [3]bool // ready, serving, terminating
	}{
		{ready: corev1.ConditionTrue, want: [3]bool{true, true, false}},
		{ready: corev1.ConditionFalse, want: [3]bool{false, false, false}},
		{ready: corev1.ConditionTrue, terminating: true, want: [3]bool{false, true, true}},
		{ready: corev1.ConditionFalse, terminating: true, want: [3]bool{false, false, true}},
		{ready: corev1.ConditionTrue, pnra: true, want: [3]bool{true, true, false}},
		{ready: corev1.ConditionFalse, pnra: true, want: [3]bool{true, false, false}},
		{ready: corev1.ConditionTrue, terminating: true, pnra: true, want: [3]bool{true, true, true}},
		{ready: corev1.ConditionFalse, terminating: true, pnra: true, want: [3]bool{true, false, true}},
		{ready: corev1.ConditionUnknown, want: [3]bool{false, false, false}},
	}
	for _, tc := range tests {
		p := testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1"), testobjects.WithReady(tc.ready))
		if tc.terminating {
			testobjects.Terminating(p)
		}
		svc := testobjects.RuleService(func(s *corev1.Service) { s.Spec.PublishNotReadyAddresses = tc.pnra })
		ep := PodToEndpoint(p, nil, svc, []string{"10.0.0.1"})
		got := [3]bool{*ep.Conditions.Ready, *ep.Conditions.Serving, *ep.Conditions.Terminating}
		if got != tc.want {
			t.Errorf("Ready=%s terminating=%v publishNotReadyAddresses=%v: ready/serving/testobjects.Terminating = %v, want %v", tc.ready, tc.terminating, tc.pnra, got, tc.want)
		}
	}
}

func TestPodToEndpoint(t *testing.T) {
	nodeA := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}
	nodeNoZone := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: ""}}}
	yes, no := ptr.To(true), ptr.To(false)
	tests := []struct {
		name string
		pod  *corev1.Pod
		node *corev1.Node
		svc  *corev1.Service
		want discovery.Endpoint
	}{
		{name: "full", pod: testobjects.RulePod("p"), node: nodeA, svc: testobjects.RuleService(), want: discovery.Endpoint{
			Addresses:  []string{"10.0.0.1"},
			Conditions: discovery.EndpointConditions{Ready: yes, Serving: yes, Terminating: no},
			NodeName:   ptr.To("node-a"),
			Zone:       ptr.To("zone-a"),
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testobjects.RuleNamespace, Name: "p", UID: "uid-pod-p"},
		}},
		{name: "no node: no zone", pod: testobjects.RulePod("p"), svc: testobjects.RuleService(), want: discovery.Endpoint{
			Addresses:  []string{"10.0.0.1"},
			Conditions: discovery.EndpointConditions{Ready: yes, Serving: yes, Terminating: no},
			NodeName:   ptr.To("node-a"),
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testobjects.RuleNamespace, Name: "p", UID: "uid-pod-p"},
		}},
		{name: "empty zone label: no zone", pod: testobjects.RulePod("p"), node: nodeNoZone, svc: testobjects.RuleService(), want: discovery.Endpoint{
			Addresses:  []string{"10.0.0.1"},
			Conditions: discovery.EndpointConditions{Ready: yes, Serving: yes, Terminating: no},
			NodeName:   ptr.To("node-a"),
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testobjects.RuleNamespace, Name: "p", UID: "uid-pod-p"},
		}},
		{name: "unscheduled: no nodeName", pod: testobjects.RulePod("p", testobjects.OnNode("")), svc: testobjects.RuleService(), want: discovery.Endpoint{
			Addresses:  []string{"10.0.0.1"},
			Conditions: discovery.EndpointConditions{Ready: yes, Serving: yes, Terminating: no},
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testobjects.RuleNamespace, Name: "p", UID: "uid-pod-p"},
		}},
		{name: "hostname with matching subdomain", pod: testobjects.RulePod("p", func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "db-0", "svc-a" }), node: nodeA, svc: testobjects.RuleService(),
			want: discovery.Endpoint{
				Addresses:  []string{"10.0.0.1"},
				Conditions: discovery.EndpointConditions{Ready: yes, Serving: yes, Terminating: no},
				Hostname:   ptr.To("db-0"),
				NodeName:   ptr.To("node-a"),
				Zone:       ptr.To("zone-a"),
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testobjects.RuleNamespace, Name: "p", UID: "uid-pod-p"},
			}},
		{name: "hostname with other subdomain", pod: testobjects.RulePod("p", func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "db-0", "other" }), node: nodeA, svc: testobjects.RuleService(),
			want: discovery.Endpoint{
				Addresses:  []string{"10.0.0.1"},
				Conditions: discovery.EndpointConditions{Ready: yes, Serving: yes, Terminating: no},
				NodeName:   ptr.To("node-a"),
				Zone:       ptr.To("zone-a"),
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testobjects.RuleNamespace, Name: "p", UID: "uid-pod-p"},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := PodToEndpoint(tc.pod, tc.node, tc.svc, []string{"10.0.0.1"})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("PodToEndpoint (-want +got):\n%s", diff)
			}
		})
	}

	// Caller-supplied addresses are used as given (other sources).
	ep := PodToEndpoint(testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.1")), nil, testobjects.RuleService(), []string{"10.0.1.7"})
	if diff := cmp.Diff([]string{"10.0.1.7"}, ep.Addresses); diff != "" {
		t.Errorf("addresses (-want +got):\n%s", diff)
	}

	// No pointer into the testobjects.RulePod or node.
	p := testobjects.RulePod("p", func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "db-0", "svc-a" })
	n := nodeA.DeepCopy()
	ep = PodToEndpoint(p, n, testobjects.RuleService(), []string{"10.0.0.1"})
	p.Spec.NodeName, p.Spec.Hostname, p.Name, p.UID = "x", "x", "x", "x"
	n.Labels[corev1.LabelTopologyZone] = "x"
	if *ep.NodeName != "node-a" || *ep.Hostname != "db-0" || *ep.Zone != "zone-a" || ep.TargetRef.Name != "p" || ep.TargetRef.UID != "uid-pod-p" {
		t.Errorf("PodToEndpoint aliases its inputs: %+v", ep)
	}
}

func TestTopologyAuto(t *testing.T) {
	hints, mode := corev1.DeprecatedAnnotationTopologyAwareHints, corev1.AnnotationTopologyMode
	tests := []struct {
		name        string
		annotations map[string]string
		want        bool
	}{
		{name: "none"},
		{name: "other annotation", annotations: map[string]string{"topology-hints": "Auto"}},
		{name: "hints Auto", annotations: map[string]string{hints: "Auto"}, want: true},
		{name: "hints auto", annotations: map[string]string{hints: "auto"}, want: true},
		{name: "hints aUto", annotations: map[string]string{hints: "aUto"}},
		{name: "hints enabled", annotations: map[string]string{hints: "enabled"}},
		{name: "mode Auto", annotations: map[string]string{mode: "Auto"}, want: true},
		{name: "mode auto", annotations: map[string]string{mode: "auto"}, want: true},
		{name: "mode disabled", annotations: map[string]string{mode: "disabled"}},
		{name: "hints auto wins over mode disabled", annotations: map[string]string{mode: "disabled", hints: "auto"}, want: true},
		{name: "hints disabled wins over mode auto", annotations: map[string]string{mode: "auto", hints: "disabled"}},
		{name: "empty hints wins over mode auto", annotations: map[string]string{mode: "auto", hints: ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TopologyAuto(tc.annotations); got != tc.want {
				t.Errorf("TopologyAuto = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestHints(t *testing.T) {
	tests := []struct {
		name        string
		annotations map[string]string
		td          *string
		opts        Options
		wantAuto    bool
		wantTD      *string
	}{
		{name: "nothing"},
		{name: "PreferClose", td: ptr.To(corev1.ServiceTrafficDistributionPreferClose), wantTD: ptr.To(corev1.ServiceTrafficDistributionPreferClose)},
		{name: "PreferSameZone", td: ptr.To(corev1.ServiceTrafficDistributionPreferSameZone), wantTD: ptr.To(corev1.ServiceTrafficDistributionPreferSameZone)},
		{name: "PreferSameNode", td: ptr.To(corev1.ServiceTrafficDistributionPreferSameNode), wantTD: ptr.To(corev1.ServiceTrafficDistributionPreferSameNode)},
		{name: "PreferSameZone with the gate off", td: ptr.To(corev1.ServiceTrafficDistributionPreferSameZone), opts: Options{DisablePreferSameTrafficDistribution: true}},
		{name: "PreferSameNode with the gate off", td: ptr.To(corev1.ServiceTrafficDistributionPreferSameNode), opts: Options{DisablePreferSameTrafficDistribution: true}},
		{name: "PreferClose with the gate off", td: ptr.To(corev1.ServiceTrafficDistributionPreferClose), opts: Options{DisablePreferSameTrafficDistribution: true},
			wantTD: ptr.To(corev1.ServiceTrafficDistributionPreferClose)},
		{name: "invalid value", td: ptr.To("PreferFar")},
		{name: "wrong case", td: ptr.To("preferclose")},
		{name: "topology mode Auto overrides trafficDistribution", annotations: map[string]string{corev1.AnnotationTopologyMode: "Auto"},
			td: ptr.To(corev1.ServiceTrafficDistributionPreferClose), wantAuto: true},
		{name: "topology mode disabled keeps trafficDistribution", annotations: map[string]string{corev1.AnnotationTopologyMode: "Disabled"},
			td: ptr.To(corev1.ServiceTrafficDistributionPreferClose), wantTD: ptr.To(corev1.ServiceTrafficDistributionPreferClose)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := testobjects.RuleService(func(s *corev1.Service) { s.Annotations, s.Spec.TrafficDistribution = tc.annotations, tc.td })
			h := Hints(svc, tc.opts)
			if h.TopologyAuto != tc.wantAuto {
				t.Errorf("TopologyAuto = %v, want %v", h.TopologyAuto, tc.wantAuto)
			}
			if diff := cmp.Diff(tc.wantTD, h.TrafficDistribution); diff != "" {
				t.Errorf("TrafficDistribution (-want +got):\n%s", diff)
			}
			if h.TrafficDistribution != nil && h.TrafficDistribution == svc.Spec.TrafficDistribution {
				t.Error("TrafficDistribution aliases the Service")
			}
		})
	}
}
