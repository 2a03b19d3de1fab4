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
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	serjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/slicekit/slicekit/pkg/inputkinds"
)

// apiServerDecode is the reference of the decoding tests: input split as
// kubectl's -f splits it (utilyaml.YAMLOrJSONDecoder for a JSON stream,
// utilyaml.YAMLReader for YAML), and each document decoded by the
// serializer the API server decodes a request body with under strict
// field validation (k8s.io/apimachinery/pkg/runtime/serializer/json,
// Strict, Yaml for a YAML document), into the client-go scheme's types.
// Lists are flattened: a v1 List's items decoded one by one, a typed
// list's items given its item kind. It returns the objects of the kinds
// slicekit reads, with the namespace defaulted as ReadObjects does, and
// the first error.
func apiServerDecode(input []byte) ([]runtime.Object, error) {
	scheme := clientgoscheme.Scheme
	strict := serjson.SerializerOptions{Strict: true}
	jsonSer := serjson.NewSerializerWithOptions(serjson.DefaultMetaFactory, scheme, scheme, strict)
	strict.Yaml = true
	yamlSer := serjson.NewSerializerWithOptions(serjson.DefaultMetaFactory, scheme, scheme, strict)
	var docs [][]byte
	var sers []runtime.Decoder
	head := input[:min(len(input), 4096)]
	if utilyaml.IsJSONBuffer(head) {
		d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(input), 4096)
		for {
			var raw json.RawMessage
			err := d.Decode(&raw)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			docs, sers = append(docs, raw), append(sers, jsonSer)
		}
	} else {
		r := utilyaml.NewYAMLReader(bufioReader(input))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			docs, sers = append(docs, doc), append(sers, yamlSer)
		}
	}
	table, _ := inputkinds.NewTable()
	var out []runtime.Object
	var add func(obj runtime.Object) error
	add = func(obj runtime.Object) error {
		switch l := obj.(type) {
		case *corev1.List:
			for _, it := range l.Items {
				o, _, err := jsonSer.Decode(it.Raw, nil, nil)
				if err != nil {
					return err
				}
				if err := add(o); err != nil {
					return err
				}
			}
			return nil
		}
		gvk := obj.GetObjectKind().GroupVersionKind()
		if meta.IsListType(obj) {
			items, err := meta.ExtractList(obj)
			if err != nil {
				return err
			}
			for _, it := range items {
				if it.GetObjectKind().GroupVersionKind().Empty() {
					it.GetObjectKind().SetGroupVersionKind(gvk.GroupVersion().WithKind(strings.TrimSuffix(gvk.Kind, "List")))
				}
				if err := add(it); err != nil {
					return err
				}
			}
			return nil
		}
		k, ok := table.ByGVK(gvk)
		if !ok {
			return nil
		}
		m, _ := meta.Accessor(obj)
		if k.Namespaced && m.GetNamespace() == "" {
			m.SetNamespace("default")
		}
		out = append(out, obj)
		return nil
	}
	for i, doc := range docs {
		j := bytes.TrimSpace(doc)
		if len(j) == 0 || string(j) == "null" {
			continue
		}
		if sers[i] == yamlSer {
			if y, err := utilyaml.ToJSON(doc); err == nil && (len(bytes.TrimSpace(y)) == 0 || string(bytes.TrimSpace(y)) == "null") {
				continue // comments only
			}
		}
		obj, _, err := sers[i].Decode(doc, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if err := add(obj); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
	}
	return out, nil
}

// decodeBoth decodes input with DecodeObjects and with apiServerDecode.
func decodeBoth(input []byte) (ours []runtime.Object, oursErr error, ref []runtime.Object, refErr error) {
	objs, _, oursErr := DecodeObjects("in", input, nil)
	for _, o := range objs {
		ours = append(ours, o.Object)
	}
	ref, refErr = apiServerDecode(input)
	return ours, oursErr, ref, refErr
}

