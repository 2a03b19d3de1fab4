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

package deploytest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

const waitTimeout = 60 * time.Second

// waitFor polls cond every 100ms until it returns true; it fails t on
// timeout.
func waitFor(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	var lastErr error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if err == nil && ok {
			return
		}
		lastErr = err
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s (last error: %v)", waitTimeout, what, lastErr)
}

// cluster is the shared test control plane with a dynamic client and a
// REST mapper that knows the monitoring CRDs.
type cluster struct {
	env    *testenv.Env
	dyn    dynamic.Interface
	mapper meta.ResettableRESTMapper
}

// minimalCRD returns a CustomResourceDefinition for a Prometheus operator
// kind that accepts any spec: enough for the API server to take (and
// dry-run) the objects; their content is checked by the other tests.
func minimalCRD(plural, kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": plural + ".monitoring.coreos.com"},
		"spec": map[string]any{
			"group": "monitoring.coreos.com",
			"scope": "Namespaced",
			"names": map[string]any{"plural": plural, "kind": kind, "singular": strings.ToLower(kind), "listKind": kind + "List"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type":                                 "object",
					"x-kubernetes-preserve-unknown-fields": true,
				}},
			}},
		},
	}}
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	env := testenv.Shared(t)
	c := &cluster{env: env}
	var err error
	if c.dyn, err = dynamic.NewForConfig(env.Config); err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	c.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	for _, crd := range []*unstructured.Unstructured{minimalCRD("servicemonitors", "ServiceMonitor"), minimalCRD("prometheusrules", "PrometheusRule")} {
		if _, err := c.dyn.Resource(crds).Create(t.Context(), crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	waitFor(t, "the monitoring CRDs to be served", func() (bool, error) {
		c.mapper.Reset()
		for _, k := range []string{"ServiceMonitor", "PrometheusRule"} {
			if _, err := c.mapper.RESTMapping(schema.GroupKind{Group: "monitoring.coreos.com", Kind: k}, "v1"); err != nil {
				return false, err
			}
		}
		return true, nil
	})
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	if _, err := env.Client.CoreV1().Namespaces().Create(t.Context(), ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	return c
}

// apply applies u with server-side apply (dryRun: only validated and
// admitted, not stored).
func (c *cluster) apply(ctx context.Context, u *unstructured.Unstructured, dryRun bool) error {
	gvk := u.GroupVersionKind()
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return fmt.Errorf("%s: %w", gvk, err)
	}
	opts := metav1.ApplyOptions{FieldManager: "deploytest", Force: true}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	var r dynamic.ResourceInterface = c.dyn.Resource(m.Resource)
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		if u.GetNamespace() == "" {
			return fmt.Errorf("%s %s has no namespace", gvk.Kind, u.GetName())
		}
		r = c.dyn.Resource(m.Resource).Namespace(u.GetNamespace())
	}
	_, err = r.Apply(ctx, u.GetName(), u, opts)
	return err
}

