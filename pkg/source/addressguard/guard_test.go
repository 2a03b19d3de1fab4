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

package addressguard

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/source"
)

func node(name string, addrs ...corev1.NodeAddress) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.NodeStatus{Addresses: addrs}}
}

func serviceCIDR(name string, cidrs ...string) *networkingv1.ServiceCIDR {
	return &networkingv1.ServiceCIDR{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: networkingv1.ServiceCIDRSpec{CIDRs: cidrs}}
}

// newGuard runs a guard on a fake clientset holding objs; served says
// whether discovery lists servicecidrs.
func newGuard(t *testing.T, served bool, controller string, opts Options, objs ...any) *Guard {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	client := fake.NewClientset()
	for _, o := range objs {
		var err error
		switch o := o.(type) {
		case *corev1.Node:
			_, err = client.CoreV1().Nodes().Create(ctx, o, metav1.CreateOptions{})
		case *networkingv1.ServiceCIDR:
			_, err = client.NetworkingV1().ServiceCIDRs().Create(ctx, o, metav1.CreateOptions{})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if served {
		client.Resources = []*metav1.APIResourceList{{GroupVersion: ServiceCIDRGroupVersion, APIResources: []metav1.APIResource{{Name: ServiceCIDRResource}}}}
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	g, err := New(ctx, client, factory, controller, opts)
	if err != nil {
		t.Fatal(err)
	}
	// A second guard on the same factory (two controllers) shares the index.
	if _, err := New(ctx, client, factory, "other", opts); err != nil {
		t.Fatalf("second guard on one factory: %v", err)
	}
	startFactory(t, ctx, factory)
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) { return g.HasSynced(), nil }); err != nil {
		t.Fatal("guard never synced")
	}
	return g
}

func TestCheckAddress(t *testing.T) {
	nodes := []any{
		node("node-a", corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "192.168.1.10"},
			corev1.NodeAddress{Type: corev1.NodeExternalIP, Address: "203.0.113.7"},
			corev1.NodeAddress{Type: corev1.NodeHostName, Address: "node-a"},
			corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "fd00:1::10"}),
		node("node-b", corev1.NodeAddress{Type: corev1.NodeInternalDNS, Address: "192.168.1.11"}), // not an IP type: kept
		serviceCIDR("kubernetes", "10.96.0.0/16", "fd00:10:96::/112"),
		serviceCIDR("extra", "10.100.0.0/24"),
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}}
	hostPod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "h"},
		Status: corev1.PodStatus{PodIPs: []corev1.PodIP{{IP: "192.168.1.10"}}}}
	allow := map[string][]netip.Prefix{"net.example.com": {netip.MustParsePrefix("10.200.0.0/16"), netip.MustParsePrefix("fd00:200::/64")}}

	for _, tc := range []struct {
		name       string
		served     bool
		controller string
		opts       Options
		pod        *corev1.Pod
		addr       string
		reason     string // "" accepted
	}{
		{"ordinary address", true, "c", Options{}, pod, "10.244.9.9", ""},
		{"kubernetes Service ClusterIP", true, "c", Options{}, pod, "10.96.0.1", source.ReasonAddressInServiceCIDR},
		{"second ServiceCIDR object", true, "c", Options{}, pod, "10.100.0.200", source.ReasonAddressInServiceCIDR},
		{"IPv6 ServiceCIDR", true, "c", Options{}, pod, "fd00:10:96::a", source.ReasonAddressInServiceCIDR},
		{"IPv4-mapped IPv6 of a Service IP", true, "c", Options{}, pod, "::ffff:10.96.0.1", source.ReasonAddressInServiceCIDR},
		{"objects not served, static range", false, "c", Options{ServiceCIDRs: []netip.Prefix{netip.MustParsePrefix("10.96.0.0/12")}}, pod, "10.96.0.1", source.ReasonAddressInServiceCIDR},
		{"objects ignored", true, "c", Options{IgnoreServiceCIDRObjects: true}, pod, "10.96.0.1", ""},
		{"Node InternalIP", true, "c", Options{}, pod, "192.168.1.10", source.ReasonNodeAddress},
		{"Node ExternalIP", true, "c", Options{}, pod, "203.0.113.7", source.ReasonNodeAddress},
		{"Node IPv6 InternalIP", true, "c", Options{}, pod, "fd00:1::10", source.ReasonNodeAddress},
		{"Node InternalDNS is not an address", true, "c", Options{}, pod, "192.168.1.11", ""},
		{"host-network Pod's own podIP", true, "c", Options{}, hostPod, "192.168.1.10", ""},
		{"allow-list: inside", true, "net.example.com", Options{AllowedCIDRs: allow}, pod, "10.200.3.4", ""},
		{"allow-list: outside", true, "net.example.com", Options{AllowedCIDRs: allow}, pod, "10.244.9.9", source.ReasonAddressNotAllowed},
		{"allow-list: applies to podIPs too", true, "net.example.com", Options{AllowedCIDRs: allow}, hostPod, "192.168.1.10", source.ReasonAddressNotAllowed},
		{"allow-list of another controller", true, "c", Options{AllowedCIDRs: allow}, pod, "10.244.9.9", ""},
		{"allow-list does not override the Service CIDR", true, "net.example.com",
			Options{AllowedCIDRs: map[string][]netip.Prefix{"net.example.com": {netip.MustParsePrefix("10.0.0.0/8")}}}, pod, "10.96.0.10", source.ReasonAddressInServiceCIDR},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGuard(t, tc.served, tc.controller, tc.opts, nodes...)
			err := g.CheckAddress(nil, tc.pod, netip.MustParseAddr(tc.addr))
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("CheckAddress(%s) = %v, want accepted", tc.addr, err)
				}
				return
			}
			var se *source.SkipError
			if !errors.As(err, &se) || se.Reason != tc.reason {
				t.Fatalf("CheckAddress(%s) = %v, want reason %s", tc.addr, err, tc.reason)
			}
			if !source.IsRefusal(se.Reason) {
				t.Errorf("reason %s is not a refusal", se.Reason)
			}
		})
	}
}

