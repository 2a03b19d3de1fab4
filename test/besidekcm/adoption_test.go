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

package besidekcm

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// adoptionService is one Service of the adoption test and the number of
// endpoints KCM's slices must hold for it before the hand-over.
type adoptionService struct {
	svc       *corev1.Service
	endpoints int
}

// TestAdoptionWithoutWrites: the kube-controller-manager of the release
// under test ($SLICEKIT_BIN_DIR) writes the slices of Services of many
// shapes (packing over two slices, not-ready and terminating Pods, named
// and multiple ports, dual stack, headless with hostnames, no Pods, a
// placeholder, trafficDistribution hints, publishNotReadyAddresses, a
// mirrored selectorless Service); KCM is stopped; slicekit's default
// controllers take over and must make zero writes to EndpointSlices, counted
// by a watch from the resourceVersion of the hand-over (every write by
// anyone is an event). A Pod change afterwards must then be seen, so the
// count could have failed.
func TestAdoptionWithoutWrites(t *testing.T) {
	env, kcm := controlPlaneWithKCM(t, true)
	ctx := t.Context()
	c := env.Client
	ns := testenv.Namespace(t, c)
	version, _, err := testenv.ServerVersion(env.Config)
	if err != nil {
		t.Fatal(err)
	}

	for i, zone := range []string{"zone-a", "zone-b"} {
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%d", i),
			Labels: map[string]string{corev1.LabelTopologyZone: zone}}}
		if _, err := c.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	web := corev1.ServicePort{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("web")}
	services := []adoptionService{
		{svc: service(ns, "plain", web), endpoints: 4},
		{svc: service(ns, "packed", web), endpoints: 130},
		{svc: service(ns, "multiport", web,
			corev1.ServicePort{Name: "metrics", Port: 9090, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(9090), AppProtocol: ptr.To("http")},
			corev1.ServicePort{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromInt32(5353)}), endpoints: 3},
		{svc: service(ns, "dual", web), endpoints: 4}, // 2 Pods × 2 families
		{svc: service(ns, "headless", web), endpoints: 2},
		{svc: service(ns, "empty", web), endpoints: 0},
		{svc: service(ns, "notready", web), endpoints: 2},
		{svc: service(ns, "terminating", web), endpoints: 2},
	}
	services[3].svc.Spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicyRequireDualStack)
	services[4].svc.Spec.ClusterIP = corev1.ClusterIPNone
	services[6].svc.Spec.PublishNotReadyAddresses = true
	// trafficDistribution PreferClose: beta and on by default from 1.31.
	services[0].svc.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferClose)
	for _, s := range services {
		if _, err := c.CoreV1().Services(ns).Create(ctx, s.svc, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// Pods: plain 3 ready + 1 not ready over two zones; packed 130 ready
	// (two slices at 100 per slice); the others as named.
	pods := func(app string, n int, mutate func(i int, p *corev1.Pod)) {
		for i := range n {
			p := pod(ns, app, i, fmt.Sprintf("node-%d", i%2))
			if mutate != nil {
				mutate(i, p)
			}
			createPod(t, ctx, c, p)
		}
	}
	pods("plain", 4, func(i int, p *corev1.Pod) { p.Status.Conditions[0].Status = readyIf(i != 3) })
	pods("packed", 130, nil)
	pods("multiport", 3, nil)
	pods("dual", 2, func(i int, p *corev1.Pod) {
		p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: fmt.Sprintf("fd00:10:244::%x", 0xd00+i)})
	})
	pods("headless", 2, func(i int, p *corev1.Pod) { p.Spec.Hostname = fmt.Sprintf("h%d", i); p.Spec.Subdomain = "headless" })
	pods("notready", 2, func(_ int, p *corev1.Pod) { p.Status.Conditions[0].Status = corev1.ConditionFalse })
	pods("terminating", 2, func(i int, p *corev1.Pod) {
		if i == 0 {
			p.Finalizers = []string{"example.com/hold"}
		}
	})
	if err := c.CoreV1().Pods(ns).Delete(ctx, "terminating-0", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Let the namespace go: drop the finalizer of the terminating Pod.
		_, _ = c.CoreV1().Pods(ns).Patch(context.Background(), "terminating-0", "application/merge-patch+json",
			[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	})
	// A selectorless Service with a hand-written Endpoints: KCM's
	// mirroring controller writes its slice.
	mirrored := service(ns, "mirrored", web)
	mirrored.Spec.Selector = nil
	mirrored.Spec.Ports[0].TargetPort = intstr.FromInt32(8080)
	if _, err := c.CoreV1().Services(ns).Create(ctx, mirrored, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eps := &corev1.Endpoints{ //nolint:staticcheck // the mirroring controller's input is the Endpoints API
		ObjectMeta: metav1.ObjectMeta{Name: "mirrored", Namespace: ns},
		Subsets: []corev1.EndpointSubset{{ //nolint:staticcheck // as above
			Addresses: []corev1.EndpointAddress{{IP: "10.1.0.1"}, {IP: "10.1.0.2"}},
			Ports:     []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}, //nolint:staticcheck // as above
		}},
	}
	if _, err := c.CoreV1().Endpoints(ns).Create(ctx, eps, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	services = append(services, adoptionService{svc: mirrored, endpoints: 2})

	// KCM converges: every Service has its endpoints (the empty one its
	// placeholder slice), and no slice changes for quiet.
	const quiet = 5 * time.Second
	deadline := time.Now().Add(3 * time.Minute)
	for {
		missing := kcmPending(t, ctx, c, ns, services)
		if missing == "" {
			break
		}
		if err := kcm.Exited(); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("kube-controller-manager %s did not write the slices within 3m: %s", version, missing)
		}
		time.Sleep(500 * time.Millisecond)
	}
	waitQuiet(t, ctx, c, ns, quiet)
	before, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := kcm.Stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-controller-manager %s wrote %d slices for %d Services; stopped", version, len(before.Items), len(services))
	for _, s := range before.Items {
		for _, mf := range s.ManagedFields {
			if mf.Manager != "kube-controller-manager" {
				t.Fatalf("slice %s was written by %q before the hand-over; want KCM only", s.Name, mf.Manager)
			}
		}
	}

	// Hand-over: count every slice event after the listed resourceVersion.
	w, err := c.DiscoveryV1().EndpointSlices(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: before.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var writes []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			s, ok := ev.Object.(*discovery.EndpointSlice)
			if !ok {
				continue
			}
			mu.Lock()
			writes = append(writes, fmt.Sprintf("%s %s (managed-by %s, rv %s)", ev.Type, s.Name, s.Labels[discovery.LabelManagedBy], s.ResourceVersion))
			mu.Unlock()
		}
	}()
	defer func() { w.Stop(); <-done }()
	count := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), writes...)
	}

	m := runSlicekit(t, env.Config, "*")
	selectorServices := 0
	for _, s := range services {
		if s.svc.Spec.Selector != nil {
			selectorServices++
		}
	}
	// Wait until slicekit synced every selector Service once (its caches
	// are synced first), then for a quiet period.
	deadline = time.Now().Add(2 * time.Minute)
	for counter(t, m, "endpoint_slice_controller_syncs") < float64(selectorServices) {
		if time.Now().After(deadline) {
			t.Fatalf("slicekit synced %v of %d Services within 2m", counter(t, m, "endpoint_slice_controller_syncs"), selectorServices)
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(quiet)
	if got := count(); len(got) > 0 {
		t.Errorf("slicekit rewrote KCM %s's slices on adoption: %d writes:\n  %s", version, len(got), strings.Join(got, "\n  "))
	} else {
		t.Logf("slicekit adopted KCM %s's %d slices with 0 writes (watch from rv %s; %v syncs; changes metric %v)",
			version, len(before.Items), before.ResourceVersion, counter(t, m, "endpoint_slice_controller_syncs"), counter(t, m, "endpoint_slice_controller_changes"))
	}
	if n := counter(t, m, "endpoint_slice_controller_changes"); n != 0 {
		t.Errorf("endpoint_slice_controller_changes = %v after adoption, want 0", n)
	}

	// The count can fail: a Pod turning not ready is one slice write.
	p, err := c.CoreV1().Pods(ns).Get(ctx, "multiport-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.Status.Conditions[0].Status = corev1.ConditionFalse
	if _, err := c.CoreV1().Pods(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(time.Minute)
	for len(count()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no slice write seen within 1m of a Pod turning not ready: the write count cannot see writes")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// service returns a Service ns/name selecting app=name with ports.
func service(ns, name string, ports ...corev1.ServicePort) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": name}, Ports: ports},
	}
}

// pod returns Pod <app>-<i>, labelled app=<app>, on node, running and
// ready with IP 10.<a>.<i/250>.<i%250+1> (a from the app's name), a container
// port named web (8080/TCP), 9090/TCP and 5353/UDP.
func pod(ns, app string, i int, node string) *corev1.Pod {
	a := 0
	for _, r := range app {
		a = (a*31 + int(r)) % 200
	}
	ip := fmt.Sprintf("10.%d.%d.%d", 20+a, i/250, i%250+1)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", app, i), Namespace: ns, Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "example.com/c", Ports: []corev1.ContainerPort{
			{Name: "web", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
			{ContainerPort: 9090, Protocol: corev1.ProtocolTCP},
			{ContainerPort: 5353, Protocol: corev1.ProtocolUDP},
		}}}},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
				LastTransitionTime: metav1.NewTime(time.Date(2026, 12, 1, 0, 0, i%60, 0, time.UTC))}},
		},
	}
}

