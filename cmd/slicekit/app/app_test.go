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

package app

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/test/harness/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	// Each render applies the (default) logging configuration again.
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
	// The live comparison (live_test.go) shares a real control plane.
	testenv.Main(m)
}

// runMain runs the CLI in-process and returns its exit code and output.
func runMain(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	code = Main(ctx, args, Streams{In: strings.NewReader(stdin), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{name: "no command", args: nil, wantCode: ExitUsage, wantStderr: "a command is required"},
		{name: "unknown command", args: []string{"rnu"}, wantCode: ExitUsage, wantStderr: `unknown command "rnu"; did you mean "run"?`},
		{name: "unknown root flag", args: []string{"--bogus"}, wantCode: ExitUsage, wantStderr: "unknown flag: --bogus"},
		{name: "help", args: []string{"--help"}, wantCode: ExitOK},
		{name: "run help", args: []string{"run", "--help"}, wantCode: ExitOK},
		{name: "version", args: []string{"version"}, wantCode: ExitOK},
		{name: "version json", args: []string{"version", "-o", "json"}, wantCode: ExitOK},
		{name: "version bad output", args: []string{"version", "-o", "xml"}, wantCode: ExitUsage, wantStderr: "--output must be text or json"},
		{name: "version args", args: []string{"version", "extra"}, wantCode: ExitUsage, wantStderr: "unexpected arguments"},
		{name: "check unknown flag", args: []string{"check", "--anything"}, wantCode: ExitUsage, wantStderr: "unknown flag: --anything"},
		{name: "check malformed dump", args: []string{"check", "-f", "testdata/malformed.yaml"}, wantCode: ExitUsage, wantStderr: "malformed.yaml"},
		{name: "check stale default slice of a delegated Service", args: []string{"check", "-f", "testdata/check-stale.yaml"}, wantCode: ExitFailure, wantStderr: "slicekit check: found errors"},

		{name: "run unknown flag", args: []string{"run", "--nope"}, wantCode: ExitUsage, wantStderr: "slicekit run: unknown flag: --nope"},
		{name: "run bad flag value", args: []string{"run", "--max-endpoints-per-slice=many"}, wantCode: ExitUsage, wantStderr: "invalid argument"},
		{name: "run out of range", args: []string{"run", "--max-endpoints-per-slice=1001"}, wantCode: ExitUsage, wantStderr: "--max-endpoints-per-slice=1001 must be between 1 and 1000"},
		{name: "run syncs", args: []string{"run", "--concurrent-service-endpoint-syncs=0"}, wantCode: ExitUsage, wantStderr: "--concurrent-service-endpoint-syncs=0"},
		{name: "run unknown controller", args: []string{"run", "--controllers=*,bogus"}, wantCode: ExitUsage, wantStderr: "unknown controller(s) bogus"},
		{name: "run unknown gate", args: []string{"run", "--feature-gates=Nope=true"}, wantCode: ExitUsage, wantStderr: "unrecognized feature gate: Nope"},
		{name: "run lease", args: []string{"run", "--leader-elect-renew-deadline=20s"}, wantCode: ExitUsage, wantStderr: "--leader-elect-lease-duration=15s must be greater than"},
		{name: "run bind address", args: []string{"run", "--metrics-bind-address=nope"}, wantCode: ExitUsage, wantStderr: "--metrics-bind-address"},
		{name: "run args", args: []string{"run", "extra"}, wantCode: ExitUsage, wantStderr: "unexpected arguments"},
		{name: "run log format", args: []string{"run", "--logging-format=xml"}, wantCode: ExitUsage, wantStderr: "format"},
		{name: "run every error at once", args: []string{"run", "--max-endpoints-per-slice=0", "--controllers=x"}, wantCode: ExitUsage,
			wantStderr: "--controllers: unknown controller(s) x"},
		{name: "run without cluster", args: []string{"run", "--kubeconfig=/nonexistent/kubeconfig", "--metrics-bind-address=0", "--health-probe-bind-address=0"},
			wantCode: ExitUsage, wantStderr: "loading --kubeconfig /nonexistent/kubeconfig"},

		{name: "render without file", args: []string{"render"}, wantCode: ExitUsage, wantStderr: "at least one -f FILE is required"},
		{name: "render in one writing pass", args: []string{"render", "-f", "../../../examples", "--max-passes", "1"}, wantCode: ExitOK},
		{name: "render with no pass", args: []string{"render", "-f", "../../../examples", "--max-passes", "0"}, wantCode: ExitUsage,
			wantStderr: "--max-passes=0 must be at least 1"},
		{name: "render bad flag", args: []string{"render", "-f", "x.yaml", "--max-endpoints-per-slice=0"}, wantCode: ExitUsage, wantStderr: "--max-endpoints-per-slice=0"},
		{name: "render run-only flag", args: []string{"render", "-f", "x.yaml", "--leader-elect=false"}, wantCode: ExitUsage, wantStderr: "unknown flag: --leader-elect"},
		{name: "render missing file", args: []string{"render", "-f", "testdata/nope.yaml"}, wantCode: ExitUsage, wantStderr: "testdata/nope.yaml: stat testdata/nope.yaml: no such file or directory"},
		{name: "render malformed", args: []string{"render", "-f", "testdata/malformed.yaml"}, wantCode: ExitUsage,
			wantStderr: "slicekit render: invalid input: testdata/malformed.yaml: document 2: Service: unknown field \"spec.selektor\""},
		{name: "render unknown kind", args: []string{"render", "-f", "testdata/unknown-kind.yaml"}, wantCode: ExitOK,
			wantStderr: "slicekit render: ignored testdata/unknown-kind.yaml document 3: apps/v1 Deployment ns-a/web: not a kind slicekit reads (EndpointSlice, Endpoints, Namespace, Node, Pod, ResourceClaim, Service)"},
		{name: "check unknown kind", args: []string{"check", "-f", "testdata/unknown-kind.yaml"}, wantCode: ExitOK,
			wantStderr: "slicekit check: ignored testdata/unknown-kind.yaml document 3: apps/v1 Deployment ns-a/web: not a kind slicekit reads (EndpointSlice, Endpoints, Namespace, Node, Pod, ResourceClaim, Service)"},
		{name: "render CELProfiles by mistake", args: []string{"render", "-f", "../../../examples/cel/profiles.yaml"}, wantCode: ExitOK,
			wantStderr: "slicekit render: ignored ../../../examples/cel/profiles.yaml document 1: slicekit.dev/v1alpha1 CELProfiles"},
		{name: "render invalid selector", args: []string{"render", "-f", "testdata/invalid.yaml"}, wantCode: ExitUsage,
			wantStderr: "slicekit render: invalid input:\n  testdata/invalid.yaml: document 1: Service ns-a/web: spec.selector: Invalid value: \"app web\""},
		{name: "render invalid pod ports and IP", args: []string{"render", "-f", "testdata/invalid.yaml"}, wantCode: ExitUsage,
			wantStderr: "testdata/invalid.yaml: document 2: Pod ns-a/web-1: spec.containers[0].ports[0].name: Invalid value: \"http_port\""},
		{name: "render invalid pod IP", args: []string{"render", "-f", "testdata/invalid.yaml"}, wantCode: ExitUsage,
			wantStderr: "testdata/invalid.yaml: document 2: Pod ns-a/web-1: status.podIP: Invalid value: \"10.244.0.300\""},
		{name: "check invalid", args: []string{"check", "-f", "testdata/invalid.yaml"}, wantCode: ExitUsage,
			wantStderr: "slicekit check: invalid input:\n  testdata/invalid.yaml: document 1: Service ns-a/web: spec.selector: Invalid value: \"app web\""},
		{name: "render bad ip families", args: []string{"render", "-f", "x", "--service-ip-families=IPv5"}, wantCode: ExitUsage, wantStderr: "--service-ip-families"},
		{name: "check examples", args: []string{"check", "-f", "../../../examples/"}, wantCode: ExitOK, wantStderr: ""},
		{name: "render max passes", args: []string{"render", "-f", "x", "--max-passes=0"}, wantCode: ExitUsage, wantStderr: "--max-passes=0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runMain(t, "", tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit code = %d, want %d; stderr:\n%s", code, tc.wantCode, stderr)
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr does not contain %q:\n%s", tc.wantStderr, stderr)
			}
			if tc.wantCode == ExitUsage && !strings.Contains(stderr, "slicekit") {
				t.Errorf("stderr does not name the command:\n%s", stderr)
			}
		})
	}
}

