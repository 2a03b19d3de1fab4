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

package endpointslice_test

// Integration tests on a real kube-apiserver and etcd (test/harness/testenv).
// Each test runs its own controller, limited to its own namespace, with its
// own metrics registry, so tests can share one control plane and run in
// parallel. There are no kubelets: Pods and Nodes get their status through
// the status subresource. Waits poll with generous timeouts; negative
// checks ("nothing was written") wait for the controller to have synced the
// Service (its syncs metric) and then check that nothing changed.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const (
	self          = wellknown.EndpointSliceControllerName
	custom        = "custom-ctrl.example.com"
	pollInterval  = 100 * time.Millisecond
	pollTimeout   = 60 * time.Second
	controlPlaneT = "integration test: needs the local control plane (make controlplane); skipped with -short"
)

// itest is one integration test's namespace, client and node.
type itest struct {
	t      *testing.T
	ctx    context.Context
	client kubernetes.Interface
	ns     string
	node   string
}

func newITest(t *testing.T) *itest {
	t.Helper()
	if testing.Short() {
		t.Skip(controlPlaneT)
	}
	t.Parallel()
	env := testenv.Shared(t)
	it := &itest{t: t, ctx: t.Context(), client: env.Client}
	it.ns = testenv.Namespace(t, env.Client)
	it.node = it.ns + "-node"
	it.createNode(it.node, "zone-a")
	return it
}

// controller is a controller running in-process until stop.
type controller struct {
	reg  *prometheus.Registry
	stop func()
}

// start runs a controller limited to the test's namespace with 2 workers.
func (it *itest) start(opts endpointslice.Options) *controller {
	it.t.Helper()
	_, ctx := ktesting.NewTestContext(it.t)
	ctx, cancel := context.WithCancel(ctx)
	reg := prometheus.NewRegistry()
	opts.Registerer = reg
	factory := informers.NewSharedInformerFactoryWithOptions(it.client, 0, informers.WithNamespace(it.ns))
	c, err := endpointslice.New(ctx, it.client, factory, opts)
	if err != nil {
		cancel()
		it.t.Fatalf("New: %v", err)
	}
	factory.Start(ctx.Done())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 2) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				it.t.Errorf("Run: %v", err)
			}
			factory.Shutdown()
		})
	}
	it.t.Cleanup(stop)
	if err := wait.PollUntilContextTimeout(it.ctx, pollInterval, pollTimeout, true, func(context.Context) (bool, error) {
		return c.HasSynced(), nil
	}); err != nil {
		it.t.Fatalf("controller caches did not sync: %v", err)
	}
	return &controller{reg: reg, stop: stop}
}

// metric returns the sum of the series of name matching labels.
func (c *controller) metric(t *testing.T, name string, match map[string]string) float64 {
	t.Helper()
	families, err := c.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range families {
		if mf.GetName() != name {
			continue
		}
	series:
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if v, ok := match[lp.GetName()]; ok && v != lp.GetValue() {
					continue series
				}
			}
			sum += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return sum
}

// waitSynced waits until the controller counted more successful syncs than
// before: after a Service event, that sync has happened.
func (c *controller) waitSynced(it *itest, before float64) {
	it.t.Helper()
	it.eventually("a successful sync", func() (bool, error) {
		return c.metric(it.t, "endpoint_slice_controller_syncs", map[string]string{"result": "success"}) > before, nil
	})
}

func (c *controller) syncs(t *testing.T) float64 {
	return c.metric(t, "endpoint_slice_controller_syncs", map[string]string{"result": "success"})
}

func (c *controller) writes(t *testing.T) float64 {
	return c.metric(t, "endpoint_slice_controller_changes", nil)
}

func (it *itest) eventually(what string, cond func() (bool, error)) {
	it.t.Helper()
	var lastErr error
	err := wait.PollUntilContextTimeout(it.ctx, pollInterval, pollTimeout, true, func(context.Context) (bool, error) {
		ok, err := cond()
		if err != nil {
			lastErr = err
			return false, nil
		}
		return ok, nil
	})
	if err != nil {
		it.t.Fatalf("waiting for %s: %v (last error: %v)", what, err, lastErr)
	}
}

