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

package secondarynetwork_test

// Integration tests on a real kube-apiserver and etcd (test/harness/testenv):
// the default EndpointSlice controller (pkg/controllers/endpointslice) and
// the secondary-network controller run in-process on one informer factory
// limited to the test's namespace, installing their informer transforms
// in the manager's order (the EndpointSlice controller's first, then this
// controller's superset). No kubelet runs: Pod and Node status is written
// through the status subresource. A watch on the namespace's
// EndpointSlices checks, for the whole test, that no slice ever mixes
// primary and secondary addresses or address families.

import (
	"context"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/addressguard"
	"github.com/slicekit/slicekit/pkg/source/networkstatus"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const (
	secondaryName = "secondary.example.com"
	defaultName   = wellknown.EndpointSliceControllerName
	pollInterval  = 100 * time.Millisecond
	pollTimeout   = 60 * time.Second
)

// primaryNet holds the Pods' status.podIPs; everything else is secondary.
var primaryNet = netip.MustParsePrefix("10.0.0.0/16")

type itest struct {
	t      *testing.T
	ctx    context.Context
	client kubernetes.Interface
	ns     string
	// serviceCIDRs is the address guard's static range (testenv.ServiceCIDRs).
	serviceCIDRs []netip.Prefix
	node         string

	mu         sync.Mutex
	violations []string
}

func newITest(t *testing.T) *itest {
	t.Helper()
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	t.Parallel()
	env := testenv.Shared(t)
	it := &itest{t: t, ctx: t.Context(), client: env.Client, serviceCIDRs: testenv.ServiceCIDRs(t, env.Config)}
	it.ns = testenv.Namespace(t, env.Client)
	it.node = it.ns + "-node"
	it.createNode()
	it.watchSlices()
	it.startControllers()
	t.Cleanup(func() {
		it.mu.Lock()
		defer it.mu.Unlock()
		for _, v := range it.violations {
			t.Error(v)
		}
	})
	return it
}

// startControllers runs both controllers until the test ends.
func (it *itest) startControllers() {
	it.t.Helper()
	_, ctx := ktesting.NewTestContext(it.t)
	ctx, cancel := context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactoryWithOptions(it.client, 0, informers.WithNamespace(it.ns))
	def, err := endpointslice.New(ctx, it.client, factory, endpointslice.Options{})
	if err != nil {
		cancel()
		it.t.Fatal(err)
	}
	sec, err := secondarynetwork.New(ctx, it.client, factory, secondarynetwork.Options{ControllerName: secondaryName,
		Common: slicecontroller.Common{AddressGuard: addressguard.Options{ServiceCIDRs: it.serviceCIDRs}}})
	if err != nil {
		cancel()
		it.t.Fatal(err)
	}
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() { _ = def.Run(ctx, 2) })
	wg.Go(func() { _ = sec.Run(ctx, 2) })
	it.t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})
	it.eventually("controllers synced", func() (bool, error) { return def.HasSynced() && sec.HasSynced(), nil })
}

// watchSlices records every slice version that mixes primary and
// secondary addresses, or holds an address of the wrong family.
func (it *itest) watchSlices() {
	it.t.Helper()
	w, err := it.client.DiscoveryV1().EndpointSlices(it.ns).Watch(it.ctx, metav1.ListOptions{})
	if err != nil {
		it.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			if ev.Type != watch.Added && ev.Type != watch.Modified {
				continue
			}
			s, ok := ev.Object.(*discovery.EndpointSlice)
			if !ok {
				continue
			}
			primary, secondary := 0, 0
			for _, e := range s.Endpoints {
				for _, a := range e.Addresses {
					ip, err := netip.ParseAddr(a)
					if err != nil {
						continue
					}
					if (s.AddressType == discovery.AddressTypeIPv4) != ip.Is4() {
						it.violate("slice %s (%s) holds %s", s.Name, s.AddressType, a)
					}
					if primaryNet.Contains(ip) {
						primary++
					} else {
						secondary++
					}
				}
			}
			mb := s.Labels[discovery.LabelManagedBy]
			switch {
			case primary > 0 && secondary > 0:
				it.violate("slice %s mixes primary and secondary addresses: %+v", s.Name, s.Endpoints)
			case mb == secondaryName && primary > 0:
				it.violate("secondary slice %s holds a primary address: %+v", s.Name, s.Endpoints)
			case mb == defaultName && secondary > 0:
				it.violate("default slice %s holds a secondary address: %+v", s.Name, s.Endpoints)
			}
		}
	}()
	it.t.Cleanup(func() {
		w.Stop()
		<-done
	})
}

