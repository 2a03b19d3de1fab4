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
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/test/harness/testobjects"
)

func nodeLister(t *testing.T, nodes ...*corev1.Node) corelisters.NodeLister {
	t.Helper()
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, n := range nodes {
		if err := idx.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	return corelisters.NewNodeLister(idx)
}

func node(name, zone string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelTopologyZone: zone}}}
}

// failingNodes fails every lookup with err.
type failingNodes struct{ err error }

func (f failingNodes) Get(string) (*corev1.Node, error) { return nil, f.err }

// ep is a compact endpoint for expectations: ready/serving from the pod's
// Ready condition, on node-a in zone-a.
func ep(name, addr string, mods ...func(*discovery.Endpoint)) discovery.Endpoint {
	e := discovery.Endpoint{
		Addresses:  []string{addr},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)},
		NodeName:   ptr.To("node-a"),
		Zone:       ptr.To("zone-a"),
		TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: testobjects.RuleNamespace, Name: name, UID: types.UID("uid-pod-" + name)},
	}
	for _, m := range mods {
		m(&e)
	}
	return e
}

func ports(p ...discovery.EndpointPort) []discovery.EndpointPort {
	if p == nil {
		return []discovery.EndpointPort{}
	}
	return p
}

func port(name string, num int32) discovery.EndpointPort {
	return discovery.EndpointPort{Name: ptr.To(name), Port: ptr.To(num), Protocol: ptr.To(corev1.ProtocolTCP)}
}