// TestNoKubeconfig: check and run without any kubeconfig say so, and how
// to give one, instead of client-go's KUBERNETES_MASTER hint.
func TestNoKubeconfig(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	code, _, stderr := runMain(t, "", "check")
	want := "slicekit check: kubeconfig: no kubeconfig found: give --kubeconfig FILE, set $KUBECONFIG or create ~/.kube/config"
	if code != ExitUsage || !strings.Contains(stderr, want) || strings.Contains(stderr, "KUBERNETES_MASTER") {
		t.Errorf("check: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
	// kubectl's loading rules skip a missing $KUBECONFIG file silently;
	// check names it.
	missing := filepath.Join(t.TempDir(), "nope")
	t.Setenv("KUBECONFIG", missing)
	code, _, stderr = runMain(t, "", "check")
	want = "slicekit check: kubeconfig: no kubeconfig found ($KUBECONFIG names " + missing + ", which does not exist): give --kubeconfig FILE"
	if code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("check with a missing $KUBECONFIG: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
	t.Setenv("KUBECONFIG", "")
	code, _, stderr = runMain(t, "", "run", "--metrics-bind-address=0", "--health-probe-bind-address=0")
	want = "slicekit run: no kubeconfig: give --kubeconfig FILE"
	if code != ExitUsage || !strings.Contains(stderr, want) || !strings.Contains(stderr, "does not read $KUBECONFIG") {
		t.Errorf("run: exit %d, stderr %q; want 2 and %q, naming $KUBECONFIG", code, stderr, want)
	}
	code, _, stderr = runMain(t, "", "run", "--kubeconfig", filepath.Join(t.TempDir(), "missing"), "--metrics-bind-address=0", "--health-probe-bind-address=0")
	if code != ExitUsage || !strings.Contains(stderr, "slicekit run: loading --kubeconfig") {
		t.Errorf("run --kubeconfig MISSING: exit %d, stderr %q; want 2 and a message naming --kubeconfig", code, stderr)
	}
}

// TestRunLogsFlagsOnceStarted: run logs its flags once its configuration
// holds, not before the error that stops it (no kubeconfig, a port in
// use); the start line with the version comes first all the same.
func TestRunLogsFlagsOnceStarted(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	for _, tc := range []struct {
		name      string
		args      []string
		wantFlags bool
	}{
		{name: "no kubeconfig", args: []string{"run", "--metrics-bind-address=0", "--health-probe-bind-address=0"}},
		{name: "kubeconfig missing", args: []string{"run", "--kubeconfig", filepath.Join(t.TempDir(), "missing"), "--metrics-bind-address=0", "--health-probe-bind-address=0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			logger := funcr.New(func(prefix, args string) { fmt.Fprintln(&logs, prefix, args) }, funcr.Options{})
			var out, errOut bytes.Buffer
			code := Main(klog.NewContext(t.Context(), logger), tc.args, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
			if code != ExitUsage {
				t.Errorf("exit %d, want %d; stderr: %s", code, ExitUsage, errOut.String())
			}
			if got := strings.Contains(logs.String(), "Effective flags"); got != tc.wantFlags {
				t.Errorf("flags logged: %t, want %t; logs:\n%s", got, tc.wantFlags, logs.String())
			}
			if !strings.Contains(logs.String(), "Starting slicekit") {
				t.Errorf("no start line with the version; logs:\n%s", logs.String())
			}
		})
	}
}

// TestCheckRenderOutput: the examples' hand-written objects check without
// errors (the two selector Services have no slice yet: slices-missing
// warnings, since no controller ran), and `render --with-inputs` prints a
// complete state that `check -f -` accepts without findings.
func TestCheckRenderOutput(t *testing.T) {
	code, out, stderr := runMain(t, "", "check", "-f", "../../../examples")
	if code != ExitOK || !strings.Contains(out, "0 errors, 2 warnings: 1 EndpointSlice of 4 Services") ||
		strings.Count(out, "slices-missing  Service demo/") != 2 {
		t.Errorf("check -f examples/: exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	code, state, stderr := runMain(t, "", "render", "--with-inputs", "-f", "../../../examples")
	if code != ExitOK {
		t.Fatalf("render --with-inputs: exit %d: %s", code, stderr)
	}
	code, out, stderr = runMain(t, state, "check", "-f", "-")
	if code != ExitOK || !strings.HasPrefix(out, "No findings: 5 EndpointSlices of 4 Services") || stderr != "" {
		t.Errorf("render --with-inputs | check -f -: exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	// The state renders to itself: the inputs and slices given back.
	assertRendersToItself(t, state)
}

// TestRenderWithoutNodes: on a dump without Nodes render publishes the
// Pods as the cluster would (it makes up their Nodes, and says so), its
// --with-inputs state checks clean and renders to itself, and render notes
// a Pod without IP and a Service labelled for a controller not enabled.
func TestRenderWithoutNodes(t *testing.T) {
	code, state, stderr := runMain(t, "", "render", "--with-inputs", "-f", "testdata/render-no-nodes.yaml")
	if code != ExitOK {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"slicekit render: note: the input has no Nodes: rendering as if the 2 Node(s) its Pods name exist (node-a, node-b)",
		"slicekit render: note: 1 Pod(s) have no IP in their status (not started yet, or the dump lacks status): no controller publishes them: default/web-3",
		`slicekit render: note: Service default/fabric is labelled service.kubernetes.io/endpoint-controller-name="secondary.example.com" (KEP-4770)`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	for _, want := range []string{"ip: 10.0.0.1", "- 10.0.0.1\n", "- 10.0.0.2\n", "render.slicekit.dev/stub-node:"} {
		if !strings.Contains(state, want) {
			t.Errorf("render output lacks %q:\n%s", want, state)
		}
	}
	code, out, stderr := runMain(t, state, "check", "-f", "-")
	if code != ExitOK || !strings.HasPrefix(out, "No findings:") {
		t.Errorf("render --with-inputs | check -f -: exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	assertRendersToItself(t, state)
	// Without --with-inputs the Pods are compact records as they are read:
	// the same notes and slices.
	code, slicesOnly, stderr := runMain(t, "", "render", "-f", "testdata/render-no-nodes.yaml")
	if code != ExitOK || !strings.Contains(stderr, "rendering as if the 2 Node(s) its Pods name exist (node-a, node-b)") ||
		!strings.Contains(stderr, "1 Pod(s) have no IP in their status") || !strings.Contains(state, slicesOnly) {
		t.Errorf("render without --with-inputs: exit %d, stdout:\n%s\nstderr:\n%s", code, slicesOnly, stderr)
	}
	// With the secondary-network controller enabled under that name, the
	// labelled Service gets its slices and no note.
	// Its Warning event is a warning line (cmd/slicekit TestRenderStderr:
	// and not also a klog line).
	code, _, stderr = runMain(t, "", "render", "--controllers=*,secondary-network", "--secondary-network-controller-name=secondary.example.com", "-f", "testdata/render-no-nodes.yaml")
	if code != ExitOK || strings.Contains(stderr, "Service default/fabric is labelled") ||
		!strings.Contains(stderr, "slicekit render: warning: event on Service default/fabric: ServiceNetworkMissing: ") {
		t.Errorf("render with the secondary-network controller: exit %d, stderr:\n%s", code, stderr)
	}
}

// assertRendersToItself checks that `render --with-inputs` of state (its
// own output) gives state back.
func assertRendersToItself(t *testing.T, state string) {
	t.Helper()
	code, again, stderr := runMain(t, state, "render", "--with-inputs", "-f", "-")
	if code != ExitOK {
		t.Fatalf("render of the state: exit %d: %s", code, stderr)
	}
	if d := cmp.Diff(state, again); d != "" {
		t.Errorf("render --with-inputs of its own output changed it (-first +second):\n%s", d)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runMain(t, "", "version")
	if code != ExitOK || !strings.HasPrefix(stdout, "slicekit ") || !strings.Contains(stdout, "go:") {
		t.Errorf("exit %d, output:\n%s", code, stdout)
	}
}

// goldens are render runs whose output is kept in testdata/<name>.golden.yaml
// (go test ./cmd/slicekit/app -update rewrites them).
var goldens = []struct {
	name string
	args []string
}{
	{"examples", []string{"-f", "../../../examples/00-namespace-and-node.yaml", "-f", "../../../examples/10-plain-service.yaml",
		"-f", "../../../examples/20-delegated-service.yaml", "-f", "../../../examples/30-dual-stack-service.yaml", "-f", "../../../examples/40-mirrored-endpoints.yaml"}},
	{"examples-gate-off", []string{"--feature-gates=ExternalEndpointController=false",
		"-f", "../../../examples/00-namespace-and-node.yaml", "-f", "../../../examples/10-plain-service.yaml", "-f", "../../../examples/20-delegated-service.yaml"}},
	{"examples-named-controller", []string{"--controller-name=custom-ctrl.example.com",
		"-f", "../../../examples/00-namespace-and-node.yaml", "-f", "../../../examples/10-plain-service.yaml", "-f", "../../../examples/20-delegated-service.yaml"}},
	{"packing", []string{"-f", "testdata/packing.yaml", "--max-endpoints-per-slice=2"}},
	{"handover", []string{"-f", "testdata/handover.yaml"}},
}

// TestRenderDirectory renders the examples directory: its top-level YAML
// files in name order, the same input as the "examples" golden's list.
func TestRenderDirectory(t *testing.T) {
	code, stdout, stderr := runMain(t, "", "render", "-f", "../../../examples")
	if code != ExitOK {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "examples.golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), stdout); d != "" {
		t.Errorf("render -f examples/ differs from the examples golden (-want +got):\n%s", d)
	}
}

func TestRenderGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, "", append([]string{"render"}, g.args...)...)
			if code != ExitOK {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
			}
			path := filepath.Join("testdata", g.name+".golden.yaml")
			if *update {
				if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if d := cmp.Diff(string(want), stdout); d != "" {
				t.Errorf("render output differs from %s (-want +got); rerun with -update if intended:\n%s", path, d)
			}

			// Rendering twice changes nothing: the output, given with the
			// input's other objects, renders to itself.
			inputs := inputFiles(g.args)
			var nonSlices bytes.Buffer
			for _, f := range inputs {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				nonSlices.Write(withoutSlices(t, b))
				nonSlices.WriteString("\n---\n")
			}
			args := append(flagsOnly(g.args), "-f", "-", "-f", path)
			code, again, stderr := runMain(t, nonSlices.String(), append([]string{"render"}, args...)...)
			if code != ExitOK {
				t.Fatalf("second render: exit code %d; stderr:\n%s", code, stderr)
			}
			if d := cmp.Diff(stdout, again); d != "" {
				t.Errorf("second render changed the output (-first +second):\n%s", d)
			}
		})
	}
}

func TestRenderStdin(t *testing.T) {
	in, err := os.ReadFile("testdata/packing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, fromStdin, stderr := runMain(t, string(in), "render", "-f", "-", "--max-endpoints-per-slice=2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, fromFile, _ := runMain(t, "", "render", "-f", "testdata/packing.yaml", "--max-endpoints-per-slice=2")
	if fromStdin != fromFile {
		t.Errorf("stdin and file renders differ:\n%s\n---\n%s", fromStdin, fromFile)
	}
}

// inputFiles returns the -f values of args.
func inputFiles(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "-f" && i+1 < len(args) {
			out = append(out, args[i+1])
			i++
		}
	}
	return out
}

// flagsOnly returns args without the -f pairs.
func flagsOnly(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "-f" {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// withoutSlices drops the EndpointSlice documents of a YAML file (they are
// in the golden output).
func withoutSlices(t *testing.T, b []byte) []byte {
	t.Helper()
	var kept []string
	for _, doc := range strings.Split(string(b), "\n---\n") {
		if strings.Contains(doc, "\nkind: EndpointSlice\n") || strings.HasPrefix(doc, "kind: EndpointSlice\n") {
			continue
		}
		kept = append(kept, doc)
	}
	return []byte(strings.Join(kept, "\n---\n"))
}
