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
	"encoding/json"
	"fmt"
	"sort"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"
)

// World is an in-memory set of typed objects (the API server of a case run
// without one) that steps can patch, delete and replace. Getters return
// deep copies; the zero value is an empty world. A World is not safe for
// concurrent use.
type World struct {
	objs []runtime.Object
	// uids counts the UIDs given to objects that had none.
	uids int
}

// NewWorld returns a world holding deep copies of objs. An object without
// a UID gets one, as the API server gives every object it stores (an
// EndpointSlice's owner reference needs its owner's).
func NewWorld(objs []runtime.Object) *World {
	w := &World{}
	for _, o := range objs {
		o = o.DeepCopyObject()
		w.setUID(o, nil)
		w.objs = append(w.objs, o)
	}
	return w
}

// setUID gives obj old's UID (a replaced object keeps it, as on an update)
// or, without old, a new deterministic one, when obj has none.
func (w *World) setUID(obj, old runtime.Object) {
	m, err := meta.Accessor(obj)
	if err != nil || m.GetUID() != "" {
		return
	}
	if old != nil {
		if om, err := meta.Accessor(old); err == nil {
			m.SetUID(om.GetUID())
			return
		}
	}
	w.uids++
	m.SetUID(types.UID(fmt.Sprintf("00000000-0000-4000-a000-%012d", w.uids)))
}

// Objects returns copies of every object, in insertion order.
func (w *World) Objects() []runtime.Object {
	out := make([]runtime.Object, 0, len(w.objs))
	for _, o := range w.objs {
		out = append(out, o.DeepCopyObject())
	}
	return out
}

// Services returns the Services, sorted by namespace/name.
func (w *World) Services() []*corev1.Service { return collect[*corev1.Service](w) }

// Pods returns the Pods, sorted by namespace/name.
func (w *World) Pods() []*corev1.Pod { return collect[*corev1.Pod](w) }

// Nodes returns the Nodes, sorted by name.
func (w *World) Nodes() []*corev1.Node { return collect[*corev1.Node](w) }

// Endpoints returns the Endpoints objects, sorted by namespace/name.
func (w *World) Endpoints() []*corev1.Endpoints { return collect[*corev1.Endpoints](w) }

// EndpointSlices returns the EndpointSlices, sorted by namespace/name.
func (w *World) EndpointSlices() []*discovery.EndpointSlice {
	return collect[*discovery.EndpointSlice](w)
}

func collect[T runtime.Object](w *World) []T {
	var out []T
	for _, o := range w.objs {
		if t, ok := o.(T); ok {
			out = append(out, t.DeepCopyObject().(T))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := meta.Accessor(out[i])
		b, _ := meta.Accessor(out[j])
		if a.GetNamespace() != b.GetNamespace() {
			return a.GetNamespace() < b.GetNamespace()
		}
		return a.GetName() < b.GetName()
	})
	return out
}

// Get returns a copy of the object ref names, or an error.
func (w *World) Get(ref Ref) (runtime.Object, error) {
	i, err := w.find(ref)
	if err != nil {
		return nil, err
	}
	return w.objs[i].DeepCopyObject(), nil
}

// Put adds a copy of obj, or replaces the object of the same kind,
// namespace and name.
func (w *World) Put(obj runtime.Object) error {
	ref, err := RefOf(obj)
	if err != nil {
		return err
	}
	obj = obj.DeepCopyObject()
	if i, err := w.find(ref); err == nil {
		w.setUID(obj, w.objs[i])
		w.objs[i] = obj
		return nil
	}
	w.setUID(obj, nil)
	w.objs = append(w.objs, obj)
	return nil
}

// Delete removes the object ref names.
func (w *World) Delete(ref Ref) error {
	i, err := w.find(ref)
	if err != nil {
		return err
	}
	w.objs = append(w.objs[:i], w.objs[i+1:]...)
	return nil
}

// SetEndpointSlices replaces every EndpointSlice of the world with copies
// of slices (what a controller run leaves behind).
func (w *World) SetEndpointSlices(slices []discovery.EndpointSlice) {
	kept := w.objs[:0]
	for _, o := range w.objs {
		if _, ok := o.(*discovery.EndpointSlice); !ok {
			kept = append(kept, o)
		}
	}
	w.objs = kept
	for i := range slices {
		s := slices[i].DeepCopy()
		s.SetGroupVersionKind(discovery.SchemeGroupVersion.WithKind("EndpointSlice"))
		w.objs = append(w.objs, s)
	}
}