func (it *itest) createNode(name, zone string) {
	it.t.Helper()
	n, err := it.client.CoreV1().Nodes().Create(it.ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{
		Name: name, Labels: map[string]string{corev1.LabelTopologyZone: zone},
	}}, metav1.CreateOptions{})
	if err != nil {
		it.t.Fatal(err)
	}
	it.t.Cleanup(func() {
		_ = it.client.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
		LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now()}}
	n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")}
	n.Status.Capacity = n.Status.Allocatable
	if _, err := it.client.CoreV1().Nodes().UpdateStatus(it.ctx, n, metav1.UpdateOptions{}); err != nil {
		it.t.Fatal(err)
	}
}

func (it *itest) createService(name string, svcLabels map[string]string) *corev1.Service {
	it.t.Helper()
	svc, err := it.client.CoreV1().Services(it.ns).Create(it.ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: svcLabels},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": name},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		it.t.Fatal(err)
	}
	return svc
}

// setServiceLabel sets (value non-nil) or removes (nil) the KEP-4770 label.
func (it *itest) setServiceLabel(name string, value *string) {
	it.t.Helper()
	it.eventually("updating Service "+name, func() (bool, error) {
		svc, err := it.client.CoreV1().Services(it.ns).Get(it.ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if value == nil {
			delete(svc.Labels, wellknown.LabelEndpointControllerName)
		} else {
			if svc.Labels == nil {
				svc.Labels = map[string]string{}
			}
			svc.Labels[wellknown.LabelEndpointControllerName] = *value
		}
		_, err = it.client.CoreV1().Services(it.ns).Update(it.ctx, svc, metav1.UpdateOptions{})
		return err == nil, err
	})
}

var ipSeq struct {
	mu sync.Mutex
	n  int
}

// createPod creates a running Pod of app on the test's node, with a unique
// IP, ready or not.
func (it *itest) createPod(app string, ready bool) *corev1.Pod {
	it.t.Helper()
	ipSeq.mu.Lock()
	ipSeq.n++
	n := ipSeq.n
	ipSeq.mu.Unlock()
	ip := fmt.Sprintf("10.%d.%d.%d", 100+n/65536, (n/256)%256, n%256)
	pod, err := it.client.CoreV1().Pods(it.ns).Create(it.ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{GenerateName: app + "-", Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{
			NodeName:   it.node,
			Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		it.t.Fatal(err)
	}
	return it.setPodStatus(pod, ip, ready)
}

func (it *itest) setPodStatus(pod *corev1.Pod, ip string, ready bool) *corev1.Pod {
	it.t.Helper()
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	pod = pod.DeepCopy()
	pod.Status.Phase = corev1.PodRunning
	pod.Status.PodIP = ip
	pod.Status.PodIPs = []corev1.PodIP{{IP: ip}}
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.Now()}}
	out, err := it.client.CoreV1().Pods(it.ns).UpdateStatus(it.ctx, pod, metav1.UpdateOptions{})
	if err != nil {
		it.t.Fatal(err)
	}
	return out
}

// slicesOf lists the Service's slices managed by managedBy.
func (it *itest) slicesOf(svc, managedBy string) ([]discovery.EndpointSlice, error) {
	list, err := it.client.DiscoveryV1().EndpointSlices(it.ns).List(it.ctx, metav1.ListOptions{
		LabelSelector: labels.Set{discovery.LabelServiceName: svc, discovery.LabelManagedBy: managedBy}.String(),
	})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// addresses returns every address of every endpoint of slices, sorted,
// with duplicates kept.
func addresses(slices []discovery.EndpointSlice) []string {
	var out []string
	for _, s := range slices {
		for _, ep := range s.Endpoints {
			out = append(out, ep.Addresses...)
		}
	}
	sort.Strings(out)
	return out
}

func podIPs(pods ...*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Status.PodIP)
	}
	sort.Strings(out)
	return out
}

// waitAddresses waits until the Service's own slices hold exactly want.
func (it *itest) waitAddresses(svc string, want []string) []discovery.EndpointSlice {
	it.t.Helper()
	var got []discovery.EndpointSlice
	it.eventually(fmt.Sprintf("slices of %s with %v", svc, want), func() (bool, error) {
		var err error
		got, err = it.slicesOf(svc, self)
		if err != nil {
			return false, err
		}
		return slices.Equal(addresses(got), want), nil
	})
	return got
}

func (it *itest) waitNoOwnSlices(svc string) {
	it.t.Helper()
	it.eventually("no slices of "+svc, func() (bool, error) {
		got, err := it.slicesOf(svc, self)
		return len(got) == 0, err
	})
}