func TestDesired(t *testing.T) {
	nodes := []*corev1.Node{node("node-a", "zone-a"), node("node-b", "zone-b")}
	v4, v6 := discovery.AddressTypeIPv4, discovery.AddressTypeIPv6
	namedTarget := func(s *corev1.Service) {
		s.Spec.Ports = []corev1.ServicePort{{Name: "web", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")}}
	}
	dualStack := func(s *corev1.Service) {
		s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	}
	pnra := func(s *corev1.Service) { s.Spec.PublishNotReadyAddresses = true }
	httpPort := func(num int32) func(*corev1.Pod) {
		return func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: num, Protocol: corev1.ProtocolTCP}}
		}
	}
	tests := []struct {
		name        string
		svc         *corev1.Service
		pods        []*corev1.Pod
		want        *reconciler.Desired
		wantSkipped []string // testobjects.RulePod names with a podendpoint.SkippedPodError
	}{{
		name: "no pods: no groups",
		svc:  testobjects.RuleService(),
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4}},
	}, {
		name: "terminal and IP-less pods never appear (case 03)",
		svc:  testobjects.RuleService(),
		pods: []*corev1.Pod{
			testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.11")),
			testobjects.RulePod("a2", testobjects.WithPodIPs("10.0.0.12"), testobjects.WithPhase(corev1.PodFailed), testobjects.WithReady(corev1.ConditionFalse)),
			testobjects.RulePod("a3", testobjects.WithPodIPs("10.0.0.13"), testobjects.WithPhase(corev1.PodSucceeded), testobjects.WithReady(corev1.ConditionFalse)),
			testobjects.RulePod("a4", testobjects.WithPodIPs("10.0.0.14"), testobjects.WithReady(corev1.ConditionFalse)),
			testobjects.RulePod("a5", testobjects.WithPhase(corev1.PodPending)),
		},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4}, Groups: []reconciler.EndpointGroup{{
			AddressType: v4, Ports: ports(port("http", 8080)),
			Endpoints: []discovery.Endpoint{
				ep("a1", "10.0.0.11"),
				ep("a4", "10.0.0.14", func(e *discovery.Endpoint) { e.Conditions.Ready, e.Conditions.Serving = ptr.To(false), ptr.To(false) }),
			},
		}}},
	}, {
		name: "terminating pods stay, with publishNotReadyAddresses (case 04)",
		svc:  testobjects.RuleService(pnra),
		pods: []*corev1.Pod{
			testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.11"), testobjects.Terminating),
			testobjects.RulePod("a2", testobjects.WithPodIPs("10.0.0.12"), testobjects.Terminating, testobjects.WithReady(corev1.ConditionFalse)),
		},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4}, Groups: []reconciler.EndpointGroup{{
			AddressType: v4, Ports: ports(port("http", 8080)),
			Endpoints: []discovery.Endpoint{
				ep("a1", "10.0.0.11", func(e *discovery.Endpoint) { e.Conditions.Terminating = ptr.To(true) }),
				ep("a2", "10.0.0.12", func(e *discovery.Endpoint) {
					e.Conditions.Serving, e.Conditions.Terminating = ptr.To(false), ptr.To(true)
				}),
			},
		}}},
	}, {
		name: "one group per resolved port list, in order of first appearance (case 08)",
		svc:  testobjects.RuleService(namedTarget),
		pods: []*corev1.Pod{
			testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.11"), httpPort(9090)),
			testobjects.RulePod("a2", testobjects.WithPodIPs("10.0.0.12"), httpPort(8080)),
			testobjects.RulePod("a3", testobjects.WithPodIPs("10.0.0.13"), func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].Name = "" }),
			testobjects.RulePod("a4", testobjects.WithPodIPs("10.0.0.14"), httpPort(9090)),
		},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4}, Groups: []reconciler.EndpointGroup{
			{AddressType: v4, Ports: ports(port("web", 9090)), Endpoints: []discovery.Endpoint{ep("a1", "10.0.0.11"), ep("a4", "10.0.0.14")}},
			{AddressType: v4, Ports: ports(port("web", 8080)), Endpoints: []discovery.Endpoint{ep("a2", "10.0.0.12")}},
			{AddressType: v4, Ports: ports(), Endpoints: []discovery.Endpoint{ep("a3", "10.0.0.13")}},
		}},
	}, {
		name: "dual-stack: one pass per family; a group without an address of the family stays, empty (case 09)",
		svc:  testobjects.RuleService(dualStack, namedTarget),
		pods: []*corev1.Pod{
			testobjects.RulePod("a1", testobjects.WithPodIPs("fd00::11", "10.0.0.11")),
			testobjects.RulePod("a2", testobjects.WithPodIPs("10.0.0.12"), httpPort(9090)),
		},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4, v6}, Groups: []reconciler.EndpointGroup{
			{AddressType: v4, Ports: ports(port("web", 8080)), Endpoints: []discovery.Endpoint{ep("a1", "10.0.0.11")}},
			{AddressType: v4, Ports: ports(port("web", 9090)), Endpoints: []discovery.Endpoint{ep("a2", "10.0.0.12")}},
			{AddressType: v6, Ports: ports(port("web", 8080)), Endpoints: []discovery.Endpoint{ep("a1", "fd00::11")}},
			{AddressType: v6, Ports: ports(port("web", 9090))},
		}},
	}, {
		name: "zone from the pod's node; hostname only for the subdomain's Service (case 20)",
		svc:  testobjects.RuleService(),
		pods: []*corev1.Pod{
			testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.11"), testobjects.OnNode("node-b"), func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "db-0", "svc-a" }),
			testobjects.RulePod("a2", testobjects.WithPodIPs("10.0.0.12"), func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "db-1", "other" }),
		},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4}, Groups: []reconciler.EndpointGroup{{
			AddressType: v4, Ports: ports(port("http", 8080)),
			Endpoints: []discovery.Endpoint{
				ep("a1", "10.0.0.11", func(e *discovery.Endpoint) {
					e.NodeName, e.Zone, e.Hostname = ptr.To("node-b"), ptr.To("zone-b"), ptr.To("db-0")
				}),
				ep("a2", "10.0.0.12"),
			},
		}}},
	}, {
		name: "missing node: testobjects.RulePod skipped with an error, its group still created (E14)",
		svc:  testobjects.RuleService(dualStack, namedTarget),
		pods: []*corev1.Pod{
			testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.11", "fd00::11")),
			testobjects.RulePod("a2", testobjects.WithPodIPs("10.0.0.12", "fd00::12"), testobjects.OnNode("node-gone"), httpPort(9090)),
			testobjects.RulePod("a3", testobjects.WithPodIPs("10.0.0.13"), testobjects.OnNode("")),
		},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4, v6}, Groups: []reconciler.EndpointGroup{
			{AddressType: v4, Ports: ports(port("web", 8080)), Endpoints: []discovery.Endpoint{ep("a1", "10.0.0.11")}},
			{AddressType: v4, Ports: ports(port("web", 9090))},
			{AddressType: v6, Ports: ports(port("web", 8080)), Endpoints: []discovery.Endpoint{ep("a1", "fd00::11")}},
			{AddressType: v6, Ports: ports(port("web", 9090))},
		}},
		wantSkipped: []string{"a2", "a3"},
	}, {
		name: "missing node with publishNotReadyAddresses: kept without zone",
		svc:  testobjects.RuleService(pnra),
		pods: []*corev1.Pod{testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.11"), testobjects.OnNode("node-gone"))},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4}, Groups: []reconciler.EndpointGroup{{
			AddressType: v4, Ports: ports(port("http", 8080)),
			Endpoints: []discovery.Endpoint{ep("a1", "10.0.0.11", func(e *discovery.Endpoint) { e.NodeName, e.Zone = ptr.To("node-gone"), nil })},
		}}},
	}, {
		name: "headless without ports: empty port list",
		svc:  testobjects.RuleService(func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.Ports = corev1.ClusterIPNone, nil }),
		pods: []*corev1.Pod{testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.11"))},
		want: &reconciler.Desired{AddressTypes: []discovery.AddressType{v4}, Groups: []reconciler.EndpointGroup{{
			AddressType: v4, Ports: ports(), Endpoints: []discovery.Endpoint{ep("a1", "10.0.0.11")},
		}}},
	}, {
		name: "hints from the Service",
		svc: testobjects.RuleService(func(s *corev1.Service) {
			s.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferSameNode)
		}),
		want: &reconciler.Desired{
			AddressTypes: []discovery.AddressType{v4},
			Hints:        reconciler.Hints{TrafficDistribution: ptr.To(corev1.ServiceTrafficDistributionPreferSameNode)},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			svcBefore := tc.svc.DeepCopy()
			var podsBefore []*corev1.Pod
			for _, p := range tc.pods {
				podsBefore = append(podsBefore, p.DeepCopy())
			}
			got, err := Desired(ctx, tc.svc, tc.pods, nodeLister(t, nodes...), podendpoint.Options{})
			if got == nil {
				t.Fatalf("Desired returned nil (error %v)", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Desired (-want +got):\n%s", diff)
			}
			var skipped []string
			for _, e := range unjoin(err) {
				var spe *podendpoint.SkippedPodError
				if !errors.As(e, &spe) {
					t.Errorf("unexpected error %v", e)
					continue
				}
				skipped = append(skipped, spe.Pod)
				want := fmt.Sprintf("skipping Pod %s for Service %s/%s: Node %s Not Found", spe.Pod, testobjects.RuleNamespace, "svc-a", spe.Node)
				if spe.Node == "" {
					want = fmt.Sprintf("skipping Pod %s for Service %s/%s: the Pod has no spec.nodeName", spe.Pod, testobjects.RuleNamespace, "svc-a")
				}
				if e.Error() != want {
					t.Errorf("error message %q, want %q", e.Error(), want)
				}
			}
			if diff := cmp.Diff(tc.wantSkipped, skipped); diff != "" {
				t.Errorf("skipped pods (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(svcBefore, tc.svc); diff != "" {
				t.Errorf("Desired modified the Service:\n%s", diff)
			}
			if diff := cmp.Diff(podsBefore, tc.pods); diff != "" {
				t.Errorf("Desired modified the pods:\n%s", diff)
			}
		})
	}
}

