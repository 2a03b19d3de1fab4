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

package mirroring_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// startController runs a mirroring controller against client until the
// returned stop function is called (which waits for it to return).
func startController(t *testing.T, client kubernetes.Interface) (stop func()) {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactory(client, 0)
	c, err := mirroring.New(ctx, client, factory, mirroring.Options{Registerer: prometheus.NewRegistry()})
	if err != nil {
		t.Fatalf("mirroring.New: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 2) }()
	factory.Start(ctx.Done())
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		factory.Shutdown()
	}
	t.Cleanup(stop)
	return stop
}

// knative is the hand-written Endpoints object of the test and the oracle
// for its mirrored slice: KCM's rule for one subset with one port, written
// independently of pkg/source/endpointsmirroring: addresses sorted by IP text, the
// first 1000 ready ones, then not-ready ones up to 1000 in total
// (reconciler.go reconcile after RepackSubsets).
type knative struct {
	ready, notReady map[string]bool
}

func (k *knative) subsets() []corev1.EndpointSubset {
	ss := corev1.EndpointSubset{Ports: []corev1.EndpointPort{{Name: "http", Port: 8012, Protocol: corev1.ProtocolTCP}}}
	for _, ip := range sortedIPs(k.ready) {
		ss.Addresses = append(ss.Addresses, corev1.EndpointAddress{IP: ip})
	}
	for _, ip := range sortedIPs(k.notReady) {
		ss.NotReadyAddresses = append(ss.NotReadyAddresses, corev1.EndpointAddress{IP: ip})
	}
	return []corev1.EndpointSubset{ss}
}

// want returns the mirrored endpoints KCM would write: IP → ready.
func (k *knative) want() map[string]bool {
	out := map[string]bool{}
	for _, ip := range sortedIPs(k.ready) {
		if len(out) == 1000 {
			return out
		}
		out[ip] = true
	}
	for _, ip := range sortedIPs(k.notReady) {
		if len(out) == 1000 {
			return out
		}
		out[ip] = false
	}
	return out
}

func sortedIPs(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for ip := range m {
		out = append(out, ip)
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare([]byte(out[i]), []byte(out[j])) < 0 })
	return out
}

// mirrored returns the endpoints of the mirrored slices of name (IP →
// ready) and the number of such slices.
func mirrored(ctx context.Context, client kubernetes.Interface, ns, name string) (map[string]bool, []discovery.EndpointSlice, error) {
	list, err := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{
		LabelSelector: discovery.LabelServiceName + "=" + name + "," + discovery.LabelManagedBy + "=" + wellknown.MirroringControllerName,
	})
	if err != nil {
		return nil, nil, err
	}
	out := map[string]bool{}
	for _, s := range list.Items {
		for _, e := range s.Endpoints {
			out[e.Addresses[0]] = e.Conditions.Ready != nil && *e.Conditions.Ready
		}
	}
	return out, list.Items, nil
}

