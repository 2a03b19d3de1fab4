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

package inputfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// sameYAMLAsGoYAML fails t when fastYAML takes doc but go-yaml refuses it
// or reads other values; it reports whether fastYAML took doc.
func sameYAMLAsGoYAML(t *testing.T, doc []byte) bool {
	t.Helper()
	j, ok := fastYAML(doc)
	if ok {
		sameValuesAsGoYAML(t, "fastYAML", doc, j)
	}
	return ok
}

func TestFastYAML(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		fast bool
	}{
		{name: "kubectl style", fast: true, in: "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    app: web\n    app.kubernetes.io/name: web\n  name: p\nspec:\n  containers:\n  - image: nginx\n    name: c\n    ports:\n    - containerPort: 80\n      protocol: TCP\n  nodeName: node-1\nstatus:\n  podIPs:\n  - ip: 10.0.0.1\n"},
		{name: "leading separator", fast: true, in: "---\na: b\n"},
		{name: "indented sequence", fast: true, in: "a:\n  - b\n  - c\nd: e\n"},
		{name: "sequence of mappings, values below", fast: true, in: "a:\n-\n  b: c\n- d:\n    e: f\n"},
		{name: "quoted", fast: true, in: "a: 'it''s'\nb: \"x\\\"y\\\\z\\n\\t\"\n'k:{\"type\":\"Ready\"}': {}\n"},
		{name: "numbers and words", fast: true, in: "a: 1\nb: -2\nc: true\nd: false\ne: null\nf: 0\ng: []\nh: {}\ni:\n"},
		{name: "literal", fast: true, in: "a: |\n  line 1\n\n    indented\n  line 3\nb: |-\n  x\n  y\nc: z\n"},
		{name: "literal at the end", fast: true, in: "a: |\n  x\n"},
		{name: "literal in a sequence", fast: true, in: "a:\n- |\n  x\n- |-\n  y\n"},
		{name: "managed fields keys", fast: true, in: "f:metadata:\n  f:labels:\n    .: {}\n    f:app: {}\n"},
		{name: "strings with odd characters", fast: true, in: "a: x,y[0]{1}\nb: /path/to\nc: _x\nd: a:b\ne: x y z\n"},
		{name: "comment", in: "a: b # c\n"},
		{name: "comment line", in: "# c\na: b\n"},
		{name: "tab", in: "a:\tb\n"},
		{name: "blank line", in: "a: b\n\nc: d\n"},
		{name: "yes", in: "a: yes\n"},
		{name: "On", in: "a: On\n"},
		{name: "y key", in: "y: 1\n"},
		{name: "float", in: "a: 1.5\n"},
		{name: "octal", in: "a: 0755\n"},
		{name: "hex", in: "a: 0x1f\n"},
		{name: "plus", in: "a: +1\n"},
		{name: "timestamp", in: "a: 2026-01-02T03:04:05Z\n"},
		{name: "tilde", in: "a: ~\n"},
		{name: "anchor and alias", in: "a: &x b\nc: *x\n"},
		{name: "tag", in: "a: !!str 1\n"},
		{name: "flow with content", in: "a: {b: c}\n"},
		{name: "folded", in: "a: >\n  x\n"},
		{name: "keep", in: "a: |+\n  x\n\n"},
		{name: "indentation indicator", in: "a: |2\n   x\n"},
		{name: "multi-line plain", fast: true, in: "a: b\n  c\n"},
		{name: "multi-line single-quoted", fast: true, in: "a: 'b c\n  d'' e\n\n  f'\ng: h\n"},
		{name: "multi-line plain in a sequence", fast: true, in: "a:\n- b c\n  d\n- e\n"},
		{name: "multi-line single-quoted, quote inside", in: "a: 'b' c\n  d'\n"},
		{name: "multi-line plain, colon", in: "a: b\n  c: d\n"},
		{name: "multi-line plain, dash", in: "a: b\n  - c\n"},
		{name: "multi-line, blank line after", in: "a: 'b\n  c'\n\nd: e\n"},
		{name: "multi-line quoted", in: "a: \"b\n  c\"\n"},
		{name: "duplicate key", in: "a: 1\na: 2\n"},
		{name: "duplicate quoted key", in: "a: 1\n'a': 2\n"},
		{name: "slash escape", in: "a: \"\\/\"\n"},
		{name: "unicode escape", in: "a: \"\\u00e9\"\n"},
		{name: "merge key", in: "<<: {}\n"},
		{name: "question key", in: "? a\n: b\n"},
		{name: "top-level sequence", in: "- a\n"},
		{name: "scalar document", in: "a\n"},
		{name: "bad indentation", in: "a:\n  b: c\n c: d\n"},
		{name: "nested sequence", in: "a:\n- - b\n"},
		{name: "value ends in colon", in: "a: b:\n"},
		{name: "two spaces after colon", in: "a:  b\n"},
		{name: "trailing space", in: "a: b \n"},
		{name: "document end", in: "a: b\n...\n"},
		{name: "second document", in: "a: b\n---\nc: d\n"},
		{name: "directive", in: "%YAML 1.1\n---\na: b\n"},
		{name: "empty literal", in: "a: |\nb: c\n"},
		{name: "literal with leading blank line", in: "a: |\n\n  x\n"},
		{name: "literal then blank line", in: "a: |\n  x\n\nb: c\n"},
		{name: "literal less indented line", in: "a:\n  b: |\n      x\n    y\n"},
		{name: "digit key", in: "1: a\n"},
		{name: "dot key", fast: true, in: ".: a\n"},
		{name: "equals value", fast: true, in: "a: =\n"},
		{name: "key with a space before the colon", in: "a : b\n"},
		{name: "carriage return", in: "a: b\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameYAMLAsGoYAML(t, []byte(tc.in)); got != tc.fast {
				t.Errorf("fastYAML took it: %v, want %v", got, tc.fast)
			}
		})
	}
}