// unjoin returns the errors joined in err (nil: none).
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func TestDesiredNodeLookupError(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	boom := errors.New("boom")
	got, err := Desired(ctx, testobjects.RuleService(), []*corev1.Pod{testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.1"))}, failingNodes{boom}, podendpoint.Options{})
	if got != nil {
		t.Errorf("Desired = %+v, want nil on a lookup failure", got)
	}
	if !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap the lookup error", err)
	}
	var spe *podendpoint.SkippedPodError
	if errors.As(err, &spe) {
		t.Errorf("a lookup failure is not a skipped pod: %v", err)
	}

	// Pods that are left out before the lookup do not trigger it.
	got, err = Desired(ctx, testobjects.RuleService(), []*corev1.Pod{testobjects.RulePod("a1", testobjects.WithPhase(corev1.PodFailed), testobjects.WithPodIPs("10.0.0.1"))}, failingNodes{boom}, podendpoint.Options{})
	if err != nil || got == nil {
		t.Errorf("Desired = %v, %v; want no lookup for a terminal pod", got, err)
	}

	// A NotFound from any getter is a missing node.
	got, err = Desired(ctx, testobjects.RuleService(), []*corev1.Pod{testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.1"))},
		failingNodes{apierrors.NewNotFound(corev1.Resource("nodes"), "node-a")}, podendpoint.Options{})
	if got == nil || !errors.As(err, &spe) {
		t.Errorf("Desired = %v, %v; want a partial result and a SkippedPodError", got, err)
	}
	if apierrors.IsNotFound(err) {
		t.Error("the joined error must not look like a NotFound of the Service")
	}
}

func TestDesiredBadArguments(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	if d, err := Desired(ctx, nil, nil, nodeLister(t), podendpoint.Options{}); d != nil || err == nil {
		t.Errorf("nil Service: got %v, %v", d, err)
	}
	if d, err := Desired(ctx, testobjects.RuleService(), nil, nil, podendpoint.Options{}); d != nil || err == nil {
		t.Errorf("nil NodeGetter: got %v, %v", d, err)
	}
	// nil pods are ignored.
	if d, err := Desired(ctx, testobjects.RuleService(), []*corev1.Pod{nil, testobjects.RulePod("a1", testobjects.WithPodIPs("10.0.0.1"))}, nodeLister(t, node("node-a", "zone-a")), podendpoint.Options{}); err != nil || len(d.Groups) != 1 {
		t.Errorf("nil pod: got %v, %v", d, err)
	}
}

func TestDesiredIsDeterministic(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	var pods []*corev1.Pod
	for i := range 40 {
		p := testobjects.RulePod(fmt.Sprintf("p%02d", i), testobjects.WithPodIPs(fmt.Sprintf("10.0.%d.%d", i%3, i), fmt.Sprintf("fd00::%x", i)))
		if i%4 == 0 {
			p.Spec.Containers[0].Ports[0].ContainerPort = 9090
		}
		if i%5 == 0 {
			p.Namespace = "ns-0" // sorts first
		}
		pods = append(pods, p)
	}
	svc := testobjects.RuleService(func(s *corev1.Service) {
		s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol, corev1.IPv4Protocol}
		s.Spec.Ports[0].TargetPort = intstr.FromString("http")
	})
	nodes := nodeLister(t, node("node-a", "zone-a"))
	want, err := Desired(ctx, svc, pods, nodes, podendpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Namespace, then name order.
	first := want.Groups[0].Endpoints[0].TargetRef
	if first.Namespace != "ns-0" || first.Name != "p00" {
		t.Errorf("first endpoint %s/%s, want ns-0/p00", first.Namespace, first.Name)
	}
	rng := rand.New(rand.NewSource(1))
	for range 10 {
		shuffled := append([]*corev1.Pod(nil), pods...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := Desired(ctx, svc, shuffled, nodes, podendpoint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Desired depends on testobjects.RulePod order (-first +now):\n%s", diff)
		}
	}
}
