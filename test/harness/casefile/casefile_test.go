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

package casefile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

func TestCasesDir(t *testing.T) {
	t.Run("found from the package folder", func(t *testing.T) {
		t.Setenv(EnvCases, "")
		d, err := CasesDir()
		if err != nil {
			t.Fatalf("CasesDir: %v (the regression cases are the repository's testdata/cases)", err)
		}
		if filepath.Base(d) != "cases" || filepath.Base(filepath.Dir(d)) != "testdata" {
			t.Errorf("CasesDir = %s", d)
		}
	})
	t.Run("environment variable wins", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv(EnvCases, dir)
		d, err := CasesDir()
		if err != nil || d != dir {
			t.Errorf("CasesDir = %q, %v; want %q", d, err, dir)
		}
	})
	t.Run("environment variable must exist", func(t *testing.T) {
		t.Setenv(EnvCases, filepath.Join(t.TempDir(), "missing"))
		if _, err := CasesDir(); err == nil {
			t.Error("want an error")
		}
	})
	t.Run("testdata/cases without go.mod is not the module root", func(t *testing.T) {
		t.Setenv(EnvCases, "")
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "testdata", "cases"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		if d, err := CasesDir(); err == nil {
			t.Errorf("CasesDir = %q, want an error", d)
		}
	})
	t.Run("missing everywhere", func(t *testing.T) {
		t.Setenv(EnvCases, "")
		t.Chdir(t.TempDir())
		if _, err := CasesDir(); err == nil || !strings.Contains(err.Error(), EnvCases) {
			t.Errorf("want an error naming %s, got %v", EnvCases, err)
		}
	})
}

func TestFindCase(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"01-a", "02-b", "02-c", "10-d"} {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]string{"01": "01-a", "01-a": "01-a", "10": "10-d"} {
		got, err := FindCase(dir, id)
		if err != nil || filepath.Base(got) != want {
			t.Errorf("FindCase(%q) = %q, %v; want %s", id, got, err, want)
		}
	}
	for _, id := range []string{"02", "1", "99", "0"} {
		if _, err := FindCase(dir, id); err == nil {
			t.Errorf("FindCase(%q): want an error", id)
		}
	}
}

// Every case of testdata/cases decodes strictly and has valid steps.
func TestLoadAllCases(t *testing.T) {
	dir := MustCasesDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		c, err := Load(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Errorf("case %s: %v", e.Name(), err)
			continue
		}
		if len(c.Input) == 0 {
			t.Errorf("case %s: empty input", e.Name())
		}
		for i := range c.Steps {
			if cp := c.Steps[i].Checkpoint; cp != nil && cp.File != "" {
				if _, err := ReadSlices(filepath.Join(c.Dir, cp.File)); err != nil {
					t.Errorf("case %s: %v", e.Name(), err)
				}
			}
		}
	}
	if n == 0 {
		t.Errorf("no case in %s", dir)
	}
}

