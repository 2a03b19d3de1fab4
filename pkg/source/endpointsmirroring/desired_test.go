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

package endpointsmirroring

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

func addr(ip string, mods ...func(*corev1.EndpointAddress)) corev1.EndpointAddress {
	a := corev1.EndpointAddress{IP: ip}
	for _, m := range mods {
		m(&a)
	}
	return a
}

func withPod(name string) func(*corev1.EndpointAddress) {
	return func(a *corev1.EndpointAddress) {
		a.TargetRef = &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: name, UID: types.UID("uid-" + name)}
	}
}

func withNode(name string) func(*corev1.EndpointAddress) {
	return func(a *corev1.EndpointAddress) { a.NodeName = ptr.To(name) }
}

func withHostname(h string) func(*corev1.EndpointAddress) {
	return func(a *corev1.EndpointAddress) { a.Hostname = h }
}

func port(name string, n int32) corev1.EndpointPort {
	return corev1.EndpointPort{Name: name, Port: n, Protocol: corev1.ProtocolTCP}
}

func sport(name string, n int32) discovery.EndpointPort {
	return discovery.EndpointPort{Name: ptr.To(name), Port: ptr.To(n), Protocol: ptr.To(corev1.ProtocolTCP)}
}

func eps(subsets ...corev1.EndpointSubset) *corev1.Endpoints {
	return &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc", UID: "uid-ep"}, Subsets: subsets}
}

func ready(ip string, mods ...func(*discovery.Endpoint)) discovery.Endpoint {
	e := discovery.Endpoint{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}}
	for _, m := range mods {
		m(&e)
	}
	return e
}

func notReady(ip string, mods ...func(*discovery.Endpoint)) discovery.Endpoint {
	e := ready(ip, mods...)
	e.Conditions.Ready = ptr.To(false)
	return e
}

func epPod(name string) func(*discovery.Endpoint) {
	return func(e *discovery.Endpoint) {
		e.TargetRef = &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: name, UID: types.UID("uid-" + name)}
	}
}

// ipRange returns n IPv4 addresses 10.<b>.x.y counting from 10.<b>.0.1.
func ipRange(b, n int, mods ...func(*corev1.EndpointAddress)) []corev1.EndpointAddress {
	out := make([]corev1.EndpointAddress, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, addr(fmt.Sprintf("10.%d.%d.%d", b, i/250, i%250+1), mods...))
	}
	return out
}

