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
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsPlugin(t *testing.T) {
	for _, tc := range []struct {
		argv0 string
		want  bool
	}{
		{"kubectl-slicekit", true},
		{"/usr/local/bin/kubectl-slicekit", true},
		{"/opt/krew/bin/kubectl-slicekit", true},
		{`C:\krew\bin\kubectl-slicekit.exe`, true},
		{"kubectl-slicekit.EXE", true},
		{"slicekit", false},
		{"./bin/slicekit", false},
		{"/tmp/go-build123/b001/exe/slicekit", false},
		{"kubectl-slicekit-dev", false},
		{"kubectl-slicekit.sh", false},
		{"/opt/kubectl-slicekit/slicekit", false},
		{"", false},
	} {
		if got := IsPlugin(tc.argv0); got != tc.want {
			t.Errorf("IsPlugin(%q) = %v, want %v", tc.argv0, got, tc.want)
		}
	}
}

// runArgv runs MainArgv in-process.
func runArgv(t *testing.T, argv ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	code = MainArgv(ctx, argv, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

func TestMainArgv(t *testing.T) {
	// A kubeconfig whose contexts point where no API server listens: check
	// must pick the context and namespace given on the command line.
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "config")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters:
- name: nowhere
  cluster: {server: "http://127.0.0.1:1"}
contexts:
- name: current
  context: {cluster: nowhere, namespace: ctx-ns}
- name: other
  context: {cluster: nowhere, namespace: other-ns}
current-context: current
users: []
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	const plugin = "/usr/local/bin/kubectl-slicekit"
	for _, tc := range []struct {
		name       string
		argv       []string
		wantCode   int
		wantStdout []string
		wantStderr []string
	}{
		{name: "plugin version", argv: []string{plugin, "version"}, wantStdout: []string{"slicekit "}},
		{name: "plugin version json", argv: []string{plugin, "version", "-o", "json"}, wantStdout: []string{`"module": "github.com/slicekit/slicekit"`}},
		{name: "plugin help names kubectl slicekit", argv: []string{plugin, "--help"},
			wantStdout: []string{"kubectl slicekit [command]", "check", "render", "version"}},
		{name: "plugin has no run", argv: []string{plugin, "run"}, wantCode: ExitUsage,
			wantStderr: []string{`kubectl slicekit: unknown command "run"`, "Run 'kubectl slicekit --help' for usage."}},
		{name: "plugin without command", argv: []string{plugin}, wantCode: ExitUsage, wantStderr: []string{"a command is required"}},
		{name: "plugin bad flag", argv: []string{plugin, "check", "--bogus"}, wantCode: ExitUsage,
			wantStderr: []string{"kubectl slicekit check: unknown flag: --bogus", "Run 'kubectl slicekit check --help'"}},
		{name: "plugin check help lists kubectl's flags", argv: []string{plugin, "check", "--help"},
			wantStdout: []string{"--kubeconfig", "--context", "-n, --namespace", "-A, --all-namespaces", "--as string", "-s, --server", "--token", "--request-timeout"}},
		{name: "plugin check -n and -A exclude each other", argv: []string{plugin, "check", "-n", "a", "-A"}, wantCode: ExitUsage,
			wantStderr: []string{"--namespace and --all-namespaces are mutually exclusive"}},
		{name: "plugin check -f with --server", argv: []string{plugin, "check", "-f", "x.yaml", "--server", "https://x"}, wantCode: ExitUsage,
			wantStderr: []string{"-f cannot be combined with --server"}},
		{name: "plugin check unknown context", argv: []string{plugin, "check", "--context", "missing"}, wantCode: ExitUsage,
			wantStderr: []string{`context "missing" does not exist`}},
		{name: "plugin check --kubeconfig, --context and -n", argv: []string{plugin, "check", "--kubeconfig", kubeconfig, "--context", "other", "-n", "flag-ns"}, wantCode: ExitUsage,
			wantStderr: []string{"127.0.0.1:1", "flag-ns"}},
		{name: "plugin check context namespace", argv: []string{plugin, "check", "--context=other"}, wantCode: ExitUsage,
			wantStderr: []string{"127.0.0.1:1", "other-ns"}},
		{name: "plugin check --server overrides the context", argv: []string{plugin, "check", "-s", "http://127.0.0.1:2", "-A"}, wantCode: ExitUsage,
			wantStderr: []string{"127.0.0.1:2"}},
		{name: "plugin input error names kubectl slicekit check", argv: []string{plugin, "check", "-f", filepath.Join(dir, "missing.yaml")}, wantCode: ExitUsage,
			wantStderr: []string{"kubectl slicekit check: invalid input: "}},
		{name: "plugin ignored kinds name kubectl slicekit render", argv: []string{plugin, "render", "-f", "testdata/unknown-kind.yaml"}, wantCode: ExitOK,
			wantStderr: []string{"kubectl slicekit render: ignored testdata/unknown-kind.yaml"}},
		{name: "slicekit keeps run", argv: []string{"slicekit", "run", "--help"}, wantStdout: []string{"slicekit run [flags]", "--preflight"}},
		{name: "slicekit help", argv: []string{"./bin/slicekit", "--help"}, wantStdout: []string{"slicekit [command]", "run"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runArgv(t, tc.argv...)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tc.wantCode, stdout, stderr)
			}
			for _, w := range tc.wantStdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tc.wantStderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}