// TestFastYAMLTakesKubectlOutput: what `kubectl get -o yaml` prints
// (sigs.k8s.io/yaml's emitter) of a Deployment's Pod and of the
// regression cases' objects is taken, and read as go-yaml reads it.
func TestFastYAMLTakesKubectlOutput(t *testing.T) {
	for i, pod := range podSeeds(t)[:1] {
		doc, err := yaml.JSONToYAML(pod)
		if err != nil {
			t.Fatal(err)
		}
		if !sameYAMLAsGoYAML(t, doc) {
			t.Errorf("fastYAML refused seed Pod %d as kubectl prints it:\n%s", i, doc)
		}
	}
	// Long strings go-yaml's emitter folds over lines (80 columns), and
	// strings with line breaks (literal block scalars), as kubectl prints
	// the annotations real Pods carry.
	long := strings.Repeat("word ", 40)
	for _, v := range []any{
		long,
		strings.TrimSpace(long),
		"[" + strings.Repeat(`{"name": "net-a", "ips": ["10.1.2.3"], "default": true}, `, 5) + "{}]",
		`{"apiVersion":"v1","kind":"Service","metadata":{"annotations":{},"name":"s"}}` + "\n",
		"line 1\nline 2\n",
		"line 1\n\nline 3",
		"it's " + long,
		strings.Repeat("x", 200),
		"a " + strings.Repeat("b", 100) + " c",
	} {
		obj := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p", "annotations": map[string]any{"a": v}}}
		doc, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if !sameYAMLAsGoYAML(t, doc) {
			t.Errorf("fastYAML refused kubectl's printing of %q:\n%s", v, doc)
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "cases", "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	taken, all := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raws, err := Documents(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range raws {
			var v map[string]any // objects; steps.yaml files are sequences
			if err := yaml.Unmarshal(raw, &v); err != nil || v == nil {
				continue
			}
			all++
			printed, err := yaml.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			sameYAMLAsGoYAML(t, raw)
			if sameYAMLAsGoYAML(t, printed) {
				taken++
			} else {
				t.Logf("%s: refused as printed:\n%s", f, printed)
			}
		}
	}
	if taken < all*95/100 || all < 50 {
		t.Errorf("fastYAML took %d of the %d regression case documents as go-yaml prints them, want nearly all", taken, all)
	}
}

// FuzzFastYAML: what fastYAML takes, go-yaml reads as the same values.
func FuzzFastYAML(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    ports:\n    - containerPort: 80\n",
		"a: |\n  x\n\n  y\nb: 'q''r'\nc: \"s\\nt\"\n",
		"a:\n- b: c\n  d:\n  - 1\n- {}\n",
		"a: 'b c d\n  e f'\nb: g h\n  i\nc:\n- 'j\n\n  k'\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameYAMLAsGoYAML(t, doc)
	})
}
