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
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/slicekit/slicekit/internal/inputfile"
	"github.com/slicekit/slicekit/pkg/render"
)

// FuzzRenderAndCheck feeds random input to `slicekit render -f -` and
// `slicekit check -f -` (`go test` runs the seed corpus: the examples, the
// testdata inputs and hand-made invalid objects; `go test -fuzz
// FuzzRenderAndCheck ./cmd/slicekit/app` explores further). It asserts:
//
//   - no panic, and only the documented exit codes (0, 1, 2);
//   - no silent drop: every non-empty document becomes an object or an
//     ignored object (a List may be empty), or the input is rejected;
//   - rejected input (inputfile.ReadObjects fails) makes both commands exit
//     2 with "invalid input" and the file and document of each problem;
//   - accepted input: neither command exits 2, both list every ignored
//     object on standard error in the same words, and render prints every
//     input EndpointSlice of another controller.
func FuzzRenderAndCheck(f *testing.F) {
	for _, dir := range []string{"../../../examples", "testdata"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, p := range files {
			if strings.HasSuffix(p, ".golden.yaml") {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, s := range []string{
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {selector: {'a b': c}, ports: [{port: 80}]}\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 0, targetPort: -1, protocol: XTP}], clusterIP: 1.2.3}\n",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: x}}\nspec: {nodeName: n_1, containers: [{name: c, ports: [{name: toolongportname1, containerPort: 99999}]}]}\nstatus: {podIP: '::1', podIPs: [{ip: 10.0.0.1}]}\n",
		"apiVersion: v1\nkind: Endpoints\nmetadata: {name: e}\nsubsets: [{addresses: [{ip: 127.0.0.1}], ports: [{port: 80}]}]\n",
		"apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: x, labels: {kubernetes.io/service-name: s, endpointslice.kubernetes.io/managed-by: other}}\naddressType: IPv4\nendpoints: [{addresses: ['fd00::1']}]\nports: [{port: 80}]\n",
		"apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: x, labels: {kubernetes.io/service-name: s, endpointslice.kubernetes.io/managed-by: other}}\naddressType: IPv4\nendpoints: [{addresses: [10.0.0.1]}]\n",
		// Consumer-rule faults: nil ready, a port without number and one
		// 0, two non-canonical addresses in one endpoint, partial hints,
		// no nodeName under a Local policy, an unreadable trigger time.
		"apiVersion: v1\nkind: Service\nmetadata: {name: s, creationTimestamp: '2026-01-01T00:00:00Z'}\nspec: {selector: {a: b}, internalTrafficPolicy: Local, clusterIP: 10.96.0.1, clusterIPs: [10.96.0.1, 'fd00::1'], ipFamilies: [IPv4, IPv6], ports: [{name: h, port: 80}]}\n---\napiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: x, labels: {kubernetes.io/service-name: s, endpointslice.kubernetes.io/managed-by: other}, annotations: {endpoints.kubernetes.io/last-change-trigger-time: bad}}\naddressType: IPv6\nendpoints: [{addresses: ['FD00::1', 'fd00::2'], hints: {forZones: [{name: z}]}, targetRef: {kind: Pod, name: p}}, {addresses: ['fd00::3']}]\nports: [{name: h}, {port: 0}]\n",
		"apiVersion: v1\nkind: List\nitems: []\n",
		"apiVersion: v1\nkind: PodList\nitems: [{metadata: {name: p}}]\n",
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}\n{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, ignored, readErr := render.ReadFiles([]string{"-"}, bytes.NewReader(data))
		if readErr == nil {
			assertNothingDropped(t, data, objs, ignored)
		}

		rCode, rOut, rErr := runMain(t, string(data), "render", "-f", "-")
		cCode, _, cErr := runMain(t, string(data), "check", "-f", "-")
		for _, r := range []struct {
			cmd    string
			code   int
			stderr string
		}{{"render", rCode, rErr}, {"check", cCode, cErr}} {
			if r.code != ExitOK && r.code != ExitFailure && r.code != ExitUsage {
				t.Fatalf("%s: exit code %d", r.cmd, r.code)
			}
			if readErr != nil {
				if r.code != ExitUsage || !strings.Contains(r.stderr, "slicekit "+r.cmd+": invalid input:") || !strings.Contains(r.stderr, "<stdin>") {
					t.Fatalf("%s on rejected input (%v): exit %d, stderr:\n%s", r.cmd, readErr, r.code, r.stderr)
				}
				continue
			}
			if r.code == ExitUsage {
				t.Fatalf("%s exits 2 on input that reads fine; stderr:\n%s", r.cmd, r.stderr)
			}
			for _, ig := range ignored {
				if line := "slicekit " + r.cmd + ": " + ig.String(); !strings.Contains(r.stderr, line) {
					t.Fatalf("%s does not list ignored object %q; stderr:\n%s", r.cmd, line, r.stderr)
				}
			}
		}
		if readErr != nil || rCode != ExitOK {
			return
		}
		for _, o := range objs {
			s, ok := o.Object.(*discovery.EndpointSlice)
			if !ok || isOwnManagedBy(s.Labels[discovery.LabelManagedBy]) {
				continue
			}
			if !strings.Contains(rOut, "name: "+s.Name+"\n") {
				t.Fatalf("render dropped EndpointSlice %s/%s of %q:\n%s", s.Namespace, s.Name, s.Labels[discovery.LabelManagedBy], rOut)
			}
		}
	})
}

// isOwnManagedBy reports whether render's default controllers may write
// slices with this managed-by value.
func isOwnManagedBy(v string) bool {
	return v == "endpointslice-controller.k8s.io" || v == "endpointslicemirroring-controller.k8s.io"
}

// assertNothingDropped checks that every non-empty document of data, as
// kubectl's -f reader splits it (utilyaml.YAMLOrJSONDecoder), gave an
// object or an ignored object, unless it is a (possibly empty) list.
func assertNothingDropped(t *testing.T, data []byte, objs []inputfile.Object, ignored []inputfile.Ignored) {
	t.Helper()
	seen := map[int]bool{}
	for _, o := range objs {
		seen[o.Document] = true
	}
	for _, ig := range ignored {
		seen[ig.Document] = true
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for i := 0; ; i++ {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("ReadObjects accepted input that kubectl's reader rejects: %v", err)
		}
		j := bytes.TrimSpace(raw)
		if len(j) == 0 || string(j) == "null" || seen[i+1] {
			continue
		}
		var tm struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(j, &tm); err == nil && strings.HasSuffix(tm.Kind, "List") {
			continue // a list with no items
		}
		// A document whose objects were all identical duplicates of
		// earlier ones is kept once, earlier.
		if len(objs) > 0 && duplicateOfEarlier(j, objs) {
			continue
		}
		t.Fatalf("document %d was dropped silently:\n%s", i+1, raw)
	}
}

// duplicateOfEarlier reports whether the object of j has the name of one
// of objs (ReadObjects keeps the first of identical copies).
func duplicateOfEarlier(j []byte, objs []inputfile.Object) bool {
	var m struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if json.Unmarshal(j, &m) != nil {
		return false
	}
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == m.Kind && strings.HasSuffix(inputfile.ObjectKey(o.Object), "/"+m.Metadata.Name) ||
			strings.HasSuffix(inputfile.ObjectKey(o.Object), " "+m.Metadata.Name) {
			return true
		}
	}
	return false
}
