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
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stdinService is a Service, read from standard input.
const stdinService = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: default}\nspec: {clusterIP: None, selector: {app: web}}\n"

// TestCheckFlagsAndInput: slicekit check refuses the flag values run and
// render refuse, with the same words; -o json reports input errors on
// standard output as JSON; input without objects draws a note.
func TestCheckFlagsAndInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.yaml")
	dashes := filepath.Join(dir, "dashes.yaml")
	emptyDir := filepath.Join(dir, "nothing")
	for _, err := range []error{os.WriteFile(empty, nil, 0o644), os.WriteFile(dashes, []byte("---\n---\n"), 0o644), os.Mkdir(emptyDir, 0o755)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantStderr string
		// wantJSON, when set, is a key the JSON document on stdout must
		// have; wantStdout a string stdout must contain.
		wantJSON   string
		wantStdout string
	}{
		{name: "max endpoints per slice 0", args: []string{"check", "-f", empty, "--max-endpoints-per-slice=0"}, wantCode: ExitUsage,
			wantStderr: "--max-endpoints-per-slice=0 must be between 1 and 1000"},
		{name: "max endpoints per slice 1001", args: []string{"check", "-f", empty, "--max-endpoints-per-slice=1001"}, wantCode: ExitUsage,
			wantStderr: "--max-endpoints-per-slice=1001 must be between 1 and 1000"},
		{name: "mirroring max endpoints per subset 0", args: []string{"check", "-f", empty, "--mirroring-max-endpoints-per-subset=0"}, wantCode: ExitUsage,
			wantStderr: "--mirroring-max-endpoints-per-subset=0 must be between 1 and 1000"},
		{name: "empty default controller name", args: []string{"check", "-f", empty, "--controller-name="}, wantCode: ExitUsage,
			wantStderr: `--controller-name "" must be a non-empty label value`},
		{name: "deprecated name of --controller-name", args: []string{"check", "-f", empty, "--default-controller-name=a b"}, wantCode: ExitUsage,
			wantStderr: `Flag --default-controller-name has been deprecated, use --controller-name`},
		{name: "secondary name is the default controller's", args: []string{"check", "-f", empty, "--secondary-network-controller-name=endpointslice-controller.k8s.io"},
			wantCode: ExitUsage, wantStderr: `--controller-name and --secondary-network-controller-name are both "endpointslice-controller.k8s.io"`},
		{name: "secondary name is the mirroring controller's", args: []string{"check", "-f", empty, "--secondary-network-controller-name=endpointslicemirroring-controller.k8s.io"},
			wantCode: ExitUsage, wantStderr: `--mirroring-controller-name and --secondary-network-controller-name are both`},
		{name: "slice set label of the default controller", args: []string{"check", "-f", empty, "--slice-set-label=endpointslice-controller.k8s.io=multicluster.kubernetes.io/source-cluster"},
			wantCode: ExitUsage, wantStderr: "write one slice set per Service"},
		{name: "slice set label not a label key", args: []string{"check", "-f", empty, "--slice-set-label", "mesh.example.com=a b"},
			wantCode: ExitUsage, wantStderr: `--slice-set-label mesh.example.com="a b": not a label key`},
		{name: "slice set labels", args: []string{"check", "-f", empty, "--slice-set-label", "mesh.example.com=multicluster.kubernetes.io/source-cluster,net.example.com=net.example.com/source"},
			wantCode: ExitOK, wantStderr: "no objects read"},
		{name: "list rules as JSON", args: []string{"check", "--list-rules", "-o", "json"}, wantCode: ExitOK, wantJSON: "rules", wantStdout: `"id": "endpoint-hints"`},
		{name: "JSON input error", args: []string{"check", "-f", filepath.Join(dir, "nope.yaml"), "-o", "json"}, wantCode: ExitUsage,
			wantStderr: "nope.yaml", wantJSON: "error", wantStdout: `"exitStatus": 2`},
		{name: "JSON usage error", args: []string{"check", "-f", empty, "-o", "json", "--max-endpoints-per-slice=0"}, wantCode: ExitUsage,
			wantStderr: "--max-endpoints-per-slice=0", wantJSON: "error", wantStdout: "--max-endpoints-per-slice=0 must be between 1 and 1000"},
		{name: "empty file", args: []string{"check", "-f", empty}, wantCode: ExitOK, wantStderr: "note: no objects read from " + empty},
		{name: "only document separators", args: []string{"check", "-f", dashes}, wantCode: ExitOK, wantStderr: "note: no objects read from " + dashes},
		{name: "empty directory", args: []string{"check", "-f", emptyDir}, wantCode: ExitOK, wantStderr: "note: no objects read from " + emptyDir},
		{name: "empty file as JSON", args: []string{"check", "-f", empty, "-o", "json"}, wantCode: ExitOK, wantStderr: "note: no objects read",
			wantJSON: "notes", wantStdout: "no objects read from"},
		{name: "render of an empty file", args: []string{"render", "-f", empty}, wantCode: ExitOK, wantStderr: "slicekit render: note: no objects read from " + empty + ": nothing to render"},
		{name: "render of an empty directory", args: []string{"render", "-f", emptyDir}, wantCode: ExitOK, wantStderr: "slicekit render: note: no objects read from " + emptyDir},
		{name: "list rules with -f", args: []string{"check", "--list-rules", "-f", empty}, wantCode: ExitUsage,
			wantStderr: "slicekit check: --list-rules prints the rules and checks nothing: it cannot be combined with -f"},
		{name: "list rules with a namespace", args: []string{"check", "--list-rules", "-n", "shop"}, wantCode: ExitUsage,
			wantStderr: "it cannot be combined with --namespace"},
		{name: "request timeout not a duration", args: []string{"check", "--request-timeout", "abc"}, wantCode: ExitUsage,
			wantStderr: `slicekit check: --request-timeout "abc" is not a timeout: give whole seconds or a number with a unit (1s, 2m, 3h)`},
		{name: "negative request timeout", args: []string{"check", "--request-timeout", "-1s"}, wantCode: ExitUsage,
			wantStderr: `slicekit check: --request-timeout "-1s" is negative: give 0 for no timeout`},
		{name: "namespace name invalid", args: []string{"check", "-n", "Bad_NS!"}, wantCode: ExitUsage,
			wantStderr: `slicekit check: --namespace "Bad_NS!" is not a valid namespace name`},
		{name: "namespace not in the dump", args: []string{"check", "-f", "testdata/check-stale.yaml", "-n", "nosuch"}, wantCode: ExitUsage,
			wantStderr: `namespace "nosuch" does not exist in the input (its namespaces: ns-a)`},
		{name: "namespace of the dump", args: []string{"check", "-f", "testdata/check-stale.yaml", "-n", "ns-a"}, wantCode: ExitFailure, wantStderr: "found errors"},
		{name: "stdin named as in errors", args: []string{"check", "-f", "-"}, stdin: stdinService, wantCode: ExitOK,
			wantStdout: "from <stdin>."},
		{name: "stdin named as in errors, JSON", args: []string{"check", "-f", "-", "-o", "json"}, stdin: stdinService, wantCode: ExitOK,
			wantJSON: "source", wantStdout: `"source": "<stdin>"`},
		{name: "empty stdin named as in errors", args: []string{"check", "-f", "-"}, stdin: "---\n", wantCode: ExitOK,
			wantStderr: "note: no objects read from <stdin>: nothing to check"},
		{name: "render: empty stdin named as in errors", args: []string{"render", "-f", "-"}, stdin: "---\n", wantCode: ExitOK,
			wantStderr: "note: no objects read from <stdin>: nothing to render"},
		{name: "a dump with objects draws no note", args: []string{"check", "-f", "testdata/check-stale.yaml"}, wantCode: ExitFailure, wantStderr: "found errors"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tc.stdin, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit code = %d, want %d; stderr:\n%s", code, tc.wantCode, stderr)
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr does not contain %q:\n%s", tc.wantStderr, stderr)
			}
			if !strings.Contains(tc.wantStderr, "no objects read") && strings.Contains(stderr, "no objects read") {
				t.Errorf("unexpected note on stderr:\n%s", stderr)
			}
			if !strings.Contains(stdout, tc.wantStdout) {
				t.Errorf("stdout does not contain %q:\n%s", tc.wantStdout, stdout)
			}
			if tc.wantJSON != "" {
				var doc map[string]any
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
				}
				if _, ok := doc[tc.wantJSON]; !ok {
					t.Errorf("JSON lacks %q:\n%s", tc.wantJSON, stdout)
				}
			}
		})
	}
}