// TestServerSideDryRun applies the chart's output (defaults, every
// controller enabled) and config/monitoring's PrometheusRule with
// server-side dry-run: the real kube-apiserver validates and admits every
// object.
func TestServerSideDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a kube-apiserver")
	}
	c := newCluster(t)
	for name, vals := range map[string]map[string]any{"defaults": nil, "all-controllers": valuesFile(t, "all-controllers.yaml")} {
		t.Run(name, func(t *testing.T) {
			r := render(t, vals)
			kinds := map[string]bool{}
			for key, u := range r {
				kinds[u.GetKind()] = true
				if err := c.apply(t.Context(), u, true); err != nil {
					t.Errorf("%s: %v", key, err)
				}
			}
			want := []string{"ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "Deployment", "Service"}
			if name == "all-controllers" {
				want = append(want, "ConfigMap", "ServiceMonitor", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding")
			}
			for _, k := range want {
				if !kinds[k] {
					t.Errorf("no %s rendered", k)
				}
			}
		})
	}
	data, err := os.ReadFile(filepath.Join(monitoringDir, "prometheusrule.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(data, &u.Object); err != nil {
		t.Fatal(err)
	}
	u.SetNamespace(namespace)
	if err := c.apply(t.Context(), u, true); err != nil {
		t.Errorf("config/monitoring/prometheusrule.yaml: %v", err)
	}
}

// TestManagerUnderChartRBAC installs the RBAC objects the chart renders
// with every controller enabled, runs the manager with the chart's args,
// impersonating the chart's ServiceAccount, and checks that each controller
// writes: EndpointSlices (endpointslice, mirroring, secondary-network, cel)
// and Endpoints (endpoints). Then it scrapes /metrics and fails if a metric
// the alert rules or the dashboard use is not exported.
func TestManagerUnderChartRBAC(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a kube-apiserver")
	}
	c := newCluster(t)
	r := render(t, valuesFile(t, "all-controllers.yaml"))
	for key, u := range r {
		switch u.GetKind() {
		case "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding":
			if err := c.apply(t.Context(), u, false); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
		}
	}
	o, _ := parseArgs(t, r)
	cfg := rest.CopyConfig(c.env.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + namespace + ":slicekit"}
	o.RESTConfig = cfg
	o.MetricsBindAddress = "127.0.0.1:0"
	o.HealthProbeBindAddress = "127.0.0.1:0"
	o.ShutdownTimeout = 10 * time.Second
	o.LeaderElection.LeaseDuration = 3 * time.Second
	o.LeaderElection.RenewDeadline = 2 * time.Second
	o.LeaderElection.RetryPeriod = 500 * time.Millisecond
	o.LeaderElection.ResourceName = "slicekit-chart-rbac-test"

	logger, ctx := ktesting.NewTestContext(t)
	ctx = klog.NewContext(ctx, logger)
	ctx, cancel := context.WithCancel(ctx)
	m, err := manager.New(ctx, o)
	if err != nil {
		cancel()
		t.Fatalf("manager.New: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Run did not return within 30s")
		}
	})
	waitFor(t, "readiness under the chart's RBAC", func() (bool, error) { return m.Ready(), nil })
	waitFor(t, "leadership under the chart's RBAC", func() (bool, error) { return m.Leading(), nil })

	client := c.env.Client
	ns := testenv.Namespace(t, client)
	workload(t, client, ns)

	slicesOf := func(svc, managedBy string) func() (bool, error) {
		return func() (bool, error) {
			l, err := client.DiscoveryV1().EndpointSlices(ns).List(t.Context(), metav1.ListOptions{
				LabelSelector: discoveryv1.LabelServiceName + "=" + svc + "," + discoveryv1.LabelManagedBy + "=" + managedBy})
			if err != nil {
				return false, err
			}
			n := 0
			for _, s := range l.Items {
				n += len(s.Endpoints)
			}
			return n > 0, nil
		}
	}
	waitFor(t, "the EndpointSlice controller's slices", slicesOf("web", "endpointslice-controller.k8s.io"))
	waitFor(t, "the mirroring controller's slices", slicesOf("external", "endpointslicemirroring-controller.k8s.io"))
	waitFor(t, "the secondary-network controller's slices", slicesOf("secondary", "secondary.example.com"))
	waitFor(t, "the CEL controller's slices", slicesOf("storage", "storage-ips.example.com"))
	waitFor(t, "the Endpoints controller's Endpoints", func() (bool, error) {
		ep, err := client.CoreV1().Endpoints(ns).Get(t.Context(), "web", metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		return len(ep.Subsets) == 1 && len(ep.Subsets[0].Addresses) == 2, nil
	})

	// A write by another field manager, as a still-running KCM would make:
	// counted in endpoint_slice_controller_conflicting_writes_total.
	l, err := client.DiscoveryV1().EndpointSlices(ns).List(t.Context(), metav1.ListOptions{
		LabelSelector: discoveryv1.LabelServiceName + "=web," + discoveryv1.LabelManagedBy + "=endpointslice-controller.k8s.io"})
	if err != nil || len(l.Items) == 0 {
		t.Fatalf("listing web's slices: %v (%d)", err, len(l.Items))
	}
	s := l.Items[0].DeepCopy()
	s.Labels["example.com/touched-by"] = "kcm"
	if _, err := client.DiscoveryV1().EndpointSlices(ns).Update(t.Context(), s, metav1.UpdateOptions{FieldManager: "kube-controller-manager"}); err != nil {
		t.Fatal(err)
	}

	used := usedMetrics(t)
	var missing []string
	waitFor(t, "every metric the rules and dashboard use on /metrics", func() (bool, error) {
		body, err := scrape("http://" + m.MetricsAddress() + "/metrics")
		if err != nil {
			return false, err
		}
		series := exportedSeries(body)
		missing = missing[:0]
		for _, n := range used {
			if !series[n] {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			return false, fmt.Errorf("not exported: %v", missing)
		}
		return true, nil
	})
	t.Logf("the rules and dashboard use %d metrics, all exported: %v", len(used), used)
}

func scrape(url string) (string, error) {
	resp, err := http.Get(url) //nolint:noctx // test helper, short-lived server
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: %s", url, resp.Status)
	}
	return string(b), err
}

