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

package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2/ktesting"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

func kindOf(o runtime.Object) (schema.GroupVersionKind, error) {
	kinds, _, err := scheme.Scheme.ObjectKinds(o)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return kinds[0], nil
}

// writeFixture writes the fixture's objects as a multi-document YAML file.
func writeFixture(t *testing.T, f *fixture) string {
	t.Helper()
	var b bytes.Buffer
	for _, o := range f.objects() {
		gvk, err := kindOf(o)
		if err != nil {
			t.Fatal(err)
		}
		o.GetObjectKind().SetGroupVersionKind(gvk)
		y, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	p := filepath.Join(t.TempDir(), "dump.yaml")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeNamespace writes a file holding the Namespace name.
func writeNamespace(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "namespace.yaml")
	if err := os.WriteFile(p, []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRun(t *testing.T) {
	clean := newFixture()
	broken := newFixture()
	broken.web.Labels = map[string]string{"service.kubernetes.io/endpoint-controller-name": custom}
	warnOnly := newFixture()
	warnOnly.slice.Endpoints[0].Zone = nil

	tests := []struct {
		name     string
		opts     func(o *Options)
		wantCode int
		wantErr  string
		wantOut  []string
	}{
		{
			name:     "clean dump",
			opts:     func(o *Options) { o.Files = []string{writeFixture(t, clean)} },
			wantCode: ExitOK,
			wantOut:  []string{"No findings: 2 EndpointSlices of 3 Services checked (read 1 Pod, 1 Node, 1 Endpoints object) from "},
		},
		{
			name:     "errors exit 1",
			opts:     func(o *Options) { o.Files = []string{writeFixture(t, broken)} },
			wantCode: ExitFindings,
			wantOut: []string{
				"SEVERITY  RULE                     OBJECT                    REASON\n",
				"error     delegated-builtin-slice  EndpointSlice ns/web-abc  stale: Service web is labelled",
				"1 error, 0 warnings: ",
			},
		},
		{
			name:     "warnings alone exit 0",
			opts:     func(o *Options) { o.Files = []string{writeFixture(t, warnOnly)} },
			wantCode: ExitOK,
			wantOut:  []string{"warning   endpoint-zone", "0 errors, 1 warning: "},
		},
		{
			name: "namespace filter on a dump",
			opts: func(o *Options) {
				o.Files = []string{writeFixture(t, broken), writeNamespace(t, "elsewhere")}
				o.Namespace = "elsewhere"
			},
			wantCode: ExitOK,
			wantOut:  []string{"No findings: 0 EndpointSlices of 0 Services checked", "(namespace elsewhere)"},
		},
		{
			name:     "namespace the dump lacks",
			opts:     func(o *Options) { o.Files = []string{writeFixture(t, broken)}; o.Namespace = "elsewhere" },
			wantCode: ExitUsage,
			wantErr:  `namespace "elsewhere" does not exist in the input`,
		},
		{
			name:     "json",
			opts:     func(o *Options) { o.Files = []string{writeFixture(t, broken)}; o.Output = OutputJSON },
			wantCode: ExitFindings,
			wantOut:  []string{`"rule": "delegated-builtin-slice"`, `"errors": 1`},
		},
		{
			name:     "list rules",
			opts:     func(o *Options) { o.ListRules = true },
			wantCode: ExitOK,
			wantOut:  []string{"RULE ", "delegated-builtin-slice", "endpoint-zone"},
		},
		{name: "bad output", opts: func(o *Options) { o.Files = []string{"x"}; o.Output = "yaml" }, wantCode: ExitUsage, wantErr: `--output "yaml"`},
		{name: "files and kubeconfig", opts: func(o *Options) { o.Files = []string{"x"}; o.Kubeconfig = "k" }, wantCode: ExitUsage, wantErr: "-f cannot be combined"},
		{name: "namespace and all", opts: func(o *Options) { o.Namespace = "a"; o.AllNamespaces = true }, wantCode: ExitUsage, wantErr: "mutually exclusive"},
		{name: "bad controller name", opts: func(o *Options) { o.DefaultControllerName = "a b" }, wantCode: ExitUsage, wantErr: `--controller-name "a b" is not a label value`},
		{name: "missing file", opts: func(o *Options) { o.Files = []string{"/nonexistent.yaml"} }, wantCode: ExitUsage, wantErr: "/nonexistent.yaml"},
		{name: "invalid file", opts: func(o *Options) { o.Files = []string{"-"}; o.Stdin = strings.NewReader("kind: Pod\n") }, wantCode: ExitUsage, wantErr: "<stdin>: document 1"},
		{
			name:     "unreachable cluster",
			opts:     func(o *Options) { o.Kubeconfig = writeKubeconfig(t, "https://127.0.0.1:1") },
			wantCode: ExitUsage,
			wantErr:  "cluster: listing EndpointSlices",
		},
		{
			name:     "unreadable kubeconfig",
			opts:     func(o *Options) { o.Kubeconfig = "/nonexistent/kubeconfig" },
			wantCode: ExitUsage,
			wantErr:  "kubeconfig",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			o := newBuiltinOptions()
			tc.opts(o)
			var out bytes.Buffer
			code, err := Run(ctx, *o, &out)
			if code != tc.wantCode {
				t.Errorf("exit code = %d, want %d (err %v)\n%s", code, tc.wantCode, err, out.String())
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if o.Output == OutputJSON {
				var doc map[string]any
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
					t.Errorf("output is not JSON: %v", err)
				}
			}
		})
	}
}

func TestUsageErrorType(t *testing.T) {
	o := newBuiltinOptions()
	o.Output = "x"
	var ue *UsageError
	if err := o.Validate(); !errors.As(err, &ue) {
		t.Errorf("Validate() = %v, want *UsageError", err)
	}
}

func writeKubeconfig(t *testing.T, server string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "` + server + `", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: ns}}]
current-context: c
`
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAddFlags(t *testing.T) {
	o := newBuiltinOptions()
	fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
	o.AddFlags(fs)
	err := fs.Parse([]string{"-f", "a.yaml", "-f", "b.yaml", "-n", "ns", "-o", "json",
		"--controller-name", "d.example.com", "--mirroring-controller-name", "m.example.com", "--context", "c", "--kubeconfig", "k", "-A", "--list-rules",
		"--max-endpoints-per-slice", "7", "--mirroring-max-endpoints-per-subset", "9", "--secondary-network-controller-name", "s.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	want := Options{
		Config: Config{DefaultControllerName: "d.example.com", MirroringControllerName: "m.example.com",
			MaxEndpointsPerSlice: 7, MirroringMaxEndpointsPerSubset: 9},
		Files: []string{"a.yaml", "b.yaml"}, Kubeconfig: "k", Context: "c", Namespace: "ns", AllNamespaces: true, Output: OutputJSON, ListRules: true,
	}
	if d := cmp.Diff(want, *o, cmpopts.IgnoreUnexported(Options{}), cmpopts.IgnoreFields(Options{}, "Controllers")); d != "" {
		t.Errorf("options (-want +got):\n%s", d)
	}
	// The controllers' own flags name their oracles.
	wantNames := []string{"--dra-network-controller-name=" + wellknown.DRANetworkControllerName, "--secondary-network-controller-name=s.example.com"}
	var gotNames []string
	for _, n := range o.oracleNames() {
		gotNames = append(gotNames, n.Flag+"="+n.Value)
	}
	if !slices.Equal(gotNames, wantNames) {
		t.Errorf("oracle names %v, want %v", gotNames, wantNames)
	}
	// kubectl's other connection flags reach the client configuration.
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	o = newBuiltinOptions()
	fs = pflag.NewFlagSet("check", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse([]string{"-s", "https://api.example:6443", "--as", "jane", "--as-group", "ops", "--token", "t0k", "--insecure-skip-tls-verify", "--request-timeout", "7s"}); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := o.cluster()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://api.example:6443" || cfg.Impersonate.UserName != "jane" || !slices.Equal(cfg.Impersonate.Groups, []string{"ops"}) ||
		cfg.BearerToken != "t0k" || !cfg.Insecure || cfg.Timeout != 7*time.Second {
		t.Errorf("client configuration from kubectl's flags: host %q, impersonate %+v, token %q, insecure %v, timeout %s",
			cfg.Host, cfg.Impersonate, cfg.BearerToken, cfg.Insecure, cfg.Timeout)
	}
	// Defaults.
	o = newBuiltinOptions()
	fs = pflag.NewFlagSet("check", pflag.ContinueOnError)
	o.AddFlags(fs)
	if got := fs.Lookup("controller-name").DefValue; got != wellknown.EndpointSliceControllerName {
		t.Errorf("--controller-name default = %q", got)
	}
	// The flag's old name still works, deprecated.
	o = NewOptions()
	fs = pflag.NewFlagSet("check", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse([]string{"--default-controller-name", "old.example.com"}); err != nil || o.DefaultControllerName != "old.example.com" ||
		fs.Lookup("default-controller-name").Deprecated == "" {
		t.Errorf("--default-controller-name: %v, value %q, deprecated %q", err, o.DefaultControllerName, fs.Lookup("default-controller-name").Deprecated)
	}
	if got := fs.Lookup("mirroring-controller-name").DefValue; got != wellknown.MirroringControllerName {
		t.Errorf("--mirroring-controller-name default = %q", got)
	}
	if got := fs.Lookup("output").DefValue; got != OutputText {
		t.Errorf("--output default = %q", got)
	}
}

func TestNewCommand(t *testing.T) {
	broken := newFixture()
	broken.slice.OwnerReferences = nil
	file := writeFixture(t, broken)
	for _, tc := range []struct {
		args     []string
		wantCode int
	}{
		{[]string{"-f", writeFixture(t, newFixture())}, ExitOK},
		{[]string{"-f", file}, ExitFindings},
		{[]string{"-f", file, "extra-arg"}, -1},
		{[]string{"-o", "yaml", "-f", file}, ExitUsage},
	} {
		cmd := NewCommand()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(tc.args)
		err := cmd.Execute()
		code := ExitOK
		var ee *ExitError
		switch {
		case errors.As(err, &ee):
			code = ee.ExitCode()
		case err != nil:
			code = -1 // cobra's own argument error
		}
		if code != tc.wantCode {
			t.Errorf("%v: code %d (err %v), want %d\n%s", tc.args, code, err, tc.wantCode, out.String())
		}
	}
}

func TestWriteTextNoFindingsWithSkips(t *testing.T) {
	rep := &Report{Findings: []Finding{}, Checked: Counts{EndpointSlices: 1},
		Skipped: []Skip{{Rules: []RuleID{RuleEndpointZone}, Reason: "no Nodes in the input"}}}
	var b bytes.Buffer
	if err := WriteText(&b, rep, "", 2); err != nil {
		t.Fatal(err)
	}
	want := "No findings: 1 EndpointSlice of 0 Services checked (read 0 Pods, 0 Nodes, 0 Endpoints objects).\n" +
		"Skipped endpoint-zone: no Nodes in the input.\n" +
		"Ignored 2 objects of other kinds.\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("text (-want +got):\n%s", d)
	}
}