func TestDecodeObjects(t *testing.T) {
	good := `
# comment
apiVersion: v1
kind: Service
metadata: {name: s, namespace: ns}
spec: {clusterIP: None}
---
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: e, namespace: ns}
addressType: IPv4
endpoints: []
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: p1}
- {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSliceList
items:
- metadata: {name: e2}
  addressType: IPv6
  endpoints: []
`
	objs, err := DecodeObjects([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		r, err := RefOf(o)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.APIVersion+" "+r.String())
	}
	want := []string{"v1 Service/ns/s", "discovery.k8s.io/v1 EndpointSlice/ns/e", "v1 Pod/p1", "v1 Node/n1", "discovery.k8s.io/v1 EndpointSlice/e2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	if _, ok := objs[0].(*corev1.Service); !ok {
		t.Errorf("object 0 is %T", objs[0])
	}

	// Custom resources are kept unstructured, and can be patched.
	cr, err := DecodeObjects([]byte("apiVersion: k8s.cni.cncf.io/v1\nkind: NetworkAttachmentDefinition\nmetadata: {name: net, namespace: ns}\nspec: {config: '{}'}\n"))
	if err != nil || len(cr) != 1 {
		t.Fatalf("custom resource: %v, %v", cr, err)
	}
	w := NewWorld(cr)
	ref := Ref{APIVersion: "k8s.cni.cncf.io/v1", Kind: "NetworkAttachmentDefinition", Namespace: "ns", Name: "net"}
	if err := w.Patch(&Patch{Ref: ref, Patch: []byte(`{"spec":{"config":"x"}}`)}); err != nil {
		t.Fatal(err)
	}
	if err := w.Patch(&Patch{Ref: ref, Type: "strategic", Patch: []byte(`{}`)}); err == nil {
		t.Error("strategic patch of a custom resource: want an error")
	}
	got2, err := w.Get(ref)
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := unstructured.NestedString(got2.(*unstructured.Unstructured).Object, "spec", "config"); v != "x" {
		t.Errorf("patched custom resource: %v", got2)
	}
	if _, err := DecodeObjects([]byte("apiVersion: example.com/v1\nkind: Thing\nmetadata: {}\n")); err == nil {
		t.Error("custom resource without name: want an error")
	}

	for name, doc := range map[string]string{
		"unknown field":  "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {nodeNmae: x}\n",
		"unknown kind":   "apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n",
		"no kind":        "apiVersion: v1\nmetadata: {name: w}\n",
		"duplicate key":  "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nmetadata: {name: q}\n",
		"wrong type":     "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: 3}\n",
		"bad list item":  "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}, bogus: 1}\n",
		"invalid yaml":   "apiVersion: v1\nkind: [\n",
		"unknown status": "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nstatus: {podIPz: []}\n",
	} {
		if _, err := DecodeObjects([]byte(doc)); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestParseSteps(t *testing.T) {
	st, err := ParseSteps([]byte(`
- checkpoint: expected.yaml
- note: step two
  patch: {kind: Pod, namespace: ns, name: p, subresource: status, patch: {status: {phase: Running}}}
- delete: {kind: Pod, namespace: ns, name: p}
- run: {}
- checkpoint:
    name: x
    services: [a]
    slices: []
    assert:
    - noSlice: {service: a, addressType: IPv4}
    - noAddress: {address: 10.0.0.1}
- optional: true
  resync: {kind: Service, namespace: ns, name: s}
`))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for i := range st {
		kinds = append(kinds, st[i].Kind())
	}
	if diff := cmp.Diff([]string{"checkpoint", "patch", "delete", "run", "checkpoint", "resync"}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if st[0].Checkpoint.File != "expected.yaml" || st[4].Checkpoint.Slices == nil || len(*st[4].Checkpoint.Slices) != 0 {
		t.Errorf("checkpoints: %+v %+v", st[0].Checkpoint, st[4].Checkpoint)
	}

	for name, doc := range map[string]string{
		"two verbs":                "- {run: {}, delete: {kind: Pod, name: p}}\n",
		"no verb":                  "- note: x\n",
		"unknown field":            "- run: {}\n  bogus: 1\n",
		"unknown checkpoint key":   "- checkpoint: {file: e.yaml, bogus: 1}\n",
		"patch without name":       "- patch: {kind: Pod, patch: {a: 1}}\n",
		"bad patch type":           "- patch: {kind: Pod, name: p, type: apply, patch: {a: 1}}\n",
		"bad subresource":          "- patch: {kind: Pod, name: p, subresource: scale, patch: {a: 1}}\n",
		"required after optional":  "- {optional: true, run: {}}\n- run: {}\n",
		"empty assertion":          "- checkpoint: {assert: [{note: x}]}\n",
		"noAddress without any":    "- checkpoint: {assert: [{noAddress: {service: a}}]}\n",
		"apply without kind":       "- apply: {metadata: {name: x}}\n",
		"unknown inline slice key": "- checkpoint: {slices: [{addressType: IPv4, bogus: 1}]}\n",
	} {
		if _, err := ParseSteps([]byte(doc)); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestWorld(t *testing.T) {
	objs, err := DecodeObjects([]byte(`
apiVersion: v1
kind: Pod
metadata: {name: p2, namespace: ns, labels: {app: a}}
spec: {containers: [{name: c, image: i, ports: [{name: http, containerPort: 80}]}]}
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: ns}
---
apiVersion: v1
kind: Service
metadata: {name: s, namespace: ns}
`))
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorld(objs)
	if got := names(w.Pods()); !cmp.Equal(got, []string{"p1", "p2"}) {
		t.Errorf("Pods sorted: %v", got)
	}
	// Getters return copies.
	w.Pods()[1].Labels["app"] = "changed"
	if w.Pods()[1].Labels["app"] != "a" {
		t.Error("Pods returned the stored object")
	}

	ref := Ref{Kind: "Pod", Namespace: "ns", Name: "p2"}
	steps := []Patch{
		{Ref: ref, Subresource: "status", Patch: []byte(`{"status":{"phase":"Running","podIPs":[{"ip":"10.0.0.1"}]}}`)},
		{Ref: ref, Type: "json", Patch: []byte(`[{"op":"replace","path":"/metadata/labels/app","value":"b"}]`)},
		{Ref: ref, Type: "strategic", Patch: []byte(`{"spec":{"containers":[{"name":"c","image":"i2"}]}}`)},
		{Ref: ref, Patch: []byte(`"metadata:\n  annotations:\n    a: b\n"`)}, // YAML string form
	}
	for i := range steps {
		if err := w.Patch(&steps[i]); err != nil {
			t.Fatalf("patch %d: %v", i, err)
		}
	}
	p := w.Pods()[1]
	if p.Status.Phase != corev1.PodRunning || p.Status.PodIPs[0].IP != "10.0.0.1" || p.Labels["app"] != "b" ||
		p.Spec.Containers[0].Image != "i2" || len(p.Spec.Containers[0].Ports) != 1 || p.Annotations["a"] != "b" {
		t.Errorf("patched pod: %+v", p)
	}

	for name, bad := range map[string]Patch{
		"unknown field after patch": {Ref: ref, Patch: []byte(`{"spec":{"bogus":1}}`)},
		"rename":                    {Ref: ref, Patch: []byte(`{"metadata":{"name":"other"}}`)},
		"missing object":            {Ref: Ref{Kind: "Pod", Namespace: "ns", Name: "nope"}, Patch: []byte(`{}`)},
		"bad json patch":            {Ref: ref, Type: "json", Patch: []byte(`[{"op":"remove","path":"/nope/x"}]`)},
	} {
		if err := w.Patch(&bad); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}

	if err := w.ApplyFromMap(map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": "n"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.ApplyFromMap(map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p1", "namespace": "ns", "labels": map[string]any{"x": "y"}}}); err != nil {
		t.Fatal(err)
	}
	if len(w.Nodes()) != 1 || w.Pods()[0].Labels["x"] != "y" || len(w.Pods()) != 2 {
		t.Errorf("apply: nodes %v pods %v", w.Nodes(), w.Pods())
	}
	if err := w.Delete(Ref{Kind: "Pod", Namespace: "ns", Name: "p1"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Delete(Ref{Kind: "Pod", Namespace: "ns", Name: "p1"}); err == nil {
		t.Error("second delete: want an error")
	}
	if got := names(w.Pods()); !cmp.Equal(got, []string{"p2"}) {
		t.Errorf("after delete: %v", got)
	}

	w.SetEndpointSlices([]discovery.EndpointSlice{{ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "ns"}}})
	w.SetEndpointSlices([]discovery.EndpointSlice{{ObjectMeta: metav1.ObjectMeta{Name: "f", Namespace: "ns"}}})
	if got := w.EndpointSlices(); len(got) != 1 || got[0].Name != "f" {
		t.Errorf("SetEndpointSlices: %v", got)
	}
	if _, err := w.Get(Ref{Kind: "EndpointSlice", Namespace: "ns", Name: "f"}); err != nil {
		t.Error(err)
	}
}

func names[T interface{ GetName() string }](objs []T) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetName())
	}
	return out
}

func slice(svc string, mods ...func(*discovery.EndpointSlice)) discovery.EndpointSlice {
	s := discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns",
			Labels:    map[string]string{discovery.LabelServiceName: svc, discovery.LabelManagedBy: "ctrl"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc, UID: "uid-" + "svc",
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints: []discovery.Endpoint{
			{Addresses: []string{"10.0.0.1"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)},
				TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p1"}},
			{Addresses: []string{"10.0.0.2"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(false)},
				TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p2"}},
		},
		Ports: []discovery.EndpointPort{
			{Name: ptr.To("a"), Port: ptr.To[int32](80), Protocol: ptr.To(corev1.ProtocolTCP)},
			{Name: ptr.To("b"), Port: ptr.To[int32](81), Protocol: ptr.To(corev1.ProtocolUDP)},
		},
	}
	for _, m := range mods {
		m(&s)
	}
	return s
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		expected []discovery.EndpointSlice
		actual   []discovery.EndpointSlice
		opts     CompareOptions
		wantDiff string // substring of the report; "" means equal
	}{
		{name: "identical", expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{slice("a")}},
		{name: "server fields and trigger time ignored", expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
			s.Name, s.GenerateName, s.UID, s.ResourceVersion, s.Generation = "a-xyz", "a-", "u", "7", 3
			s.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m"}}
			s.Annotations = map[string]string{TriggerTimeAnnotation: "2024-01-01T00:00:00Z"}
			s.Endpoints[0].TargetRef.UID = "uid-p1"
			s.Endpoints[0].TargetRef.ResourceVersion = "3"
		})}},
		{name: "trigger time kept on request", opts: CompareOptions{KeepTriggerTime: true}, expected: []discovery.EndpointSlice{slice("a")},
			actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
				s.Annotations = map[string]string{TriggerTimeAnnotation: "2024-01-01T00:00:00Z"}
			})}, wantDiff: "annotations: unexpected endpoints.kubernetes.io/last-change-trigger-time"},
		{name: "unordered endpoints, ports, slices", expected: []discovery.EndpointSlice{slice("a"), slice("b")}, actual: []discovery.EndpointSlice{
			slice("b"),
			slice("a", func(s *discovery.EndpointSlice) {
				s.Endpoints[0], s.Endpoints[1] = s.Endpoints[1], s.Endpoints[0]
				s.Ports[0], s.Ports[1] = s.Ports[1], s.Ports[0]
			}),
		}},
		{name: "ports [] equals null", expected: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.Ports = []discovery.EndpointPort{} })},
			actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.Ports = nil })}},
		{name: "port defaults", expected: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
			s.Ports = []discovery.EndpointPort{{Port: ptr.To[int32](80)}}
		})}, actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
			s.Ports = []discovery.EndpointPort{{Name: ptr.To(""), Port: ptr.To[int32](80), Protocol: ptr.To(corev1.ProtocolTCP)}}
		})}},
		{name: "condition differs", expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
			s.Endpoints[1].Conditions.Ready = ptr.To(true)
		})}, wantDiff: "endpoint 10.0.0.2 Pod/ns/p2 differs: conditions.ready expected false, got true"},
		{name: "unset and empty hostname differ", expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
			s.Endpoints[1].Hostname = ptr.To("")
		})}, wantDiff: "hostname expected <unset>, got "},
		{name: "label differs", expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
			s.Labels["old"] = "x"
		})}, wantDiff: `labels: unexpected old="x"`},
		{name: "extra slice", expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{slice("a"), slice("b")}, wantDiff: "unexpected slice"},
		{name: "missing slice", expected: []discovery.EndpointSlice{slice("a"), slice("b")}, actual: []discovery.EndpointSlice{slice("a")}, wantDiff: "missing slice"},
		{name: "split differs", expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{
			slice("a", func(s *discovery.EndpointSlice) { s.Endpoints = s.Endpoints[:1] }),
			slice("a", func(s *discovery.EndpointSlice) { s.Endpoints = s.Endpoints[1:] }),
		}, wantDiff: "slice"},
		{name: "union ignores the split", opts: CompareOptions{Union: true}, expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{
			slice("a", func(s *discovery.EndpointSlice) { s.Endpoints = s.Endpoints[:1] }),
			slice("a", func(s *discovery.EndpointSlice) { s.Endpoints = s.Endpoints[1:] }),
		}},
		{name: "union still compares endpoints", opts: CompareOptions{Union: true}, expected: []discovery.EndpointSlice{slice("a")}, actual: []discovery.EndpointSlice{
			slice("a", func(s *discovery.EndpointSlice) { s.Endpoints = s.Endpoints[:1] }),
		}, wantDiff: "endpoint missing: 10.0.0.2"},
		{name: "owner uid mapped", opts: CompareOptions{UIDMap: map[types.UID]types.UID{"uid-svc": "real"}},
			expected: []discovery.EndpointSlice{slice("a")},
			actual:   []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.OwnerReferences[0].UID = "real" })}},
		{name: "owner uid differs", expected: []discovery.EndpointSlice{slice("a")},
			actual:   []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.OwnerReferences[0].UID = "real" })},
			wantDiff: "ownerReferences"},
		{name: "named slice compared exactly", expected: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.Name = "keep" })},
			actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) {
				s.Name = "keep"
				s.Endpoints[0], s.Endpoints[1] = s.Endpoints[1], s.Endpoints[0]
			})}, wantDiff: "named slice ns/keep differs"},
		{name: "named slice missing", expected: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.Name = "keep" })},
			actual: []discovery.EndpointSlice{slice("a")}, wantDiff: "missing named slice ns/keep"},
		{name: "namespace ignored when expected has none", expected: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.Namespace = "" })},
			actual: []discovery.EndpointSlice{slice("a")}},
		{name: "namespace compared", expected: []discovery.EndpointSlice{slice("a")},
			actual: []discovery.EndpointSlice{slice("a", func(s *discovery.EndpointSlice) { s.Namespace = "other" })}, wantDiff: "namespace"},
		{name: "nothing expected, nothing there"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := Compare(tc.expected, tc.actual, tc.opts)
			report := strings.Join(lines, "\n")
			if tc.wantDiff == "" {
				if len(lines) > 0 {
					t.Errorf("want equal, got:\n%s", report)
				}
				return
			}
			if !strings.Contains(report, tc.wantDiff) {
				t.Errorf("want a report containing %q, got:\n%s", tc.wantDiff, report)
			}
		})
	}
}

