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
	"context"
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
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

const ns = "ns"

// nodeMap is a podendpoint.NodeGetter.
type nodeMap map[string]*corev1.Node

func (m nodeMap) Get(name string) (*corev1.Node, error) {
	if n, ok := m[name]; ok {
		return n, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "nodes"}, name)
}

// failingNodes fails every lookup with a non-NotFound error.
type failingNodes struct{}

func (failingNodes) Get(string) (*corev1.Node, error) { return nil, errors.New("boom") }

func testNodes() nodeMap {
	return nodeMap{
		"node-a": {ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}},
		"node-b": {ObjectMeta: metav1.ObjectMeta{Name: "node-b"}},
	}
}

func testService(mods ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "svc", UID: "uid-svc"},
		Spec: corev1.ServiceSpec{
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": "a"},
			Ports: []corev1.ServicePort{
				{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP},
			},
		},
	}
	for _, m := range mods {
		m(s)
	}
	return s
}

func dualStack(s *corev1.Service) {
	s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// testPod returns a ready Running pod on node-a with container port http
// 8080 and the addresses annotation "addrs" read by annotationSource.
func testPod(name string, addrs string, mods ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name, UID: types.UID("uid-" + name),
			Labels:            map[string]string{"app": "a"},
			CreationTimestamp: metav1.NewTime(epoch),
			Annotations:       map[string]string{"addrs": addrs},
		},
		Spec: corev1.PodSpec{
			NodeName: "node-a",
			Containers: []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{
				{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
			}}},
		},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			PodIP:      "10.0.0.1",
			PodIPs:     []corev1.PodIP{{IP: "10.0.0.1"}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	}
	for _, m := range mods {
		m(p)
	}
	return p
}

func notReady(p *corev1.Pod) {
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
}
func terminating(p *corev1.Pod) { p.DeletionTimestamp = ptr.To(metav1.NewTime(epoch)) }
func createdAt(d time.Duration) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.CreationTimestamp = metav1.NewTime(epoch.Add(d)) }
}
func onNode(n string) func(*corev1.Pod) { return func(p *corev1.Pod) { p.Spec.NodeName = n } }

// annotationSource reads the comma-separated "addrs" annotation; the value
// "ERR" fails with a plain error, "SKIP" with a SkipError.
var annotationSource = source.PodAddresses{
	Addresses: func(_ context.Context, _ *corev1.Service, pod *corev1.Pod) ([]string, error) {
		v := pod.Annotations["addrs"]
		switch v {
		case "":
			return nil, nil
		case "ERR":
			return nil, errors.New("source failed")
		case "SKIP":
			return nil, source.Skip("Custom", "custom reason")
		}
		return strings.Split(v, ","), nil
	},
}

// ep is a compact view of an endpoint for comparisons.
type ep struct {
	Addr, Pod, Node, Zone, Hostname string
	Ready, Serving, Terminating     bool
}

type group struct {
	Type  discovery.AddressType
	Ports string
	EPs   []ep
}

func view(d *reconciler.Desired) []group {
	var out []group
	for _, g := range d.Groups {
		gv := group{Type: g.AddressType, Ports: reconciler.PortMapKey(g.Ports)}
		for _, e := range g.Endpoints {
			v := ep{Addr: strings.Join(e.Addresses, "+"), Pod: e.TargetRef.Name,
				Ready: *e.Conditions.Ready, Serving: *e.Conditions.Serving, Terminating: *e.Conditions.Terminating}
			if e.NodeName != nil {
				v.Node = *e.NodeName
			}
			if e.Zone != nil {
				v.Zone = *e.Zone
			}
			if e.Hostname != nil {
				v.Hostname = *e.Hostname
			}
			gv.EPs = append(gv.EPs, v)
		}
		out = append(out, gv)
	}
	return out
}

func reasons(ps []source.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Pod.Name+":"+p.Reason)
	}
	return out
}

const httpPorts = `="http"/TCP/8080/~`

