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
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestDecode(t *testing.T) {
	const svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: ns\nspec:\n  clusterIP: None\n"
	for _, tc := range []struct {
		name string
		in   string
		// want lists "Kind namespace/name @document[.item]" of the objects.
		want []string
		// wantIgnored lists the ignored objects' notes.
		wantIgnored []string
		// wantErr and wantErr2 are parts of the error; "" means none.
		wantErr, wantErr2 string
	}{
		{name: "empty", in: "", want: nil},
		{name: "comments and separators only", in: "# nothing\n---\n---\n# still nothing\n", want: nil},
		{name: "one object", in: svc, want: []string{"Service ns/s @1"}},
		{name: "multi-document", in: "---\n" + svc + "---\n# c\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n", want: []string{"Service ns/s @1", "Node node-1 @3"}},
		{name: "JSON", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}`, want: []string{"Pod default/p @1"}},
		{name: "JSON stream (jq -c)", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}` + "\n" + `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"q"}}` + "\n",
			want: []string{"Pod default/p @1", "Pod default/q @2"}},
		{name: "JSON after a byte order mark (YAML to kubectl)", in: "\ufeff" + `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}`, want: []string{"Namespace a @1"}},
		{name: "truncated JSON stream", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}` + "\n" + `{"apiVersion":`, wantErr: "in.yaml: document 2: invalid YAML"},
		{name: "JSON stream broken after two objects", in: strings.Repeat(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}`, 2) + "\n" + `{"apiVersion":`, wantErr: "in.yaml: document 3: invalid JSON after object 2 of a JSON stream"},
		{name: "JSON object then YAML (as kubectl)", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}` + "\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: q\n", want: []string{"Pod default/p @1", "Pod default/q @2"}},
		{name: "default namespace", in: "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: e\n", want: []string{"Endpoints default/e @1"}},
		{name: "cluster-scoped namespace dropped", in: "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n  namespace: x\n", want: []string{"Node node-1 @1"}},
		{name: "every kind", in: strings.Join([]string{
			"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n",
			"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n",
			svc,
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\n",
			"apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: s\n  namespace: ns\n",
			"apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: s-1\n  namespace: ns\naddressType: IPv4\nendpoints: []\n",
		}, "---\n"), want: []string{"Namespace ns @1", "Node node-1 @2", "Service ns/s @3", "Pod ns/p @4", "Endpoints ns/s @5", "EndpointSlice ns/s-1 @6"}},
		{name: "List", in: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: b\n",
			want: []string{"Node a @1.1", "Node b @1.2"}},

		{name: "malformed YAML", in: svc + "---\nkind: [\n", wantErr: "in.yaml: document 2: invalid YAML: yaml: line 1: did not find expected node content"},
		{name: "not an object", in: "- a\n- b\n", wantErr: "in.yaml: document 1: not an object"},
		{name: "missing kind", in: "apiVersion: v1\nmetadata:\n  name: x\n", wantErr: `in.yaml: document 1: apiVersion and kind are required (got apiVersion "v1", kind "")`},
		{name: "unknown kind is ignored", in: svc + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
			want: []string{"Service ns/s @1"}, wantIgnored: []string{"ignored in.yaml document 2: v1 ConfigMap c: not a kind slicekit reads (EndpointSlice, Endpoints, Namespace, Node, Pod, Service)"}},
		{name: "custom resource is ignored", in: "apiVersion: slicekit.dev/v1alpha1\nkind: CELProfiles\nprofiles: []\n",
			wantIgnored: []string{"ignored in.yaml document 1: slicekit.dev/v1alpha1 CELProfiles: not a kind slicekit reads (EndpointSlice, Endpoints, Namespace, Node, Pod, Service)"}},
		{name: "other version is ignored", in: "apiVersion: discovery.k8s.io/v1beta1\nkind: EndpointSlice\nmetadata:\n  name: x\n",
			wantIgnored: []string{"ignored in.yaml document 1: discovery.k8s.io/v1beta1 EndpointSlice x: slicekit reads EndpointSlice only in discovery.k8s.io/v1"}},
		{name: "misspelt built-in kind is an error", in: "apiVersion: v1\nkind: Servce\nmetadata:\n  name: s\n",
			wantErr: `in.yaml: document 1: Servce: apiVersion v1 has no kind "Servce" (the API server would reject it`},
		{name: "misspelt kind in a built-in group is an error", in: "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlise\nmetadata:\n  name: s\n",
			wantErr: `apiVersion discovery.k8s.io/v1 has no kind "EndpointSlise"`},
		{name: "other built-in kind is ignored", in: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n",
			wantIgnored: []string{"ignored in.yaml document 1: apps/v1 Deployment d: not a kind slicekit reads (EndpointSlice, Endpoints, Namespace, Node, Pod, Service)"}},
		{name: "same port name in two containers", in: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\nspec:\n  containers:\n  - name: a\n    ports:\n    - {name: dns, containerPort: 53, protocol: UDP}\n  - name: b\n    ports:\n    - {name: dns, containerPort: 53, protocol: TCP}\n",
			want: []string{"Pod ns/p @1"}},
		{name: "same port name twice in one container", in: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\nspec:\n  containers:\n  - name: a\n    ports:\n    - {name: dns, containerPort: 53, protocol: UDP}\n    - {name: dns, containerPort: 54, protocol: TCP}\n",
			wantErr: `spec.containers[0].ports[1].name: Duplicate value: "dns"`},
		{name: "Service name starting with a digit (KEP-5311, Kubernetes 1.37)", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: 1web\n  namespace: ns\nspec:\n  clusterIP: None\n",
			want: []string{"Service ns/1web @1"}},
		{name: "Service name that is no DNS-1123 label", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: web.a\n  namespace: ns\n",
			wantErr: `in.yaml: document 1: Service ns/web.a: metadata.name: Invalid value: "web.a"`},
		// kubectl's resource builder flattens Lists inside Lists
		// (cli-runtime FlattenListVisitor); their items keep the outer
		// item's number.
		{name: "List inside a List", in: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: NodeList\n    items:\n    - metadata:\n        name: b\n    - metadata:\n        name: c\n",
			want: []string{"Node a @1.1", "Node b @1.2", "Node c @1.2"}},
		{name: "List inside a List, JSON (streamed items)", in: `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"b"}}]},{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}}]}`,
			want: []string{"Node b @1.1", "Node a @1.2"}},
		{name: "bad item of a List inside a List", in: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: Node\n    metadata:\n      name: b\n    spek: {}\n",
			wantErr: `in.yaml: document 1, item 2: Node: unknown field "spek"`},
		{name: "typed list", in: "apiVersion: v1\nkind: NodeList\nitems:\n- metadata:\n    name: a\n", want: []string{"Node a @1.1"}},
		{name: "invalid selector key", in: svc + "  selector:\n    'bad key!': x\n",
			wantErr: `in.yaml: document 1: Service ns/s: spec.selector: Invalid value: "bad key!"`},
		{name: "every invalid object is reported", in: "apiVersion: v1\nkind: Node\nmetadata:\n  name: Bad_Name\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nstatus:\n  podIP: 10.0.0.300\n",
			wantErr: "in.yaml: document 1: Node Bad_Name: metadata.name: Invalid value: \"Bad_Name\"", wantErr2: "in.yaml: document 2: Pod default/p: status.podIP: Invalid value: \"10.0.0.300\""},
		// The API server's create validation and IP family allocation
		// (pkg/apis/core/validation, pkg/registry/core/service/storage/alloc.go).
		{name: "two IP families without policy (SingleStack on create)", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: [{port: 80}]\n  ipFamilies: [IPv4, IPv6]\n",
			wantErr: "spec.ipFamilyPolicy: Invalid value: null: must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"},
		{name: "two IP families, SingleStack", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: [{port: 80}]\n  ipFamilyPolicy: SingleStack\n  ipFamilies: [IPv4, IPv6]\n",
			wantErr: "when multiple IP families are specified"},
		{name: "two IP families, PreferDualStack", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: ns\nspec:\n  ports: [{port: 80}]\n  ipFamilyPolicy: PreferDualStack\n  ipFamilies: [IPv4, IPv6]\n",
			want: []string{"Service ns/s @1"}},
		{name: "headless selectorless Service: RequireDualStack by default", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: ns\nspec:\n  clusterIP: None\n  ipFamilies: [IPv4, IPv6]\n",
			want: []string{"Service ns/s @1"}},
		{name: "two cluster IPs of one family", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: [{port: 80}]\n  ipFamilyPolicy: PreferDualStack\n  clusterIP: 10.96.0.5\n  clusterIPs: [10.96.0.5, 10.96.0.6]\n",
			wantErr: "spec.clusterIPs: Invalid value: [\"10.96.0.5\",\"10.96.0.6\"]: may specify no more than one IP for each IP family"},
		{name: "two cluster IPs without policy", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: [{port: 80}]\n  clusterIP: 10.96.0.5\n  clusterIPs: [10.96.0.5, fd00:10:96::5]\n",
			wantErr: "when multiple cluster IPs are specified"},
		{name: "cluster IP with a leading zero (strict on create)", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: [{port: 80}]\n  clusterIP: 10.96.0.010\n",
			wantErr: `spec.clusterIP: Invalid value: "10.96.0.010"`},
		{name: "IPv4-mapped Pod IP (strict)", in: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nstatus:\n  podIP: \"::ffff:10.244.0.5\"\n",
			wantErr: `status.podIP: Invalid value: "::ffff:10.244.0.5"`},
		{name: "unknown field", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  selektor: {}\n", wantErr: `in.yaml: document 1: Service: unknown field "spec.selektor"`},
		{name: "case matters", in: "apiVersion: v1\nkind: Service\nMetadata:\n  name: s\n", wantErr: `unknown field "Metadata"`},
		{name: "duplicate field", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  name: t\n", wantErr: `in.yaml: document 1: invalid YAML`},
		{name: "wrong type", in: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: 80\n", wantErr: "in.yaml: document 1: Service:"},
		{name: "no name", in: "apiVersion: v1\nkind: Pod\nmetadata:\n  namespace: ns\n", wantErr: "in.yaml: document 1: Pod ns/: metadata.name: Required value"},
		{name: "bad List item", in: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: b\n  spek: {}\n",
			wantErr: `in.yaml: document 1, item 2: Node: unknown field "spek"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, ignored, err := DecodeObjects("in.yaml", []byte(tc.in), nil)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("no error, want %q", tc.wantErr)
				}
				if !IsInputError(err) {
					t.Errorf("error %T is not an *InputError", err)
				}
				if !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.wantErr2) {
					t.Errorf("error:\n  %v\nwant it to contain:\n  %s\n  %s", err, tc.wantErr, tc.wantErr2)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range objs {
				loc := o.File + "@" + string(rune('0'+o.Document))
				if o.Item > 0 {
					loc += "." + string(rune('0'+o.Item))
				}
				got = append(got, displayKey(o.Object)+" "+strings.TrimPrefix(loc, "in.yaml"))
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("objects (-want +got):\n%s", d)
			}
			var gotIgnored []string
			for _, ig := range ignored {
				gotIgnored = append(gotIgnored, ig.String())
			}
			if d := cmp.Diff(tc.wantIgnored, gotIgnored); d != "" {
				t.Errorf("ignored (-want +got):\n%s", d)
			}
			for _, o := range objs {
				if o.GetObjectKind().GroupVersionKind().Kind == "" {
					t.Errorf("%s: TypeMeta not set", displayKey(o.Object))
				}
			}
		})
	}
}

