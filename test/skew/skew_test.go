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

package skew

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/test/harness/procs"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// KubeVersionEnv names the Kubernetes release the tests must find the API
// server at (set by hack/test-skew.sh); empty means any.
const KubeVersionEnv = "SLICEKIT_KUBE_VERSION"

// readyTimeout bounds how long a `slicekit run` may take to turn ready (or
// to exit with a reason). Generous: a loaded 2-core machine.
const readyTimeout = 90 * time.Second

// serviceCIDRs is the range testenv's kube-apiserver allocates from
// (testenv.DefaultAPIServerFlags), given to the pod-address controllers on a
// server without ServiceCIDR objects, as a chart user there would.
var serviceCIDRs = testenv.DefaultAPIServerFlags["service-cluster-ip-range"]

// sharedEnv returns the package's control plane after checking that it runs
// the release $SLICEKIT_KUBE_VERSION names.
func sharedEnv(t *testing.T) *testenv.Env {
	t.Helper()
	if testing.Short() {
		t.Skip("starts etcd, kube-apiserver and slicekit; skipped under -short")
	}
	env := testenv.Shared(t)
	version, _, err := testenv.ServerVersion(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.Getenv(KubeVersionEnv); want != "" && version != want {
		t.Fatalf("the API server is %s, not %s=%s: $%s points at other binaries", version, KubeVersionEnv, want, testenv.BinDirEnv)
	}
	t.Logf("API server %s", version)
	return env
}

// slicekitBinary builds cmd/slicekit into a temporary directory (the build
// cache makes every build after the first a link).
func slicekitBinary(t *testing.T) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "slicekit")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/slicekit")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/slicekit: %v\n%s", err, b)
	}
	return out
}

// kubeconfig writes an admin kubeconfig for env and returns its path.
func kubeconfig(t *testing.T, env *testenv.Env) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := env.WriteKubeConfig(path, "skew"); err != nil {
		t.Fatal(err)
	}
	return path
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}

// run is a `slicekit run` process of a test.
type run struct {
	proc  *procs.Proc
	probe string // /readyz URL
}

// startRun starts `slicekit run` with args on top of the kubeconfig, a Lease
// of its own in namespace default, and free metrics and probe ports; the
// process is stopped at the end of the test.
func startRun(t *testing.T, bin, kubeconfig, lease string, args ...string) *run {
	t.Helper()
	probe := freePort(t)
	all := append([]string{"run", "--kubeconfig", kubeconfig,
		"--leader-elect-resource-namespace=default", "--leader-elect-resource-name=" + lease,
		"--metrics-bind-address=127.0.0.1:" + strconv.Itoa(freePort(t)),
		"--health-probe-bind-address=127.0.0.1:" + strconv.Itoa(probe)}, args...)
	p, err := procs.Start(t.TempDir(), "slicekit", bin, all...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("slicekit %s", strings.Join(all, " "))
	t.Cleanup(func() {
		if err := p.Stop(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("slicekit log (tail):\n%s", procs.Tail(p.LogPath, 6000))
		}
	})
	return &run{proc: p, probe: fmt.Sprintf("http://127.0.0.1:%d/readyz", probe)}
}

// outcome is how a start ended within readyTimeout.
type outcome int

const (
	ready outcome = iota
	exited
	stuck
)

// wait polls /readyz until it answers 200 (ready), the process exits
// (exited), or readyTimeout passes (stuck, with the last verbose /readyz
// answer in detail).
func (r *run) wait() (outcome, string) {
	deadline := time.Now().Add(readyTimeout)
	client := &http.Client{Timeout: 5 * time.Second}
	last := ""
	for time.Now().Before(deadline) {
		if err := r.proc.Exited(); err != nil {
			return exited, err.Error()
		}
		resp, err := client.Get(r.probe + "?verbose")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			last = fmt.Sprintf("/readyz %d: %s", resp.StatusCode, bytes.TrimSpace(b))
			if resp.StatusCode == http.StatusOK {
				return ready, last
			}
		} else {
			last = err.Error()
		}
		time.Sleep(250 * time.Millisecond)
	}
	return stuck, last
}

// log returns the process's whole output so far.
func (r *run) log() string { return procs.Tail(r.proc.LogPath, 1<<20) }

// TestControllerSetsStart starts `slicekit run` with each controller set and
// requires it to turn ready. A controller whose API the server lacks must
// not hold the others' readiness without a word: the replica either turns
// ready or exits, and its output names the missing API either way.
func TestControllerSetsStart(t *testing.T) {
	env := sharedEnv(t)
	bin := slicekitBinary(t)
	kc := kubeconfig(t, env)
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	hasServiceCIDRs, err := testenv.Serves(env.Config, "networking.k8s.io/v1", "servicecidrs")
	if err != nil {
		t.Fatal(err)
	}
	hasClaims, err := testenv.Serves(env.Config, "resource.k8s.io/v1", "resourceclaims")
	if err != nil {
		t.Fatal(err)
	}
	// Without ServiceCIDR objects the pod-address controllers need the
	// Service range from the flag (the chart's addressGuard.serviceClusterIPRange).
	var guard []string
	if !hasServiceCIDRs {
		guard = []string{"--service-cluster-ip-range=" + serviceCIDRs}
		t.Logf("server lacks networking.k8s.io/v1 servicecidrs (Kubernetes 1.33+): pod-address controllers get --service-cluster-ip-range=%s", serviceCIDRs)
	}
	for _, tc := range []struct {
		name string
		args []string
		// missingAPI, when the server lacks it, is the API the output
		// must name; the start may then end ready or exited.
		missingAPI string
	}{
		{name: "default", args: []string{"--controllers=*"}},
		{name: "secondary-network", args: append([]string{"--controllers=*,secondary-network"}, guard...)},
		{name: "cel", args: append([]string{"--controllers=*,cel", "--cel-config=" + filepath.Join(root, "examples/cel/profiles.yaml")}, guard...)},
		{name: "dra-network", args: append([]string{"--controllers=*,dra-network"}, guard...), missingAPI: map[bool]string{false: "resource.k8s.io/v1"}[hasClaims]},
		{name: "selectorless", args: append([]string{"--controllers=secondary-network,selectorless-cleanup"}, guard...)},
		{name: "endpoints", args: []string{"--controllers=*,endpoints"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startRun(t, bin, kc, "skew-"+tc.name, tc.args...)
			got, detail := r.wait()
			switch {
			case got == ready && tc.missingAPI == "":
				t.Logf("ready: %s", firstLine(detail))
			case got == stuck:
				t.Fatalf("not ready after %v and still running (%s); last: %s", readyTimeout, tc.args, detail)
			case tc.missingAPI == "":
				t.Fatalf("exited before turning ready: %s", detail)
			case !strings.Contains(r.log(), tc.missingAPI):
				t.Fatalf("server lacks %s: the start ended (%s) without naming it; output:\n%s", tc.missingAPI, map[outcome]string{ready: "ready", exited: "exited"}[got], procs.Tail(r.proc.LogPath, 4000))
			default:
				t.Logf("server lacks %s: start ended %s and named it", tc.missingAPI, map[outcome]string{ready: "ready", exited: "exited"}[got])
			}
		})
	}
}

