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
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

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

// sameDocumentsAsYAMLReader fails t when Documents and the YAMLReader
// path split data differently.
func sameDocumentsAsYAMLReader(t *testing.T, data []byte) {
	t.Helper()
	got, gotErr := Documents(data)
	var want [][]byte
	wantErr := yamlReaderDocuments(data, func(doc []byte) { want = append(want, doc) })
	sameSplit(t, "documents", "YAMLReader", data, got, want, gotErr, wantErr)
}

// sameSplit fails t when a split of data (got, gotErr) differs from the
// reference's (want, wantErr, named ref).
func sameSplit(t *testing.T, what, ref string, data []byte, got, want [][]byte, gotErr, wantErr error) {
	t.Helper()
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("error %v, %s's %v, for %q", gotErr, ref, wantErr, data)
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s differ from %s's (-%s +got) for %q:\n%s", what, ref, ref, data, d)
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
// or reads other values, or when the apiVersion and kind it returns are
// not what encoding/json reads. It returns whether fastJSON accepted doc.
func sameJSONAsGoYAML(t *testing.T, doc []byte) bool {
	t.Helper()
	fast, apiVersion, kind, typeMeta, ok := fastJSON(doc)
	if ok {
		sameValuesAsGoYAML(t, "fastJSON", doc, fast)
	}
	if typeMeta {
		var tm metav1.TypeMeta
		if err := json.Unmarshal(doc, &tm); err != nil {
			t.Fatalf("fastJSON read apiVersion %q and kind %q where encoding/json fails (%v): %s", apiVersion, kind, err, doc)
		}
		if tm.APIVersion != apiVersion || tm.Kind != kind {
			t.Fatalf("fastJSON read apiVersion %q and kind %q, encoding/json %q and %q: %s", apiVersion, kind, tm.APIVersion, tm.Kind, doc)
		}
	}
	return ok
}

func TestFastJSONTypeMeta(t *testing.T) {
	for _, tc := range []struct {
		in               string
		apiVersion, kind string
		typeMeta         bool
	}{
		{in: `{"apiVersion":"v1","kind":"Pod","metadata":{"kind":"x"}}`, apiVersion: "v1", kind: "Pod", typeMeta: true},
		{in: "{\n  \"kind\" : \"Service\"\n}", kind: "Service", typeMeta: true},
		{in: `{"metadata":{"apiVersion":"x"},"items":[{"kind":"y"}]}`, typeMeta: true},
		{in: `{"Kind":"Pod"}`},
		{in: `{"APIVERSION":"v1","kind":"Pod"}`},
		{in: `{"kind":"P\"od"}`},
		{in: `{"kind":null}`},
		{in: `{"kind":1}`},
		{in: `{"kind":{"a":"b"}}`},
		{in: `{"a":"kind","b":["kind"],"kind":"Pod"}`, kind: "Pod", typeMeta: true},
	} {
		if !sameJSONAsGoYAML(t, []byte(tc.in)) {
			t.Errorf("fastJSON refused %s", tc.in)
		}
		_, apiVersion, kind, typeMeta, _ := fastJSON([]byte(tc.in))
		if apiVersion != tc.apiVersion || kind != tc.kind || typeMeta != tc.typeMeta {
			t.Errorf("fastJSON(%s) read %q, %q, %v; want %q, %q, %v", tc.in, apiVersion, kind, typeMeta, tc.apiVersion, tc.kind, tc.typeMeta)
		}
	}
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

// plainReference is plainBytes one character at a time (plainChar), as it
// was written first, without the eight-byte skip.
func plainReference(doc []byte, hash bool) bool {
	for i := 0; i < len(doc); {
		n := plainChar(doc[i:], hash)
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}

func TestPlainBytes(t *testing.T) {
	// Every byte value, alone and at every position of a 17-byte text
	// (two words and one byte), and the line breaks go-yaml knows.
	var docs []string
	for c := range 256 {
		for pos := range 17 {
			b := []byte(strings.Repeat("a", 17))
			b[pos] = byte(c)
			docs = append(docs, string(b))
		}
	}
	docs = append(docs, "", "#", "a#b", "é", "aaaaaaaé", "aaaaaaa\u2028", "\ufeffabcdefgh", "abcdefg\u0085", "abcdefg\xc3", "abcdefgh\n{\n  \"a\": 1\n}\n", "\U0001F600 smile")
	for _, doc := range docs {
		for _, hash := range []bool{false, true} {
			if got, want := plainBytes([]byte(doc), hash), plainReference([]byte(doc), hash); got != want {
				t.Errorf("plainBytes(%q, %v) = %v, want %v", doc, hash, got, want)
			}
		}
	}
}

func FuzzPlainBytes(f *testing.F) {
	f.Add([]byte("abcdefgh#ijklmnop\n"), false)
	f.Add([]byte("abcdefg\xe2\x80\xa8hijklmnop"), true)
	f.Fuzz(func(t *testing.T, doc []byte, hash bool) {
		if got, want := plainBytes(doc, hash), plainReference(doc, hash); got != want {
			t.Errorf("plainBytes(%q, %v) = %v, want %v", doc, hash, got, want)
		}
	})
}