// TestEmptySelectorDropped: `selector: {}` reads as no selector, as the API
// server stores it (the Service is selectorless: mirrored, not selected).
func TestEmptySelectorDropped(t *testing.T) {
	objs, _, err := DecodeObjects("in.yaml", []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: [{port: 80}]\n  selector: {}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: t\nspec:\n  ports: [{port: 80}]\n  selector: {app: t}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sel := objs[0].Object.(*corev1.Service).Spec.Selector; sel != nil {
		t.Errorf("selector: {} read as %#v, want nil", sel)
	}
	if sel := objs[1].Object.(*corev1.Service).Spec.Selector; len(sel) != 1 {
		t.Errorf("selector {app: t} read as %#v", sel)
	}
}

// TestDecodeYAML11Scalars documents a quirk shared with kubectl: YAML is
// converted to JSON without looking at the target type, so an unquoted
// y/n/yes/no/on/off is a boolean.
func TestDecodeYAML11Scalars(t *testing.T) {
	_, _, err := DecodeObjects("x", []byte("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "cannot unmarshal bool") {
		t.Errorf("error = %v", err)
	}
	if _, _, err := DecodeObjects("x", []byte("apiVersion: v1\nkind: Node\nmetadata:\n  name: \"n\"\n"), nil); err != nil {
		t.Errorf("quoted: %v", err)
	}
}

func TestDecodeTypes(t *testing.T) {
	objs, _, err := DecodeObjects("x", []byte("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nstatus:\n  podIPs:\n  - ip: 10.0.0.1\n---\napiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: e\naddressType: IPv6\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	pod, ok := objs[0].Object.(*corev1.Pod)
	if !ok || pod.Status.PodIPs[0].IP != "10.0.0.1" {
		t.Errorf("pod = %#v", objs[0].Object)
	}
	es, ok := objs[1].Object.(*discovery.EndpointSlice)
	if !ok || es.AddressType != discovery.AddressTypeIPv6 {
		t.Errorf("slice = %#v", objs[1].Object)
	}
}

func TestReadObjects(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n")
	b := write("b.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n2\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n")
	stdin := "apiVersion: v1\nkind: Node\nmetadata:\n  name: n3\n"

	t.Run("files and stdin in order", func(t *testing.T) {
		objs, _, err := ReadObjects([]string{a, StdinName}, strings.NewReader(stdin), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range objs {
			m, _ := meta.Accessor(o.Object)
			got = append(got, filepath.Base(o.File)+":"+m.GetName())
		}
		if d := cmp.Diff([]string{"a.yaml:n1", "<stdin>:n3"}, got); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
	})
	t.Run("identical duplicate across files is kept once", func(t *testing.T) {
		objs, _, err := ReadObjects([]string{a, b}, nil, nil)
		if err != nil || len(objs) != 2 {
			t.Errorf("objects %d, error %v; want 2 objects (n1 once, n2)", len(objs), err)
		}
	})
	t.Run("different duplicate across files", func(t *testing.T) {
		c := write("c.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    a: b\n")
		_, _, err := ReadObjects([]string{a, c}, nil, nil)
		want := c + `: document 1: Node n1: given twice with different content (first in ` + a + ` document 1)`
		if err == nil || err.Error() != want {
			t.Errorf("error = %v\nwant      %s", err, want)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		_, _, err := ReadObjects([]string{filepath.Join(dir, "nope.yaml")}, nil, nil)
		var ie *InputError
		if !errors.As(err, &ie) || !errors.Is(err, os.ErrNotExist) {
			t.Errorf("error = %v, want an InputError wrapping ErrNotExist", err)
		}
	})
	t.Run("stdin twice", func(t *testing.T) {
		_, _, err := ReadObjects([]string{StdinName, StdinName}, strings.NewReader(stdin), nil)
		if err == nil || !strings.Contains(err.Error(), "more than once") {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("no file", func(t *testing.T) {
		if _, _, err := ReadObjects(nil, nil, nil); !IsInputError(err) {
			t.Errorf("error = %v", err)
		}
	})
}

// TestRegressionCasesAreValid: the regression cases' objects were accepted
// by a real API server (or stand for objects it accepts), so the
// validation must accept every one of them: a rule stricter than the API
// server's rejects real clusters' objects (case 23 has two containers that
// both name a port "dns").
func TestRegressionCasesAreValid(t *testing.T) {
	// input.yaml only: expected.yaml omits server-assigned names by the
	// cases' convention.
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "cases", "*", "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		n++
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := DecodeObjects(f, data, nil); err != nil {
				t.Errorf("rejected: %v", err)
			}
		})
	}
	if n < 20 {
		t.Errorf("found %d input.yaml files under testdata/cases, want every regression case's", n)
	}
}

// TestEndpointSlicePortWithoutProtocol: the API server defaults a missing
// EndpointSlice port protocol to TCP before validating, so the input is
// valid; DefaultProtocols then sets it (and an unknown protocol is still
// an error).
func TestEndpointSlicePortWithoutProtocol(t *testing.T) {
	const slice = "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: s-1\n  namespace: ns\naddressType: IPv4\nendpoints: []\nports:\n- {name: http, port: 80%s}\n"
	objs, _, err := DecodeObjects("in.yaml", []byte(fmt.Sprintf(slice, "")), nil)
	if err != nil {
		t.Fatalf("a port without protocol is rejected: %v", err)
	}
	in := []runtime.Object{objs[0].Object}
	if n := DefaultProtocols(in); n != 1 {
		t.Errorf("DefaultProtocols defaulted %d ports, want 1", n)
	}
	if p := in[0].(*discovery.EndpointSlice).Ports[0].Protocol; p == nil || *p != corev1.ProtocolTCP {
		t.Errorf("protocol %v, want TCP", p)
	}
	if _, _, err := DecodeObjects("in.yaml", []byte(fmt.Sprintf(slice, ", protocol: QUIC")), nil); err == nil || !strings.Contains(err.Error(), "ports[0].protocol") {
		t.Errorf("an unknown protocol is not reported: %v", err)
	}
}