const (
	podJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"a":%s}},"spec":{"containers":[{"name":"c","ports":[{"containerPort":%s}]}]}}`
	podYAML = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    a: %s\nspec:\n  containers:\n  - name: c\n    ports:\n    - containerPort: %s\n"
)

func pj(annotation, port string) string { return fmt.Sprintf(podJSON, annotation, port) }
func py(annotation, port string) string { return fmt.Sprintf(podYAML, annotation, port) }

// TestDecodeLikeAPIServer compares what DecodeObjects accepts and the
// objects it returns with the API server's decoder (apiServerDecode: the
// serializer kube-apiserver decodes a request body with under strict
// field validation, fed the documents kubectl's -f reader splits). Each
// case also states the expected outcome, so that a change of either side
// is seen. Every input is valid to the API server's validation, so that
// only decoding is compared.
func TestDecodeLikeAPIServer(t *testing.T) {
	podList := `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}`
	for _, tc := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"JSON Pod", pj(`"x"`, "80"), true},
		{"JSON containerPort 80.0", pj(`"x"`, "80.0"), false},
		{"YAML containerPort 80.0 (a float in YAML, converted to 80)", py("x", "80.0"), true},
		{"JSON containerPort 8e1", pj(`"x"`, "8e1"), false},
		{"JSON containerPort too big for int32", pj(`"x"`, "2147483648"), false},
		{"JSON containerPort beyond int64", pj(`"x"`, "99999999999999999999"), false},
		{"JSON containerPort negative exponent", pj(`"x"`, "800e-1"), false},
		{"JSON containerPort as a string", pj(`"x"`, `"80"`), false},
		{"YAML containerPort as a string", py("x", `"80"`), false},
		{"YAML containerPort 0x50", py("x", "0x50"), true},
		{"JSON string with \\/", pj(`"http:\/\/x"`, "80"), true},
		{"JSON string with \\u escapes and a surrogate pair", pj(`"\u00e9\ud83d\ude00\n\t\"\\"`, "80"), true},
		{"JSON string with a lone surrogate", pj(`"\ud800"`, "80"), true},
		{"JSON string with invalid UTF-8", pj("\"\xff\xfe\"", "80"), true},
		{"JSON string with a bad escape", pj(`"\x"`, "80"), false},
		{"YAML string with \\/ (double-quoted: go-yaml refuses the escape)", py(`"http:\/\/x"`, "80"), false},
		{"JSON annotation as a number", pj("1", "80"), false},
		{"JSON unknown field", strings.Replace(pj(`"x"`, "80"), `"spec":`, `"spek":{},"spec":`, 1), false},
		{"YAML unknown field", py("x", "80") + "spek: {}\n", false},
		{"JSON field of another case", strings.Replace(pj(`"x"`, "80"), `"spec":`, `"Spec":`, 1), false},
		{"JSON kind of another case", strings.Replace(pj(`"x"`, "80"), `"kind":`, `"Kind":`, 1), false},
		{"JSON duplicate field", strings.Replace(pj(`"x"`, "80"), `"name":"p"`, `"name":"p","name":"p"`, 1), false},
		{"JSON duplicate kind", strings.Replace(pj(`"x"`, "80"), `"kind":"Pod"`, `"kind":"Pod","kind":"Pod"`, 1), false},
		{"YAML duplicate field", strings.Replace(py("x", "80"), "  name: p\n", "  name: p\n  name: p\n", 1), false},
		{"JSON null field", strings.Replace(pj(`"x"`, "80"), `"spec":`, `"status":null,"spec":`, 1), true},
		{"YAML anchors and aliases", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: &l {app: x}\n  annotations: *l\n", true},
		{"YAML merge key", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    <<: {app: x}\n    tier: web\n", true},
		{"YAML after a byte order mark", "\ufeff" + py("x", "80"), true},
		{"JSON after a byte order mark (YAML to kubectl)", "\ufeff" + pj(`"x"`, "80"), true},
		{"JSON with \\/ after a byte order mark (YAML to kubectl: go-yaml refuses the escape)", "\ufeff" + pj(`"http:\/\/x"`, "80"), false},
		{"byte order mark inside a JSON stream", pj(`"x"`, "80") + "\n\ufeff" + strings.Replace(pj(`"x"`, "80"), `"p"`, `"q"`, 1), true},
		{"JSON stream (jq -c)", pj(`"x"`, "80") + "\n" + strings.Replace(pj(`"x"`, "80"), `"p"`, `"q"`, 1) + "\n", true},
		{"JSON stream without separators", pj(`"x"`, "80") + strings.Replace(pj(`"x"`, "80"), `"p"`, `"q"`, 1), true},
		{"JSON stream with a bad third object", strings.Repeat(pj(`"x"`, "80")+"\n", 2) + `{"a":`, false},
		{"JSON object then YAML documents", pj(`"x"`, "80") + "\n---\n" + strings.Replace(py("x", "80"), "name: p", "name: q", 1), true},
		{"multi-document YAML", "---\n" + py("x", "80") + "---\n# nothing\n---\n" + strings.Replace(py("x", "80"), "name: p", "name: q", 1), true},
		{"YAML flow mapping", "{apiVersion: v1, kind: Pod, metadata: {name: p}}\n", true},
		{"v1 List (kubectl get -o json)", `{"apiVersion":"v1","items":[` + pj(`"x"`, "80") + `],"kind":"List","metadata":{"resourceVersion":""}}`, true},
		{"v1 List, YAML", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n", true},
		{"v1 List with a kindless item", `{"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"p"}}]}`, false},
		{"v1 List with an unknown field", `{"apiVersion":"v1","kind":"List","items":[],"extra":1}`, false},
		{"v1 List with a bad item", `{"apiVersion":"v1","kind":"List","items":[` + pj(`"x"`, "80.0") + `]}`, false},
		{"PodList (the API server's order)", podList, true},
		{"PodList, kind after the items (jq -S)", `{"apiVersion":"v1","items":[{"metadata":{"name":"a"}}],"kind":"PodList","metadata":{}}`, true},
		{"PodList, YAML", "apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: a}\n", true},
		{"PodList with an unknown item field", strings.Replace(podList, `"name":"b"}`, `"name":"b"},"x":1`, 1), false},
		{"PodList with a duplicate envelope field", strings.Replace(podList, `"kind":"PodList",`, `"kind":"PodList","kind":"PodList",`, 1), false},
		{"Service with a top-level items field", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"items":[],"spec":{"ports":[{"port":80}]}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ours, oursErr, ref, refErr := decodeBoth([]byte(tc.in))
			if (refErr == nil) != tc.ok {
				t.Errorf("the API server's decoder: error %v, want accepted %v", refErr, tc.ok)
			}
			if (oursErr == nil) != (refErr == nil) {
				t.Fatalf("DecodeObjects error %v, the API server's decoder's %v", oursErr, refErr)
			}
			if oursErr == nil && !apiequality.Semantic.DeepEqual(ours, ref) {
				t.Errorf("objects differ:\n ours %+v\n  ref %+v", ours, ref)
			}
		})
	}
}