// TestPodAddressGuardNeedsServiceCIDRs: on a server without ServiceCIDR
// objects (before 1.33) and without --service-cluster-ip-range, the
// pod-address controllers could publish Service-range addresses; `slicekit
// run` must refuse to start and name the flag.
func TestPodAddressGuardNeedsServiceCIDRs(t *testing.T) {
	env := sharedEnv(t)
	ok, err := testenv.Serves(env.Config, "networking.k8s.io/v1", "servicecidrs")
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Skip("server serves networking.k8s.io/v1 servicecidrs: the address guard reads the Service ranges there")
	}
	bin := slicekitBinary(t)
	kc := kubeconfig(t, env)
	r := startRun(t, bin, kc, "skew-guard", "--controllers=*,secondary-network")
	got, detail := r.wait()
	if got != exited {
		t.Fatalf("started (%v) with no source of Service CIDRs; want a refusal naming --service-cluster-ip-range; last: %s", map[outcome]string{ready: "ready", stuck: "not ready, running"}[got], detail)
	}
	if !strings.Contains(r.log(), "service-cluster-ip-range") {
		t.Fatalf("refused without naming --service-cluster-ip-range:\n%s", detail)
	}
}

// TestCheckLive: the default controllers write a Service's slice, then
// `slicekit check` of its namespace finds nothing wrong (exit 0), and an
// orphan slice is reported (exit 1).
func TestCheckLive(t *testing.T) {
	env := sharedEnv(t)
	bin := slicekitBinary(t)
	kc := kubeconfig(t, env)
	ctx := t.Context()
	ns := testenv.Namespace(t, env.Client)
	createWorkload(t, ctx, env.Client, ns, "web", 3)
	startRun(t, bin, kc, "skew-check", "--controllers=*")
	waitSlice(t, ctx, env.Client, ns, "web", 3)

	code, stdout, stderr := exe(t, bin, "check", "--kubeconfig", kc, "-n", ns)
	if code != 0 || !strings.Contains(stdout, "No findings") {
		t.Fatalf("slicekit check -n %s: exit %d\nstdout: %s\nstderr: %s", ns, code, stdout, stderr)
	}
	orphan := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "gone-abc", Namespace: ns, Labels: map[string]string{
			discovery.LabelServiceName: "gone", discovery.LabelManagedBy: "endpointslice-controller.k8s.io"}},
		AddressType: discovery.AddressTypeIPv4,
	}
	if _, err := env.Client.DiscoveryV1().EndpointSlices(ns).Create(ctx, orphan, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = exe(t, bin, "check", "--kubeconfig", kc, "-n", ns)
	if code != 1 || !strings.Contains(stdout, "EndpointSlice "+ns+"/gone-abc") {
		t.Fatalf("slicekit check with an orphan slice: exit %d (want 1)\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// createWorkload creates Node node-1, Service name (selector app=name, port
// 80→8080) and n ready Pods on node-1 with IPs 10.0.0.(i+1).
func createWorkload(t *testing.T, ctx context.Context, c kubernetes.Interface, ns, name string, n int) {
	t.Helper()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}
	if _, err := c.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil && !strings.Contains(err.Error(), "already exists") {
		t.Fatal(err)
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": name},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}},
		},
	}
	if _, err := c.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", name, i), Namespace: ns, Labels: map[string]string{"app": name}},
			Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "c", Image: "example.com/c"}}},
		}
		created, err := c.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ip := fmt.Sprintf("10.0.0.%d", i+1)
		created.Status = corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}},
		}
		if _, err := c.CoreV1().Pods(ns).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// waitSlice waits until Service name's slices hold n endpoints in total.
func waitSlice(t *testing.T, ctx context.Context, c kubernetes.Interface, ns, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	got := -1
	for time.Now().Before(deadline) {
		list, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + name})
		if err != nil {
			t.Fatal(err)
		}
		got = 0
		for _, s := range list.Items {
			got += len(s.Endpoints)
		}
		if got == n {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("Service %s/%s: %d endpoints in its slices after %v, want %d", ns, name, got, readyTimeout, n)
}

// exe runs bin with args and returns its exit code and output.
func exe(t *testing.T, bin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	default:
		t.Fatalf("running %s: %v", bin, err)
	}
	return code, out.String(), errOut.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