func TestDesired(t *testing.T) {
	ready := func(addr, pod string) ep {
		return ep{Addr: addr, Pod: pod, Node: "node-a", Zone: "zone-a", Ready: true, Serving: true}
	}
	tests := []struct {
		name         string
		svc          *corev1.Service
		pods         []*corev1.Pod
		src          *source.PodAddresses
		want         []group
		wantProblems []string
		wantErr      string
	}{
		{
			name: "addresses from the source, not status.podIPs",
			svc:  testService(),
			pods: []*corev1.Pod{testPod("p1", "10.1.0.1")},
			want: []group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "p1")}}},
		},
		{
			name: "families never mixed: IPv6 dropped for an IPv4 Service",
			svc:  testService(),
			pods: []*corev1.Pod{testPod("p1", "10.1.0.1,fd00::1")},
			want: []group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "p1")}}},
		},
		{
			name: "dual-stack Service: one group per family",
			svc:  testService(dualStack),
			pods: []*corev1.Pod{testPod("p1", "fd00::1,10.1.0.1"), testPod("p2", "10.1.0.2")},
			want: []group{
				{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "p1"), ready("10.1.0.2", "p2")}},
				{discovery.AddressTypeIPv6, httpPorts, []ep{ready("fd00::1", "p1")}},
			},
		},
		{
			name: "one endpoint per address, canonical form, duplicates in a pod dropped",
			svc:  testService(dualStack),
			pods: []*corev1.Pod{testPod("p1", " 10.1.0.1 ,010.001.000.002,FD00:0:0::1,10.1.0.1,::ffff:10.1.0.3")},
			want: []group{
				{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "p1"), ready("10.1.0.2", "p1"), ready("10.1.0.3", "p1")}},
				{discovery.AddressTypeIPv6, httpPorts, []ep{ready("fd00::1", "p1")}},
			},
		},
		{
			name:         "only addresses of another family: problem",
			svc:          testService(),
			pods:         []*corev1.Pod{testPod("p1", "fd00::1")},
			wantProblems: []string{"p1:" + source.ReasonAddressFamilyMismatch},
		},
		{
			name:         "invalid address: pod left out entirely",
			svc:          testService(),
			pods:         []*corev1.Pod{testPod("p1", "10.1.0.1,not-an-ip"), testPod("p2", "10.1.0.2")},
			want:         []group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.2", "p2")}}},
			wantProblems: []string{"p1:" + source.ReasonInvalidAddress},
		},
		{
			name: "addresses the API refuses are invalid",
			svc:  testService(dualStack),
			pods: []*corev1.Pod{
				testPod("p1", "0.0.0.0"), testPod("p2", "127.0.0.1"), testPod("p3", "169.254.1.1"),
				testPod("p4", "fe80::1"), testPod("p5", "ff02::1"), testPod("p6", "fe80::1%eth0"), testPod("p7", "10.1.0.0/24"),
			},
			wantProblems: []string{"p1:InvalidAddress", "p2:InvalidAddress", "p3:InvalidAddress", "p4:InvalidAddress", "p5:InvalidAddress", "p6:InvalidAddress", "p7:InvalidAddress"},
		},
		{
			name:         "source errors: default reason and SkipError reason",
			svc:          testService(),
			pods:         []*corev1.Pod{testPod("p1", "ERR"), testPod("p2", "SKIP"), testPod("p3", "")},
			wantProblems: []string{"p1:" + source.ReasonAddressesFailed, "p2:Custom"},
		},
		{
			name: "duplicate address: the older pod keeps it, the other keeps its other addresses",
			svc:  testService(),
			pods: []*corev1.Pod{
				testPod("p-new", "10.1.0.9,10.1.0.2", createdAt(time.Minute)),
				testPod("p-old", "10.1.0.9"),
			},
			want:         []group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.2", "p-new"), ready("10.1.0.9", "p-old")}}},
			wantProblems: []string{"p-new:" + source.ReasonDuplicateAddress},
		},
		{
			name: "duplicate address: same age, name order; terminating loses",
			svc:  testService(),
			pods: []*corev1.Pod{
				testPod("a", "10.1.0.9", terminating, createdAt(-time.Hour)),
				testPod("b", "10.1.0.9"),
				testPod("c", "10.1.0.9"),
			},
			want:         []group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.9", "b")}}},
			wantProblems: []string{"a:DuplicateAddress", "c:DuplicateAddress"},
		},
		{
			name: "conditions, node, zone, hostname as the default controller",
			svc:  testService(),
			pods: []*corev1.Pod{
				testPod("p1", "10.1.0.1", notReady),
				testPod("p2", "10.1.0.2", terminating),
				testPod("p3", "10.1.0.3", onNode("node-b"), func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "h3", "svc" }),
			},
			want: []group{{discovery.AddressTypeIPv4, httpPorts, []ep{
				{Addr: "10.1.0.1", Pod: "p1", Node: "node-a", Zone: "zone-a"},
				{Addr: "10.1.0.2", Pod: "p2", Node: "node-a", Zone: "zone-a", Serving: true, Terminating: true},
				{Addr: "10.1.0.3", Pod: "p3", Node: "node-b", Hostname: "h3", Ready: true, Serving: true},
			}}},
		},
		{
			name: "publishNotReadyAddresses",
			svc:  testService(func(s *corev1.Service) { s.Spec.PublishNotReadyAddresses = true }),
			pods: []*corev1.Pod{testPod("p1", "10.1.0.1", notReady), testPod("p2", "10.1.0.2", onNode("gone"))},
			want: []group{{discovery.AddressTypeIPv4, httpPorts, []ep{
				{Addr: "10.1.0.1", Pod: "p1", Node: "node-a", Zone: "zone-a", Ready: true},
				{Addr: "10.1.0.2", Pod: "p2", Node: "gone", Ready: true, Serving: true},
			}}},
		},
		{
			name: "pods KCM leaves out are left out silently",
			svc:  testService(),
			pods: []*corev1.Pod{
				testPod("p1", "10.1.0.1", func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }),
				testPod("p2", "10.1.0.2", func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed }),
				testPod("p3", "10.1.0.3", func(p *corev1.Pod) { p.Status.PodIP, p.Status.PodIPs = "", nil }),
			},
		},
		{
			name: "named target ports: pods with different ports in different groups",
			svc:  testService(),
			pods: []*corev1.Pod{
				testPod("p1", "10.1.0.1"),
				testPod("p2", "10.1.0.2", func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 9090 }),
				testPod("p3", "10.1.0.3", func(p *corev1.Pod) { p.Spec.Containers[0].Ports = nil }),
			},
			want: []group{
				{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.1", "p1")}},
				{discovery.AddressTypeIPv4, `="http"/TCP/9090/~`, []ep{ready("10.1.0.2", "p2")}},
				{discovery.AddressTypeIPv4, "", []ep{ready("10.1.0.3", "p3")}},
			},
		},
		{
			name: "serving function replaces the Pod Ready rule",
			svc:  testService(),
			pods: []*corev1.Pod{testPod("p1", "10.1.0.1", notReady), testPod("p2", "10.1.0.2"), testPod("p3", "10.1.0.3", terminating)},
			src: &source.PodAddresses{
				Addresses: annotationSource.Addresses,
				Serving: func(_ context.Context, _ *corev1.Service, pod *corev1.Pod) (bool, error) {
					if pod.Name == "p2" {
						return false, errors.New("no")
					}
					return true, nil
				},
			},
			want: []group{{discovery.AddressTypeIPv4, httpPorts, []ep{
				ready("10.1.0.1", "p1"),
				{Addr: "10.1.0.3", Pod: "p3", Node: "node-a", Zone: "zone-a", Serving: true, Terminating: true},
			}}},
			wantProblems: []string{"p2:" + source.ReasonAddressesFailed},
		},
		{
			name: "service rejected: no groups, one service problem",
			svc:  testService(),
			pods: []*corev1.Pod{testPod("p1", "10.1.0.1")},
			src: &source.PodAddresses{
				Addresses:    annotationSource.Addresses,
				CheckService: func(context.Context, *corev1.Service) error { return errors.New("bad") },
			},
			wantProblems: []string{":" + source.ReasonInvalidService},
		},
		{
			name: "address types from the source",
			svc:  testService(),
			pods: []*corev1.Pod{testPod("p1", "fd00::1")},
			src: &source.PodAddresses{
				Addresses: annotationSource.Addresses,
				AddressTypes: func(*corev1.Service) []discovery.AddressType {
					return []discovery.AddressType{discovery.AddressTypeIPv6}
				},
			},
			want: []group{{discovery.AddressTypeIPv6, httpPorts, []ep{ready("fd00::1", "p1")}}},
		},
		{
			name:    "missing node: pod skipped, error",
			svc:     testService(),
			pods:    []*corev1.Pod{testPod("p1", "10.1.0.1", onNode("gone")), testPod("p2", "10.1.0.2")},
			want:    []group{{discovery.AddressTypeIPv4, httpPorts, []ep{ready("10.1.0.2", "p2")}}},
			wantErr: "Node gone Not Found",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			src := annotationSource
			if tc.src != nil {
				src = *tc.src
			}
			before := make([]*corev1.Pod, len(tc.pods))
			for i, p := range tc.pods {
				before[i] = p.DeepCopy()
			}
			svcBefore := tc.svc.DeepCopy()
			d, problems, err := source.Desired(ctx, tc.svc, tc.pods, testNodes(), src)
			if tc.wantErr == "" && err != nil {
				t.Fatalf("Desired: %v", err)
			}
			if tc.wantErr != "" {
				var sk *podendpoint.SkippedPodError
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &sk) {
					t.Fatalf("Desired error = %v, want a SkippedPodError containing %q", err, tc.wantErr)
				}
			}
			if diff := cmp.Diff(tc.want, view(d)); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantProblems, reasons(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s\n%v", diff, problems)
			}
			for _, p := range problems {
				if p.Message == "" || (p.Pod.Name != "" && !strings.Contains(p.Message, p.Pod.Name)) {
					t.Errorf("problem message %q does not name its pod %s", p.Message, p.Pod)
				}
			}
			for i := range tc.pods {
				if diff := cmp.Diff(before[i], tc.pods[i]); diff != "" {
					t.Errorf("pod %d modified:\n%s", i, diff)
				}
			}
			if diff := cmp.Diff(svcBefore, tc.svc); diff != "" {
				t.Errorf("service modified:\n%s", diff)
			}
		})
	}
}

