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

package networkstatus_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/networkstatus"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const ns = "ns-a"

type nodeMap map[string]*corev1.Node

func (m nodeMap) Get(name string) (*corev1.Node, error) {
	if n, ok := m[name]; ok {
		return n, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "nodes"}, name)
}

var nodes = nodeMap{"node-a": {ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}}

func svc(network string, mods ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "svc-a", UID: "uid-svc-a"},
		Spec: corev1.ServiceSpec{
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": "a"},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP}},
		},
	}
	if network != "-" {
		s.Annotations = map[string]string{wellknown.AnnotationServiceNetwork: network}
	}
	for _, m := range mods {
		m(s)
	}
	return s
}

func dualStack(s *corev1.Service) {
	s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
}

func headless(s *corev1.Service) {
	s.Spec.ClusterIP, s.Spec.ClusterIPs = corev1.ClusterIPNone, nil
	s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
}

// entry is one network-status entry in JSON.
func entry(name, iface string, ips ...string) string {
	q := make([]string, len(ips))
	for i, ip := range ips {
		q[i] = fmt.Sprintf("%q", ip)
	}
	return fmt.Sprintf(`{"name":%q,"interface":%q,"ips":[%s],"mac":"02:00:00:00:00:01","dns":{}}`, name, iface, strings.Join(q, ","))
}

// primary is the cluster-network entry.
func primary(ip string) string {
	return fmt.Sprintf(`{"name":"cluster-default","interface":"eth0","ips":[%q],"default":true,"dns":{}}`, ip)
}

