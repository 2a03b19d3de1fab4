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
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// sameAsGoYAML fails t when fastYAMLToJSON accepts doc but its JSON
// decodes to other values than sigs.k8s.io/yaml.YAMLToJSONStrict's, or
// go-yaml rejects what it accepts. It returns whether the fast path
// accepted doc.
func sameAsGoYAML(t *testing.T, doc []byte) bool {
	t.Helper()
	fast, tm, ok := fastYAMLToJSON(doc)
	if !ok {
		return false
	}
	slow := sameValuesAsGoYAML(t, "fastYAMLToJSON", doc, fast)
	if tm != nil {
		var want metav1.TypeMeta
		if err := json.Unmarshal(slow, &want); err != nil {
			t.Fatalf("fast path gave apiVersion and kind %+v where encoding/json fails (%v):\n%s", *tm, err, doc)
		}
		if want != *tm {
			t.Fatalf("fast path gave apiVersion and kind %+v, encoding/json %+v:\n%s", *tm, want, doc)
		}
	}
	return true
}

// sameValuesAsGoYAML fails t when go-yaml rejects doc, which fast path
// name converted to fast, or reads other values than fast's; it returns
// YAMLToJSONStrict's JSON.
func sameValuesAsGoYAML(t *testing.T, name string, doc, fast []byte) []byte {
	t.Helper()
	slow, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		t.Fatalf("%s accepted what go-yaml rejects (%v):\n%s", name, err, doc)
	}
	var f, s any
	if err := json.Unmarshal(fast, &f); err != nil {
		t.Fatalf("%s gave invalid JSON (%v): %s\nfrom:\n%s", name, err, fast, doc)
	}
	if err := json.Unmarshal(slow, &s); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, f); d != "" {
		t.Fatalf("%s differs from go-yaml (-go-yaml +fast):\n%s\nfrom:\n%s", name, d, doc)
	}
	return slow
}

func TestFastYAMLToJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		// fast is whether the fast path takes the document (else go-yaml).
		fast bool
	}{
		{name: "kubectl style", fast: true, in: `apiVersion: v1
kind: Pod
metadata:
  annotations:
    a.example/x: "true"
    b: 'it''s'
  labels:
    app: web
  name: web-1
  ownerReferences:
  - apiVersion: apps/v1
    controller: true
    kind: ReplicaSet
spec:
  containers:
  - env:
    - name: A
      value: "80"
    image: registry.example.com/team/app:1.4.2
    name: app
    ports:
    - containerPort: 8080
      name: http
  - name: side
status:
  podIP: 10.1.2.3
  podIPs:
  - ip: 10.1.2.3
  startTime: "2026-03-01T12:00:00Z"
  empty: {}
  none: []
  nothing:
  tilde: ~
`},
		{name: "indented sequences and nested sequences", fast: true, in: "a:\n  - - x\n    - y\n  -\n    b: c\n  -\nd: [] \n"},
		{name: "yaml 1.1 words", fast: true, in: "a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: n\ng: Null\nh: True\n"},
		{name: "integers and strings that look like numbers", fast: true, in: "a: 0\nb: -12\nc: 123456789012345678\nd: 10.1.2.3\ne: 2026-03-01\nf: 1.4.2\ng: -Xmx5m\nh: 1e\n"},
		{name: "managedFields keys", fast: true, in: "f:metadata:\n  f:labels:\n    .: {}\n    f:app: {}\n  'k:{\"uid\":\"x\"}': {}\n\"q:1\": \"a\\\\b\\\"c\\te\\nf\"\n"},
		{name: "type meta quoted", fast: true, in: "apiVersion: \"v1\"\nkind: 'Pod'\nspec:\n  kind: x\n"},
		{name: "type meta other case", fast: true, in: "APIVersion: v1\nKind: Pod\n"},
		{name: "type meta not strings", fast: true, in: "apiVersion: 1\nkind: true\n"},
		{name: "type meta null", fast: true, in: "apiVersion:\nkind: ~\n"},
		{name: "slash escape", in: "a: \"\\/\"\n"},
		{name: "unicode", fast: true, in: "a: héllo wörld ✓\nb: \"日本\"\n"},
		{name: "float", in: "a: 1.5\n"},
		{name: "exponent", in: "a: 1e3\n"},
		{name: "octal", in: "a: 0755\n"},
		{name: "hex", in: "a: 0x1F\n"},
		{name: "underscore", in: "a: 1_000\n"},
		{name: "plus", in: "a: +5\n"},
		{name: "minus zero", in: "a: -0\n"},
		{name: "binary", in: "a: 0b101\n"},
		{name: "huge integer", in: "a: 1234567890123456789012\n"},
		{name: "infinity", in: "a: .inf\n"},
		{name: "dot float", in: "a: .5\n"},
		{name: "bool key", in: "yes: 1\n"},
		{name: "int key", in: "80: http\n"},
		{name: "merge key", in: "<<: {a: 1}\n"},
		{name: "comment", in: "a: b # c\n"},
		{name: "tab", in: "a:\tb\n"},
		{name: "crlf", in: "a: b\r\n"},
		{name: "anchor and alias", in: "a: &x b\nc: *x\n"},
		{name: "tag", in: "a: !!str 1\n"},
		{name: "flow mapping", in: "a: {b: c}\n"},
		{name: "flow sequence", in: "a: [b]\n"},
		{name: "block scalar", in: "a: |\n  b\n"},
		{name: "multi-line plain", in: "a: b\n  c\n"},
		{name: "multi-line quoted", in: "a: \"b\n  c\"\n"},
		{name: "duplicate key", in: "a: 1\na: 2\n"},
		{name: "document start marker", fast: true, in: "---\na: 1\n"},
		{name: "document marker inside", in: "a: 1\n---\nb: 1\n"},
		{name: "two document start markers", in: "---\n---\na: 1\n"},
		{name: "other escape", in: "a: \"\\x41\"\n"},
		{name: "colon space in value", in: "a: b: c\n"},
		{name: "space before colon", in: "a : b\n"},
		{name: "bad indentation", in: "a:\n    b: 1\n  c: 2\n"},
		{name: "mapping then sequence", in: "a: 1\n- b\n"},
		{name: "top-level sequence", in: "- a\n"},
		{name: "top-level scalar", in: "a\n"},
		{name: "empty", in: ""},
		{name: "control character", in: "a: \"b\x01\"\n"},
		{name: "byte order mark", in: "\uFEFFa: b\n"},
		{name: "next line separator", in: "a: b\u0085c\n"},
		{name: "invalid UTF-8", in: "a: \xff\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameAsGoYAML(t, []byte(tc.in)); got != tc.fast {
				t.Errorf("fast path taken: %v, want %v", got, tc.fast)
			}
		})
	}
}