// TestServiceCIDRUpdates checks that ServiceCIDR objects created and
// deleted after the start are followed.
func TestServiceCIDRUpdates(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := fake.NewClientset()
	client.Resources = []*metav1.APIResourceList{{GroupVersion: ServiceCIDRGroupVersion, APIResources: []metav1.APIResource{{Name: ServiceCIDRResource}}}}
	factory := informers.NewSharedInformerFactory(client, 0)
	g, err := New(ctx, client, factory, "c", Options{ServiceCIDRs: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/24")}})
	if err != nil {
		t.Fatal(err)
	}
	startFactory(t, ctx, factory)
	waitFor := func(want []string) {
		t.Helper()
		var got []string
		err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
			got = nil
			for _, p := range g.ServiceCIDRs() {
				got = append(got, p.String())
			}
			return cmp.Equal(want, got), nil
		})
		if err != nil {
			t.Fatalf("ServiceCIDRs = %v, want %v", got, want)
		}
	}
	waitFor([]string{"10.0.0.0/24"})
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) { return g.HasSynced(), nil }); err != nil {
		t.Fatal("guard never synced")
	}
	changes := make(chan struct{}, 10)
	g.OnChange(func() { changes <- struct{}{} })
	expectChange := func(what string) {
		t.Helper()
		select {
		case <-changes:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no OnChange call", what)
		}
	}
	if _, err := client.NetworkingV1().ServiceCIDRs().Create(ctx, serviceCIDR("new", "10.97.0.0/16"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor([]string{"10.0.0.0/24", "10.97.0.0/16"})
	expectChange("ServiceCIDR created")
	if err := g.CheckAddress(nil, nil, netip.MustParseAddr("10.97.1.1")); err == nil {
		t.Error("an address of a new ServiceCIDR is accepted")
	}
	if err := client.NetworkingV1().ServiceCIDRs().Delete(ctx, "new", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor([]string{"10.0.0.0/24"})
	expectChange("ServiceCIDR deleted")
	// A Node's addresses: a change calls OnChange, a heartbeat does not.
	n, err := client.CoreV1().Nodes().Create(ctx, node("n", corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "192.0.2.1"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expectChange("Node created")
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	if n, err = client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	n.Status.Addresses = append(n.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeExternalIP, Address: "198.51.100.1"})
	if _, err = client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	expectChange("Node address added")
	if len(changes) != 0 {
		t.Errorf("%d more OnChange calls: the condition update counted", len(changes))
	}
	if err := g.CheckAddress(nil, nil, netip.MustParseAddr("198.51.100.1")); err == nil {
		t.Error("the new Node address is accepted")
	}
}

func TestNewErrors(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	if _, err := New(ctx, nil, nil, "c", Options{}); err == nil {
		t.Error("New without client: no error")
	}
}

// TestNoServiceCIDRsFailsClosed: on a server without networking.k8s.io/v1
// servicecidrs (Kubernetes 1.32 and older, as the fake discovery here) and
// no configured Service CIDR, New fails with ErrNoServiceCIDRs, whose
// message names the flag, instead of returning a guard that lets Service
// addresses through. With a configured range, or with the API served, it
// succeeds.
func TestNoServiceCIDRsFailsClosed(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := fake.NewClientset() // its discovery serves no servicecidrs
	_, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), "c", Options{})
	if !errors.Is(err, ErrNoServiceCIDRs) {
		t.Fatalf("New without ServiceCIDR API or range: err = %v, want ErrNoServiceCIDRs", err)
	}
	for _, want := range []string{"--service-cluster-ip-range", "networking.k8s.io/v1 servicecidrs", "1.33", "address guard of c"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if _, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), "c",
		Options{ServiceCIDRs: []netip.Prefix{netip.MustParsePrefix("10.96.0.0/12")}}); err != nil {
		t.Errorf("with --service-cluster-ip-range: %v", err)
	}
	client.Resources = []*metav1.APIResourceList{{GroupVersion: ServiceCIDRGroupVersion, APIResources: []metav1.APIResource{{Name: ServiceCIDRResource}}}}
	if _, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), "c", Options{}); err != nil {
		t.Errorf("with the API served: %v", err)
	}
}