func status(entries ...string) string { return "[" + strings.Join(entries, ",") + "]" }

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// pod returns a ready pod with primary IP 10.0.0.<n> (and fd00::<n>) and
// the given network-status ("-": no annotation).
func pod(name string, n int, networkStatus string, mods ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name),
			Labels: map[string]string{"app": "a"}, CreationTimestamp: metav1.NewTime(epoch)},
		Spec: corev1.PodSpec{NodeName: "node-a", Containers: []corev1.Container{{Name: "app", Ports: []corev1.ContainerPort{
			{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			PodIP:      fmt.Sprintf("10.0.0.%d", n),
			PodIPs:     []corev1.PodIP{{IP: fmt.Sprintf("10.0.0.%d", n)}, {IP: fmt.Sprintf("fd00::%d", n)}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	}
	if networkStatus != "-" {
		p.Annotations = map[string]string{wellknown.AnnotationNetworkStatus: networkStatus}
	}
	for _, m := range mods {
		m(p)
	}
	return p
}

func TestAddresses(t *testing.T) {
	tests := []struct {
		name       string
		network    string
		status     string
		want       []string
		wantReason string
	}{
		{name: "bare name is the Service's namespace", network: "net-a",
			status: status(primary("10.0.0.1"), entry("ns-a/net-a", "net1", "10.0.1.1")), want: []string{"10.0.1.1"}},
		{name: "qualified name", network: "ns-a/net-a",
			status: status(entry("ns-a/net-a", "net1", "10.0.1.1")), want: []string{"10.0.1.1"}},
		{name: "network of another namespace", network: "other/net-a",
			status: status(entry("ns-a/net-a", "net1", "10.0.1.1"), entry("other/net-a", "net2", "10.0.2.1")), want: []string{"10.0.2.1"}},
		{name: "bare entry name is the pod's namespace", network: "net-a",
			status: status(entry("net-a", "net1", "10.0.1.1")), want: []string{"10.0.1.1"}},
		{name: "dual-stack attachment, CIDR form tolerated", network: "net-a",
			status: status(entry("ns-a/net-a", "net1", "10.0.1.1/24", "fd01::1")), want: []string{"10.0.1.1", "fd01::1"}},
		{name: "several networks", network: "net-a, net-b",
			status: status(entry("ns-a/net-b", "net2", "10.0.2.1"), entry("ns-a/net-a", "net1", "10.0.1.1")), want: []string{"10.0.1.1", "10.0.2.1"}},
		{name: "one of several networks attached", network: "net-a,net-b",
			status: status(entry("ns-a/net-b", "net2", "10.0.2.1")), want: []string{"10.0.2.1"}},
		{name: "the cluster network never matches, even by name", network: "cluster-default",
			status: status(primary("10.0.0.1")), wantReason: networkstatus.ReasonNetworkNotAttached},
		{name: "annotation missing", network: "net-a", status: "-", wantReason: networkstatus.ReasonNetworkStatusMissing},
		{name: "annotation malformed", network: "net-a", status: `[{"name":"ns-a/net-a",`, wantReason: networkstatus.ReasonNetworkStatusInvalid},
		{name: "annotation not an array", network: "net-a", status: `{}`, wantReason: networkstatus.ReasonNetworkStatusInvalid},
		{name: "not attached", network: "net-a", status: status(primary("10.0.0.1")), wantReason: networkstatus.ReasonNetworkNotAttached},
		{name: "attached twice: ambiguous", network: "net-a",
			status: status(entry("ns-a/net-a", "net1", "10.0.1.1"), entry("ns-a/net-a", "net2", "10.0.1.2")), wantReason: networkstatus.ReasonAmbiguousAttachment},
		{name: "attached twice, one interface selected", network: "net-a@net2",
			status: status(entry("ns-a/net-a", "net1", "10.0.1.1"), entry("ns-a/net-a", "net2", "10.0.1.2")), want: []string{"10.0.1.2"}},
		{name: "attachment without ips", network: "net-a",
			status: status(`{"name":"ns-a/net-a","interface":"net1","mac":"02:00:00:00:00:09"}`), wantReason: networkstatus.ReasonAttachmentWithoutIPs},
		{name: "attachment without ips next to one with", network: "net-a,net-b",
			status: status(`{"name":"ns-a/net-a","interface":"net1"}`, entry("ns-a/net-b", "net2", "10.0.2.1")), want: []string{"10.0.2.1"}},
		{name: "invalid IPs are returned for source.Desired to refuse", network: "net-a",
			status: status(entry("ns-a/net-a", "net1", "bogus")), want: []string{"bogus"}},
		{name: "service network invalid", network: "Bad_Name", status: status(entry("ns-a/net-a", "net1", "10.0.1.1")), wantReason: networkstatus.ReasonServiceNetworkInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			got, err := networkstatus.Addresses(ctx, svc(tc.network), pod("p", 1, tc.status))
			if tc.wantReason != "" {
				var se *source.SkipError
				if !errors.As(err, &se) || se.Reason != tc.wantReason {
					t.Fatalf("Addresses = %v, %v; want a SkipError with reason %s", got, err, tc.wantReason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckService(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	for network, want := range map[string]string{
		"-":     networkstatus.ReasonServiceNetworkMissing,
		"":      networkstatus.ReasonServiceNetworkInvalid,
		"a/b/c": networkstatus.ReasonServiceNetworkInvalid,
		"net-a": "",
	} {
		err := networkstatus.CheckService(ctx, svc(network))
		var se *source.SkipError
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", network, err)
		case want != "" && (!errors.As(err, &se) || se.Reason != want):
			t.Errorf("%q: %v, want reason %s", network, err, want)
		}
	}
}

func TestAddressTypes(t *testing.T) {
	if got := networkstatus.AddressTypes(svc("n", headless)); !cmp.Equal(got, []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}) {
		t.Errorf("headless: %v", got)
	}
	if got := networkstatus.AddressTypes(svc("n")); !cmp.Equal(got, []discovery.AddressType{discovery.AddressTypeIPv4}) {
		t.Errorf("cluster IP: %v", got)
	}
}

func TestPodChanged(t *testing.T) {
	a := pod("p", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1")))
	b := a.DeepCopy()
	if networkstatus.PodChanged(a, b) {
		t.Error("same annotation: changed")
	}
	b.Annotations[wellknown.AnnotationNetworkStatus] = status()
	if !networkstatus.PodChanged(a, b) {
		t.Error("new annotation: not changed")
	}
	c := a.DeepCopy()
	c.Annotations[wellknown.AnnotationNetworkStatusLegacy] = "x"
	if !networkstatus.PodChanged(a, c) {
		t.Error("legacy annotation: not changed")
	}
}

// ep is a compact endpoint.
type ep struct {
	Addr, Pod            string
	Ready, Serving, Term bool
}

func endpoints(d *reconciler.Desired) map[discovery.AddressType][]ep {
	out := map[discovery.AddressType][]ep{}
	for _, g := range d.Groups {
		for _, e := range g.Endpoints {
			if len(e.Addresses) != 1 {
				panic("endpoint without exactly one address")
			}
			out[g.AddressType] = append(out[g.AddressType], ep{e.Addresses[0], e.TargetRef.Name,
				*e.Conditions.Ready, *e.Conditions.Serving, *e.Conditions.Terminating})
		}
	}
	return out
}

func TestDesired(t *testing.T) {
	v4, v6 := discovery.AddressTypeIPv4, discovery.AddressTypeIPv6
	rdy := func(addr, pod string) ep { return ep{Addr: addr, Pod: pod, Ready: true, Serving: true} }
	tests := []struct {
		name         string
		svc          *corev1.Service
		pods         []*corev1.Pod
		want         map[discovery.AddressType][]ep
		wantProblems []string
	}{
		{
			name: "case 19: attachment IPs only, missing and unattached pods left out",
			svc:  svc("net-a"),
			pods: []*corev1.Pod{
				pod("pod-a1", 11, status(primary("10.0.0.11"), entry("ns-a/net-a", "net1", "10.0.1.11"))),
				pod("pod-a2", 12, status(primary("10.0.0.12"))),
				pod("pod-a3", 13, status(primary("10.0.0.13"), entry("ns-a/net-a", "net1", "10.0.1.13")), func(p *corev1.Pod) {
					p.Status.Conditions[0].Status = corev1.ConditionFalse
				}),
				pod("pod-a4", 14, "-"),
			},
			want:         map[discovery.AddressType][]ep{v4: {rdy("10.0.1.11", "pod-a1"), {Addr: "10.0.1.13", Pod: "pod-a3"}}},
			wantProblems: []string{"pod-a2:NetworkNotAttached", "pod-a4:NetworkStatusMissing"},
		},
		{
			name: "dual-stack attachments on a dual-stack Service: one group per family",
			svc:  svc("net-a", dualStack),
			pods: []*corev1.Pod{
				pod("p1", 1, status(primary("10.0.0.1"), entry("ns-a/net-a", "net1", "fd01::1", "10.0.1.1"))),
				pod("p2", 2, status(entry("ns-a/net-a", "net1", "fd01::2"))),
			},
			want: map[discovery.AddressType][]ep{v4: {rdy("10.0.1.1", "p1")}, v6: {rdy("fd01::1", "p1"), rdy("fd01::2", "p2")}},
		},
		{
			name: "dual-stack attachments on a single-stack Service: the other family is never mixed in",
			svc:  svc("net-a"),
			pods: []*corev1.Pod{
				pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1", "fd01::1"))),
				pod("p2", 2, status(entry("ns-a/net-a", "net1", "fd01::2"))),
			},
			want:         map[discovery.AddressType][]ep{v4: {rdy("10.0.1.1", "p1")}},
			wantProblems: []string{"p2:AddressFamilyMismatch"},
		},
		{
			name: "headless Service: both families",
			svc:  svc("net-a", headless),
			pods: []*corev1.Pod{pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1", "fd01::1")))},
			want: map[discovery.AddressType][]ep{v4: {rdy("10.0.1.1", "p1")}, v6: {rdy("fd01::1", "p1")}},
		},
		{
			name: "ambiguous attachment, malformed annotation, no ips: pods left out",
			svc:  svc("net-a"),
			pods: []*corev1.Pod{
				pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1"), entry("ns-a/net-a", "net2", "10.0.1.2"))),
				pod("p2", 2, `[{"name":`),
				pod("p3", 3, status(`{"name":"ns-a/net-a","interface":"net1"}`)),
				pod("p4", 4, status(entry("ns-a/net-a", "net1", "10.0.1.4"))),
			},
			want:         map[discovery.AddressType][]ep{v4: {rdy("10.0.1.4", "p4")}},
			wantProblems: []string{"p1:AmbiguousAttachment", "p2:NetworkStatusInvalid", "p3:AttachmentWithoutIPs"},
		},
		{
			name: "same IP on two pods (per-node IPAM): the older keeps it",
			svc:  svc("net-a"),
			pods: []*corev1.Pod{
				pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.5")), func(p *corev1.Pod) { p.CreationTimestamp = metav1.NewTime(epoch.Add(time.Hour)) }),
				pod("p2", 2, status(entry("ns-a/net-a", "net1", "10.0.1.5"))),
			},
			want:         map[discovery.AddressType][]ep{v4: {rdy("10.0.1.5", "p2")}},
			wantProblems: []string{"p1:DuplicateAddress"},
		},
		{
			name: "invalid IP in the selected entry",
			svc:  svc("net-a"),
			pods: []*corev1.Pod{pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1", "999.0.0.1")))},
			want: map[discovery.AddressType][]ep{}, wantProblems: []string{"p1:InvalidAddress"},
		},
		{
			name: "terminating pod: serving kept, not ready",
			svc:  svc("net-a"),
			pods: []*corev1.Pod{pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1")), func(p *corev1.Pod) {
				p.DeletionTimestamp = ptr.To(metav1.NewTime(epoch))
			})},
			want: map[discovery.AddressType][]ep{v4: {{Addr: "10.0.1.1", Pod: "p1", Serving: true, Term: true}}},
		},
		{
			name:         "no service-network annotation: nothing, one Service problem",
			svc:          svc("-"),
			pods:         []*corev1.Pod{pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1")))},
			want:         map[discovery.AddressType][]ep{},
			wantProblems: []string{":ServiceNetworkMissing"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			d, problems, err := networkstatus.Desired(ctx, tc.svc, tc.pods, nodes)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, endpoints(d)); diff != "" {
				t.Errorf("endpoints (-want +got):\n%s", diff)
			}
			var got []string
			for _, p := range problems {
				got = append(got, p.Pod.Name+":"+p.Reason)
			}
			if diff := cmp.Diff(tc.wantProblems, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s\n%v", diff, problems)
			}
			// Never a primary address.
			for _, p := range tc.pods {
				for _, ip := range p.Status.PodIPs {
					for _, eps := range endpoints(d) {
						for _, e := range eps {
							if e.Addr == ip.IP {
								t.Errorf("primary address %s of %s in the endpoints", ip.IP, p.Name)
							}
						}
					}
				}
			}
		})
	}
}

// TestDesiredEndpointFields checks nodeName, zone, targetRef, hostname and
// ports of a secondary endpoint: the default controller's.
func TestDesiredEndpointFields(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	p := pod("p1", 1, status(entry("ns-a/net-a", "net1", "10.0.1.1")), func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "h1", "svc-a" })
	d, problems, err := networkstatus.Desired(ctx, svc("net-a"), []*corev1.Pod{p}, nodes)
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	want := []reconciler.EndpointGroup{{
		AddressType: discovery.AddressTypeIPv4,
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
		Endpoints: []discovery.Endpoint{{
			Addresses:  []string{"10.0.1.1"},
			Conditions: discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)},
			Hostname:   ptr.To("h1"),
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "p1", UID: "uid-p1"},
			NodeName:   ptr.To("node-a"),
			Zone:       ptr.To("zone-a"),
		}},
	}}
	if diff := cmp.Diff(want, d.Groups); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
