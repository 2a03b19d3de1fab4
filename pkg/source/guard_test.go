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

package source_test

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/source"
)

// prefixGuard refuses addresses in 10.96.0.0/16 (a Service CIDR) and
// 192.168.1.10 (a Node), as addressguard.Guard would.
var prefixGuard = source.AddressGuardFunc(func(_ *corev1.Service, _ *corev1.Pod, a netip.Addr) error {
	switch {
	case netip.MustParsePrefix("10.96.0.0/16").Contains(a):
		return source.Skip(source.ReasonAddressInServiceCIDR, "%s is inside Service CIDR 10.96.0.0/16", a)
	case a == netip.MustParseAddr("192.168.1.10"):
		return source.Skip(source.ReasonNodeAddress, "%s is an address of Node n", a)
	case a == netip.MustParseAddr("10.9.9.9"):
		return errors.New("plain error")
	}
	return nil
})

func TestDesiredGuard(t *testing.T) {
	ready := func(addr, pod string) ep {
		return ep{Addr: addr, Pod: pod, Node: "node-a", Zone: "zone-a", Ready: true, Serving: true}
	}
	for _, tc := range []struct {
		name         string
		pods         []*corev1.Pod
		want         []group
		wantProblems []string
	}{
		{"nothing refused", []*corev1.Pod{testPod("a", "10.1.0.1"), testPod("b", "10.1.0.2")},
			[]group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "a"), ready("10.1.0.2", "b")}}}, nil},
		{"forged ClusterIP and Node IP: that pod is left out, the other stays",
			[]*corev1.Pod{testPod("a", "10.96.0.1,192.168.1.10"), testPod("b", "10.1.0.2")},
			[]group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.2", "b")}}},
			[]string{"a:" + source.ReasonAddressInServiceCIDR, "a:" + source.ReasonNodeAddress}},
		{"one address refused, the pod keeps its other",
			[]*corev1.Pod{testPod("a", "10.96.0.1,10.1.0.1,10.96.0.2")},
			[]group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "a")}}},
			[]string{"a:" + source.ReasonAddressInServiceCIDR}},
		{"refused before duplicates: the refused claim never wins",
			[]*corev1.Pod{testPod("a", "10.96.0.1"), testPod("b", "10.96.0.1")},
			nil, []string{"a:" + source.ReasonAddressInServiceCIDR, "b:" + source.ReasonAddressInServiceCIDR}},
		{"a guard's plain error is AddressesFailed",
			[]*corev1.Pod{testPod("a", "10.9.9.9,10.1.0.1")},
			[]group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "a")}}},
			[]string{"a:" + source.ReasonAddressesFailed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			src := annotationSource.WithAddressGuard(prefixGuard)
			d, problems, err := src.Desired(ctx, testService(), tc.pods, testNodes())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, view(d)); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantProblems, reasons(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			for _, p := range problems {
				if source.IsRefusal(p.Reason) && (!strings.Contains(p.Message, "refused") || !strings.Contains(p.Message, "svc")) {
					t.Errorf("problem message %q does not say what was refused for which Service", p.Message)
				}
			}
		})
	}
}

func TestWithAddressGuard(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	// Unguarded, the forged address is published: the test can fail.
	d, _, err := annotationSource.Desired(ctx, testService(), []*corev1.Pod{testPod("a", "10.96.0.1")}, testNodes())
	if err != nil || len(view(d)) != 1 {
		t.Fatalf("unguarded source: %v %v", view(d), err)
	}
	if got := annotationSource.WithAddressGuard(nil); got.(source.PodAddresses).Guard != nil {
		t.Error("WithAddressGuard(nil) set a guard")
	}
	// Chained: the source's own guard and the controller's both apply.
	own := source.AddressGuardFunc(func(_ *corev1.Service, _ *corev1.Pod, a netip.Addr) error {
		if a == netip.MustParseAddr("10.1.0.1") {
			return source.Skip(source.ReasonAddressNotAllowed, "not allowed")
		}
		return nil
	})
	withOwn := annotationSource
	withOwn.Guard = own
	src := withOwn.WithAddressGuard(prefixGuard)
	_, problems, err := src.Desired(ctx, testService(), []*corev1.Pod{testPod("a", "10.1.0.1,10.96.0.1,10.1.0.2")}, testNodes())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a:" + source.ReasonAddressNotAllowed, "a:" + source.ReasonAddressInServiceCIDR}, reasons(problems)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	for _, r := range []string{source.ReasonAddressInServiceCIDR, source.ReasonNodeAddress, source.ReasonAddressNotAllowed} {
		if !source.IsRefusal(r) {
			t.Errorf("IsRefusal(%s) = false", r)
		}
	}
	if source.IsRefusal(source.ReasonDuplicateAddress) {
		t.Error("IsRefusal(DuplicateAddress) = true")
	}
}