func TestDesiredErrors(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	if _, _, err := source.Desired(ctx, nil, nil, testNodes(), annotationSource); err == nil {
		t.Error("nil Service: want an error")
	}
	if _, _, err := source.Desired(ctx, testService(), nil, nil, annotationSource); err == nil {
		t.Error("nil nodes: want an error")
	}
	if _, _, err := source.Desired(ctx, testService(), nil, testNodes(), source.PodAddresses{}); err == nil {
		t.Error("no Addresses: want an error")
	}
	d, _, err := source.Desired(ctx, testService(), []*corev1.Pod{testPod("p1", "10.1.0.1")}, failingNodes{}, annotationSource)
	if d != nil || err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("node lookup failure: got %v, %v; want nil and the error", d, err)
	}
}

// TestDesiredParity checks that, with a source returning status.podIPs,
// source.Desired produces exactly the endpoints of servicepods.Desired
// (the default controller's rules) for a variety of pods.
func TestDesiredParity(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	podIPs := source.PodAddresses{Addresses: func(_ context.Context, _ *corev1.Service, pod *corev1.Pod) ([]string, error) {
		var out []string
		for _, ip := range pod.Status.PodIPs {
			out = append(out, ip.IP)
		}
		return out, nil
	}}
	withIPs := func(ips ...string) func(*corev1.Pod) {
		return func(p *corev1.Pod) {
			p.Status.PodIP = ips[0]
			p.Status.PodIPs = nil
			for _, ip := range ips {
				p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: ip})
			}
		}
	}
	pods := []*corev1.Pod{
		testPod("p1", "", withIPs("10.0.0.1", "fd00::1")),
		testPod("p2", "", withIPs("10.0.0.2"), notReady),
		testPod("p3", "", withIPs("fd00::3"), terminating),
		testPod("p4", "", withIPs("10.0.0.4"), onNode("node-b"), func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "h4", "svc" }),
		testPod("p5", "", withIPs("10.0.0.5"), func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 9090 }),
		testPod("p6", "", withIPs("10.0.0.6"), func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = nil
			p.Spec.InitContainers = []corev1.Container{{Name: "sidecar", RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways),
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 7070, Protocol: corev1.ProtocolTCP}}}}
		}),
		testPod("p7", "", withIPs("10.0.0.7"), func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }),
	}
	for _, svc := range []*corev1.Service{
		testService(),
		testService(dualStack),
		testService(dualStack, func(s *corev1.Service) { s.Spec.PublishNotReadyAddresses = true }),
		testService(func(s *corev1.Service) {
			s.Spec.ClusterIP, s.Spec.IPFamilies = corev1.ClusterIPNone, nil
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "metrics", Port: 9, TargetPort: intstr.FromInt32(9100), Protocol: corev1.ProtocolTCP})
		}),
	} {
		t.Run(fmt.Sprintf("%v-%s-pnra=%v", svc.Spec.IPFamilies, svc.Spec.ClusterIP, svc.Spec.PublishNotReadyAddresses), func(t *testing.T) {
			want, err := servicepods.Desired(ctx, svc, pods, testNodes(), podendpoint.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, problems, err := source.Desired(ctx, svc, pods, testNodes(), podIPs)
			if err != nil {
				t.Fatalf("source.Desired: %v", err)
			}
			for _, p := range problems {
				// The default controller drops such pods silently.
				if p.Reason != source.ReasonAddressFamilyMismatch {
					t.Errorf("unexpected problem %v", p)
				}
			}
			// servicepods keeps empty groups (KCM creates a group before it
			// knows whether the pod has an address of the family).
			var nonEmpty []reconciler.EndpointGroup
			for _, g := range want.Groups {
				if len(g.Endpoints) > 0 {
					nonEmpty = append(nonEmpty, g)
				}
			}
			want.Groups = nonEmpty
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("source vs servicepods (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseEndpointIP(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.1": "10.0.0.1", " 10.0.0.1\t": "10.0.0.1", "010.0.0.01": "10.0.0.1",
		"FD00::0001": "fd00::1", "::ffff:10.0.0.1": "10.0.0.1", "2001:db8::1": "2001:db8::1",
	} {
		got, err := source.ParseEndpointIP(in)
		if err != nil || got.String() != want {
			t.Errorf("ParseEndpointIP(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "10.0.0", "10.0.0.1/32", "0.0.0.0", "::", "127.0.0.5", "::1", "169.254.0.1", "fe80::1", "224.0.0.1", "ff02::2", "fe80::1%eth0", "[fd00::1]"} {
		if got, err := source.ParseEndpointIP(in); err == nil {
			t.Errorf("ParseEndpointIP(%q) = %v; want an error", in, got)
		}
	}
}