func TestDesired(t *testing.T) {
	both := []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}
	h1 := "host-1"
	tests := []struct {
		name       string
		ep         *corev1.Endpoints
		opts       Options
		wantGroups []reconciler.EndpointGroup
		// counts
		skipped, invalid, truncated int
		tooMany                     bool
	}{
		{
			name: "no subsets: no group, both address types (b10)",
			ep:   eps(),
		},
		{
			name: "ready and not-ready addresses (case 13, b6)",
			ep: eps(corev1.EndpointSubset{
				Addresses:         []corev1.EndpointAddress{addr("10.0.0.11", withHostname("host-1"), withNode("node-a"), withPod("pod-x1"))},
				NotReadyAddresses: []corev1.EndpointAddress{addr("10.0.0.12", withNode("node-b"), withPod("pod-x2"))},
				Ports:             []corev1.EndpointPort{port("http", 8080)},
			}),
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{sport("http", 8080)},
				Endpoints: []discovery.Endpoint{
					ready("10.0.0.11", epPod("pod-x1"), func(e *discovery.Endpoint) { e.Hostname = &h1; e.NodeName = ptr.To("node-a") }),
					notReady("10.0.0.12", epPod("pod-x2"), func(e *discovery.Endpoint) { e.NodeName = ptr.To("node-b") }),
				},
			}},
		},
		{
			name: "same address set on two subsets: one group with both ports (case 16)",
			ep: eps(
				corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{addr("10.0.0.11"), addr("10.0.0.12")}, Ports: []corev1.EndpointPort{port("p-a", 8080)}},
				corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{addr("10.0.0.12"), addr("10.0.0.11")}, Ports: []corev1.EndpointPort{port("p-b", 8082)}},
			),
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				// Ports in KCM's hash order.
				Ports:     []discovery.EndpointPort{sport("p-b", 8082), sport("p-a", 8080)},
				Endpoints: []discovery.Endpoint{ready("10.0.0.11"), ready("10.0.0.12")},
			}},
		},
		{
			name: "different address sets stay apart, the shared address is in both (case 16 caveat)",
			ep: eps(
				corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{addr("10.0.0.11"), addr("10.0.0.12"), addr("10.0.0.13")}, Ports: []corev1.EndpointPort{port("p-a", 8080)}},
				corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{addr("10.0.0.12"), addr("10.0.0.11")}, Ports: []corev1.EndpointPort{port("p-b", 8082)}},
			),
			// Subsets in KCM's hash order.
			wantGroups: []reconciler.EndpointGroup{
				{
					AddressType: discovery.AddressTypeIPv4,
					Ports:       []discovery.EndpointPort{sport("p-a", 8080)},
					Endpoints:   []discovery.Endpoint{ready("10.0.0.11"), ready("10.0.0.12"), ready("10.0.0.13")},
				},
				{
					AddressType: discovery.AddressTypeIPv4,
					Ports:       []discovery.EndpointPort{sport("p-b", 8082)},
					Endpoints:   []discovery.Endpoint{ready("10.0.0.11"), ready("10.0.0.12")},
				},
			},
		},
		{
			name: "not ready in one subset wins over ready in another for the same port",
			ep: eps(
				corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{addr("10.0.0.11")}, Ports: []corev1.EndpointPort{port("http", 80)}},
				corev1.EndpointSubset{NotReadyAddresses: []corev1.EndpointAddress{addr("10.0.0.11")}, Ports: []corev1.EndpointPort{port("http", 80)}},
			),
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{sport("http", 80)},
				Endpoints:   []discovery.Endpoint{notReady("10.0.0.11")},
			}},
		},
		{
			name: "IPv4 and IPv6 in one subset: two groups with the same ports; IPv4-mapped IPv6 is IPv4",
			ep: eps(corev1.EndpointSubset{
				Addresses: []corev1.EndpointAddress{addr("fd00:10:244::1"), addr("::ffff:10.0.0.9"), addr("FD00:10:244:0::2")},
				Ports:     []corev1.EndpointPort{port("http", 80)},
			}),
			wantGroups: []reconciler.EndpointGroup{
				{
					AddressType: discovery.AddressTypeIPv4,
					Ports:       []discovery.EndpointPort{sport("http", 80)},
					Endpoints:   []discovery.Endpoint{ready("10.0.0.9")},
				},
				{
					AddressType: discovery.AddressTypeIPv6,
					Ports:       []discovery.EndpointPort{sport("http", 80)},
					Endpoints:   []discovery.Endpoint{ready("fd00:10:244::2"), ready("fd00:10:244::1")},
				},
			},
		},
		{
			name: "an invalid IP within the limit is only invalid, not too many",
			ep: eps(corev1.EndpointSubset{
				Addresses: []corev1.EndpointAddress{addr("not-an-ip"), addr("10.0.0.1")},
				Ports:     []corev1.EndpointPort{port("http", 80)},
			}),
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{sport("http", 80)},
				Endpoints:   []discovery.Endpoint{ready("10.0.0.1")},
			}},
			skipped: 1, invalid: 1,
		},
		{
			// Addresses are sorted by IP text first: "", "10.0.0.0/24",
			// 10.0.0.1, 10.0.0.2, then the limit is reached and the last two
			// are skipped without being parsed, as in KCM.
			name: "invalid IPs are skipped and counted, do not count toward the limit, and are not parsed beyond it (b5)",
			ep: eps(corev1.EndpointSubset{
				Addresses: []corev1.EndpointAddress{addr("not-an-ip"), addr(""), addr("10.0.0.0/24"), addr("fe80::1%eth0"), addr("10.0.0.1"), addr("10.0.0.2")},
				Ports:     []corev1.EndpointPort{port("http", 80)},
			}),
			opts: Options{MaxEndpointsPerSubset: 2},
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{sport("http", 80)},
				Endpoints:   []discovery.Endpoint{ready("10.0.0.1"), ready("10.0.0.2")},
			}},
			skipped: 4, invalid: 2, tooMany: true,
		},
		{
			name: "leading zeros are read as decimal and collapse with the canonical address, but count twice",
			ep: eps(corev1.EndpointSubset{
				Addresses: []corev1.EndpointAddress{addr("010.000.000.001"), addr("10.0.0.1"), addr("10.0.0.2")},
				Ports:     []corev1.EndpointPort{port("http", 80)},
			}),
			opts: Options{MaxEndpointsPerSubset: 2},
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{sport("http", 80)},
				Endpoints:   []discovery.Endpoint{ready("10.0.0.1")},
			}},
			skipped: 1, tooMany: true,
		},
		{
			name: "ready first: the not-ready tail beyond the limit is skipped (case 15, b4)",
			ep: eps(corev1.EndpointSubset{
				Addresses:         ipRange(0, 3),
				NotReadyAddresses: ipRange(4, 3),
				Ports:             []corev1.EndpointPort{port("http", 8080)},
			}),
			opts: Options{MaxEndpointsPerSubset: 4},
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{sport("http", 8080)},
				Endpoints:   []discovery.Endpoint{ready("10.0.0.2"), ready("10.0.0.3"), ready("10.0.0.4"), notReady("10.4.0.2")},
			}},
			skipped: 2, tooMany: true,
		},
		{
			name: "the limit is per subset, not per Endpoints object",
			ep: eps(
				corev1.EndpointSubset{Addresses: ipRange(1, 3), Ports: []corev1.EndpointPort{port("a", 1)}},
				corev1.EndpointSubset{Addresses: ipRange(2, 3), Ports: []corev1.EndpointPort{port("b", 2)}},
			),
			opts: Options{MaxEndpointsPerSubset: 2},
			wantGroups: []reconciler.EndpointGroup{
				{AddressType: discovery.AddressTypeIPv4, Ports: []discovery.EndpointPort{sport("b", 2)}, Endpoints: []discovery.Endpoint{ready("10.2.0.2"), ready("10.2.0.3")}},
				{AddressType: discovery.AddressTypeIPv4, Ports: []discovery.EndpointPort{sport("a", 1)}, Endpoints: []discovery.Endpoint{ready("10.1.0.2"), ready("10.1.0.3")}},
			},
			skipped: 2, tooMany: true,
		},
		{
			name: "a subset without ports gives a group without ports",
			ep:   eps(corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{addr("10.0.0.1")}}),
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{},
				Endpoints:   []discovery.Endpoint{ready("10.0.0.1")},
			}},
		},
		{
			name: "same IP with two targetRefs: two endpoints; same IP and targetRef name in two versions: the later wins",
			ep: eps(corev1.EndpointSubset{
				Addresses: []corev1.EndpointAddress{addr("10.0.0.1", withPod("a")), addr("10.0.0.1", withPod("b"))},
				Ports:     []corev1.EndpointPort{port("http", 80)},
			}),
			wantGroups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{sport("http", 80)},
				Endpoints:   []discovery.Endpoint{ready("10.0.0.1", epPod("a")), ready("10.0.0.1", epPod("b"))},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.ep.DeepCopy()
			res, err := Desired(tc.ep, tc.opts)
			if err != nil {
				t.Fatalf("Desired: %v", err)
			}
			if diff := cmp.Diff(before, tc.ep); diff != "" {
				t.Errorf("input modified (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(both, res.Desired.AddressTypes); diff != "" {
				t.Errorf("address types (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantGroups, res.Desired.Groups); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			if res.AddressesSkipped != tc.skipped || res.InvalidAddresses != tc.invalid || res.Truncated != tc.truncated {
				t.Errorf("skipped/invalid/truncated = %d/%d/%d, want %d/%d/%d", res.AddressesSkipped, res.InvalidAddresses, res.Truncated, tc.skipped, tc.invalid, tc.truncated)
			}
			if res.TooManyAddresses() != tc.tooMany {
				t.Errorf("TooManyAddresses() = %v, want %v", res.TooManyAddresses(), tc.tooMany)
			}
			if len(res.InvalidIPs) != res.InvalidAddresses {
				t.Errorf("InvalidIPs %v does not match InvalidAddresses %d", res.InvalidIPs, res.InvalidAddresses)
			}
		})
	}
}

