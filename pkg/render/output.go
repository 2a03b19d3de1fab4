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
	"fmt"
	"io"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// WriteYAML writes the slices as multi-document YAML ("---" between
// documents), in the given order, each with apiVersion and kind set and
// without managedFields, resourceVersion and a null creationTimestamp, so
// that the output is valid input for the next render and a render of it
// yields it unchanged. Keys are sorted, as kubectl prints them.
func WriteYAML(w io.Writer, slices []*discovery.EndpointSlice) error {
	for i, s := range slices {
		b, err := MarshalEndpointSlice(s)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// WriteObjectsYAML writes objs (as Result.Objects holds them, TypeMeta
// set) as multi-document YAML the way WriteYAML writes slices, each
// document followed by "---" so that slices can follow.
func WriteObjectsYAML(w io.Writer, objs []runtime.Object) error {
	for _, o := range objs {
		b, err := marshalObject(o)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "---\n"); err != nil {
			return err
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
	b, err := yaml.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	return b, nil
}