// waitMirrored waits until the mirrored slices of name hold exactly want in
// one IPv4 slice (none when want is empty).
func waitMirrored(t *testing.T, ctx context.Context, client kubernetes.Interface, ns, name string, want map[string]bool, what string) {
	t.Helper()
	var last string
	start := time.Now()
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		got, slices, err := mirrored(ctx, client, ns, name)
		if err != nil {
			return false, err
		}
		wantSlices := 1
		if len(want) == 0 {
			wantSlices = 0
		}
		if len(slices) != wantSlices {
			last = fmt.Sprintf("%d mirrored slices, want %d", len(slices), wantSlices)
			return false, nil
		}
		if len(got) != len(want) {
			last = fmt.Sprintf("%d mirrored endpoints, want %d", len(got), len(want))
			return false, nil
		}
		for ip, r := range want {
			if g, ok := got[ip]; !ok || g != r {
				last = fmt.Sprintf("endpoint %s: mirrored=%v ready=%v, want ready=%v", ip, ok, g, r)
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("%s: mirrored slices never right: %s (%v)", what, last, err)
	}
	t.Logf("%s: mirrored slices right after %v", what, time.Since(start).Round(time.Millisecond))
}

// TestKnativeScenario is issue 4's Knative case on a real kube-apiserver: a
// selectorless Service whose hand-written Endpoints hold 1,200 addresses
// that churn (adds, removals, readiness flips); the mirrored slice follows
// KCM's rule throughout (one slice, at most 1000 endpoints, ready addresses
// first); the KEP-4770 label deletes the mirrored slice and removing it
// mirrors again; a slice of another manager is never touched; slices left
// behind while the controller was down are deleted at start-up.
func TestKnativeScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	client := env.Client
	ns := testenv.Namespace(t, client)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	const name = "helloworld-go-00001"

	stop := startController(t, client)

	svc, err := client.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A slice written by Knative itself (another managed-by value): never
	// written or deleted by the mirroring controller.
	custom, err := client.DiscoveryV1().EndpointSlices(ns).Create(ctx, &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{GenerateName: name + "-custom-", Labels: map[string]string{
			discovery.LabelServiceName: name, discovery.LabelManagedBy: "serving.knative.dev"}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.99.0.1"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}}},
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8012), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	r := rand.New(rand.NewSource(1))
	k := &knative{ready: map[string]bool{}, notReady: map[string]bool{}}
	next := 0
	newIP := func(prefix int) string {
		next++
		return fmt.Sprintf("10.%d.%d.%d", prefix, next/250, next%250+1)
	}
	for i := 0; i < 1100; i++ {
		k.ready[newIP(20)] = true
	}
	for i := 0; i < 100; i++ {
		k.notReady[newIP(20)] = true
	}
	if _, err := client.CoreV1().Endpoints(ns).Create(ctx, &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"serving.knative.dev/revision": name}},
		Subsets:    k.subsets(),
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitMirrored(t, ctx, client, ns, name, k.want(), "1,200 addresses")

	// The Warning event for the addresses over the limit.
	if err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		evs, err := client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=Endpoints,involvedObject.name=" + name})
		if err != nil {
			return false, err
		}
		for _, e := range evs.Items {
			if e.Reason == mirroring.ReasonTooManyAddressesToMirror && e.Type == corev1.EventTypeWarning &&
				strings.Contains(e.Message, "200 addresses were skipped") {
				return true, nil
			}
		}
		return false, nil
	}); err != nil {
		t.Errorf("no TooManyAddressesToMirror event reporting 200 skipped addresses: %v", err)
	}

	delegated := false
	update := func(what string, change func()) {
		t.Helper()
		change()
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			ep, err := client.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			ep.Subsets = k.subsets()
			_, err = client.CoreV1().Endpoints(ns).Update(ctx, ep, metav1.UpdateOptions{})
			return err
		}); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !delegated {
			waitMirrored(t, ctx, client, ns, name, k.want(), what)
		}
	}
	pick := func(m map[string]bool, n int) []string {
		ips := sortedIPs(m)
		r.Shuffle(len(ips), func(i, j int) { ips[i], ips[j] = ips[j], ips[i] })
		n = max(0, min(n, len(ips)))
		return ips[:n]
	}
	for round := 0; round < 12; round++ {
		switch round % 4 {
		case 0:
			// Scale up: new pods whose IPs sort first displace mirrored ones.
			update(fmt.Sprintf("round %d: 120 ready addresses added", round), func() {
				for i := 0; i < 120; i++ {
					k.ready[newIP(10)] = true
				}
			})
		case 1:
			update(fmt.Sprintf("round %d: 60 addresses removed", round), func() {
				for _, ip := range pick(k.ready, 50) {
					delete(k.ready, ip)
				}
				for _, ip := range pick(k.notReady, 10) {
					delete(k.notReady, ip)
				}
			})
		case 2:
			update(fmt.Sprintf("round %d: 30 readiness flips each way", round), func() {
				toNot, toReady := pick(k.ready, 30), pick(k.notReady, 30)
				for _, ip := range toNot {
					delete(k.ready, ip)
					k.notReady[ip] = true
				}
				for _, ip := range toReady {
					delete(k.notReady, ip)
					k.ready[ip] = true
				}
			})
		default:
			update(fmt.Sprintf("round %d: scale down below 1000 ready", round), func() {
				for _, ip := range pick(k.ready, len(k.ready)-950+r.Intn(20)) {
					delete(k.ready, ip)
					k.notReady[ip] = true
				}
			})
		}
	}

	// KEP-4770: the label on the Service hands it over; mirrored slices go.
	setLabel := func(on bool) {
		t.Helper()
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			s, err := client.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if on {
				s.Labels = map[string]string{wellknown.LabelEndpointControllerName: "serving.knative.dev"}
			} else {
				delete(s.Labels, wellknown.LabelEndpointControllerName)
			}
			_, err = client.CoreV1().Services(ns).Update(ctx, s, metav1.UpdateOptions{})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	setLabel(true)
	delegated = true
	waitMirrored(t, ctx, client, ns, name, nil, "KEP-4770 label added")
	update("churn while delegated", func() { k.ready[newIP(10)] = true })
	time.Sleep(2 * time.Second)
	if got, slices, _ := mirrored(ctx, client, ns, name); len(slices) != 0 {
		t.Errorf("delegated Service mirrored again: %d endpoints", len(got))
	}
	setLabel(false)
	delegated = false
	waitMirrored(t, ctx, client, ns, name, k.want(), "KEP-4770 label removed")

	// Start-up sweep: the label is added while the controller is down.
	stop()
	setLabel(true)
	if _, slices, _ := mirrored(ctx, client, ns, name); len(slices) != 1 {
		t.Fatalf("want the mirrored slice still there while the controller is down, got %d", len(slices))
	}
	startController(t, client)
	waitMirrored(t, ctx, client, ns, name, nil, "label added while the controller was down")

	got, err := client.DiscoveryV1().EndpointSlices(ns).Get(ctx, custom.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the slice of another manager is gone: %v", err)
	}
	if got.ResourceVersion != custom.ResourceVersion {
		t.Errorf("the slice of another manager was written (resourceVersion %s -> %s)", custom.ResourceVersion, got.ResourceVersion)
	}
	// The Service still exists; deleting it removes its mirrored slices
	// only through the owner (not here: no garbage collector runs).
	if _, err := client.CoreV1().Services(ns).Get(ctx, svc.Name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
		t.Errorf("Service vanished")
	}
}
