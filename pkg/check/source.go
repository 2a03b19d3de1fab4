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
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/inputfile"
	"github.com/slicekit/slicekit/pkg/inputkinds"
)

// orBuiltin returns kinds, or the built-in kinds alone when kinds is nil.
func orBuiltin(kinds inputkinds.Table) inputkinds.Table {
	if kinds != nil {
		return kinds
	}
	t, _ := inputkinds.NewTable() // the built-in kinds never collide
	return t
}

// StdinName is the file name that reads standard input.
const StdinName = inputfile.StdinName

// InputError is an error in the input (see inputfile.InputError): a file
// that cannot be read, a document that is not valid YAML or JSON, lacks
// apiVersion/kind, does not decode strictly into its type, an object the
// API server would reject (with its field), an object given twice with
// different content; or a cluster that cannot be listed (File "cluster").
// It maps to exit status 2.
type InputError = inputfile.InputError

// Ignored is an input object of a kind the check does not read; Run lists
// each on Options.Stderr.
type Ignored = inputfile.Ignored

// ReadFiles reads the named files (StdinName reads stdin, at most once; a
// directory contributes its *.yaml, *.yml and *.json files in name order)
// and decodes them as render does (inputfile.ReadObjects): Namespaces,
// Nodes, Services, Pods, Endpoints, EndpointSlices, their typed lists and
// v1 List, decoded strictly and validated as the API server would, with
// its port-protocol defaults applied (inputfile.DefaultProtocols); objects
// of other kinds come back as Ignored. The same object given twice is kept
// once when both copies are equal and is an error otherwise. Every problem
// is reported; each is an *InputError.
//
// kinds is the table of the kinds read (registry.InputKinds of the
// controllers judged: their Reads.Kinds, such as ResourceClaims, besides
// the built-in kinds); nil reads the built-in kinds only.
func ReadFiles(names []string, stdin io.Reader, kinds inputkinds.Table) ([]runtime.Object, []Ignored, error) {
	objs, ignored, err := inputfile.ReadObjects(names, stdin, orBuiltin(kinds))
	if err != nil {
		return nil, nil, err
	}
	out := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.Object)
	}
	inputfile.DefaultProtocols(out)
	return out, ignored, nil
}

// namespaceInInput returns an error when namespace (-n) is neither a
// Namespace object of objs nor the namespace of any of them, so that a
// mistyped -n on a dump fails as it does on a cluster instead of passing
// with nothing checked. The error names the namespaces objs has (at most
// ten). It returns nil for "" and for no objects (Run notes an empty
// input).
func namespaceInInput(objs []runtime.Object, namespace string) error {
	if namespace == "" || len(objs) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			continue
		}
		ns := m.GetNamespace()
		if _, isNS := o.(*corev1.Namespace); isNS {
			ns = m.GetName()
		}
		if ns == namespace {
			return nil
		}
		if ns != "" {
			seen[ns] = true
		}
	}
	if len(seen) == 0 {
		return fmt.Errorf("namespace %q does not exist in the input: it has no namespaced object", namespace)
	}
	names := slices.Sorted(maps.Keys(seen))
	more := ""
	if len(names) > 10 {
		names, more = names[:10], fmt.Sprintf(" and %d more", len(names)-10)
	}
	return fmt.Errorf("namespace %q does not exist in the input (its namespaces: %s%s)", namespace, strings.Join(names, ", "), more)
}

// Decode decodes multi-document YAML (or JSON) read from file (a name used
// in errors) as ReadFiles does, except that an object without namespace
// keeps an empty one (callers such as the conformance suite place it).
// Objects of kinds the check does not read are returned as
// *metav1.PartialObjectMetadata (NewInventory counts them as ignored).
// Errors are *InputError, joined. kinds is as for ReadFiles.
func Decode(file string, data []byte, kinds inputkinds.Table) ([]runtime.Object, error) {
	objs, ignored, err := inputfile.DecodeObjects(file, data, orBuiltin(kinds))
	if err != nil {
		return nil, err
	}
	out := make([]runtime.Object, 0, len(objs)+len(ignored))
	for _, o := range objs {
		if o.NamespaceDefaulted {
			if m, err := meta.Accessor(o.Object); err == nil {
				m.SetNamespace("")
			}
		}
		out = append(out, o.Object)
	}
	inputfile.DefaultProtocols(out)
	for _, ig := range ignored {
		p := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ig.Namespace, Name: ig.Name}}
		p.SetGroupVersionKind(schema.FromAPIVersionAndKind(ig.APIVersion, ig.Kind))
		out = append(out, p)
	}
	return out, nil
}

// listPageSize is the page size of the cluster lists.
const listPageSize = 500

// LoadCluster lists Services, Pods, Endpoints and EndpointSlices in
// namespace ("" means all namespaces), all Nodes, and the kinds the
// controllers declare beyond those (kinds, as for ReadFiles:
// ResourceClaims for slicekit's) through client, in pages of listPageSize: every kind of the one input
// kinds table but Namespaces, which no rule reads. A kind other than
// EndpointSlices that the caller may not list (Forbidden), or a declared
// kind the cluster does not serve (NotFound), is left out and marked as
// missing in Have, so that the rules needing it are skipped; any other
// error is returned as an *InputError, and so is a namespace that does
// not exist (when the caller may get Namespaces).
func LoadCluster(ctx context.Context, client kubernetes.Interface, namespace string, kinds inputkinds.Table) (*Inventory, error) {
	logger := klog.FromContext(ctx)
	if namespace != "" {
		// Lists in a namespace that does not exist are empty, which
		// would read as a clean check.
		_, err := client.CoreV1().Namespaces().Get(ctx, namespace, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return nil, &InputError{File: "cluster", Err: fmt.Errorf("namespace %q does not exist", namespace)}
		case err != nil:
			// May not get Namespaces (a namespaced role): check what
			// can be listed.
			logger.V(2).Info("Cannot get the namespace, checking it anyway", "namespace", namespace, "err", err)
		}
	}
	inv := &Inventory{}
	table := orBuiltin(kinds)
	extra := map[string]bool{}
	for _, k := range table.Extra() {
		extra[k.GVK.Kind] = true
	}
	// EndpointSlices first: without them there is nothing to check.
	ordered := slices.Clone(table)
	slices.SortStableFunc(ordered, func(a, b inputkinds.Kind) int {
		return cmp.Compare(b2i(a.GVK.Kind != "EndpointSlice"), b2i(b.GVK.Kind != "EndpointSlice"))
	})
	for _, k := range ordered {
		kind := k.GVK.Kind
		if kind == "Namespace" {
			continue
		}
		objs, err := k.ListAll(ctx, client, namespace, listPageSize)
		if err != nil {
			skippable := kind != "EndpointSlice" && (apierrors.IsForbidden(err) || (extra[kind] && apierrors.IsNotFound(err)))
			if !skippable {
				// ListAll's error names the resource; name the kind.
				cause := cmp.Or(errors.Unwrap(err), err)
				return nil, &InputError{File: "cluster", Err: fmt.Errorf("listing %s: %w", strings.TrimSuffix(kind, "s")+"s", cause)}
			}
			logger.Info("Cannot list a kind, skipping the rules that need it", "kind", kind, "err", err)
			continue
		}
		for _, o := range objs {
			inv.Add(o)
		}
		inv.Have.set(kind)
	}
	logger.V(2).Info("Listed objects", "namespace", namespace, "endpointSlices", len(inv.EndpointSlices),
		"services", len(inv.Services), "pods", len(inv.Pods), "endpoints", len(inv.Endpoints), "nodes", len(inv.Nodes))
	return inv, nil
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
