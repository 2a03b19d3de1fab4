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

package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func TestDefaultServices(t *testing.T) {
	v4 := []corev1.IPFamily{corev1.IPv4Protocol}
	dual := []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	v6v4 := []corev1.IPFamily{corev1.IPv6Protocol, corev1.IPv4Protocol}
	port := corev1.ServicePort{Name: "http", Port: 80}
	defaultedPort := corev1.ServicePort{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(80)}
	single, prefer, require := corev1.IPFamilyPolicySingleStack, corev1.IPFamilyPolicyPreferDualStack, corev1.IPFamilyPolicyRequireDualStack
	for _, tc := range []struct {
		name     string
		families []corev1.IPFamily
		spec     corev1.ServiceSpec
		want     corev1.ServiceSpec
		wantNote string
	}{
		{
			name: "nothing given, IPv4 cluster", families: v4,
			spec: corev1.ServiceSpec{Selector: map[string]string{"a": "b"}, Ports: []corev1.ServicePort{port}},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Selector: map[string]string{"a": "b"}, Ports: []corev1.ServicePort{defaultedPort},
				ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"}, IPFamilies: v4, IPFamilyPolicy: &single},
			wantNote: "Service ns/s: defaulted type ClusterIP, ports[0].protocol TCP, ports[0].targetPort 80, ipFamilies [IPv4], ipFamilyPolicy SingleStack, clusterIPs [10.96.0.10] (allocated)",
		},
		{
			name: "nothing given, IPv6-primary dual-stack cluster: primary only", families: v6v4,
			spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{defaultedPort}, Type: corev1.ServiceTypeClusterIP},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort},
				ClusterIP: "fd00:10:96::a", ClusterIPs: []string{"fd00:10:96::a"}, IPFamilies: []corev1.IPFamily{corev1.IPv6Protocol}, IPFamilyPolicy: &single},
			wantNote: "Service ns/s: defaulted ipFamilies [IPv6], ipFamilyPolicy SingleStack, clusterIPs [fd00:10:96::a] (allocated)",
		},
		{
			name: "PreferDualStack on a dual-stack cluster", families: dual,
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, IPFamilyPolicy: &prefer},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, IPFamilyPolicy: &prefer,
				ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10", "fd00:10:96::a"}, IPFamilies: dual},
			wantNote: "Service ns/s: defaulted ipFamilies [IPv4 IPv6], clusterIPs [10.96.0.10 fd00:10:96::a] (allocated)",
		},
		{
			name: "PreferDualStack on a single-stack cluster", families: v4,
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, IPFamilyPolicy: &prefer},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, IPFamilyPolicy: &prefer,
				ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"}, IPFamilies: v4},
			wantNote: "Service ns/s: defaulted ipFamilies [IPv4], clusterIPs [10.96.0.10] (allocated)",
		},
		{
			name: "RequireDualStack with families given", families: v4,
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, IPFamilyPolicy: &require, IPFamilies: dual},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, IPFamilyPolicy: &require, IPFamilies: dual,
				ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10", "fd00:10:96::a"}},
			wantNote: "Service ns/s: defaulted clusterIPs [10.96.0.10 fd00:10:96::a] (allocated)",
		},
		{
			name: "cluster IP given: its family wins over the flag", families: v4,
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, ClusterIP: "fd00:10:96::99"},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, ClusterIP: "fd00:10:96::99",
				ClusterIPs: []string{"fd00:10:96::99"}, IPFamilies: []corev1.IPFamily{corev1.IPv6Protocol}, IPFamilyPolicy: &single},
			wantNote: "Service ns/s: defaulted ipFamilies [IPv6], ipFamilyPolicy SingleStack, clusterIPs [fd00:10:96::99]",
		},
		{
			name: "headless with selector", families: dual,
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: corev1.ClusterIPNone, Selector: map[string]string{"a": "b"}},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: corev1.ClusterIPNone, Selector: map[string]string{"a": "b"},
				ClusterIPs: []string{corev1.ClusterIPNone}, IPFamilies: v4, IPFamilyPolicy: &single},
			wantNote: "Service ns/s: defaulted ipFamilies [IPv4], ipFamilyPolicy SingleStack, clusterIPs [None]",
		},
		{
			name: "headless without selector on a dual-stack cluster", families: dual,
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: corev1.ClusterIPNone},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: corev1.ClusterIPNone,
				ClusterIPs: []string{corev1.ClusterIPNone}, IPFamilies: dual, IPFamilyPolicy: &require},
			wantNote: "Service ns/s: defaulted ipFamilies [IPv4 IPv6], ipFamilyPolicy RequireDualStack, clusterIPs [None]",
		},
		{
			name: "ExternalName: no cluster IP", families: v4,
			spec:     corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "example.com", Ports: []corev1.ServicePort{port}},
			want:     corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "example.com", Ports: []corev1.ServicePort{defaultedPort}},
			wantNote: "Service ns/s: defaulted ports[0].protocol TCP, ports[0].targetPort 80",
		},
		{
			name: "complete: no note", families: v4,
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, ClusterIP: "10.96.0.5",
				ClusterIPs: []string{"10.96.0.5"}, IPFamilies: v4, IPFamilyPolicy: &single},
			want: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Ports: []corev1.ServicePort{defaultedPort}, ClusterIP: "10.96.0.5",
				ClusterIPs: []string{"10.96.0.5"}, IPFamilies: v4, IPFamilyPolicy: &single},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s"}, Spec: tc.spec}
			notes := DefaultServices([]runtime.Object{svc}, tc.families)
			if d := cmp.Diff(tc.want, svc.Spec); d != "" {
				t.Errorf("spec (-want +got):\n%s", d)
			}
			var want []string
			if tc.wantNote != "" {
				want = []string{tc.wantNote}
			}
			if d := cmp.Diff(want, notes); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
		})
	}
}