func (it *itest) violate(format string, args ...any) {
	it.mu.Lock()
	defer it.mu.Unlock()
	it.violations = append(it.violations, fmt.Sprintf(format, args...))
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

func (it *itest) createNode() {
	it.t.Helper()
	n, err := it.client.CoreV1().Nodes().Create(it.ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{
		Name: it.node, Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"},
	}}, metav1.CreateOptions{})
	if err != nil {
		it.t.Fatal(err)
	}
	it.t.Cleanup(func() { _ = it.client.CoreV1().Nodes().Delete(context.Background(), it.node, metav1.DeleteOptions{}) })
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now()}}
	n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")}
	n.Status.Capacity = n.Status.Allocatable
	if _, err := it.client.CoreV1().Nodes().UpdateStatus(it.ctx, n, metav1.UpdateOptions{}); err != nil {
		it.t.Fatal(err)
	}
}

// createService creates Service name selecting app=name, port http 80 →
// named target port http, with the service-network annotation network, and
// the KEP-4770 label when controller is not empty.
func (it *itest) createService(name, network, controller string, headless bool) {
	it.t.Helper()
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"team": "blue"},
			Annotations: map[string]string{wellknown.AnnotationServiceNetwork: network}},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": name},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}},
		},
	}
	if controller != "" {
		svc.Labels[wellknown.LabelEndpointControllerName] = controller
	}
	if headless {
		svc.Spec.ClusterIP = corev1.ClusterIPNone
	}
	if _, err := it.client.CoreV1().Services(it.ns).Create(it.ctx, svc, metav1.CreateOptions{}); err != nil {
		it.t.Fatal(err)
	}
}

// setServiceLabel sets (value non-nil) or removes the KEP-4770 label.
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
			svc.Labels[wellknown.LabelEndpointControllerName] = *value
		}
		_, err = it.client.CoreV1().Services(it.ns).Update(it.ctx, svc, metav1.UpdateOptions{})
		return err == nil, err
	})
}

// createPod creates a Running Pod of app with primary IP primaryIP, the
// given network-status ("" for none) and readiness.
func (it *itest) createPod(name, app, primaryIP, networkStatus string, ready bool) {
	it.t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{
			NodeName:   it.node,
			Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}}},
		},
	}
	if networkStatus != "" {
		pod.Annotations = map[string]string{wellknown.AnnotationNetworkStatus: networkStatus}
	}
	created, err := it.client.CoreV1().Pods(it.ns).Create(it.ctx, pod, metav1.CreateOptions{})
	if err != nil {
		it.t.Fatal(err)
	}
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	created.Status.Phase = corev1.PodRunning
	created.Status.PodIP = primaryIP
	created.Status.PodIPs = []corev1.PodIP{{IP: primaryIP}}
	created.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.Now()}}
	if _, err := it.client.CoreV1().Pods(it.ns).UpdateStatus(it.ctx, created, metav1.UpdateOptions{}); err != nil {
		it.t.Fatal(err)
	}
}

