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

package manager_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// Short leases keep the leader election tests fast.
const (
	testLeaseDuration = 3 * time.Second
	testRenewDeadline = 2 * time.Second
	testRetryPeriod   = 500 * time.Millisecond
	waitTimeout       = 60 * time.Second
)

// testOptions returns manager options for cfg with random local ports, no
// resync and short leases in leaseNS.
func testOptions(t *testing.T, cfg *rest.Config, leaseNS string) *manager.Options {
	t.Helper()
	o := manager.NewOptions()
	o.RESTConfig = cfg
	o.MetricsBindAddress = "127.0.0.1:0"
	o.HealthProbeBindAddress = "127.0.0.1:0"
	o.MinResyncPeriod = 0
	o.ShutdownTimeout = 10 * time.Second
	o.LeaderElection.LeaseDuration = testLeaseDuration
	o.LeaderElection.RenewDeadline = testRenewDeadline
	o.LeaderElection.RetryPeriod = testRetryPeriod
	o.LeaderElection.ResourceNamespace = leaseNS
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	return o
}

// running is a manager running in the background.
type running struct {
	*manager.Manager
	cancel context.CancelFunc
	done   chan error
}

// start runs a manager until stop or the end of the test.
func start(t *testing.T, name string, o *manager.Options) *running {
	t.Helper()
	logger, ctx := ktesting.NewTestContext(t)
	ctx = klog.NewContext(ctx, logger.WithName(name))
	ctx, cancel := context.WithCancel(ctx)
	m, err := manager.New(ctx, o)
	if err != nil {
		cancel()
		t.Fatalf("manager.New: %v", err)
	}
	r := &running{Manager: m, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- m.Run(ctx) }()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop cancels the manager and waits for Run to return nil.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok && err != nil {
			t.Errorf("Run returned %v", err)
		}
		if ok {
			close(r.done)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("Run did not return within 30s of cancel")
	}
}

// waitFor polls cond every 100ms until it returns true, fails t on timeout
// or error.
func waitFor(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	var lastErr error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if err != nil {
			lastErr = err
		} else if ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s (last error: %v)", waitTimeout, what, lastErr)
}

// get returns the status code and body of an HTTP GET.
func get(url string) (int, string, error) {
	resp, err := http.Get(url) //nolint:noctx // test helper with a short-lived server
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// createBackend creates a Node, a Service "web" selecting app=web and n
// ready Pods with status set (there is no kubelet), in ns.
func createBackend(t *testing.T, client kubernetes.Interface, ns string, n int) {
	t.Helper()
	ctx := t.Context()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-" + ns, Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}
	if _, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.CoreV1().Nodes().Delete(context.Background(), node.Name, metav1.DeleteOptions{}) })
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}},
		},
	}
	if _, err := client.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		addPod(t, client, ns, fmt.Sprintf("web-%d", i), node.Name, fmt.Sprintf("10.244.0.%d", i))
	}
}

// addPod creates a ready Pod labelled app=web.
func addPod(t *testing.T, client kubernetes.Interface, ns, name, node, ip string) {
	t.Helper()
	ctx := t.Context()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			NodeName:   node,
			Containers: []corev1.Container{{Name: "web", Image: "registry.example/web:1"}},
		},
	}
	created, err := client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Status = corev1.PodStatus{
		Phase:      corev1.PodRunning,
		PodIP:      ip,
		PodIPs:     []corev1.PodIP{{IP: ip}},
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
	}
	if _, err := client.CoreV1().Pods(ns).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// ownSlices returns the slices of Service web managed by slicekit.
func ownSlices(ctx context.Context, client kubernetes.Interface, ns string) ([]discovery.EndpointSlice, error) {
	l, err := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{
		LabelSelector: discovery.LabelServiceName + "=web," + discovery.LabelManagedBy + "=endpointslice-controller.k8s.io",
	})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

// waitEndpoints waits until web's slices hold exactly n endpoints.
func waitEndpoints(t *testing.T, client kubernetes.Interface, ns string, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d endpoints in the slices of %s/web", n, ns), func() (bool, error) {
		slices, err := ownSlices(t.Context(), client, ns)
		if err != nil {
			return false, err
		}
		total := 0
		for _, s := range slices {
			total += len(s.Endpoints)
		}
		return len(slices) > 0 && total == n, nil
	})
}

// counter sums the samples of a counter family in m's registry.
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
		for _, metric := range mf.GetMetric() {
			sum += value(metric)
		}
	}
	return sum
}

func value(m *dto.Metric) float64 {
	switch {
	case m.GetCounter() != nil:
		return m.GetCounter().GetValue()
	case m.GetGauge() != nil:
		return m.GetGauge().GetValue()
	}
	return 0
}