// TestDefaultServicesSkipsUsedIPs: allocation never hands out an IP the
// input already uses.
func TestDefaultServicesSkipsUsedIPs(t *testing.T) {
	taken := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "taken"},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: "10.96.0.10", Ports: []corev1.ServicePort{{Port: 80}}}}
	fresh := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "fresh"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}, IPFamilyPolicy: ptr.To(corev1.IPFamilyPolicySingleStack)}}
	DefaultServices([]runtime.Object{taken, fresh}, nil)
	if fresh.Spec.ClusterIP != "10.96.0.11" {
		t.Errorf("allocated %s, want 10.96.0.11 (10.96.0.10 is taken)", fresh.Spec.ClusterIP)
	}
}

func TestParseIPFamilies(t *testing.T) {
	for in, ok := range map[string]bool{"IPv4": true, "IPv6": true, "IPv4,IPv6": true, "IPv6, IPv4": true, "IPv4,IPv4": false, "ipv4": false, "": false} {
		if _, err := ParseIPFamilies(in); (err == nil) != ok {
			t.Errorf("ParseIPFamilies(%q) error = %v, want ok=%v", in, err, ok)
		}
	}
}

// TestDefaultProtocols checks that ports without a protocol get TCP, as the
// API server defaults them, and that a named targetPort then resolves.
func TestDefaultProtocols(t *testing.T) {
	udp := corev1.ProtocolUDP
	empty := corev1.Protocol("")
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "side", Ports: []corev1.ContainerPort{{Name: "m", ContainerPort: 9090}}}},
		Containers:     []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}, {Name: "dns", ContainerPort: 53, Protocol: udp}}}},
	}}
	eps := &corev1.Endpoints{Subsets: []corev1.EndpointSubset{{Ports: []corev1.EndpointPort{{Port: 80}, {Port: 53, Protocol: udp}}}}} //nolint:staticcheck // mirroring input
	slice := &discovery.EndpointSlice{Ports: []discovery.EndpointPort{{Port: ptr.To[int32](80)}, {Port: ptr.To[int32](81), Protocol: &empty}, {Port: ptr.To[int32](53), Protocol: &udp}}}
	if got := DefaultProtocols([]runtime.Object{pod, eps, slice}); got != 5 {
		t.Errorf("DefaultProtocols = %d, want 5", got)
	}
	got := []corev1.Protocol{
		pod.Spec.InitContainers[0].Ports[0].Protocol, pod.Spec.Containers[0].Ports[0].Protocol, pod.Spec.Containers[0].Ports[1].Protocol,
		eps.Subsets[0].Ports[0].Protocol, eps.Subsets[0].Ports[1].Protocol,
		*slice.Ports[0].Protocol, *slice.Ports[1].Protocol, *slice.Ports[2].Protocol,
	}
	want := []corev1.Protocol{"TCP", "TCP", "UDP", "TCP", "UDP", "TCP", "TCP", "UDP"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("protocols (-want +got):\n%s", d)
	}
	if got := DefaultProtocols([]runtime.Object{pod, eps, slice}); got != 0 {
		t.Errorf("second DefaultProtocols = %d, want 0", got)
	}
}
