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
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

// ReadObjects reads a multi-document YAML (or JSON) file and decodes every
// document strictly into its k8s.io/api type (see DecodeObjects).
func ReadObjects(path string) ([]runtime.Object, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	objs, err := DecodeObjects(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return objs, nil
}

// DecodeObjects decodes multi-document YAML or JSON into objects, in
// document order. Built-in kinds (client-go's scheme) become their typed
// objects and are decoded strictly: an unknown field or a duplicate key is
// an error. Other kinds (custom resources, such as a
// NetworkAttachmentDefinition) become *unstructured.Unstructured; they need
// an apiVersion with a group and a metadata.name. Empty documents and
// comments are skipped; a List (v1 List or a typed list such as
// EndpointSliceList) is replaced by its items. TypeMeta is set on every
// object.
func DecodeObjects(data []byte) ([]runtime.Object, error) {
	var out []runtime.Object
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		objs, err := decodeDoc(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		out = append(out, objs...)
	}
}

func decodeDoc(doc []byte) ([]runtime.Object, error) {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	j = bytes.TrimSpace(j)
	if len(j) == 0 || string(j) == "null" {
		return nil, nil
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(j, &tm); err != nil {
		return nil, err
	}
	if tm.Kind == "" {
		return nil, errors.New("object without kind")
	}
	if tm.Kind == "List" {
		var l struct {
			metav1.TypeMeta `json:",inline"`
			metav1.ListMeta `json:"metadata,omitempty"`
			Items           []json.RawMessage `json:"items"`
		}
		if err := yaml.UnmarshalStrict(doc, &l); err != nil {
			return nil, err
		}
		var out []runtime.Object
		for i, it := range l.Items {
			objs, err := decodeDoc(it)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			out = append(out, objs...)
		}
		return out, nil
	}
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	if !scheme.Scheme.Recognizes(gvk) && gvk.Group != "" {
		return decodeUnstructured(j)
	}
	return decodeTyped(doc, gvk)
}

// decodeUnstructured decodes a JSON object of a kind outside client-go's
// scheme.
func decodeUnstructured(j []byte) ([]runtime.Object, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		return nil, err
	}
	if u.GetName() == "" {
		return nil, fmt.Errorf("%s without metadata.name", u.GetKind())
	}
	return []runtime.Object{u}, nil
}

// decodeTyped decodes doc strictly into the type of gvk.
func decodeTyped(doc []byte, gvk schema.GroupVersionKind) ([]runtime.Object, error) {
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, fmt.Errorf("unknown kind %s: %w", gvk, err)
	}
	if err := yaml.UnmarshalStrict(doc, obj); err != nil {
		return nil, fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	if !meta.IsListType(obj) {
		return []runtime.Object{obj}, nil
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return nil, err
	}
	itemGVK := gvk.GroupVersion().WithKind(strings.TrimSuffix(gvk.Kind, "List"))
	for _, it := range items {
		it.GetObjectKind().SetGroupVersionKind(itemGVK)
	}
	return items, nil
}

// ReadSlices reads the EndpointSlices of a file (other kinds are ignored).
func ReadSlices(path string) ([]discovery.EndpointSlice, error) {
	objs, err := ReadObjects(path)
	if err != nil {
		return nil, err
	}
	return SlicesOf(objs), nil
}

// SlicesOf returns copies of the EndpointSlices among objs, in order.
func SlicesOf(objs []runtime.Object) []discovery.EndpointSlice {
	var out []discovery.EndpointSlice
	for _, o := range objs {
		if s, ok := o.(*discovery.EndpointSlice); ok {
			out = append(out, *s.DeepCopy())
		}
	}
	return out
}

// KindOf returns the group/version/kind of a built-in typed object, from
// its TypeMeta or else from client-go's scheme (objects read from a typed
// client have an empty TypeMeta).
func KindOf(obj runtime.Object) (schema.GroupVersionKind, error) {
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind != "" {
		return gvk, nil
	}
	kinds, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return kinds[0], nil
}
