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

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// binaries builds slicekit into a temporary directory that also holds
// kubectl-slicekit, a symbolic link to it, as `make install-plugin`'s
// alternative `ln -s` and krew install it. The build cache makes the builds
// after the first cheap.
func binaries(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "slicekit"), ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := os.Symlink("slicekit", filepath.Join(dir, "kubectl-slicekit")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// exe runs name (a path, or a program on PATH) with args and the extra
// environment, and returns its exit code and output.
func exe(t *testing.T, env []string, name string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	default:
		t.Fatalf("running %s: %v", name, err)
	}
	return code, out.String(), errOut.String()
}

// TestRenderStderr: at -v=0 render's standard error holds its own notes
// and warnings only; what the controllers log (a skipped Pod, a Warning
// event) is not printed a second time in klog's format. With -v=2 it is.
func TestRenderStderr(t *testing.T) {
	dir := binaries(t)
	args := []string{"render", "--controllers=*,secondary-network", "--secondary-network-controller-name=secondary.example.com",
		"-f", "app/testdata/render-no-nodes.yaml", "-f", "../../examples/00-namespace-and-node.yaml"}
	klogLine := regexp.MustCompile(`(?m)^[IWE]\d{4} `)
	code, _, stderr := exe(t, nil, filepath.Join(dir, "slicekit"), args...)
	if code != 0 || klogLine.MatchString(stderr) || !strings.Contains(stderr, "slicekit render: warning: event on Service default/fabric: ServiceNetworkMissing") {
		t.Errorf("render: exit %d, stderr (want warnings and no klog lines):\n%s", code, stderr)
	}
	code, _, stderr = exe(t, nil, filepath.Join(dir, "slicekit"), append(args, "-v=2")...)
	if code != 0 || !klogLine.MatchString(stderr) {
		t.Errorf("render -v=2: exit %d, stderr (want klog lines):\n%s", code, stderr)
	}
}