func TestParseCIDRs(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"", nil, false},
		{"  ", nil, false},
		{"10.96.0.0/12", []string{"10.96.0.0/12"}, false},
		{" 10.96.0.1/12 , fd00:10:96::/112 ", []string{"10.96.0.0/12", "fd00:10:96::/112"}, false},
		{"10.96.0.0/12,", nil, true},
		{"10.96.0.1", nil, true},
		{"::ffff:10.0.0.0/104", nil, true},
		{"fe80::%eth0/64", nil, true},
		{"10.0.0.0/33", nil, true},
	} {
		got, err := ParseCIDRs(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseCIDRs(%q) error %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		var s []string
		for _, p := range got {
			s = append(s, p.String())
		}
		if !tc.wantErr && !cmp.Equal(tc.want, s) {
			t.Errorf("ParseCIDRs(%q) = %v, want %v", tc.in, s, tc.want)
		}
	}
}

func TestParseAllowedCIDRs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      []string
		want    map[string][]string
		wantErr bool
	}{
		{"none", nil, nil, false},
		{"one", []string{"a.example.com=10.1.0.0/16"}, map[string][]string{"a.example.com": {"10.1.0.0/16"}}, false},
		{"repeated name adds up", []string{"a=10.1.0.0/16", "a=fd00::/64,10.2.0.0/16", "b=10.3.0.0/16"},
			map[string][]string{"a": {"10.1.0.0/16", "fd00::/64", "10.2.0.0/16"}, "b": {"10.3.0.0/16"}}, false},
		{"no =", []string{"a"}, nil, true},
		{"no name", []string{"=10.0.0.0/8"}, nil, true},
		{"no CIDR", []string{"a="}, nil, true},
		{"bad CIDR", []string{"a=10.0.0.0"}, nil, true},
		{"bad name", []string{"a b=10.0.0.0/8"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAllowedCIDRs(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			var s map[string][]string
			for k, ps := range got {
				if s == nil {
					s = map[string][]string{}
				}
				for _, p := range ps {
					s[k] = append(s[k], p.String())
				}
			}
			if d := cmp.Diff(tc.want, s); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestOptionsFlags(t *testing.T) {
	var o Options
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse([]string{"--service-cluster-ip-range=10.96.0.0/12,bad", "--pod-address-allowed-cidrs=x"}); err != nil {
		t.Fatal(err)
	}
	err := o.Validate()
	if err == nil {
		t.Fatal("invalid flags accepted")
	}
	for _, flag := range []string{"--service-cluster-ip-range", "--pod-address-allowed-cidrs"} {
		if !contains(err.Error(), flag) {
			t.Errorf("error %q does not name %s", err, flag)
		}
	}
	o = Options{}
	fs = pflag.NewFlagSet("test", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse([]string{"--service-cluster-ip-range=10.96.0.0/12", "--pod-address-allowed-cidrs=n=10.1.0.0/16"}); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(o.ServiceCIDRs) != 1 || len(o.AllowedCIDRs["n"]) != 1 {
		t.Errorf("after Validate: %+v", o)
	}
	// Without the flags, Validate keeps what the caller set.
	set := Options{ServiceCIDRs: o.ServiceCIDRs}
	if err := set.Validate(); err != nil || len(set.ServiceCIDRs) != 1 {
		t.Errorf("Validate without flags: %v, %+v", err, set)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// startFactory starts factory until the test ends (stopped before
// Shutdown waits for it).
func startFactory(t *testing.T, ctx context.Context, factory informers.SharedInformerFactory) {
	ctx, cancel := context.WithCancel(ctx)
	factory.Start(ctx.Done())
	t.Cleanup(func() {
		cancel()
		factory.Shutdown()
	})
}
