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
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/inputfile"
)

const svcYAML = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: ns}
spec: {selector: {app: web}, ports: [{port: 80}]}
`

func kinds(objs []runtime.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, inputfile.ObjectKey(o))
	}
	return out
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr string
	}{
		{name: "one object", in: svcYAML, want: []string{"v1 Service ns/web"}},
		{name: "JSON stream (jq -c)", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"}}` + "\n" + `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"q","namespace":"ns"}}`,
			want: []string{"v1 Pod ns/p", "v1 Pod ns/q"}},
		{name: "empty documents and comments", in: "# nothing\n---\n---\n" + svcYAML + "---\n", want: []string{"v1 Service ns/web"}},
		{
			name: "v1 List of mixed kinds",
			in: `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: ns}}
- {apiVersion: discovery.k8s.io/v1, kind: EndpointSlice, metadata: {name: s, namespace: ns}, addressType: IPv4}
- {apiVersion: apps/v1, kind: Deployment, metadata: {name: d, namespace: ns}, spec: {replicas: 1}}
`,
			want: []string{"v1 Pod ns/p", "discovery.k8s.io/v1 EndpointSlice ns/s", "apps/v1 Deployment ns/d"},
		},
		{
			name: "typed list",
			in: `apiVersion: discovery.k8s.io/v1
kind: EndpointSliceList
items:
- {metadata: {name: a, namespace: ns}, addressType: IPv4}
- {metadata: {name: b, namespace: ns}, addressType: IPv6}
`,
			want: []string{"discovery.k8s.io/v1 EndpointSlice ns/a", "discovery.k8s.io/v1 EndpointSlice ns/b"},
		},
		{name: "JSON", in: `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}`, want: []string{"v1 Node n"}},
		{name: "other kinds are kept as metadata", in: "apiVersion: k8s.cni.cncf.io/v1\nkind: NetworkAttachmentDefinition\nmetadata: {name: net, namespace: ns}\nspec: {config: '{}'}\n",
			want: []string{"k8s.cni.cncf.io/v1 NetworkAttachmentDefinition ns/net"}},
		{name: "unknown field", in: strings.Replace(svcYAML, "selector:", "selektor:", 1), wantErr: `document 1: Service: unknown field "spec.selektor"`},
		{name: "case mismatch", in: strings.Replace(svcYAML, "selector:", "Selector:", 1), wantErr: "document 1: Service"},
		{name: "duplicate key", in: svcYAML + "spec: {}\n", wantErr: "document 1: invalid YAML"},
		{name: "no kind", in: "apiVersion: v1\nmetadata: {name: x}\n", wantErr: "apiVersion and kind are required"},
		{name: "no name", in: "apiVersion: v1\nkind: Pod\nmetadata: {namespace: ns}\n", wantErr: "metadata.name: Required value"},
		{name: "bad item in a List", in: "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}, spek: {}}\n", wantErr: "document 1, item 1: Pod: unknown field"},
		{name: "invalid selector", in: strings.Replace(svcYAML, "app: web", "'bad key!': web", 1), wantErr: `document 1: Service ns/web: spec.selector: Invalid value: "bad key!"`},
		{name: "not an object", in: "- a\n- b\n", wantErr: "not an object"},
		{name: "second document broken", in: svcYAML + "---\nkind: [\n", wantErr: "f.yaml: document 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := Decode("f.yaml", []byte(tc.in), builtinKinds())
			if tc.wantErr != "" {
				var ie *InputError
				if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Decode error = %v, want an *InputError containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, kinds(objs)); d != "" {
				t.Errorf("objects (-want +got):\n%s", d)
			}
		})
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml", svcYAML)
	b := write("b.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n")
	write("d/1.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: ns}\n")
	write("d/2.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p2","namespace":"ns"}}`)
	write("d/README.md", "not read")

	objs, _, err := ReadFiles([]string{a, "-", filepath.Join(dir, "d")}, strings.NewReader(string(mustRead(t, b))), builtinKinds())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"v1 Service ns/web", "v1 Pod ns/p", "v1 Pod ns/p1", "v1 Pod ns/p2"}
	if d := cmp.Diff(want, kinds(objs)); d != "" {
		t.Errorf("objects (-want +got):\n%s", d)
	}

	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"different duplicate object", []string{a, write("a2.yaml", strings.Replace(svcYAML, "port: 80", "port: 81", 1))}, "given twice with different content (first in " + a + " document 1)"},
		{"stdin twice", []string{"-", "-"}, "standard input given more than once"},
		{"missing file", []string{filepath.Join(dir, "nope.yaml")}, "no such file"},
		{"no file", nil, "no input file given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadFiles(tc.files, strings.NewReader("apiVersion: v1\nkind: List\nitems: []\n"), builtinKinds())
			var ie *InputError
			if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadFiles error = %v, want an *InputError containing %q", err, tc.want)
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInventory(t *testing.T) {
	f := newFixture()
	other := f.pod.DeepCopy()
	other.Namespace = "ns2"
	inv := NewInventory(append(f.objects(), other, &metav1.PartialObjectMetadata{}))
	if inv.Ignored != 1 || !inv.Have.Services || !inv.Have.Pods || !inv.Have.Nodes || !inv.Have.Endpoints {
		t.Errorf("inventory: ignored %d, have %+v", inv.Ignored, inv.Have)
	}
	in := inv.InNamespace("ns2")
	if len(in.Pods) != 1 || len(in.Services) != 0 || len(in.EndpointSlices) != 0 || len(in.Nodes) != 1 || !in.Have.Services {
		t.Errorf("InNamespace(ns2): %+v", in.counts())
	}
	if inv.InNamespace("") != inv {
		t.Error("InNamespace(\"\") should return the inventory itself")
	}
}

func TestLoadCluster(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	f := newFixture()
	client := fake.NewClientset(append(f.objects(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})...)
	inv, err := LoadCluster(ctx, client, ns, builtinKinds())
	if err != nil {
		t.Fatal(err)
	}
	got := inv.counts()
	want := Counts{Services: 3, Pods: 1, Nodes: 1, Endpoints: 1, EndpointSlices: 2}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("counts (-want +got):\n%s", d)
	}
	if rep := Check(ctx, inv, builtinConfig(Config{})); len(rep.Findings) != 0 {
		t.Errorf("findings on the consistent fixture: %v", rep.Findings)
	}

	// Nodes may be forbidden: the zone rule is skipped.
	client = fake.NewClientset(f.objects()...)
	client.PrependReactor("list", "nodes", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "nodes"}, "", errors.New("no"))
	})
	inv, err = LoadCluster(ctx, client, "", builtinKinds())
	if err != nil {
		t.Fatal(err)
	}
	if inv.Have.Nodes || !inv.Have.Pods {
		t.Errorf("have = %+v, want nodes missing and pods present", inv.Have)
	}

	// Other errors fail the load.
	client = fake.NewClientset()
	client.PrependReactor("list", "endpointslices", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("connection refused")
	})
	var ie *InputError
	if _, err := LoadCluster(ctx, client, "", builtinKinds()); !errors.As(err, &ie) {
		t.Errorf("LoadCluster error = %v, want *InputError", err)
	}
}

// TestNamespaceInInput: -n on a dump names a namespace the dump has (as
// a Namespace object or as any object's namespace), or the check fails as
// it does on a cluster; the error names the namespaces the dump has.
func TestNamespaceInInput(t *testing.T) {
	svc := func(ns string) runtime.Object {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}}
	}
	nsObj := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "empty"}}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	var many []runtime.Object
	for i := range 12 {
		many = append(many, svc(string(rune('a'+i))))
	}
	tests := []struct {
		name      string
		objs      []runtime.Object
		namespace string
		wantErr   string
	}{
		{name: "no -n", objs: []runtime.Object{svc("shop")}},
		{name: "no objects", namespace: "shop"},
		{name: "an object of it", objs: []runtime.Object{svc("demo"), svc("shop")}, namespace: "shop"},
		{name: "its Namespace object only", objs: []runtime.Object{svc("demo"), nsObj}, namespace: "empty"},
		{name: "a typo", objs: []runtime.Object{svc("shop"), svc("demo"), nsObj}, namespace: "shpo",
			wantErr: `namespace "shpo" does not exist in the input (its namespaces: demo, empty, shop)`},
		{name: "cluster-scoped objects only", objs: []runtime.Object{node}, namespace: "shop",
			wantErr: `namespace "shop" does not exist in the input: it has no namespaced object`},
		{name: "ten namespaces named", objs: many, namespace: "z",
			wantErr: `(its namespaces: a, b, c, d, e, f, g, h, i, j and 2 more)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := namespaceInInput(tc.objs, tc.namespace)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error = %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestLoadClusterNamespace: a namespace that does not exist is an error