// events returns "type reason message" of the events on the Service.
func (it *itest) events(svc string) []string {
	it.t.Helper()
	list, err := it.client.CoreV1().Events(it.ns).List(it.ctx, metav1.ListOptions{
		FieldSelector: fields.Set{"involvedObject.name": svc, "involvedObject.kind": "Service"}.String(),
	})
	if err != nil {
		it.t.Fatal(err)
	}
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Type+" "+e.Reason+" "+e.Message)
	}
	return out
}

func (it *itest) waitEvent(svc, prefix string) string {
	it.t.Helper()
	var found string
	it.eventually(fmt.Sprintf("event %q on %s", prefix, svc), func() (bool, error) {
		for _, e := range it.events(svc) {
			if strings.HasPrefix(e, prefix) {
				found = e
				return true, nil
			}
		}
		return false, nil
	})
	return found
}

// createForeignSlice writes, as field manager fieldManager, a slice for svc
// with managed-by value managedBy.
func (it *itest) createForeignSlice(svc *corev1.Service, managedBy, fieldManager, ip string) *discovery.EndpointSlice {
	it.t.Helper()
	s, err := it.client.DiscoveryV1().EndpointSlices(it.ns).Create(it.ctx, &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: svc.Name + "-custom-",
			Labels:       map[string]string{discovery.LabelServiceName: svc.Name, discovery.LabelManagedBy: managedBy},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}}},
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}, metav1.CreateOptions{FieldManager: fieldManager})
	if err != nil {
		it.t.Fatal(err)
	}
	return s
}

// TestIntegrationCreateLabelled: a Service labelled at creation gets no
// slice of this controller, not even a placeholder, for any label value
// (rules (a)1, (a)3); Pod churn causes no write (a)7.
func TestIntegrationCreateLabelled(t *testing.T) {
	it := newITest(t)
	c := it.start(endpointslice.Options{})
	for _, value := range []string{custom, ""} {
		name := "labelled" + fmt.Sprint(len(value))
		before := c.syncs(t)
		it.createService(name, map[string]string{wellknown.LabelEndpointControllerName: value})
		c.waitSynced(it, before)
		p := it.createPod(name, true)
		it.setPodStatus(p, p.Status.PodIP, false)
		// A control Service created afterwards is fully handled, so the
		// Pod events above have been processed too.
		ctl := "control" + fmt.Sprint(len(value))
		it.createService(ctl, nil)
		cp := it.createPod(ctl, true)
		it.waitAddresses(ctl, podIPs(cp))
		if got, err := it.slicesOf(name, self); err != nil || len(got) != 0 {
			t.Errorf("label %q: slices of this controller = %d (%v), want none", value, len(got), err)
		}
	}
	if got := c.metric(t, "endpoint_slice_controller_changes", map[string]string{"operation": "delete"}); got != 0 {
		t.Errorf("deletes = %v, want 0", got)
	}
}

// TestIntegrationAddLabel: adding the label deletes this controller's
// slices; a slice of another controller is untouched (rules (a)4, (a)12,
// O1, E7); a Normal event names the controller.
func TestIntegrationAddLabel(t *testing.T) {
	it := newITest(t)
	it.start(endpointslice.Options{})
	svc := it.createService("web", nil)
	pods := []*corev1.Pod{it.createPod("web", true), it.createPod("web", true)}
	it.waitAddresses("web", podIPs(pods...))
	foreign := it.createForeignSlice(svc, custom, custom, pods[0].Status.PodIP)

	it.setServiceLabel("web", ptr.To(custom))
	it.waitNoOwnSlices("web")
	e := it.waitEvent("web", "Normal "+endpointslice.ReasonHandedOver)
	if !strings.Contains(e, custom) {
		t.Errorf("hand-over event %q does not name %s", e, custom)
	}
	got, err := it.client.DiscoveryV1().EndpointSlices(it.ns).Get(it.ctx, foreign.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("foreign slice: %v", err)
	}
	if got.ResourceVersion != foreign.ResourceVersion {
		t.Errorf("foreign slice was modified: resourceVersion %s -> %s", foreign.ResourceVersion, got.ResourceVersion)
	}
	// Pod churn after the hand-over writes nothing (a)7.
	it.createPod("web", true)
	it.createService("control", nil)
	cp := it.createPod("control", true)
	it.waitAddresses("control", podIPs(cp))
	if got, _ := it.slicesOf("web", self); len(got) != 0 {
		t.Errorf("slices reappeared after Pod churn: %d", len(got))
	}
}

