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
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// swap sets *knob (a package variable tests lower) to v and returns a
// function that sets it back.
func swap[T any](knob *T, v T) (restore func()) {
	old := *knob
	*knob = v
	return func() { *knob = old }
}

// decodeWithListSplit is DecodeObjects with listSplitMin set to min.
func decodeWithListSplit(min int, data []byte) ([]Object, []Ignored, error) {
	defer swap(&listSplitMin, min)()
	return DecodeObjects("in.json", data, nil)
}

// sameAsWholeList fails t when decoding data with every List document
// tried by listFast reads other objects, ignored objects or errors than
// decoding it whole; it reports whether listFast took the document.
func sameAsWholeList(t *testing.T, data []byte) bool {
	t.Helper()
	wantObjs, wantIgnored, wantErr := decodeWithListSplit(math.MaxInt, data)
	gotObjs, gotIgnored, gotErr := decodeWithListSplit(0, data)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("error with listFast %v, whole %v, for:\n%s", gotErr, wantErr, data)
	}
	if d := cmp.Diff(wantObjs, gotObjs, cmp.AllowUnexported(Ignored{})); d != "" {
		t.Fatalf("objects differ (-whole +listFast) for:\n%s\n%s", data, d)
	}
	if d := cmp.Diff(wantIgnored, gotIgnored, cmp.AllowUnexported(Ignored{})); d != "" {
		t.Fatalf("ignored objects differ (-whole +listFast) for:\n%s\n%s", data, d)
	}
	d := &decoder{file: "in.json", kinds: tableOrBuiltin(nil), doc: 1}
	return d.listFast(data)
}