// workload creates, in ns, what each controller acts on: Service web with
// two ready Pods (endpointslice, endpoints), a selector-less Service with
// its own Endpoints (mirroring), a Service for secondary.example.com with a
// Pod attached to network net1 (secondary-network), a Service for the CEL
// profile with a Pod annotated with storage IPs (cel).
func workload(t *testing.T, client kubernetes.Interface, ns string) {
	t.Helper()
	ctx := t.Context()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-" + ns, Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}
	if _, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.CoreV1().Nodes().Delete(context.Background(), node.Name, metav1.DeleteOptions{}) })
	service := func(name string, selector, labels, annotations map[string]string) {
		svc := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels, Annotations: annotations},
			Spec: corev1.ServiceSpec{Selector: selector,
				Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}}},
		}
		if _, err := client.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	pod := func(name, app, ip string, annotations map[string]string) {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": app}, Annotations: annotations},
			Spec: corev1.PodSpec{NodeName: node.Name,
				Containers: []corev1.Container{{Name: "c", Image: "registry.example/app:1", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}}}}},
		}
		created, err := client.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}
		if _, err := client.CoreV1().Pods(ns).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	service("web", map[string]string{"app": "web"}, nil, nil)
	pod("web-1", "web", "10.244.0.1", nil)
	pod("web-2", "web", "10.244.0.2", nil)

	service("external", nil, nil, nil)
	ep := &corev1.Endpoints{ //nolint:staticcheck // the mirroring controller's input
		ObjectMeta: metav1.ObjectMeta{Name: "external", Namespace: ns},
		Subsets: []corev1.EndpointSubset{{ //nolint:staticcheck
			Addresses: []corev1.EndpointAddress{{IP: "192.0.2.10"}},
			Ports:     []corev1.EndpointPort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}}, //nolint:staticcheck
		}},
	}
	if _, err := client.CoreV1().Endpoints(ns).Create(ctx, ep, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	status, err := json.Marshal([]map[string]any{
		{"name": "default/pod-network", "interface": "eth0", "ips": []string{"10.244.0.3"}, "default": true},
		{"name": ns + "/net1", "interface": "net1", "ips": []string{"192.168.1.3"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	service("secondary", map[string]string{"app": "secondary"},
		map[string]string{wellknown.LabelEndpointControllerName: "secondary.example.com"},
		map[string]string{"k8s.v1.cni.cncf.io/service-network": "net1"})
	pod("secondary-1", "secondary", "10.244.0.3", map[string]string{"k8s.v1.cni.cncf.io/network-status": string(status)})

	service("storage", map[string]string{"app": "storage"},
		map[string]string{wellknown.LabelEndpointControllerName: "storage-ips.example.com"}, nil)
	pod("storage-1", "storage", "10.244.0.4", map[string]string{"example.com/storage-ips": "10.9.0.4"})
}
