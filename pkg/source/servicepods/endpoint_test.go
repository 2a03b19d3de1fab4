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

package servicepods

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const testNS = "ns-a"

// pod returns a Running, Ready pod on node-a with IP 10.0.0.<n> and one
// container port http=8080/TCP; opts adjust it.
func pod(name string, opts ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, UID: types.UID("uid-pod-" + name), Labels: map[string]string{"app": "a"}},
		Spec: corev1.PodSpec{
			NodeName: "node-a",
			Containers: []corev1.Container{{
				Name:  "app",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
			}},
		},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func withIPs(ips ...string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.PodIPs = nil
		p.Status.PodIP = ""
		for i, ip := range ips {
			if i == 0 {
				p.Status.PodIP = ip
			}
			p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: ip})
		}
	}
}

func withReady(status corev1.ConditionStatus) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
	}
}

func terminating(p *corev1.Pod) {
	p.DeletionTimestamp = &metav1.Time{}
}

func withPhase(phase corev1.PodPhase) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Status.Phase = phase }
}

func onNode(n string) func(*corev1.Pod) { return func(p *corev1.Pod) { p.Spec.NodeName = n } }

// service returns a ClusterIP IPv4 Service svc-a with port http 80 ->
// targetPort; opts adjust it.
func service(opts ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc-a", Namespace: testNS, UID: "uid-svc-a"},
		Spec: corev1.ServiceSpec{
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": "a"},
			Ports: []corev1.ServicePort{{
				Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080),
			}},
		},
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

func TestEndpointAddresses(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		at   discovery.AddressType
		want []string
	}{
		{name: "v4 of dual-stack", pod: pod("p", withIPs("fd00::11", "10.0.0.11")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.11"}},
		{name: "v6 of dual-stack", pod: pod("p", withIPs("10.0.0.11", "fd00::11")), at: discovery.AddressTypeIPv6, want: []string{"fd00::11"}},
		{name: "no address of the family", pod: pod("p", withIPs("10.0.0.11")), at: discovery.AddressTypeIPv6, want: []string{}},
		{name: "canonical IPv6", pod: pod("p", withIPs("FD00:10:244:0:0:0:0:011")), at: discovery.AddressTypeIPv6, want: []string{"fd00:10:244::11"}},
		{name: "IPv4 with leading zeros", pod: pod("p", withIPs("010.000.000.011")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.11"}},
		{name: "IPv4-mapped IPv6 is IPv4", pod: pod("p", withIPs("::ffff:10.0.0.11")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.11"}},
		{name: "status.podIP alone is not read", pod: pod("p", func(p *corev1.Pod) { p.Status.PodIP = "10.0.0.11" }), at: discovery.AddressTypeIPv4, want: []string{}},
		{name: "several of one family, in order", pod: pod("p", withIPs("10.0.0.2", "10.0.0.1")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.2", "10.0.0.1"}},
		{name: "FQDN gets nothing", pod: pod("p", withIPs("10.0.0.11")), at: discovery.AddressTypeFQDN, want: []string{}},
		{name: "unparsable counts as IPv4 (as in KCM)", pod: pod("p", withIPs("bogus")), at: discovery.AddressTypeIPv4, want: []string{"<nil>"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EndpointAddresses(tc.pod, tc.at)
			if got == nil {
				t.Fatal("EndpointAddresses returned nil")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("EndpointAddresses (-want +got):\n%s", diff)
			}
		})
	}
}