// TestIntegrationRemoveLabel: removing the label brings this controller's
// slices back, with the current Pod IPs (rule (a)5), next to the custom
// controller's slices (E10).
func TestIntegrationRemoveLabel(t *testing.T) {
	it := newITest(t)
	c := it.start(endpointslice.Options{})
	before := c.syncs(t)
	svc := it.createService("web", map[string]string{wellknown.LabelEndpointControllerName: custom})
	c.waitSynced(it, before)
	p1 := it.createPod("web", true)
	p2 := it.createPod("web", false)
	foreign := it.createForeignSlice(svc, custom, custom, p1.Status.PodIP)
	// Churn while labelled: one Pod's IP changes.
	p2 = it.setPodStatus(p2, "10.250.0.1", true)

	it.setServiceLabel("web", nil)
	got := it.waitAddresses("web", podIPs(p1, p2))
	for _, s := range got {
		if _, ok := s.Labels[wellknown.LabelEndpointControllerName]; ok {
			t.Errorf("slice %s still carries the removed label", s.Name)
		}
	}
	if _, err := it.client.DiscoveryV1().EndpointSlices(it.ns).Get(it.ctx, foreign.Name, metav1.GetOptions{}); err != nil {
		t.Errorf("foreign slice: %v", err)
	}
}

// TestIntegrationChangeValue: changing the label value from one foreign
// controller to another does nothing (rule (a)6, E11).
func TestIntegrationChangeValue(t *testing.T) {
	it := newITest(t)
	c := it.start(endpointslice.Options{})
	before := c.syncs(t)
	it.createService("web", map[string]string{wellknown.LabelEndpointControllerName: "a.example.com"})
	it.createPod("web", true)
	c.waitSynced(it, before)

	before = c.syncs(t)
	it.setServiceLabel("web", ptr.To("b.example.com"))
	c.waitSynced(it, before)
	if got, err := it.slicesOf("web", self); err != nil || len(got) != 0 {
		t.Errorf("slices = %d (%v), want none", len(got), err)
	}
	if w := c.writes(t); w != 0 {
		t.Errorf("EndpointSlice writes = %v, want 0", w)
	}
	for _, e := range it.events("web") {
		if strings.Contains(e, endpointslice.ReasonHandedOver) {
			t.Errorf("unexpected event %q", e)
		}
	}
}

// TestIntegrationGateOff: with the gate off the label is ignored and
// copied to the slices like any other Service label (rule (a)9).
func TestIntegrationGateOff(t *testing.T) {
	it := newITest(t)
	it.start(endpointslice.Options{ExternalEndpointController: ptr.To(false)})
	it.createService("web", map[string]string{wellknown.LabelEndpointControllerName: custom})
	p := it.createPod("web", true)
	got := it.waitAddresses("web", podIPs(p))
	for _, s := range got {
		if v, ok := s.Labels[wellknown.LabelEndpointControllerName]; !ok || v != custom {
			t.Errorf("slice %s label %s = %q (present %v), want %q", s.Name, wellknown.LabelEndpointControllerName, v, ok, custom)
		}
	}
}

// TestIntegrationRestartSweep: slices of this controller left behind for a
// Service labelled while the controller was down (or while the gate was
// off) are deleted after a restart (rules (a)11, (a)15, E8); slices of
// other controllers stay.
func TestIntegrationRestartSweep(t *testing.T) {
	it := newITest(t)
	first := it.start(endpointslice.Options{ExternalEndpointController: ptr.To(false)})
	svc := it.createService("web", map[string]string{wellknown.LabelEndpointControllerName: custom})
	p := it.createPod("web", true)
	it.waitAddresses("web", podIPs(p))
	foreign := it.createForeignSlice(svc, custom, custom, p.Status.PodIP)
	first.stop()

	// A leftover written by another manager with this controller's
	// managed-by value (KCM's controller before the switch).
	leftover := it.createForeignSlice(svc, self, "kube-controller-manager", "10.249.0.1")
	if got, _ := it.slicesOf("web", self); len(got) != 2 {
		t.Fatalf("own slices before restart = %d, want 2", len(got))
	}

	it.start(endpointslice.Options{})
	it.waitNoOwnSlices("web")
	if _, err := it.client.DiscoveryV1().EndpointSlices(it.ns).Get(it.ctx, foreign.Name, metav1.GetOptions{}); err != nil {
		t.Errorf("foreign slice: %v", err)
	}
	if _, err := it.client.DiscoveryV1().EndpointSlices(it.ns).Get(it.ctx, leftover.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("leftover slice with our managed-by: err = %v, want NotFound", err)
	}
}

