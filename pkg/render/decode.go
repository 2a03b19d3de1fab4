/*
Copyright 2026 The slicekit Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/internal/inputfile"
)

// StdinName is the file name that reads standard input.
const StdinName = inputfile.StdinName

// InputError is an error in the input: a file that cannot be read, or a
// document that is not valid YAML, has an unsupported kind, does not
// decode strictly into its type, or repeats an object. The CLI exits with
// status 2 for it.
type InputError struct {
	// File is the file name ("<stdin>" for standard input).
	File string
	// Document is the 1-based index of the YAML document in File; 0 when the
	// error is about the whole file.
	Document int
	// Item is the 1-based index of the object within a List document; 0
	// when the document is not a List.
	Item int
	// Err is the cause.
	Err error
}

// Error implements error: "FILE: document N[, item M]: cause".
func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Document > 0 {
		fmt.Fprintf(&b, ": document %d", e.Document)
	}
	if e.Item > 0 {
		fmt.Fprintf(&b, ", item %d", e.Item)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// IsInputError reports whether err is, or wraps, an *InputError.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Object is a decoded input object and where it came from.
type Object struct {
	// Object is the typed object (*corev1.Service, *corev1.Pod,
	// *corev1.Node, *corev1.Endpoints, *corev1.Namespace or
	// *discoveryv1.EndpointSlice) with its TypeMeta set.
	runtime.Object
	// File, Document and Item locate the object as in InputError.
	File     string
	Document int
	Item     int
}

// inputError returns an InputError locating o, carrying err.
func (o Object) inputError(err error) *InputError {
	return &InputError{File: o.File, Document: o.Document, Item: o.Item, Err: err}
}

// supportedKinds are the kinds render reads, with their scope.
var supportedKinds = map[schema.GroupVersionKind]struct {
	newObj     func() runtime.Object
	namespaced bool
}{
	corev1.SchemeGroupVersion.WithKind("Namespace"):          {func() runtime.Object { return &corev1.Namespace{} }, false},
	corev1.SchemeGroupVersion.WithKind("Node"):               {func() runtime.Object { return &corev1.Node{} }, false},
	corev1.SchemeGroupVersion.WithKind("Service"):            {func() runtime.Object { return &corev1.Service{} }, true},
	corev1.SchemeGroupVersion.WithKind("Pod"):                {func() runtime.Object { return &corev1.Pod{} }, true},
	corev1.SchemeGroupVersion.WithKind("Endpoints"):          {func() runtime.Object { return &corev1.Endpoints{} }, true},
	discoveryv1.SchemeGroupVersion.WithKind("EndpointSlice"): {func() runtime.Object { return &discoveryv1.EndpointSlice{} }, true},
}

// listGVK is the kind of kubectl's generic list (kubectl get -o yaml).
var listGVK = corev1.SchemeGroupVersion.WithKind("List")

// SupportedKinds returns the "apiVersion/kind" strings render reads, plus
// v1 List.
func SupportedKinds() []string {
	var out []string
	for gvk := range supportedKinds {
		out = append(out, gvk.GroupVersion().String()+" "+gvk.Kind)
	}
	slices.Sort(out)
	return append(out, "v1 List")
}

// ReadFiles reads and decodes the named files in order; StdinName reads
// stdin (at most once; os.Stdin when stdin is nil), and a directory
// contributes its *.yaml, *.yml and *.json files in name order (see
// internal/inputfile). Errors are *InputError. See Decode for the rules; in
// addition, an object (kind, namespace, name) given twice is an error.
func ReadFiles(names []string, stdin io.Reader) ([]Object, error) {
	files, err := inputfile.Read(names, stdin)
	if err != nil {
		var fe *inputfile.Error
		if errors.As(err, &fe) {
			return nil, &InputError{File: fe.File, Err: fe.Err}
		}
		return nil, err
	}
	var out []Object
	for _, f := range files {
		objs, err := Decode(f.Name, f.Data)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	if err := checkDuplicates(out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkDuplicates reports the second occurrence of an object.
func checkDuplicates(objs []Object) error {
	seen := map[string]Object{}
	for _, o := range objs {
		key := objectKey(o.Object)
		if first, ok := seen[key]; ok {
			loc := fmt.Sprintf("%s document %d", first.File, first.Document)
			if first.Item > 0 {
				loc += fmt.Sprintf(" item %d", first.Item)
			}
			return o.inputError(fmt.Errorf("%s is given twice (first in %s)", key, loc))
		}
		seen[key] = o
	}
	return nil
}

// objectKey is "Kind namespace/name" (or "Kind name").
func objectKey(obj runtime.Object) string {
	m, _ := meta.Accessor(obj)
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	if m.GetNamespace() == "" {
		return kind + " " + m.GetName()
	}
	return kind + " " + m.GetNamespace() + "/" + m.GetName()
}

// Decode decodes multi-document YAML (or JSON) from file (a name used in
// errors). Every document must be an object of a supported kind (see
// SupportedKinds) and decode strictly into its k8s.io/api type: unknown or
// duplicate fields are errors, field names are case-sensitive. A v1 List is
// replaced by its items. Empty documents and comment-only documents are
// skipped. Every object needs metadata.name; a namespaced object without a
// namespace is put in "default", a cluster-scoped one loses its namespace.
// Errors are *InputError.
func Decode(file string, data []byte) ([]Object, error) {
	var out []Object
	raws, err := inputfile.Documents(data)
	if err != nil {
		return nil, &InputError{File: file, Document: len(raws) + 1, Err: err}
	}
	for i, raw := range raws {
		doc := i + 1
		objs, err := decodeDocument(raw)
		if err != nil {
			var ie *InputError
			if errors.As(err, &ie) { // an item of a List
				ie.File, ie.Document = file, doc
				return nil, ie
			}
			return nil, &InputError{File: file, Document: doc, Err: err}
		}
		for _, o := range objs {
			o.File, o.Document = file, doc
			out = append(out, o)
		}
	}
	return out, nil
}

// decodeDocument decodes one YAML document into zero or more objects.
func decodeDocument(raw []byte) ([]Object, error) {
	j, err := yaml.YAMLToJSONStrict(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	j = bytes.TrimSpace(j)
	if len(j) == 0 || string(j) == "null" {
		return nil, nil
	}
	if j[0] != '{' {
		return nil, errors.New("not an object")
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(j, &tm); err != nil {
		return nil, fmt.Errorf("reading apiVersion and kind: %w", err)
	}
	if tm.Kind == "" || tm.APIVersion == "" {
		return nil, fmt.Errorf("apiVersion and kind are required (got apiVersion %q, kind %q)", tm.APIVersion, tm.Kind)
	}
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	if gvk == listGVK {
		return decodeList(j)
	}
	if isCustomResource(gvk) {
		// Custom resources that accompany the objects (for example a
		// Multus NetworkAttachmentDefinition) are read by no controller
		// here; they are skipped, as the case checker's live mode does.
		return nil, nil
	}
	obj, err := decodeObject(j, gvk)
	if err != nil {
		return nil, err
	}
	return []Object{{Object: obj}}, nil
}

// isCustomResource reports whether gvk belongs to an API group outside
// Kubernetes' own: a group with a dot that is not k8s.io or a subdomain of
// it (k8s.cni.cncf.io, example.com). Kinds of Kubernetes' own groups that
// render does not support are errors.
func isCustomResource(gvk schema.GroupVersionKind) bool {
	g := gvk.Group
	return strings.Contains(g, ".") && g != "k8s.io" && !strings.HasSuffix(g, ".k8s.io")
}

func decodeList(j []byte) ([]Object, error) {
	var l struct {
		metav1.TypeMeta `json:",inline"`
		metav1.ListMeta `json:"metadata,omitempty"`
		Items           []json.RawMessage `json:"items"`
	}
	if err := strictUnmarshal(j, &l); err != nil {
		return nil, fmt.Errorf("List: %w", err)
	}
	var out []Object
	for i, item := range l.Items {
		objs, err := decodeDocument(item)
		if err == nil && len(objs) != 1 {
			err = errors.New("a List item must be one object")
		}
		if err != nil {
			return nil, &InputError{Item: i + 1, Err: err}
		}
		objs[0].Item = i + 1
		out = append(out, objs[0])
	}
	return out, nil
}

// decodeObject decodes j strictly into the type of gvk and checks its
// metadata.
func decodeObject(j []byte, gvk schema.GroupVersionKind) (runtime.Object, error) {
	k, ok := supportedKinds[gvk]
	if !ok {
		return nil, fmt.Errorf("unsupported kind %q of apiVersion %q; supported: %s",
			gvk.Kind, gvk.GroupVersion().String(), strings.Join(SupportedKinds(), ", "))
	}
	obj := k.newObj()
	if err := strictUnmarshal(j, obj); err != nil {
		return nil, fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	if m.GetName() == "" {
		return nil, fmt.Errorf("%s without metadata.name", gvk.Kind)
	}
	switch {
	case k.namespaced && m.GetNamespace() == "":
		m.SetNamespace(metav1.NamespaceDefault)
	case !k.namespaced:
		m.SetNamespace("")
	}
	return obj, nil
}

// strictUnmarshal decodes JSON case-sensitively, rejecting unknown and
// duplicate fields, as the API server's strict field validation does.
func strictUnmarshal(j []byte, into any) error {
	strictErrs, err := kjson.UnmarshalStrict(j, into, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	return errors.Join(strictErrs...)
}
