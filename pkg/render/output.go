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

package render

import (
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"sync"
	"sync/atomic"

	goyaml "go.yaml.in/yaml/v2"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// WriteYAML writes the slices as multi-document YAML ("---" between
// documents), in the given order, each with apiVersion and kind set and
// without managedFields, resourceVersion and a null creationTimestamp, so
// that the output is valid input for the next render and a render of it
// yields it unchanged. Keys are sorted, as kubectl prints them.
//
// The documents are marshalled on every CPU, a window at a time, and
// written in order; on an error nothing after the failing document is
// written.
func WriteYAML(w io.Writer, slices []*discovery.EndpointSlice) error {
	return writeDocuments(w, len(slices), func(i int) ([]byte, error) { return MarshalEndpointSlice(slices[i]) }, false)
}

// WriteObjectsYAML writes objs (as Result.Objects holds them, TypeMeta
// set) as multi-document YAML the way WriteYAML writes slices, each
// document followed by "---" so that slices can follow.
func WriteObjectsYAML(w io.Writer, objs []runtime.Object) error {
	return writeDocuments(w, len(objs), func(i int) ([]byte, error) { return marshalObject(objs[i]) }, true)
}

// writeWindow is how many documents writeDocuments marshals before it
// writes them: enough to keep every CPU busy, few enough that the
// marshalled bytes held at once stay small.
const writeWindow = 256

// writeDocuments writes the n documents marshal returns, in order, "---"
// between them (after each when trailing), marshalling a window of them
// at a time on every CPU.
func writeDocuments(w io.Writer, n int, marshal func(int) ([]byte, error), trailing bool) error {
	docs := make([][]byte, min(n, writeWindow))
	errs := make([]error, len(docs))
	for base := 0; base < n; base += writeWindow {
		count := min(writeWindow, n-base)
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(goruntime.GOMAXPROCS(0), count) {
			wg.Go(func() {
				for i := int(next.Add(1)) - 1; i < count; i = int(next.Add(1)) - 1 {
					docs[i], errs[i] = marshal(base + i)
				}
			})
		}
		wg.Wait()
		for i := range count {
			if errs[i] != nil {
				return errs[i]
			}
			if base+i > 0 && !trailing {
				if _, err := io.WriteString(w, "---\n"); err != nil {
					return err
				}
			}
			if _, err := w.Write(docs[i]); err != nil {
				return err
			}
			if trailing {
				if _, err := io.WriteString(w, "---\n"); err != nil {
					return err
				}
			}
			docs[i] = nil
		}
	}
	return nil
}

// MarshalEndpointSlice returns one slice as WriteYAML prints it.
func MarshalEndpointSlice(s *discovery.EndpointSlice) ([]byte, error) {
	cp := s.DeepCopy()
	cp.APIVersion = discovery.SchemeGroupVersion.String()
	cp.Kind = "EndpointSlice"
	return marshalObject(cp)
}

// marshalObject marshals a copy of obj (TypeMeta set) to YAML without
// managedFields, resourceVersion and a null creationTimestamp.
func marshalObject(obj runtime.Object) ([]byte, error) {
	cp := obj.DeepCopyObject()
	acc, err := meta.Accessor(cp)
	if err != nil {
		return nil, err
	}
	acc.SetManagedFields(nil)
	acc.SetResourceVersion("")
	id := cp.GetObjectKind().GroupVersionKind().Kind + " " + acc.GetNamespace() + "/" + acc.GetName()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		if v, ok := md["creationTimestamp"]; ok && v == nil {
			delete(md, "creationTimestamp")
		}
	}
	// An empty status (Services, Namespaces) is noise.
	if st, ok := m["status"].(map[string]any); ok && len(st) == 0 {
		delete(m, "status")
	}
	// go-yaml marshals the unstructured map directly: what
	// sigs.k8s.io/yaml.Marshal prints, without its JSON round trip. The
	// map holds strings (valid UTF-8, as the decoders made them), int64s,
	// bools, nils, maps, slices and, in free-form JSON (a ResourceClaim's
	// RawExtensions), float64s, which are given the value the round trip
	// gave them (jsonFloats). The round trip failed on control characters
	// and turned U+0085 into a space; go-yaml alone escapes both.
	jsonFloats(m)
	b, err := goyaml.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	return b, nil
}

// jsonFloats replaces, in place, each float64 in the unstructured value v
// (maps and slices walked) by what go-yaml reads from encoding/json's
// text for it, as sigs.k8s.io/yaml.Marshal's JSON round trip does: 1e19 is
// printed as the integer 10000000000000000000, not as 1e+19.
func jsonFloats(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonFloats(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jsonFloats(e)
		}
	case float64:
		b, err := json.Marshal(x)
		if err != nil {
			return v
		}
		var y any
		if err := goyaml.Unmarshal(b, &y); err != nil {
			return v
		}
		return y
	}
	return v
}
