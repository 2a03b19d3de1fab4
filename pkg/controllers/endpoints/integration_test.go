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

package endpoints_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/endpoints"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func startController(t *testing.T, client kubernetes.Interface) (stop func()) {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactory(client, 0)
	c, err := endpoints.New(ctx, client, factory, endpoints.Options{Registerer: prometheus.NewRegistry()})
	if err != nil {
		t.Fatalf("endpoints.New: %v", err)
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

// createPod creates a Pod labelled app=web and sets its status (no kubelet
// runs): Running with ip, Ready as given.
func createPod(t *testing.T, ctx context.Context, client kubernetes.Interface, ns, name, ip string, ready bool) {
	t.Helper()
	pod, err := client.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{NodeName: "node-a", Containers: []corev1.Container{{Name: "app", Image: "registry.example/app:1",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	pod.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}},
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.Now()}},
	}
	if _, err := client.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func service(name string, labels map[string]string, selector map[string]string) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: corev1.ServiceSpec{Selector: selector,
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP}}},
	}
}

// addresses summarizes an Endpoints object: sorted IPs, "!" before
// not-ready ones.
func addresses(ep *corev1.Endpoints) []string {
	var out []string
	for _, s := range ep.Subsets {
		for _, a := range s.Addresses {
			out = append(out, a.IP)
		}
		for _, a := range s.NotReadyAddresses {
			out = append(out, "!"+a.IP)
		}
	}
	sort.Strings(out)
	return out
}

func waitFor(t *testing.T, ctx context.Context, what string, cond func(ctx context.Context) (bool, string)) {
	t.Helper()
	var last string
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		ok, msg := cond(ctx)
		last = msg
		return ok, nil
	}); err != nil {
		t.Fatalf("%s: %s (%v)", what, last, err)
	}
}

// TestEndpointsController runs the Endpoints controller on a real
// kube-apiserver: Endpoints for a selector Service with ready and not-ready
// Pods and the managed-by label; none for a Service labelled for another
// controller (KEP-4770); the label added deletes them, removed brings them
// back; hand-written Endpoints without the managed-by label are never
// deleted, also across a restart (spec O3, E9), while a leftover of this
// controller is.
func TestEndpointsController(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	client := env.Client
	ns := testenv.Namespace(t, client)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// Hand-written Endpoints that KCM would delete at its next start: one
	// for a labelled selectorless Service (Knative), one with no Service.
	if _, err := client.CoreV1().Services(ns).Create(ctx, service("knative", map[string]string{wellknown.LabelEndpointControllerName: "serving.knative.dev"}, nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	custom := map[string]*corev1.Endpoints{}
	for _, name := range []string{"knative", "orphan"} {
		ep, err := client.CoreV1().Endpoints(ns).Create(ctx, &corev1.Endpoints{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.9.1"}},
				Ports: []corev1.EndpointPort{{Name: "http", Port: 8012, Protocol: corev1.ProtocolTCP}}}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		custom[name] = ep
	}
	// A leftover of this controller (managed-by label) whose Service is gone.
	if _, err := client.CoreV1().Endpoints(ns).Create(ctx, &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Name: "leftover", Labels: map[string]string{wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	stop := startController(t, client)

	createPod(t, ctx, client, ns, "web-1", "10.0.0.1", true)
	createPod(t, ctx, client, ns, "web-2", "10.0.0.2", false)
	createPod(t, ctx, client, ns, "web-3", "10.0.0.3", true)
	if _, err := client.CoreV1().Services(ns).Create(ctx, service("web", map[string]string{"tier": "front"}, map[string]string{"app": "web"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Services(ns).Create(ctx, service("web-delegated",
		map[string]string{wellknown.LabelEndpointControllerName: "custom-ctrl.example.com"}, map[string]string{"app": "web"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	want := []string{"!10.0.0.2", "10.0.0.1", "10.0.0.3"}
	waitWeb := func(what string) {
		waitFor(t, ctx, what, func(ctx context.Context) (bool, string) {
			ep, err := client.CoreV1().Endpoints(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			got := addresses(ep)
			if fmt.Sprint(got) != fmt.Sprint(want) || ep.Labels[wellknown.LabelEndpointsManagedBy] != wellknown.EndpointsControllerName || ep.Labels["tier"] != "front" {
				return false, fmt.Sprintf("addresses %v labels %v", got, ep.Labels)
			}
			return true, ""
		})
	}
	waitWeb("Endpoints of web")
	waitFor(t, ctx, "leftover deleted", func(ctx context.Context) (bool, string) {
		_, err := client.CoreV1().Endpoints(ns).Get(ctx, "leftover", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})

	// The delegated Service never gets Endpoints, whatever the Pods do.
	createPod(t, ctx, client, ns, "web-4", "10.0.0.4", true)
	want = []string{"!10.0.0.2", "10.0.0.1", "10.0.0.3", "10.0.0.4"}
	waitWeb("Endpoints of web after a new Pod")
	if _, err := client.CoreV1().Endpoints(ns).Get(ctx, "web-delegated", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Endpoints written for a delegated Service (err %v)", err)
	}

	// KEP-4770 label added: Endpoints deleted; removed: back.
	setLabel := func(on bool) {
		t.Helper()
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			s, err := client.CoreV1().Services(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return err
			}
			if on {
				s.Labels[wellknown.LabelEndpointControllerName] = "custom-ctrl.example.com"
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
	waitFor(t, ctx, "Endpoints of web deleted after the label was added", func(ctx context.Context) (bool, string) {
		_, err := client.CoreV1().Endpoints(ns).Get(ctx, "web", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})
	setLabel(false)
	waitWeb("Endpoints of web back after the label was removed")

	// A restart deletes no hand-written Endpoints (KCM's
	// checkLeftoverEndpoints would delete both).
	stop()
	startController(t, client)
	time.Sleep(3 * time.Second)
	for name, before := range custom {
		got, err := client.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Errorf("hand-written Endpoints %s: %v", name, err)
			continue
		}
		if got.ResourceVersion != before.ResourceVersion {
			t.Errorf("hand-written Endpoints %s was written (resourceVersion %s -> %s)", name, before.ResourceVersion, got.ResourceVersion)
		}
	}
	if _, err := client.CoreV1().Endpoints(ns).Get(ctx, "web-delegated", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Endpoints written for a delegated Service after a restart (err %v)", err)
	}
	waitWeb("Endpoints of web after a restart")
}