func readyIf(b bool) corev1.ConditionStatus {
	if b {
		return corev1.ConditionTrue
	}
	return corev1.ConditionFalse
}

// createPod creates p, then writes its status (a create ignores it).
func createPod(t *testing.T, ctx context.Context, c kubernetes.Interface, p *corev1.Pod) {
	t.Helper()
	status := p.Status
	created, err := c.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Status = status
	if _, err := c.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// kcmPending returns what is still missing from KCM's slices ("" when each
// Service's slices hold its endpoints and the empty one has a slice).
func kcmPending(t *testing.T, ctx context.Context, c kubernetes.Interface, ns string, services []adoptionService) string {
	t.Helper()
	list, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	slicesOf := map[string]int{}
	for _, s := range list.Items {
		svc := s.Labels[discovery.LabelServiceName]
		got[svc] += len(s.Endpoints)
		slicesOf[svc]++
	}
	var missing []string
	for _, s := range services {
		if got[s.svc.Name] != s.endpoints || slicesOf[s.svc.Name] == 0 {
			missing = append(missing, fmt.Sprintf("%s %d/%d endpoints in %d slices", s.svc.Name, got[s.svc.Name], s.endpoints, slicesOf[s.svc.Name]))
		}
	}
	sort.Strings(missing)
	return strings.Join(missing, ", ")
}

// waitQuiet waits until no EndpointSlice of ns changes for d.
func waitQuiet(t *testing.T, ctx context.Context, c kubernetes.Interface, ns string, d time.Duration) {
	t.Helper()
	list, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.DiscoveryV1().EndpointSlices(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	timer := time.NewTimer(d)
	deadline := time.After(time.Minute)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatal("EndpointSlice watch closed")
			}
			if ev.Type != watch.Bookmark {
				timer.Reset(d)
			}
		case <-timer.C:
			return
		case <-deadline:
			t.Fatal("EndpointSlices kept changing for 1m")
		}
	}
}

// counter sums the samples of the counter name in m's registry.
func counter(t *testing.T, m *manager.Manager, name string) float64 {
	t.Helper()
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.GetMetric() {
			sum += s.GetCounter().GetValue()
		}
	}
	return sum
}