// setNetworkStatus replaces (or, with "", removes) a Pod's network-status.
func (it *itest) setNetworkStatus(name, networkStatus string) {
	it.t.Helper()
	it.eventually("updating Pod "+name, func() (bool, error) {
		pod, err := it.client.CoreV1().Pods(it.ns).Get(it.ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if networkStatus == "" {
			delete(pod.Annotations, wellknown.AnnotationNetworkStatus)
		} else {
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[wellknown.AnnotationNetworkStatus] = networkStatus
		}
		_, err = it.client.CoreV1().Pods(it.ns).Update(it.ctx, pod, metav1.UpdateOptions{})
		return err == nil, err
	})
}

// netStatus is a network-status value: the cluster network with primary,
// and the attachment ns/net on net1 with ips (none: not attached).
func netStatus(primary, network string, ips ...string) string {
	entries := []string{fmt.Sprintf(`{"name":"cluster","interface":"eth0","ips":[%q],"default":true,"dns":{}}`, primary)}
	if network != "" {
		q := make([]string, len(ips))
		for i, ip := range ips {
			q[i] = fmt.Sprintf("%q", ip)
		}
		entries = append(entries, fmt.Sprintf(`{"name":%q,"interface":"net1","ips":[%s],"dns":{}}`, network, strings.Join(q, ",")))
	}
	return "[" + strings.Join(entries, ",") + "]"
}

// view is "managedBy addressType: addresses" per slice of svc, sorted.
func (it *itest) view(svc string) ([]string, error) {
	list, err := it.client.DiscoveryV1().EndpointSlices(it.ns).List(it.ctx, metav1.ListOptions{
		LabelSelector: labels.Set{discovery.LabelServiceName: svc}.String(),
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range list.Items {
		var addrs []string
		for _, e := range s.Endpoints {
			ready := "ready"
			if e.Conditions.Ready == nil || !*e.Conditions.Ready {
				ready = "notready"
			}
			addrs = append(addrs, strings.Join(e.Addresses, "+")+"/"+ready)
		}
		sort.Strings(addrs)
		out = append(out, fmt.Sprintf("%s %s: %s", s.Labels[discovery.LabelManagedBy], s.AddressType, strings.Join(addrs, " ")))
	}
	sort.Strings(out)
	return out, nil
}

// waitView waits until the slices of svc are exactly want.
func (it *itest) waitView(svc string, want ...string) {
	it.t.Helper()
	sort.Strings(want)
	var got []string
	var err error
	werr := wait.PollUntilContextTimeout(it.ctx, pollInterval, pollTimeout, true, func(context.Context) (bool, error) {
		got, err = it.view(svc)
		return err == nil && strings.Join(got, "\n") == strings.Join(want, "\n"), nil
	})
	if werr != nil {
		it.t.Fatalf("slices of %s:\n  got  %q (err %v)\n  want %q", svc, got, err, want)
	}
}

// waitEvent waits for an event with reason on the Service.
func (it *itest) waitEvent(svc, reason, contains string) {
	it.t.Helper()
	it.eventually(fmt.Sprintf("event %s on Service %s", reason, svc), func() (bool, error) {
		list, err := it.client.CoreV1().Events(it.ns).List(it.ctx, metav1.ListOptions{FieldSelector: fields.Set{
			"involvedObject.kind": "Service", "involvedObject.name": svc, "reason": reason,
		}.String()})
		if err != nil {
			return false, err
		}
		for _, e := range list.Items {
			if strings.Contains(e.Message, contains) {
				return true, nil
			}
		}
		return false, nil
	})
}

// TestMoveBetweenControllers: a Service moves from the default controller
// to the secondary-network one by adding the label (default slices go,
// secondary slices come), and back by removing it; the watch checks that
// no slice ever mixes primary and secondary addresses.
func TestMoveBetweenControllers(t *testing.T) {
	it := newITest(t)
	network := it.ns + "/net-a"
	it.createService("svc", "net-a", "", false)
	it.createPod("p1", "svc", "10.0.0.11", netStatus("10.0.0.11", network, "10.1.0.11"), true)
	it.createPod("p2", "svc", "10.0.0.12", netStatus("10.0.0.12", ""), true)
	it.createPod("p3", "svc", "10.0.0.13", netStatus("10.0.0.13", network, "10.1.0.13"), false)

	it.waitView("svc", defaultName+" IPv4: 10.0.0.11/ready 10.0.0.12/ready 10.0.0.13/notready")

	name := secondaryName
	it.setServiceLabel("svc", &name)
	it.waitView("svc", secondaryName+" IPv4: 10.1.0.11/ready 10.1.0.13/notready")
	it.waitEvent("svc", endpointslice.ReasonHandedOver, secondaryName)
	it.waitEvent("svc", networkstatus.ReasonNetworkNotAttached, "p2")

	it.setServiceLabel("svc", nil)
	it.waitView("svc", defaultName+" IPv4: 10.0.0.11/ready 10.0.0.12/ready 10.0.0.13/notready")
	it.waitEvent("svc", "EndpointSlicesReleased", "was removed")

	it.setServiceLabel("svc", &name)
	it.waitView("svc", secondaryName+" IPv4: 10.1.0.11/ready 10.1.0.13/notready")

	other := "other.example.com"
	it.setServiceLabel("svc", &other)
	it.waitView("svc")
}

// TestAttachmentsChange: Pods gain and lose attachments; a malformed
// annotation leaves the Pod out with a Warning event on the Service.
func TestAttachmentsChange(t *testing.T) {
	it := newITest(t)
	network := it.ns + "/net-a"
	it.createService("svc", network, secondaryName, false)
	it.createPod("p1", "svc", "10.0.0.21", "", true)
	it.createPod("p2", "svc", "10.0.0.22", netStatus("10.0.0.22", network, "10.1.0.22"), true)

	it.waitView("svc", secondaryName+" IPv4: 10.1.0.22/ready")
	it.waitEvent("svc", networkstatus.ReasonNetworkStatusMissing, "p1")

	// p1 is attached (Multus writes its annotation).
	it.setNetworkStatus("p1", netStatus("10.0.0.21", network, "10.1.0.21"))
	it.waitView("svc", secondaryName+" IPv4: 10.1.0.21/ready 10.1.0.22/ready")

	// p2 loses its attachment, then gets a malformed annotation.
	it.setNetworkStatus("p2", netStatus("10.0.0.22", ""))
	it.waitView("svc", secondaryName+" IPv4: 10.1.0.21/ready")
	it.setNetworkStatus("p2", `[{"name":`)
	it.waitEvent("svc", networkstatus.ReasonNetworkStatusInvalid, "p2")

	// p2 attached twice: ambiguous, left out; then fixed.
	it.setNetworkStatus("p2", `[{"name":"`+network+`","interface":"net1","ips":["10.1.0.22"]},{"name":"`+network+`","interface":"net2","ips":["10.1.0.23"]}]`)
	it.waitEvent("svc", networkstatus.ReasonAmbiguousAttachment, "p2")
	it.setNetworkStatus("p2", netStatus("10.0.0.22", network, "10.1.0.22"))
	it.waitView("svc", secondaryName+" IPv4: 10.1.0.21/ready 10.1.0.22/ready")

	// p1 and p2 claim the same IP: p1, older, keeps it.
	it.setNetworkStatus("p2", netStatus("10.0.0.22", network, "10.1.0.21"))
	it.waitView("svc", secondaryName+" IPv4: 10.1.0.21/ready")
	it.waitEvent("svc", "DuplicateAddress", "p2")

	// All attachments gone: a placeholder slice, never primary addresses.
	it.setNetworkStatus("p1", "")
	it.setNetworkStatus("p2", "")
	it.waitView("svc", secondaryName+" IPv4: ")
}

// TestDualStackAttachments: dual-stack attachments of a headless Service
// get one IPv4 and one IPv6 slice, each with its family only, although
// the cluster (and the Pods' primary network) is single-stack IPv4.
func TestDualStackAttachments(t *testing.T) {
	it := newITest(t)
	network := it.ns + "/net-v6"
	it.createService("svc", network, secondaryName, true)
	it.createPod("p1", "svc", "10.0.0.31", netStatus("10.0.0.31", network, "10.1.0.31", "fd01::31"), true)
	it.createPod("p2", "svc", "10.0.0.32", netStatus("10.0.0.32", network, "fd01::32"), true)
	it.waitView("svc",
		secondaryName+" IPv4: 10.1.0.31/ready",
		secondaryName+" IPv6: fd01::31/ready fd01::32/ready")

	// p1 loses its IPv4 address: the IPv4 slice keeps existing as a placeholder.
	it.setNetworkStatus("p1", netStatus("10.0.0.31", network, "fd01::31"))
	it.waitView("svc",
		secondaryName+" IPv4: ",
		secondaryName+" IPv6: fd01::31/ready fd01::32/ready")
}