func TestFilter(t *testing.T) {
	all := []discovery.EndpointSlice{slice("a"), slice("b"), slice("c", func(s *discovery.EndpointSlice) { s.Labels[discovery.LabelManagedBy] = "other" })}
	if got := Filter(all, nil, nil); len(got) != 3 {
		t.Errorf("no filter: %d", len(got))
	}
	if got := Filter(all, []string{"a", "c"}, nil); len(got) != 2 {
		t.Errorf("services: %d", len(got))
	}
	if got := Filter(all, nil, []string{"other"}); len(got) != 1 || got[0].Labels[discovery.LabelServiceName] != "c" {
		t.Errorf("managedBy: %v", got)
	}
}

// TestRunFakeBackend drives a tiny controller (one slice per Service, one
// endpoint per pod with label app=<service name>) through Run, covering
// steps, checkpoints, assertions and FakeBackend.
func TestRunFakeBackend(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("input.yaml", `
apiVersion: v1
kind: Service
metadata: {name: s, namespace: ns}
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: ns, labels: {app: s}}
status: {podIPs: [{ip: 10.0.0.1}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: foreign, namespace: ns, labels: {kubernetes.io/service-name: s, endpointslice.kubernetes.io/managed-by: other}}
addressType: IPv4
endpoints: []
`)
	write("expected.yaml", `
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {namespace: ns, labels: {kubernetes.io/service-name: s, endpointslice.kubernetes.io/managed-by: ctrl}}
addressType: IPv4
endpoints:
- addresses: [10.0.0.1]
- addresses: [10.0.0.2]
`)
	write("steps.yaml", `
- checkpoint:
    name: first
    managedBy: [ctrl]
    slices:
    - metadata: {namespace: ns, labels: {kubernetes.io/service-name: s, endpointslice.kubernetes.io/managed-by: ctrl}}
      addressType: IPv4
      endpoints: [{addresses: [10.0.0.1]}]
    assert:
    - unchanged: {kind: EndpointSlice, namespace: ns, name: foreign}
    - sliceCount: {service: s, count: 2}
    - noAddress: {address: 10.0.0.2}
    - noSlice: {service: s, addressType: IPv6}
    - event: {kind: Service, namespace: ns, name: s, reason: X}
- apply:
    apiVersion: v1
    kind: Pod
    metadata: {name: p2, namespace: ns, labels: {app: s}}
    status: {podIPs: [{ip: 10.0.0.2}]}
- checkpoint: {file: expected.yaml, managedBy: [ctrl]}
- patch: {kind: EndpointSlice, namespace: ns, name: foreign, patch: {metadata: {labels: {x: y}}}}
- checkpoint:
    assert:
    - unchanged: {kind: EndpointSlice, namespace: ns, name: foreign}
- delete: {kind: Pod, namespace: ns, name: p1}
- delete: {kind: EndpointSlice, namespace: ns, name: foreign}
- checkpoint:
    slices:
    - metadata: {namespace: ns, labels: {kubernetes.io/service-name: s, endpointslice.kubernetes.io/managed-by: ctrl}}
      addressType: IPv4
      endpoints: [{addresses: [10.0.0.2]}]
- optional: true
  run: {}
`)
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := &FakeBackend{Sync: tinyController}
	res := Run(t.Context(), c, b, RunOptions{Optional: true})
	var got []string
	for _, ch := range res.Checks {
		state := "ok"
		switch {
		case ch.Skipped:
			state = "skip"
		case !ch.OK:
			state = "FAIL"
		}
		got = append(got, state+" "+strings.SplitN(ch.Name, ":", 2)[1])
	}
	want := []string{
		"ok  slices vs 1 inline slice(s)",
		"ok  unchanged foreign",
		`ok  sliceCount {"service":"s"} == 2`,
		`ok  noAddress [10.0.0.2] in {}`,
		`ok  noSlice {"service":"s","addressType":"IPv6"}`,
		"skip  event Service ns/s reason=X",
		"ok  slices vs expected.yaml",
		"FAIL  unchanged foreign",
		"ok  slices vs 1 inline slice(s)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("checks (-want +got):\n%s\n%s", diff, res)
	}
	if res.Err != nil {
		t.Errorf("Run: %v", res.Err)
	}
	if !res.Failed() {
		t.Error("Failed() = false with a failed check")
	}
	if b.Passes != 1 {
		t.Errorf("last settle: %d passes, want 1 (nothing changed)", b.Passes)
	}
	if !strings.Contains(res.String(), "resourceVersion changed since creation") {
		t.Errorf("report lacks the write of the foreign slice:\n%s", res)
	}
}