// FuzzDecodeLikeAPIServer compares DecodeObjects with the API server's
// decoder (apiServerDecode) on any input: what DecodeObjects accepts, the
// API server's decoder accepts, as the same objects; what the API server's
// decoder accepts, DecodeObjects accepts unless the API server's
// validation would refuse it (field errors, a misspelt built-in kind).
func FuzzDecodeLikeAPIServer(f *testing.F) {
	for _, s := range []string{pj(`"x"`, "80"), pj(`"http:\/\/x"`, "80.0"), py("x", "80"), "\ufeff" + py("x", "80"),
		`{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"a"}}]}`,
		`{"apiVersion":"v1","items":[` + pj(`"x"`, "80") + `],"kind":"List"}`,
		pj(`"x"`, "80") + "\n---\n" + py("y", "81"), "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: &l {app: x}\n  annotations: *l\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ours, oursErr, ref, refErr := decodeBoth(data)
		switch {
		case oursErr == nil && refErr != nil:
			t.Fatalf("DecodeObjects accepts what the API server's decoder refuses (%v):\n%q", refErr, data)
		case oursErr != nil && refErr == nil && !validationOnly(oursErr):
			t.Fatalf("DecodeObjects refuses (%v) what the API server's decoder accepts:\n%q", oursErr, data)
		case oursErr == nil && !apiequality.Semantic.DeepEqual(ours, ref):
			t.Fatalf("objects differ:\n ours %+v\n  ref %+v\ninput %q", ours, ref, data)
		}
	})
}

// validationOnly reports whether every error joined in err is the API
// server's validation (a field error, a kind its API version lacks) or an
// object given twice, rather than decoding.
func validationOnly(err error) bool {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var fe *field.Error
		if !errors.As(e, &fe) && !strings.Contains(e.Error(), "has no kind") {
			return false
		}
	}
	return true
}

func bufioReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