// listPod is a Pod as a List item: name p<i>, label and IP set.
func listPod(i int) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p%d","namespace":"ns","labels":{"app":"a"}},"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]},"status":{"podIP":"10.0.%d.%d","podIPs":[{"ip":"10.0.%d.%d"}]}}`,
		i, i/250, i%250+1, i/250, i%250+1)
}

// listOf is a List document of items, its members in kubectl's order.
func listOf(items ...string) string {
	return `{"apiVersion":"v1","items":[` + strings.Join(items, ",") + `],"kind":"List","metadata":{"resourceVersion":""}}`
}

func TestListFastLikeWhole(t *testing.T) {
	many := make([]string, 3*listChunk+7) // several chunks, the last one short
	for i := range many {
		many[i] = listPod(i)
	}
	svc := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","namespace":"ns"},"spec":{"selector":{"app":"a"},"ports":[{"port":80}]}}`
	for _, tc := range []struct {
		name string
		in   string
		fast bool // listFast takes it
	}{
		{name: "kubectl get -o json", fast: true, in: listOf(svc, listPod(1), listPod(2))},
		{name: "indented", fast: true, in: "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        " + listPod(1) + ",\n        " + listPod(2) + "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"},
		{name: "many items", fast: true, in: listOf(many...)},
		{name: "empty", fast: true, in: listOf()},
		{name: "typed list, many items without a kind", fast: true, in: `{"apiVersion":"v1","items":[` + strings.Repeat(`{"metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[{"name":"c"}]}},`, 2*listChunk) + `{"metadata":{"name":"q"}}],"kind":"PodList"}`},
		{name: "generic list, an item without a kind", in: listOf(listPod(1), `{"metadata":{"name":"q"}}`)},
		{name: "kind first", fast: true, in: `{"kind":"List","apiVersion":"v1","items":[` + listPod(1) + `]}`},
		{name: "typed list", fast: true, in: `{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[{"name":"c"}]}}]}`},
		{name: "kind not read", fast: true, in: listOf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`, listPod(1))},
		{name: "hash in a header string", fast: true, in: `{"apiVersion":"v1","kind":"List","metadata":{"continue":"a#b"},"items":[` + listPod(1) + `]}`},
		{name: "invalid item", in: listOf(listPod(1), `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"Bad_Name"}}`)},
		{name: "unknown field in an item", in: listOf(listPod(1), `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nope":1}}`)},
		{name: "float in an item", in: listOf(listPod(1), `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"a":"b"}},"spec":{"terminationGracePeriodSeconds":1.0}}`)},
		{name: "duplicate key in an item", in: listOf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","name":"q"}}`)},
		{name: "unicode escape in an item", in: listOf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p\u0031","namespace":"ns"}}`)},
		{name: "null item", in: listOf(listPod(1), `null`)},
		{name: "string item", in: listOf(`"x"`)},
		{name: "item without kind", in: listOf(`{"metadata":{"name":"p"}}`)},
		{name: "tab between items", in: `{"apiVersion":"v1","kind":"List","items":[` + listPod(1) + ",\t" + listPod(2) + `]}`},
		{name: "carriage return in the header", in: "{\"apiVersion\":\"v1\",\r\n\"kind\":\"List\",\"items\":[" + listPod(1) + `]}`},
		{name: "items twice", in: `{"apiVersion":"v1","kind":"List","items":[` + listPod(1) + `],"items":[` + listPod(2) + `]}`},
		{name: "duplicate header key", in: `{"apiVersion":"v1","kind":"List","kind":"List","items":[` + listPod(1) + `]}`},
		{name: "unknown header field", in: `{"apiVersion":"v1","kind":"List","extra":1,"items":[` + listPod(1) + `]}`},
		{name: "items null", in: `{"apiVersion":"v1","kind":"List","items":null}`},
		{name: "items an object", in: `{"apiVersion":"v1","kind":"List","items":{}}`},
		{name: "no items", in: `{"apiVersion":"v1","kind":"List"}`},
		{name: "not a list", in: `{"apiVersion":"v1","kind":"Service","items":[],"metadata":{"name":"s"}}`},
		{name: "Kind spelled otherwise", in: `{"apiVersion":"v1","Kind":"List","items":[` + listPod(1) + `]}`},
		{name: "unterminated", in: `{"apiVersion":"v1","kind":"List","items":[` + listPod(1)},
		{name: "text after", in: listOf(listPod(1)) + ` {}`},
		{name: "nested list item (ignored, as whole)", fast: true, in: listOf(listOf(listPod(1)))},
		{name: "same pod twice", fast: true, in: listOf(listPod(1), listPod(1))},
		{name: "two Lists in a stream", in: listOf(listPod(1)) + "\n" + listOf(listPod(2))},
		{name: "List then an object", in: listOf(listPod(1)) + `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}}`},
		{name: "byte order mark", in: "\ufeff" + listOf(listPod(1))},
		{name: "brackets in strings", fast: true, in: listOf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"a":"}]{[\"}"}},"spec":{"containers":[{"name":"c"}]}}`)},
		{name: "closing bracket after", in: listOf(listPod(1)) + `]`},
		{name: "space around", fast: true, in: "\n\n  " + listOf(listPod(1)) + "\n\n"},
		// Found by a tester: whitespace TrimSpace knows and go-yaml refuses.
		{name: "vertical tab before", fast: true, in: "\v" + listOf(listPod(1))},
		{name: "no-break space before", fast: true, in: "\u00a0" + listOf(listPod(1))},
		{name: "form feed after, float item", in: listOf(listPod(1), `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"f"},"spec":{"terminationGracePeriodSeconds":30.0}}`) + "\f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameAsWholeList(t, []byte(tc.in)); got != tc.fast {
				t.Errorf("listFast took it: %v, want %v", got, tc.fast)
			}
		})
	}
}

// FuzzListFast: listFast reads any document as decoding it whole does.
func FuzzListFast(f *testing.F) {
	f.Add([]byte(listOf(listPod(1), listPod(2))))
	f.Add([]byte(`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"p"}}]}`))
	f.Add([]byte(listOf(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":1}]}}`)))
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameAsWholeList(t, doc)
	})
}
