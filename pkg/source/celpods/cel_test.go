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

package celpods_test

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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/celpods"
)

const ns = "ns"

type nodes struct{}

func (nodes) Get(name string) (*corev1.Node, error) {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelTopologyZone: "z"}}}, nil
}

func svc() *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "svc", Annotations: map[string]string{"example.com/network": "ns-a/net-a"}},
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone, IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol},
			Selector: map[string]string{"app": "a"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP}},
		},
	}
}

func pod(name string, mods ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: "uid-" + "x",
			Labels:      map[string]string{"app": "a", "tier": "gold"},
			Annotations: map[string]string{"example.com/ips": "10.1.0.1,fd01::1"}},
		Spec: corev1.PodSpec{NodeName: "node-a", Containers: []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{
			{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			PodIP:      "10.0.0.1",
			PodIPs:     []corev1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	}
	for _, m := range mods {
		m(p)
	}
	return p
}

func compile(t *testing.T, p celpods.Profile) *celpods.Program {
	t.Helper()
	if p.Name == "" {
		p.Name = "test.example.com"
	}
	prog, err := celpods.Compile(p)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return prog
}

const networkStatus = `[{"name":"cluster","ips":["10.0.0.1"],"default":true},{"name":"ns-a/net-a","interface":"net1","ips":["10.2.0.1","fd02::1"]}]`

func TestAddresses(t *testing.T) {
	withNetworkStatus := func(p *corev1.Pod) { p.Annotations["k8s.v1.cni.cncf.io/network-status"] = networkStatus }
	tests := []struct {
		name       string
		expr       string
		pod        *corev1.Pod
		want       []string
		wantReason string
	}{
		{name: "annotation", expr: "pod.metadata.annotations['example.com/ips'].split(',')", want: []string{"10.1.0.1", "fd01::1"}},
		{name: "IPv6 pod IPs", expr: "pod.status.podIPs.map(p, p.ip).filter(ip, ip.contains(':'))", want: []string{"fd00::1"}},
		{name: "network ext: only IPv4", expr: "pod.status.podIPs.map(p, p.ip).filter(ip, ip(ip).family() == 4)", want: []string{"10.0.0.1"}},
		{name: "network-status through parseJSON and the service", pod: pod("p", withNetworkStatus),
			expr: "parseJSON(pod.metadata.annotations['k8s.v1.cni.cncf.io/network-status']).filter(n, n.name == service.metadata.annotations['example.com/network']).map(n, n.ips).flatten()",
			want: []string{"10.2.0.1", "fd02::1"}},
		{name: "optional: missing annotation is empty", expr: "pod.metadata.?annotations[?'missing'].orValue('').split(',').filter(s, s != '')", want: []string{}},
		{name: "label-dependent", expr: "pod.metadata.labels.tier == 'gold' ? ['10.9.0.1'] : []", want: []string{"10.9.0.1"}},
		{name: "cel.bind", expr: "cel.bind(ips, pod.status.podIPs, ips.map(p, p.ip))", want: []string{"10.0.0.1", "fd00::1"}},
		{name: "missing key", expr: "pod.metadata.annotations['missing'].split(',')", wantReason: celpods.ReasonEvaluationFailed},
		{name: "bad JSON", expr: "parseJSON('[').map(x, string(x))", wantReason: celpods.ReasonEvaluationFailed},
		{name: "not a list", expr: "dyn(pod.metadata.name)", wantReason: celpods.ReasonInvalidResult},
		{name: "element not a string", expr: "dyn([1])", wantReason: celpods.ReasonInvalidResult},
		{name: "too many", expr: "pod.metadata.annotations['example.com/ips'].split(',').map(x, [x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x]).flatten()",
			wantReason: celpods.ReasonInvalidResult},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			prog := compile(t, celpods.Profile{Addresses: tc.expr})
			p := tc.pod
			if p == nil {
				p = pod("p")
			}
			before := p.DeepCopy()
			got, err := prog.Addresses(ctx, svc(), p)
			if tc.wantReason != "" {
				var se *source.SkipError
				if !errors.As(err, &se) || se.Reason != tc.wantReason {
					t.Fatalf("Addresses = %v, %v; want reason %s", got, err, tc.wantReason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, p); diff != "" {
				t.Errorf("pod modified:\n%s", diff)
			}
		})
	}
}

func TestCostLimit(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	expensive := "pod.status.podIPs.map(p, pod.status.podIPs.map(q, pod.status.podIPs.map(r, r.ip))).flatten().flatten()"
	prog := compile(t, celpods.Profile{Addresses: expensive, CostLimit: 20})
	_, err := prog.Addresses(ctx, svc(), pod("p"))
	var se *source.SkipError
	if !errors.As(err, &se) || se.Reason != celpods.ReasonCostLimitExceeded {
		t.Errorf("Addresses = %v, want reason %s", err, celpods.ReasonCostLimitExceeded)
	}
	// parseJSON is charged by input size.
	big := `"` + strings.Repeat("a", 10000) + `"`
	prog = compile(t, celpods.Profile{Addresses: "parseJSON(pod.metadata.annotations['big']) == '' ? [] : []", CostLimit: 500})
	_, err = prog.Addresses(ctx, svc(), pod("p", func(p *corev1.Pod) { p.Annotations["big"] = big }))
	if !errors.As(err, &se) || se.Reason != celpods.ReasonCostLimitExceeded {
		t.Errorf("parseJSON of 10kB = %v, want reason %s", err, celpods.ReasonCostLimitExceeded)
	}
	// With the default limit the same expressions run.
	if _, err := compile(t, celpods.Profile{Addresses: expensive}).Addresses(ctx, svc(), pod("p")); err != nil {
		t.Errorf("default cost limit: %v", err)
	}
}

func TestCancelled(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	prog := compile(t, celpods.Profile{Addresses: "lists.range(1000).map(i, string(i))"})
	_, err := prog.Addresses(ctx, svc(), pod("p"))
	var se *source.SkipError
	if !errors.As(err, &se) || se.Reason != celpods.ReasonEvaluationFailed {
		t.Errorf("cancelled: %v", err)
	}
}

func TestServing(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	for expr, want := range map[string]any{
		"pod.metadata.labels.tier == 'gold'": true,
		"pod.status.phase == 'Pending'":      false,
		"pod.metadata.labels.missing == 'x'": celpods.ReasonEvaluationFailed,
		"dyn(pod.metadata.name)":             celpods.ReasonInvalidResult,
	} {
		prog := compile(t, celpods.Profile{Addresses: "[]", Ready: expr})
		got, err := prog.Serving(ctx, svc(), pod("p"))
		if reason, ok := want.(string); ok {
			var se *source.SkipError
			if !errors.As(err, &se) || se.Reason != reason {
				t.Errorf("%s: %v, %v; want reason %s", expr, got, err, reason)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", expr, got, err, want)
		}
	}
	// Without ready: the Pod Ready rule.
	prog := compile(t, celpods.Profile{Addresses: "[]"})
	if got, err := prog.Serving(ctx, svc(), pod("p")); err != nil || !got {
		t.Errorf("default Serving = %v, %v", got, err)
	}
}

func TestDesired(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	prog := compile(t, celpods.Profile{
		Addresses: "pod.metadata.annotations['example.com/ips'].split(',')",
		Ready:     "pod.metadata.labels.tier == 'gold'",
	})
	pods := []*corev1.Pod{
		pod("gold"),
		pod("silver", func(p *corev1.Pod) { p.Labels["tier"] = "silver"; p.Annotations["example.com/ips"] = "10.1.0.2" }),
		pod("broken", func(p *corev1.Pod) { p.Annotations["example.com/ips"] = "10.1.0.3,not-an-ip" }),
		pod("missing", func(p *corev1.Pod) { delete(p.Annotations, "example.com/ips") }),
		pod("dup", func(p *corev1.Pod) {
			p.Annotations["example.com/ips"] = "10.1.0.1"
			p.CreationTimestamp = metav1.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		}),
	}
	d, problems, err := prog.Desired(ctx, svc(), pods, nodes{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[discovery.AddressType][]string{}
	for _, g := range d.Groups {
		for _, e := range g.Endpoints {
			got[g.AddressType] = append(got[g.AddressType], fmt.Sprintf("%s %s ready=%v serving=%v", e.TargetRef.Name, e.Addresses[0], *e.Conditions.Ready, *e.Conditions.Serving))
		}
	}
	want := map[discovery.AddressType][]string{
		discovery.AddressTypeIPv4: {"gold 10.1.0.1 ready=true serving=true", "silver 10.1.0.2 ready=false serving=false"},
		discovery.AddressTypeIPv6: {"gold fd01::1 ready=true serving=true"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var reasons []string
	for _, p := range problems {
		reasons = append(reasons, p.Pod.Name+":"+p.Reason)
	}
	if diff := cmp.Diff([]string{"broken:InvalidAddress", "missing:CELEvaluationFailed", "dup:DuplicateAddress"}, reasons); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
