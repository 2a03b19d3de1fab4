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

package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/internal/inputfile"
)

// StdinName is the file name that reads standard input.
const StdinName = inputfile.StdinName

// InputError is an error in the input: a file that cannot be read, a
// document that is not valid YAML or JSON, lacks apiVersion/kind, does not
// decode strictly into its type, or repeats an object; or a cluster that
// cannot be listed. It maps to exit status 2.
type InputError struct {
	// File is the file name ("<stdin>" for standard input), or the
	// cluster's address.
	File string
	// Document is the 1-based index of the YAML document in File, 0 when
	// the error is about the whole file.
	Document int
	// Err is the cause.
	Err error
}

// Error returns "file: document n: cause".
func (e *InputError) Error() string {
	if e.Document > 0 {
		return fmt.Sprintf("%s: document %d: %v", e.File, e.Document, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns Err.
func (e *InputError) Unwrap() error { return e.Err }

// decodedKinds are the kinds the check reads, decoded strictly.
var decodedKinds = map[schema.GroupVersionKind]func() runtime.Object{
	corev1.SchemeGroupVersion.WithKind("Service"):                func() runtime.Object { return &corev1.Service{} },
	corev1.SchemeGroupVersion.WithKind("Pod"):                    func() runtime.Object { return &corev1.Pod{} },
	corev1.SchemeGroupVersion.WithKind("Node"):                   func() runtime.Object { return &corev1.Node{} },
	corev1.SchemeGroupVersion.WithKind("Endpoints"):              func() runtime.Object { return &corev1.Endpoints{} },
	discoveryv1.SchemeGroupVersion.WithKind("EndpointSlice"):     func() runtime.Object { return &discoveryv1.EndpointSlice{} },
	corev1.SchemeGroupVersion.WithKind("ServiceList"):            func() runtime.Object { return &corev1.ServiceList{} },
	corev1.SchemeGroupVersion.WithKind("PodList"):                func() runtime.Object { return &corev1.PodList{} },
	corev1.SchemeGroupVersion.WithKind("NodeList"):               func() runtime.Object { return &corev1.NodeList{} },
	corev1.SchemeGroupVersion.WithKind("EndpointsList"):          func() runtime.Object { return &corev1.EndpointsList{} },
	discoveryv1.SchemeGroupVersion.WithKind("EndpointSliceList"): func() runtime.Object { return &discoveryv1.EndpointSliceList{} },
}

// ReadFiles reads the named files (StdinName reads stdin, at most once; a
// directory contributes its *.yaml, *.yml and *.json files in name order;
// see internal/inputfile) and decodes them with Decode. The same object
// (kind, namespace, name) given twice is an error. Errors are *InputError.
func ReadFiles(names []string, stdin io.Reader) ([]runtime.Object, error) {
	files, err := inputfile.Read(names, stdin)
	if err != nil {
		return nil, asInputError(err)
	}
	var out []runtime.Object
	seen := map[string]string{}
	for _, f := range files {
		file := f.Name
		objs, docs, err := decode(file, f.Data)
		if err != nil {
			return nil, err
		}
		for i, o := range objs {
			key := objectKey(o)
			if first, ok := seen[key]; ok {
				return nil, &InputError{File: file, Document: docs[i], Err: fmt.Errorf("%s is given twice (first in %s)", key, first)}
			}
			seen[key] = fmt.Sprintf("%s document %d", file, docs[i])
			out = append(out, o)
		}
	}
	return out, nil
}

// asInputError turns an *inputfile.Error into an *InputError.
func asInputError(err error) error {
	var fe *inputfile.Error
	if errors.As(err, &fe) {
		return &InputError{File: fe.File, Err: fe.Err}
	}
	return err
}

// objectKey is "apiVersion Kind namespace/name".
func objectKey(o runtime.Object) string {
	gvk := o.GetObjectKind().GroupVersionKind()
	m, err := meta.Accessor(o)
	if err != nil {
		return gvk.String()
	}
	return fmt.Sprintf("%s %s %s/%s", gvk.GroupVersion(), gvk.Kind, m.GetNamespace(), m.GetName())
}

// Decode decodes multi-document YAML (or JSON) read from file (a name used
// in errors). Services, Pods, Nodes, Endpoints and EndpointSlices, their
// typed lists (ServiceList, ..., EndpointSliceList) and v1 List are decoded
// strictly into their k8s.io/api types: unknown fields, duplicate keys and
// case mismatches are errors. Lists are replaced by their items. Objects
// of other kinds (Deployments, custom resources, ...) need apiVersion,
// kind and metadata.name and are returned as *metav1.PartialObjectMetadata
// (NewInventory counts them as ignored). Empty documents are skipped.
// Every object's TypeMeta is set. Errors are *InputError.
func Decode(file string, data []byte) ([]runtime.Object, error) {
	objs, _, err := decode(file, data)
	return objs, err
}

func decode(file string, data []byte) ([]runtime.Object, []int, error) {
	var out []runtime.Object
	var docs []int
	raws, err := inputfile.Documents(data)
	if err != nil {
		return nil, nil, &InputError{File: file, Document: len(raws) + 1, Err: err}
	}
	for i, raw := range raws {
		doc := i + 1
		objs, err := decodeDocument(raw)
		if err != nil {
			return nil, nil, &InputError{File: file, Document: doc, Err: err}
		}
		for _, o := range objs {
			out = append(out, o)
			docs = append(docs, doc)
		}
	}
	return out, docs, nil
}

// decodeDocument decodes one YAML document, or one List item, into zero
// or more objects.
func decodeDocument(raw []byte) ([]runtime.Object, error) {
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
	if tm.APIVersion == "" || tm.Kind == "" {
		return nil, fmt.Errorf("apiVersion and kind are required (got apiVersion %q, kind %q)", tm.APIVersion, tm.Kind)
	}
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	if gvk == corev1.SchemeGroupVersion.WithKind("List") {
		return decodeList(j)
	}
	newObj, ok := decodedKinds[gvk]
	if !ok {
		return decodeOther(j, gvk)
	}
	obj := newObj()
	if err := strictUnmarshal(j, obj); err != nil {
		return nil, fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	if !meta.IsListType(obj) {
		if err := needName(obj); err != nil {
			return nil, fmt.Errorf("%s: %w", gvk.Kind, err)
		}
		return []runtime.Object{obj}, nil
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return nil, err
	}
	itemGVK := gvk.GroupVersion().WithKind(strings.TrimSuffix(gvk.Kind, "List"))
	for i, it := range items {
		it.GetObjectKind().SetGroupVersionKind(itemGVK)
		if err := needName(it); err != nil {
			return nil, fmt.Errorf("%s item %d: %w", gvk.Kind, i+1, err)
		}
	}
	return items, nil
}

func needName(obj runtime.Object) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	if m.GetName() == "" {
		return errors.New("metadata.name is required")
	}
	return nil
}

// strictUnmarshal decodes JSON into obj, rejecting unknown and duplicate
// fields and case-insensitive matches.
func strictUnmarshal(j []byte, obj any) error {
	strict, err := kjson.UnmarshalStrict(j, obj)
	if err != nil {
		return err
	}
	if len(strict) > 0 {
		return errors.Join(strict...)
	}
	return nil
}

// decodeList decodes a v1 List; its items may be of any kind.
func decodeList(j []byte) ([]runtime.Object, error) {
	var l struct {
		metav1.TypeMeta `json:",inline"`
		metav1.ListMeta `json:"metadata,omitempty"`
		Items           []json.RawMessage `json:"items"`
	}
	if err := strictUnmarshal(j, &l); err != nil {
		return nil, fmt.Errorf("List: %w", err)
	}
	var out []runtime.Object
	for i, it := range l.Items {
		objs, err := decodeDocument(it)
		if err != nil {
			return nil, fmt.Errorf("List item %d: %w", i+1, err)
		}
		out = append(out, objs...)
	}
	return out, nil
}

// decodeOther keeps the metadata of an object of a kind the check does
// not read.
func decodeOther(j []byte, gvk schema.GroupVersionKind) ([]runtime.Object, error) {
	var p metav1.PartialObjectMetadata
	if err := json.Unmarshal(j, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	if strings.HasSuffix(gvk.Kind, "List") {
		// A typed list of another kind: nothing to read in it.
		p.Name = "(list)"
	}
	if p.Name == "" {
		return nil, fmt.Errorf("%s: metadata.name is required", gvk.Kind)
	}
	p.SetGroupVersionKind(gvk)
	return []runtime.Object{&p}, nil
}

// listPageSize is the page size of the cluster lists.
const listPageSize = 500

// LoadCluster lists Services, Pods, Endpoints and EndpointSlices in
// namespace ("" means all namespaces) and all Nodes through client, in
// pages. A kind other than EndpointSlices that the caller may not list
// (Forbidden) is left out and marked as missing in Have, so that the rules
// needing it are skipped; any other error is returned as an *InputError.
func LoadCluster(ctx context.Context, client kubernetes.Interface, namespace string) (*Inventory, error) {
	logger := klog.FromContext(ctx)
	inv := &Inventory{}
	forbidden := func(kind string, err error) (bool, error) {
		if apierrors.IsForbidden(err) {
			logger.Info("Listing is forbidden, skipping the rules that need this kind", "kind", kind, "err", err)
			return true, nil
		}
		return false, &InputError{File: "cluster", Err: fmt.Errorf("listing %s: %w", kind, err)}
	}

	esl, err := listAll(ctx, func(ctx context.Context, o metav1.ListOptions) ([]discoveryv1.EndpointSlice, string, error) {
		l, err := client.DiscoveryV1().EndpointSlices(namespace).List(ctx, o)
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.Continue, nil
	})
	if err != nil {
		return nil, &InputError{File: "cluster", Err: fmt.Errorf("listing EndpointSlices: %w", err)}
	}
	for i := range esl {
		inv.EndpointSlices = append(inv.EndpointSlices, &esl[i])
	}

	services, err := listAll(ctx, func(ctx context.Context, o metav1.ListOptions) ([]corev1.Service, string, error) {
		l, err := client.CoreV1().Services(namespace).List(ctx, o)
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.Continue, nil
	})
	if err == nil {
		inv.Have.Services = true
		for i := range services {
			inv.Services = append(inv.Services, &services[i])
		}
	} else if skip, err := forbidden("Services", err); !skip {
		return nil, err
	}

	pods, err := listAll(ctx, func(ctx context.Context, o metav1.ListOptions) ([]corev1.Pod, string, error) {
		l, err := client.CoreV1().Pods(namespace).List(ctx, o)
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.Continue, nil
	})
	if err == nil {
		inv.Have.Pods = true
		for i := range pods {
			inv.Pods = append(inv.Pods, &pods[i])
		}
	} else if skip, err := forbidden("Pods", err); !skip {
		return nil, err
	}

	eps, err := listAll(ctx, func(ctx context.Context, o metav1.ListOptions) ([]corev1.Endpoints, string, error) {
		l, err := client.CoreV1().Endpoints(namespace).List(ctx, o)
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.Continue, nil
	})
	if err == nil {
		inv.Have.Endpoints = true
		for i := range eps {
			inv.Endpoints = append(inv.Endpoints, &eps[i])
		}
	} else if skip, err := forbidden("Endpoints", err); !skip {
		return nil, err
	}

	nodes, err := listAll(ctx, func(ctx context.Context, o metav1.ListOptions) ([]corev1.Node, string, error) {
		l, err := client.CoreV1().Nodes().List(ctx, o)
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.Continue, nil
	})
	if err == nil {
		inv.Have.Nodes = true
		for i := range nodes {
			inv.Nodes = append(inv.Nodes, &nodes[i])
		}
	} else if skip, err := forbidden("Nodes", err); !skip {
		return nil, err
	}

	logger.V(2).Info("Listed objects", "namespace", namespace, "endpointSlices", len(inv.EndpointSlices),
		"services", len(inv.Services), "pods", len(inv.Pods), "endpoints", len(inv.Endpoints), "nodes", len(inv.Nodes))
	return inv, nil
}

// listAll calls list page by page until the continue token is empty.
func listAll[T any](ctx context.Context, list func(context.Context, metav1.ListOptions) ([]T, string, error)) ([]T, error) {
	var out []T
	opts := metav1.ListOptions{Limit: listPageSize}
	for {
		items, cont, err := list(ctx, opts)
		if err != nil {
			return nil, err
		}
		out = slices.Grow(out, len(items))
		out = append(out, items...)
		if cont == "" {
			return out, nil
		}
		opts.Continue = cont
	}
}