func TestPluginVersion(t *testing.T) {
	dir := binaries(t)
	plugin := filepath.Join(dir, "kubectl-slicekit")
	code, stdout, stderr := exe(t, nil, plugin, "version")
	if code != 0 || !strings.HasPrefix(stdout, "slicekit ") {
		t.Errorf("kubectl-slicekit version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = exe(t, nil, plugin, "run")
	if code != 2 || !strings.Contains(stderr, `kubectl slicekit: unknown command "run"`) {
		t.Errorf("kubectl-slicekit run: exit %d, stderr %q; the plugin has no run", code, stderr)
	}
	code, stdout, _ = exe(t, nil, filepath.Join(dir, "slicekit"), "--help")
	if code != 0 || !strings.Contains(stdout, "slicekit [command]") || !strings.Contains(stdout, "run ") {
		t.Errorf("slicekit --help: exit %d, stdout %q", code, stdout)
	}

	// Through kubectl's plugin mechanism, when kubectl is installed.
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Log("kubectl is not on PATH: skipping `kubectl slicekit version`")
		return
	}
	path := "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
	code, stdout, stderr = exe(t, []string{path}, "kubectl", "slicekit", "version")
	if code != 0 || !strings.HasPrefix(stdout, "slicekit ") {
		t.Errorf("kubectl slicekit version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// writeKubeconfig writes a kubeconfig with the context "testenv" (the test
// API server, as admin or, with impersonate, as that user) and the current
// context "elsewhere", where no API server listens.
func writeKubeconfig(t *testing.T, env *testenv.Env, impersonate string) string {
	t.Helper()
	data, err := env.KubeConfig("testenv")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AuthInfos["testenv"].Impersonate = impersonate
	cfg.Clusters["elsewhere"] = &clientcmdapi.Cluster{Server: "http://127.0.0.1:1"}
	cfg.Contexts["elsewhere"] = &clientcmdapi.Context{Cluster: "elsewhere", AuthInfo: "testenv", Namespace: "default"}
	cfg.CurrentContext = "elsewhere"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPluginCheck runs `kubectl-slicekit check` (and `kubectl slicekit
// check`) against the test API server with --kubeconfig, --context and -n
// or -A: an orphan slice in one namespace is found there and with -A, not
// in another namespace.
func TestPluginCheck(t *testing.T) {
	dir := binaries(t)
	env := testenv.Shared(t)
	bad := testenv.Namespace(t, env.Client)
	clean := testenv.Namespace(t, env.Client)
	slice := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "gone-abc", Namespace: bad, Labels: map[string]string{
			discovery.LabelServiceName: "gone",
			discovery.LabelManagedBy:   "endpointslice-controller.k8s.io",
		}},
		AddressType: discovery.AddressTypeIPv4,
	}
	if _, err := env.Client.DiscoveryV1().EndpointSlices(bad).Create(t.Context(), slice, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	kubeconfig := writeKubeconfig(t, env, "")
	plugin := filepath.Join(dir, "kubectl-slicekit")
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{name: "-n with the orphan", args: []string{"--context", "testenv", "-n", bad}, wantCode: 1,
			want: []string{"orphan-slice", "EndpointSlice " + bad + "/gone-abc", "(namespace " + bad + ")"}},
		{name: "-n without it", args: []string{"--context", "testenv", "-n", clean}, want: []string{"No findings", "(namespace " + clean + ")"}},
		{name: "--namespace= and --context=", args: []string{"--context=testenv", "--namespace=" + bad}, wantCode: 1, want: []string{"orphan-slice"}},
		{name: "-A", args: []string{"--context", "testenv", "-A"}, wantCode: 1, want: []string{"EndpointSlice " + bad + "/gone-abc", "(all namespaces)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"check", "--kubeconfig", kubeconfig}, tc.args...)
			code, stdout, stderr := exe(t, nil, plugin, args...)
			if code != tc.wantCode {
				t.Errorf("kubectl-slicekit %q: exit %d, want %d\nstdout: %s\nstderr: %s", args, code, tc.wantCode, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
	// Without --context the current context, where nothing listens, is used.
	if code, _, stderr := exe(t, nil, plugin, "check", "--kubeconfig", kubeconfig, "-n", bad); code != 2 || !strings.Contains(stderr, "127.0.0.1:1") {
		t.Errorf("check with the current context: exit %d, stderr %q; want 2 naming 127.0.0.1:1", code, stderr)
	}
	// KUBECONFIG and kubectl's plugin mechanism.
	if _, err := exec.LookPath("kubectl"); err == nil {
		environ := []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), "KUBECONFIG=" + kubeconfig}
		code, stdout, stderr := exe(t, environ, "kubectl", "slicekit", "check", "--context", "testenv", "-n", bad)
		if code != 1 || !strings.Contains(stdout, "EndpointSlice "+bad+"/gone-abc") {
			t.Errorf("kubectl slicekit check: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	}
}

// TestRunPreflightExitCode runs `slicekit run` as a user without any RBAC
// binding: the permission preflight stops it with exit status 2 and names
// the missing rules.
func TestRunPreflightExitCode(t *testing.T) {
	dir := binaries(t)
	env := testenv.Shared(t)
	kubeconfig := writeKubeconfig(t, env, "system:serviceaccount:nowhere:nobody")
	// slicekit run reads --kubeconfig's current context.
	cfg, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.CurrentContext = "testenv"
	if err := clientcmd.WriteToFile(*cfg, kubeconfig); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := exe(t, nil, filepath.Join(dir, "slicekit"), "run", "--kubeconfig", kubeconfig,
		"--leader-elect-resource-namespace=default", "--metrics-bind-address=0", "--health-probe-bind-address=0")
	if code != 2 {
		t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"the API server denies system:serviceaccount:nowhere:nobody",
		`controller "endpointslice" cannot get, list, watch services in all namespaces: add the rule {apiGroups: [""], resources: [services], verbs: [get, list, watch]} to a ClusterRole bound to system:serviceaccount:nowhere:nobody`,
		`leader election cannot get, create, update leases.coordination.k8s.io in namespace default: add the rule {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, create, update]} to a Role in namespace default`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