// (its lists would be empty, a clean check); one the caller may not get is
// checked anyway.
func TestLoadClusterNamespace(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	forbidden := func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "namespaces"}, ns, errors.New("no"))
	}
	for _, tc := range []struct {
		name      string
		namespace string
		getNS     k8stesting.ReactionFunc
		wantErr   string
	}{
		{name: "exists", namespace: ns},
		{name: "does not exist", namespace: "no-such-ns", wantErr: `cluster: namespace "no-such-ns" does not exist`},
		{name: "may not get it", namespace: "no-such-ns", getNS: forbidden},
		{name: "all namespaces", namespace: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := fake.NewClientset(append(newFixture().objects(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})...)
			if tc.getNS != nil {
				client.PrependReactor("get", "namespaces", tc.getNS)
			}
			_, err := LoadCluster(ctx, client, tc.namespace, builtinKinds())
			var ie *InputError
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("LoadCluster: %v", err)
			case tc.wantErr != "" && (!errors.As(err, &ie) || err.Error() != tc.wantErr):
				t.Errorf("LoadCluster error = %v, want *InputError %q", err, tc.wantErr)
			}
		})
	}
}

// TestLoadClusterPages checks that LoadCluster lists in pages of
// listPageSize and follows the continue tokens to the last page.
func TestLoadClusterPages(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	pages := [][]corev1.Pod{{{}, {}}, {{}}, {}}
	var tokens []string
	n := 0
	client := fake.NewClientset()
	client.PrependReactor("list", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		o := a.(k8stesting.ListActionImpl).GetListOptions()
		tokens = append(tokens, o.Continue)
		if o.Limit != listPageSize {
			t.Errorf("limit = %d", o.Limit)
		}
		l := &corev1.PodList{Items: pages[n]}
		n++
		if n < len(pages) {
			l.Continue = string(rune('a' + n))
		}
		return true, l, nil
	})
	inv, err := LoadCluster(ctx, client, "", builtinKinds())
	if err != nil || len(inv.Pods) != 3 || strings.Join(tokens, ",") != ",b,c" {
		t.Errorf("LoadCluster = %d Pods, %v; tokens %q", len(inv.Pods), err, tokens)
	}
}