// TestDesiredKnativeScale checks case 15 at full size: 1000 ready and 3
// not-ready addresses give one group of the 1000 ready ones.
func TestDesiredKnativeScale(t *testing.T) {
	ep := eps(corev1.EndpointSubset{Addresses: ipRange(0, 1000), NotReadyAddresses: ipRange(9, 3), Ports: []corev1.EndpointPort{port("http", 8080)}})
	res, err := Desired(ep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Desired.Groups) != 1 || len(res.Desired.Groups[0].Endpoints) != 1000 {
		t.Fatalf("want one group of 1000 endpoints, got %d groups", len(res.Desired.Groups))
	}
	for _, e := range res.Desired.Groups[0].Endpoints {
		if !*e.Conditions.Ready {
			t.Errorf("not-ready endpoint %v mirrored before a ready one", e.Addresses)
		}
	}
	if res.AddressesSkipped != 3 || !res.TooManyAddresses() {
		t.Errorf("skipped = %d, TooManyAddresses = %v; want 3, true", res.AddressesSkipped, res.TooManyAddresses())
	}
}

// TestDesiredSamePortsInTwoSubsets covers the one way two re-packed subsets
// share a port list: a port with an appProtocol listed in two subsets with
// different address sets (RepackSubsets tells such ports apart by pointer,
// as KCM does). The endpoints are merged into one group, capped at the
// limit.
func TestDesiredSamePortsInTwoSubsets(t *testing.T) {
	p := func() corev1.EndpointPort {
		return corev1.EndpointPort{Name: "h2", Port: 80, Protocol: corev1.ProtocolTCP, AppProtocol: ptr.To("h2c")}
	}
	ep := eps(
		corev1.EndpointSubset{Addresses: ipRange(1, 3), Ports: []corev1.EndpointPort{p()}},
		corev1.EndpointSubset{Addresses: ipRange(2, 2), Ports: []corev1.EndpointPort{p()}},
	)
	res, err := Desired(ep, Options{MaxEndpointsPerSubset: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Subsets) != 2 {
		t.Fatalf("want 2 re-packed subsets, got %d", len(res.Subsets))
	}
	if len(res.Desired.Groups) != 1 {
		t.Fatalf("want 1 group, got %d", len(res.Desired.Groups))
	}
	if n := len(res.Desired.Groups[0].Endpoints); n != 4 || res.Truncated != 1 || res.AddressesSkipped != 0 {
		t.Errorf("endpoints/truncated/skipped = %d/%d/%d, want 4/1/0", n, res.Truncated, res.AddressesSkipped)
	}
}

func TestDesiredNoAliasing(t *testing.T) {
	ep := eps(corev1.EndpointSubset{
		Addresses: []corev1.EndpointAddress{addr("10.0.0.1", withPod("a"), withNode("n"), withHostname("h"))},
		Ports:     []corev1.EndpointPort{{Name: "p", Port: 1, Protocol: corev1.ProtocolTCP, AppProtocol: ptr.To("x")}},
	})
	before := ep.DeepCopy()
	res, err := Desired(ep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := &res.Desired.Groups[0]
	e := &g.Endpoints[0]
	*e.TargetRef = corev1.ObjectReference{Name: "changed"}
	*e.NodeName = "changed"
	*e.Hostname = "changed"
	*g.Ports[0].Name = "changed"
	*g.Ports[0].AppProtocol = "changed"
	if diff := cmp.Diff(before, ep); diff != "" {
		t.Errorf("result aliases the input (-before +after):\n%s", diff)
	}
}

func TestDesiredDeterministic(t *testing.T) {
	ep := eps(
		corev1.EndpointSubset{Addresses: ipRange(1, 50), NotReadyAddresses: ipRange(3, 7), Ports: []corev1.EndpointPort{port("a", 1), port("c", 3)}},
		corev1.EndpointSubset{Addresses: ipRange(2, 20), Ports: []corev1.EndpointPort{port("b", 2)}},
		corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{addr("fd00::1"), addr("fd00::2")}, Ports: []corev1.EndpointPort{port("d", 4)}},
	)
	first, err := Desired(ep, Options{MaxEndpointsPerSubset: 30})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		again, err := Desired(ep, Options{MaxEndpointsPerSubset: 30})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("run %d differs (-first +again):\n%s", i, diff)
		}
	}
}