// TestFastYAMLToJSONOnInputs checks the fast path against go-yaml on every
// document of the repository's example inputs and test cases, and that it
// takes most of them (the point of it).
func TestFastYAMLToJSONOnInputs(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../examples/*.yaml", "../../examples/*/*.yaml", "../../testdata/cases/*/*.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d input files; the globs are stale", len(files))
	}
	var docs, fast int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raws, err := Documents(data)
		if err != nil {
			continue // the case of an invalid file
		}
		for _, raw := range raws {
			docs++
			if sameAsGoYAML(t, raw) {
				fast++
			}
		}
	}
	t.Logf("fast path took %d of %d documents", fast, docs)
	if fast*2 < docs {
		t.Errorf("fast path took %d of %d documents; expected most", fast, docs)
	}
}

// FuzzFastYAMLToJSON: whatever the fast path accepts, go-yaml accepts and
// reads as the same values.
func FuzzFastYAMLToJSON(f *testing.F) {
	for _, s := range []string{
		"a: b\n", "a:\n- b\n- c: d\n  e: 1\n", "a: 'x''y'\nb: \"q\\\"\"\n", "a:\n  b:\n    - - 1\n",
		"a: yes\nb: 0x10\nc: 1.5\nd: 10.0.0.1\n", "f:spec:\n  k:{\"a\":1}: {}\n", "a: []\nb: {}\nc: ~\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameAsGoYAML(t, doc)
	})
}

// sameDocumentsAsYAMLReader fails t when Documents and the YAMLReader
// path split data differently.
func sameDocumentsAsYAMLReader(t *testing.T, data []byte) {
	t.Helper()
	got, gotErr := Documents(data)
	want, wantErr := yamlReaderDocuments(data)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("error %v, YAMLReader's %v, for %q", gotErr, wantErr, data)
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("documents differ from YAMLReader's (-YAMLReader +got) for %q:\n%s", data, d)
	}
}

func TestDocumentsSplitLikeYAMLReader(t *testing.T) {
	for _, in := range []string{
		"", "\n", "a: 1", "a: 1\n", "---\na: 1\n---\nb: 2", "a: 1\n---\n---\n\n---\nb: 2\n",
		"--- # comment\na: 1\n---   \n", "----\na: 1\n", "---x\n", "a: 1\r\n---\r\nb: 2\r\n",
		"{\"a\":1}\n{\"b\":2}\n---\nc: 3\n", "  ---\na: 1\n", "a: |\n  ---\n", "\n\n---\n\n",
	} {
		sameDocumentsAsYAMLReader(t, []byte(in))
	}
}

// FuzzDocumentsLikeYAMLReader: Documents splits as YAMLReader does.
func FuzzDocumentsLikeYAMLReader(f *testing.F) {
	for _, s := range []string{"a: 1\n---\nb: 2", "--- #x\n\n---\n", "---y\n", "a\r\n---\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameDocumentsAsYAMLReader(t, data)
	})
}

// sameJSONAsGoYAML fails t when fastJSON accepts doc but go-yaml rejects it
// or reads other values. It returns whether fastJSON accepted doc.
func sameJSONAsGoYAML(t *testing.T, doc []byte) bool {
	t.Helper()
	fast, ok := fastJSON(doc)
	if ok {
		sameValuesAsGoYAML(t, "fastJSON", doc, fast)
	}
	return ok
}

func TestFastJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		fast bool
	}{
		{name: "kubectl style", fast: true, in: "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\"labels\": {\"on\": \"yes\", \"a#b\": \"c # d\"}, \"name\": \"p\"},\n    \"spec\": {\"containers\": [{\"name\": \"a\", \"ports\": [{\"containerPort\": 80}]}], \"x\": [], \"y\": {}, \"z\": null, \"t\": true, \"n\": -3}\n}\n"},
		{name: "compact", fast: true, in: `{"a":{"b":[1,2,{"c":"d\"e\\f\ng"}]}}`},
		{name: "nested arrays", fast: true, in: `{"a":[[1],[[]],[{}]]}`},
		{name: "float", in: `{"a":1.0}`},
		{name: "exponent", in: `{"a":1e3}`},
		{name: "minus zero", in: `{"a":-0}`},
		{name: "huge", in: `{"a":1234567890123456789012}`},
		{name: "unicode escape", in: `{"a":"\u00e9"}`},
		{name: "slash escape", in: `{"a":"\/"}`},
		{name: "duplicate key", in: `{"a":1,"a":2}`},
		{name: "nested duplicate key", in: `{"a":{"b":1,"b":2}}`},
		{name: "escaped keys", fast: true, in: `{"k:{\"a\":1}":{},"k:{\"a\":2}":{},"x\\y":1}`},
		{name: "duplicate escaped keys", in: `{"k:{\"a\"}":1,"k:{\"a\"}":2}`},
		{name: "same key in sibling objects", fast: true, in: `{"a":{"b":1},"c":{"b":2}}`},
		{name: "long key", in: `{"` + strings.Repeat("k", 1100) + `":1}`},
		{name: "two objects", in: `{"a":1}{"b":2}`},
		{name: "trailing garbage", in: `{"a":1} x`},
		{name: "top-level array", in: `[{"a":1}]`},
		{name: "unterminated", in: `{"a":1`},
		{name: "tab", in: "{\"a\":\t1}"},
		{name: "not JSON", in: `{a: 1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameJSONAsGoYAML(t, []byte(tc.in)); got != tc.fast {
				t.Errorf("fastJSON took it: %v, want %v", got, tc.fast)
			}
		})
	}
}

// FuzzFastJSON: whatever fastJSON accepts, go-yaml accepts and reads as
// the same values.
func FuzzFastJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":[1,{"b":"c"}],"d":null}`, `{"a":"x\ny","b":true}`, "{\n \"a\": {}\n}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameJSONAsGoYAML(t, doc)
	})
}