// Patch applies p to the object it names (the subresource is ignored) and
// decodes the result strictly.
func (w *World) Patch(p *Patch) error {
	i, err := w.find(p.Ref)
	if err != nil {
		return err
	}
	out, err := ApplyPatch(w.objs[i], p)
	if err != nil {
		return err
	}
	w.setUID(out, w.objs[i])
	w.objs[i] = out
	return nil
}

// ApplyFromMap decodes obj (an apply step's object) strictly and puts it
// into the world.
func (w *World) ApplyFromMap(obj map[string]any) error {
	o, err := ObjectFromMap(obj)
	if err != nil {
		return err
	}
	return w.Put(o)
}

// ObjectFromMap decodes an object given as a map (an apply step) strictly
// into its built-in type.
func ObjectFromMap(obj map[string]any) (runtime.Object, error) {
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	objs, err := DecodeObjects(j)
	if err != nil {
		return nil, err
	}
	if len(objs) != 1 {
		return nil, fmt.Errorf("apply: want one object, got %d", len(objs))
	}
	return objs[0], nil
}

func (w *World) find(ref Ref) (int, error) {
	for i, o := range w.objs {
		r, err := RefOf(o)
		if err != nil {
			continue
		}
		if r.Kind == ref.Kind && r.Namespace == ref.Namespace && r.Name == ref.Name &&
			(ref.APIVersion == "" || ref.APIVersion == r.APIVersion) {
			return i, nil
		}
	}
	return -1, fmt.Errorf("%s not found", ref)
}

// RefOf returns the Ref of a typed object.
func RefOf(obj runtime.Object) (Ref, error) {
	gvk, err := KindOf(obj)
	if err != nil {
		return Ref{}, err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return Ref{}, err
	}
	return Ref{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Namespace: m.GetNamespace(), Name: m.GetName()}, nil
}

// ApplyPatch returns a copy of obj with p applied (merge, JSON or strategic
// merge patch; the last only for built-in kinds), decoded strictly into the
// same type. The patch may also be
// given as a YAML or JSON string.
func ApplyPatch(obj runtime.Object, p *Patch) (runtime.Object, error) {
	gvk, err := KindOf(obj)
	if err != nil {
		return nil, err
	}
	orig, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	patch, err := patchJSON(p.Patch)
	if err != nil {
		return nil, err
	}
	var out []byte
	_, isUnstructured := obj.(*unstructured.Unstructured)
	switch p.Type {
	case "", "merge":
		out, err = jsonpatch.MergePatch(orig, patch)
	case "json":
		var jp jsonpatch.Patch
		if jp, err = jsonpatch.DecodePatch(patch); err == nil {
			out, err = jp.Apply(orig)
		}
	case "strategic":
		if isUnstructured {
			return nil, fmt.Errorf("patch %s: strategic merge patch needs a built-in kind", p.Ref)
		}
		out, err = strategicpatch.StrategicMergePatch(orig, patch, obj)
	default:
		return nil, fmt.Errorf("unknown patch type %q", p.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("patch %s: %w", p.Ref, err)
	}
	var objs []runtime.Object
	if isUnstructured {
		objs, err = decodeUnstructured(out)
	} else {
		objs, err = decodeTyped(out, gvk)
	}
	if err != nil {
		return nil, fmt.Errorf("patch %s: %w", p.Ref, err)
	}
	if len(objs) != 1 {
		return nil, fmt.Errorf("patch %s: not a single object", p.Ref)
	}
	m, err := meta.Accessor(objs[0])
	if err != nil {
		return nil, err
	}
	if m.GetName() != p.Name || m.GetNamespace() != p.Namespace {
		return nil, fmt.Errorf("patch %s: the patch renames the object", p.Ref)
	}
	return objs[0], nil
}

// patchJSON returns the patch as JSON (steps.yaml gives it as YAML already
// converted, or as a string).
func patchJSON(raw json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return yaml.YAMLToJSON([]byte(s))
	}
	return raw, nil
}