func TestDesiredErrors(t *testing.T) {
	if _, err := Desired(nil, Options{}); err == nil {
		t.Error("Desired(nil) returned no error")
	}
	for _, max := range []int32{-1, 1001} {
		if _, err := Desired(eps(), Options{MaxEndpointsPerSubset: max}); err == nil {
			t.Errorf("MaxEndpointsPerSubset %d accepted", max)
		}
	}
	for _, max := range []int32{0, 1, 1000} {
		if _, err := Desired(eps(), Options{MaxEndpointsPerSubset: max}); err != nil {
			t.Errorf("MaxEndpointsPerSubset %d: %v", max, err)
		}
	}
}

func TestParseIP(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantAT discovery.AddressType
		ok     bool
	}{
		{"10.0.0.1", "10.0.0.1", discovery.AddressTypeIPv4, true},
		{"010.000.000.001", "10.0.0.1", discovery.AddressTypeIPv4, true},
		{"::ffff:10.0.0.1", "10.0.0.1", discovery.AddressTypeIPv4, true},
		{"FD00:0:0::1", "fd00::1", discovery.AddressTypeIPv6, true},
		{"::", "::", discovery.AddressTypeIPv6, true},
		{"0.0.0.0", "0.0.0.0", discovery.AddressTypeIPv4, true},
		{"", "", "", false},
		{"10.0.0.256", "", "", false},
		{"10.0.0.1/32", "", "", false},
		{"fe80::1%eth0", "", "", false},
		{"example.com", "", "", false},
		{" 10.0.0.1", "", "", false},
	}
	for _, tc := range tests {
		got, at, ok := ParseIP(tc.in)
		if got != tc.want || at != tc.wantAT || ok != tc.ok {
			t.Errorf("ParseIP(%q) = %q, %q, %v; want %q, %q, %v", tc.in, got, at, ok, tc.want, tc.wantAT, tc.ok)
		}
	}
}

func TestEndpointPorts(t *testing.T) {
	in := []corev1.EndpointPort{{Name: "", Port: 0}, {Name: "h", Port: 443, Protocol: corev1.ProtocolUDP, AppProtocol: ptr.To("quic")}}
	want := []discovery.EndpointPort{
		{Name: ptr.To(""), Port: ptr.To[int32](0), Protocol: ptr.To[corev1.Protocol]("")},
		{Name: ptr.To("h"), Port: ptr.To[int32](443), Protocol: ptr.To(corev1.ProtocolUDP), AppProtocol: ptr.To("quic")},
	}
	if diff := cmp.Diff(want, EndpointPorts(in)); diff != "" {
		t.Errorf("EndpointPorts (-want +got):\n%s", diff)
	}
	if got := EndpointPorts(nil); got == nil || len(got) != 0 {
		t.Errorf("EndpointPorts(nil) = %#v, want empty non-nil", got)
	}
}