func TestManagerServesAndReconciles(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	ns := testenv.Namespace(t, env.Client)
	m := start(t, "manager", testOptions(t, env.Config, ns))

	health := "http://" + m.HealthProbeAddress()
	waitFor(t, "/readyz to succeed", func() (bool, error) {
		code, _, err := get(health + "/readyz")
		return code == http.StatusOK, err
	})
	if code, body, err := get(health + "/healthz"); err != nil || code != http.StatusOK || body != "ok" {
		t.Errorf("/healthz: %d %q %v", code, body, err)
	}
	if code, body, err := get(health + "/readyz?verbose"); err != nil || code != http.StatusOK || !strings.Contains(body, "[+]informerSync ok") {
		t.Errorf("/readyz?verbose: %d %q %v", code, body, err)
	}
	waitFor(t, "leadership", func() (bool, error) { return m.Leading(), nil })

	createBackend(t, env.Client, ns, 2)
	waitEndpoints(t, env.Client, ns, 2)

	// The slices are visible before the controller has recorded the sync
	// that wrote them (the counters move after the API call returns), so
	// the scrape is retried until every series is there.
	wantMetrics := []string{
		`endpoint_slice_controller_syncs{result="success"}`,
		`endpoint_slice_controller_changes{operation="create"}`,
		`workqueue_adds_total{name="endpoint_slice"}`,
		`leader_election_master_status{name="slicekit"} 1`,
		`slicekit_build_info{`,
		`go_goroutines`,
	}
	waitFor(t, "/metrics to show the sync", func() (bool, error) {
		code, metrics, err := get("http://" + m.MetricsAddress() + "/metrics")
		if err != nil || code != http.StatusOK {
			return false, fmt.Errorf("/metrics: %d %w", code, err)
		}
		var missing []string
		for _, want := range wantMetrics {
			if !strings.Contains(metrics, want) {
				missing = append(missing, want)
			}
		}
		if len(missing) > 0 {
			return false, fmt.Errorf("/metrics lacks %s", strings.Join(missing, ", "))
		}
		return true, nil
	})

	// KEP-4770: labelling the Service for another controller deletes the
	// slices; removing the label brings them back.
	label := func(value *string) {
		svc, err := env.Client.CoreV1().Services(ns).Get(t.Context(), "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if value == nil {
			delete(svc.Labels, wellknown.LabelEndpointControllerName)
		} else {
			svc.Labels = map[string]string{wellknown.LabelEndpointControllerName: *value}
		}
		if _, err := env.Client.CoreV1().Services(ns).Update(t.Context(), svc, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	other := "custom-ctrl.example.com"
	label(&other)
	waitFor(t, "the slices of the delegated Service to be deleted", func() (bool, error) {
		s, err := ownSlices(t.Context(), env.Client, ns)
		return len(s) == 0, err
	})
	label(nil)
	waitEndpoints(t, env.Client, ns, 2)

	// Graceful shutdown releases the Lease.
	m.stop(t)
	lease, err := env.Client.CoordinationV1().Leases(ns).Get(t.Context(), manager.DefaultLeaderElectionResourceName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h := lease.Spec.HolderIdentity; h != nil && *h != "" {
		t.Errorf("Lease still held by %q after shutdown", *h)
	}
	if code, _, err := get(health + "/healthz"); err == nil {
		t.Errorf("/healthz still answers (%d) after Run returned", code)
	}
}

// TestLeaderElectionOnlyLeaderWrites runs two managers on one Lease: only
// the leader writes; the standby is ready (warm caches) but writes nothing;
// when the leader stops, the standby takes over and writes.
func TestLeaderElectionOnlyLeaderWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	ns := testenv.Namespace(t, env.Client)
	a := start(t, "a", testOptions(t, env.Config, ns))
	b := start(t, "b", testOptions(t, env.Config, ns))

	var leader, standby *running
	waitFor(t, "a leader", func() (bool, error) {
		switch {
		case a.Leading() && b.Leading():
			return false, errors.New("both lead")
		case a.Leading():
			leader, standby = a, b
		case b.Leading():
			leader, standby = b, a
		default:
			return false, nil
		}
		return true, nil
	})
	waitFor(t, "the standby to be ready", func() (bool, error) { return standby.Ready(), nil })

	createBackend(t, env.Client, ns, 2)
	waitEndpoints(t, env.Client, ns, 2)
	addPod(t, env.Client, ns, "web-3", "node-"+ns, "10.244.0.3")
	waitEndpoints(t, env.Client, ns, 3)

	if standby.Leading() {
		t.Fatal("the standby leads too")
	}
	const changes = "endpoint_slice_controller_changes"
	// The counter moves just after the write that the test already saw.
	waitFor(t, "the leader to count its writes", func() (bool, error) {
		return counter(t, leader.Manager, changes) > 0, nil
	})
	if n := counter(t, standby.Manager, changes); n != 0 {
		t.Errorf("standby: %s = %v, want no write", changes, n)
	}
	if n := counter(t, standby.Manager, "endpoint_slice_controller_syncs"); n != 0 {
		t.Errorf("standby synced %v times, want 0", n)
	}
	// Every write carries the one field manager; nobody else wrote.
	slices, err := ownSlices(t.Context(), env.Client, ns)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range slices {
		for _, mf := range s.ManagedFields {
			if mf.Manager != "endpointslice-controller.k8s.io" {
				t.Errorf("slice %s written by %q", s.Name, mf.Manager)
			}
		}
	}

	// Fail-over: the leader stops and releases the Lease; the standby takes
	// over and reconciles the next change.
	leader.stop(t)
	waitFor(t, "the standby to take over", func() (bool, error) { return standby.Leading(), nil })
	addPod(t, env.Client, ns, "web-4", "node-"+ns, "10.244.0.4")
	waitEndpoints(t, env.Client, ns, 4)
	waitFor(t, "the new leader to count its writes", func() (bool, error) {
		return counter(t, standby.Manager, changes) > 0, nil
	})
}

// TestShippedRBAC runs the manager with the credentials of the shipped
// ServiceAccount (impersonation), bound to exactly config/'s ClusterRole and
// leader election Role: it syncs, leads, writes slices, hands a Service
// over (delete, event) and takes it back.
func TestShippedRBAC(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	applyRBAC(t, env.Client)
	ns := testenv.Namespace(t, env.Client)

	cfg := rest.CopyConfig(env.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:slicekit-system:slicekit"}
	o := testOptions(t, cfg, manager.DefaultNamespace)
	o.LeaderElection.ResourceName = "slicekit-rbac-test"
	m := start(t, "rbac", o)
	waitFor(t, "readiness with the shipped RBAC", func() (bool, error) { return m.Ready(), nil })
	waitFor(t, "leadership with the shipped RBAC", func() (bool, error) { return m.Leading(), nil })

	createBackend(t, env.Client, ns, 2)
	waitEndpoints(t, env.Client, ns, 2)

	svc, err := env.Client.CoreV1().Services(ns).Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc.Labels = map[string]string{wellknown.LabelEndpointControllerName: "custom-ctrl.example.com"}
	if _, err := env.Client.CoreV1().Services(ns).Update(t.Context(), svc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hand-over deletion and its event", func() (bool, error) {
		s, err := ownSlices(t.Context(), env.Client, ns)
		if err != nil || len(s) > 0 {
			return false, err
		}
		events, err := env.Client.CoreV1().Events(ns).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, e := range events.Items {
			if e.InvolvedObject.Name == "web" && e.Reason == "EndpointSlicesHandedOver" {
				return true, nil
			}
		}
		return false, nil
	})
}

// applyRBAC creates config/'s Namespace, ServiceAccount, roles and
// bindings (idempotent across tests sharing the control plane).
func applyRBAC(t *testing.T, client kubernetes.Interface) {
	t.Helper()
	ctx := t.Context()
	root := filepath.Join("..", "..", "config")
	files := []string{"namespace.yaml", "rbac/service_account.yaml", "rbac/cluster_role.yaml", "rbac/cluster_role_binding.yaml",
		"rbac/leader_election_role.yaml", "rbac/leader_election_role_binding.yaml"}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if err := create(ctx, client, obj); err != nil && !apierrors.IsAlreadyExists(err) {
				t.Fatalf("%s: %v", f, err)
			}
		}
	}
}

func create(ctx context.Context, c kubernetes.Interface, obj runtime.Object) error {
	var err error
	switch o := obj.(type) {
	case *corev1.Namespace:
		_, err = c.CoreV1().Namespaces().Create(ctx, o, metav1.CreateOptions{})
	case *corev1.ServiceAccount:
		_, err = c.CoreV1().ServiceAccounts(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
	case *rbacv1.ClusterRole:
		_, err = c.RbacV1().ClusterRoles().Create(ctx, o, metav1.CreateOptions{})
	case *rbacv1.ClusterRoleBinding:
		_, err = c.RbacV1().ClusterRoleBindings().Create(ctx, o, metav1.CreateOptions{})
	case *rbacv1.Role:
		_, err = c.RbacV1().Roles(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
	case *rbacv1.RoleBinding:
		_, err = c.RbacV1().RoleBindings(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
	default:
		err = fmt.Errorf("unexpected %T", obj)
	}
	return err
}
