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

//go:build linux

package dataplane

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/slicekit/slicekit/internal/localapply"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestImageInPodman loads bin/slicekit-image.tar (`make image`;
// SLICEKIT_IMAGE_TAR names another) into podman and runs it against a local
// control plane as charts/slicekit runs it: its own non-root user, a
// read-only root filesystem, no capabilities, no privilege escalation, the
// chart's arguments; it must write the EndpointSlice of a Service. Podman
// runs with runc and cgroupfs (docs/dataplane.md), its storage in a
// temporary directory.
func TestImageInPodman(t *testing.T) {
	if os.Getenv(EnableEnv) != "1" {
		t.Skipf("the image test runs with %s=1 (make test-dataplane)", EnableEnv)
	}
	if os.Geteuid() != 0 {
		t.Fatal("the image test runs podman as root")
	}
	for _, c := range []string{"podman", "runc"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s missing: apt-get install -y podman runc", c)
		}
	}
	tarball := os.Getenv("SLICEKIT_IMAGE_TAR")
	if tarball == "" {
		root, err := testenv.RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		tarball = filepath.Join(root, "bin", "slicekit-image.tar")
	}
	if _, err := os.Stat(tarball); err != nil {
		t.Fatalf("%s missing: run `make image` (make test-dataplane does)", tarball)
	}

	store := t.TempDir()
	podman := func(args ...string) (string, error) {
		all := append([]string{"--root", filepath.Join(store, "root"), "--runroot", filepath.Join(store, "run"),
			"--storage-driver", "vfs", "--runtime", "runc", "--cgroup-manager", "cgroupfs", "--events-backend", "none"}, args...)
		out, err := exec.Command("podman", all...).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	start := time.Now()
	out, err := podman("load", "-i", tarball)
	if err != nil {
		t.Fatalf("podman load: %v: %s", err, out)
	}
	m := regexp.MustCompile(`Loaded image(?:\(s\))?: (\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("podman load named no image: %s", out)
	}
	image := m[1]
	t.Logf("podman loaded %s in %v", image, time.Since(start).Round(time.Millisecond))

	env := testenv.StartEnv(t)
	ctx := context.Background()
	ns := testenv.Namespace(t, env.Client)
	svc := &corev1.Service{
		TypeMeta:   metav1.TypeMeta{Kind: "Service", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(podPort)}}},
	}
	pod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: ns, Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{NodeName: "node-a", Containers: []corev1.Container{{Name: "c", Image: "example.invalid/c"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.244.0.10", PodIPs: []corev1.PodIP{{IP: "10.244.0.10"}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	// The Pod's Node must exist: like KCM, slicekit leaves out Pods on
	// unknown Nodes.
	node := &corev1.Node{TypeMeta: metav1.TypeMeta{Kind: "Node", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Name: "node-a"}}
	if _, err := localapply.Apply(ctx, env.Client, node, discard{}); err != nil {
		t.Fatal(err)
	}
	if _, err := localapply.Apply(ctx, env.Client, svc, discard{}); err != nil {
		t.Fatal(err)
	}
	if _, err := localapply.Apply(ctx, env.Client, pod, discard{}); err != nil {
		t.Fatal(err)
	}

	// The kubeconfig is mounted read-only; the image's user must read it.
	kcDir := t.TempDir()
	if err := os.Chmod(kcDir, 0o755); err != nil {
		t.Fatal(err)
	}
	kc := filepath.Join(kcDir, "kubeconfig")
	if err := env.WriteKubeConfig(kc, "slicekit"); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(kc, 0o644); err != nil {
		t.Fatal(err)
	}
	name := "slicekit-dataplane-image-test"
	_, _ = podman("rm", "-f", name)
	start = time.Now()
	out, err = podman("run", "-d", "--name", name,
		"--network=host", "--read-only", "--cap-drop=ALL", "--security-opt=no-new-privileges",
		// podman's default open-files and process limits (for root:
		// 1048576 and 4194304) are above what runc may set on this
		// machine; these are plenty for slicekit.
		"--ulimit=nofile=8192:8192", "--ulimit=nproc=4096:4096",
		"-v", kc+":/etc/slicekit/kubeconfig:ro",
		image, "run",
		"--kubeconfig=/etc/slicekit/kubeconfig",
		"--controllers=endpointslice,endpointslice-mirroring",
		"--leader-elect=true", "--leader-elect-resource-namespace=kube-system", "--leader-elect-resource-name=slicekit-image-test",
		"--metrics-bind-address=0", "--health-probe-bind-address=127.0.0.1:0", "--v=2")
	if err != nil {
		t.Fatalf("podman run: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := podman("logs", "--tail", "40", name)
			t.Logf("container log (tail):\n%s", logs)
		}
		if out, err := podman("rm", "-f", "-t", "5", name); err != nil {
			t.Logf("podman rm: %v: %s", err, out)
		}
	})
	// As the chart's Pod: not root, read-only root filesystem.
	if out, err := podman("inspect", "--format", "{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}", name); err != nil || !strings.HasPrefix(out, "65532") || !strings.HasSuffix(out, "true") {
		t.Errorf("container user and read-only root: %q (%v), want 65532… true", out, err)
	}

	deadline := time.Now().Add(60 * time.Second)
	for {
		l, err := env.Client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=web"})
		if err == nil && len(l.Items) == 1 && len(l.Items[0].Endpoints) == 1 &&
			l.Items[0].Labels[discovery.LabelManagedBy] == "endpointslice-controller.k8s.io" && l.Items[0].Endpoints[0].Addresses[0] == "10.244.0.10" {
			t.Logf("the image, run by podman as the chart runs it, wrote EndpointSlice %s %v after podman run", l.Items[0].Name, time.Since(start).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			state, _ := podman("inspect", "--format", "{{.State.Status}} exit={{.State.ExitCode}}", name)
			t.Fatalf("no EndpointSlice of web from the container within 60s (container %s; slices %v, %v)", state, l, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