// tinyController keeps one slice managed by "ctrl" per Service, holding one
// endpoint per pod labelled app=<service>.
func tinyController(ctx context.Context, w *World, client kubernetes.Interface) error {
	for _, svc := range w.Services() {
		var eps []discovery.Endpoint
		for _, p := range w.Pods() {
			if p.Namespace == svc.Namespace && p.Labels["app"] == svc.Name && len(p.Status.PodIPs) > 0 {
				eps = append(eps, discovery.Endpoint{Addresses: []string{p.Status.PodIPs[0].IP}})
			}
		}
		sc := client.DiscoveryV1().EndpointSlices(svc.Namespace)
		list, err := sc.List(ctx, metav1.ListOptions{LabelSelector: labels.Set{discovery.LabelManagedBy: "ctrl", discovery.LabelServiceName: svc.Name}.String()})
		if err != nil {
			return err
		}
		if len(list.Items) == 0 {
			_, err := sc.Create(ctx, &discovery.EndpointSlice{
				ObjectMeta:  metav1.ObjectMeta{GenerateName: svc.Name + "-", Labels: map[string]string{discovery.LabelManagedBy: "ctrl", discovery.LabelServiceName: svc.Name}},
				AddressType: discovery.AddressTypeIPv4, Endpoints: eps,
			}, metav1.CreateOptions{})
			if err != nil {
				return err
			}
			continue
		}
		cur := list.Items[0]
		if !cmp.Equal(cur.Endpoints, eps) {
			cur.Endpoints = eps
			if _, err := sc.Update(ctx, &cur, metav1.UpdateOptions{}); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestFakeBackendNotIdle(t *testing.T) {
	c := &Case{Name: "churn", Steps: Steps{{Run: &struct{}{}}}}
	n := 0
	b := &FakeBackend{MaxPasses: 3, Sync: func(ctx context.Context, _ *World, client kubernetes.Interface) error {
		n++
		_, err := client.DiscoveryV1().EndpointSlices("ns").Create(ctx, &discovery.EndpointSlice{
			ObjectMeta: metav1.ObjectMeta{GenerateName: "x-"}, AddressType: discovery.AddressTypeIPv4,
		}, metav1.CreateOptions{})
		return err
	}}
	res := Run(t.Context(), c, b, RunOptions{})
	if res.Err == nil || !strings.Contains(res.Err.Error(), "not idle after 3 passes") || n != 3 {
		t.Errorf("Run = %v after %d passes; want a not-idle error after 3", res.Err, n)
	}
	if (&FakeBackend{}).Load(t.Context(), nil) == nil {
		t.Error("Load without Sync: want an error")
	}
}