// TestIntegrationRestartMidChurn: a controller stopped in the middle of
// Pod churn and replaced by a new one converges to exactly the ready and
// not-ready Pods, each address once, across several slices.
func TestIntegrationRestartMidChurn(t *testing.T) {
	it := newITest(t)
	opts := endpointslice.Options{MaxEndpointsPerSlice: 4}
	first := it.start(opts)
	it.createService("web", nil)

	var mu sync.Mutex
	live := map[string]*corev1.Pod{}
	rng := rand.New(rand.NewPCG(1, 2))
	churn := func(steps int) {
		for range steps {
			mu.Lock()
			names := make([]string, 0, len(live))
			for n := range live {
				names = append(names, n)
			}
			sort.Strings(names)
			mu.Unlock()
			switch op := rng.IntN(4); {
			case op <= 1 || len(names) < 3:
				p := it.createPod("web", rng.IntN(3) > 0)
				mu.Lock()
				live[p.Name] = p
				mu.Unlock()
			case op == 2:
				n := names[rng.IntN(len(names))]
				if err := it.client.CoreV1().Pods(it.ns).Delete(it.ctx, n, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				delete(live, n)
				mu.Unlock()
			default:
				n := names[rng.IntN(len(names))]
				mu.Lock()
				p := live[n]
				mu.Unlock()
				ready := len(p.Status.Conditions) > 0 && p.Status.Conditions[0].Status == corev1.ConditionTrue
				p = it.setPodStatus(p, p.Status.PodIP, !ready)
				mu.Lock()
				live[n] = p
				mu.Unlock()
			}
		}
	}
	churn(15)
	first.stop()
	churn(10)
	second := it.start(opts)
	churn(15)

	mu.Lock()
	var want []*corev1.Pod
	for _, p := range live {
		want = append(want, p)
	}
	mu.Unlock()
	// Pods deleted with grace period 0 and no kubelet are gone at once.
	got := it.waitAddresses("web", podIPs(want...))
	seen := map[string]bool{}
	for _, a := range addresses(got) {
		if seen[a] {
			t.Errorf("address %s appears twice", a)
		}
		seen[a] = true
	}
	for _, s := range got {
		if len(s.Endpoints) > 4 {
			t.Errorf("slice %s has %d endpoints, max 4", s.Name, len(s.Endpoints))
		}
	}
	if s := second.syncs(t); s == 0 {
		t.Errorf("second controller never synced")
	}
}

// TestIntegrationSecondWriter: a write by another field manager on a slice
// carrying this controller's managed-by value is reported (Warning event,
// metric) and the controller keeps reconciling.
func TestIntegrationSecondWriter(t *testing.T) {
	it := newITest(t)
	c := it.start(endpointslice.Options{})
	it.createService("web", nil)
	p := it.createPod("web", true)
	got := it.waitAddresses("web", podIPs(p))

	// "kube-controller-manager" rewrites the endpoints of our slice.
	const intruder = "kube-controller-manager"
	it.eventually("intruder write", func() (bool, error) {
		s, err := it.client.DiscoveryV1().EndpointSlices(it.ns).Get(it.ctx, got[0].Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{"10.248.0.1"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}})
		_, err = it.client.DiscoveryV1().EndpointSlices(it.ns).Update(it.ctx, s, metav1.UpdateOptions{FieldManager: intruder})
		return err == nil, err
	})
	e := it.waitEvent("web", "Warning "+endpointslice.ReasonConflictingWriter)
	if !strings.Contains(e, intruder) {
		t.Errorf("event %q does not name %s", e, intruder)
	}
	it.eventually("conflicting-writes metric", func() (bool, error) {
		return c.metric(t, endpointslice.ConflictingWritesMetricName, map[string]string{"manager": intruder}) >= 1, nil
	})
	// The controller keeps reconciling: the foreign endpoint is removed.
	it.waitAddresses("web", podIPs(p))
}
