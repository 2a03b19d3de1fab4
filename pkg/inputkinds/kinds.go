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

package inputkinds

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/internal/required"
)

// Kind is one kind of object slicekit reads. Every field but Validate and
// Transform is required (Validate checks).
type Kind struct {
	// Resource is the resource name ("pods", "resourceclaims"); it names
	// the kind's informer in informertransform.Reads and the rules of
	// RBAC.
	Resource string
	// GVK is the group, version and kind read from files and clusters.
	GVK schema.GroupVersionKind
	// Namespaced is true for namespaced kinds.
	Namespaced bool
	// Order places the kind when objects are stored in dependency order
	// (render seeds Namespaces, then Nodes, Services, Pods, ...): lower
	// first. Built-in kinds use 0 to 50; a source's kind is usually read
	// after the Pods that refer to it, for example 35.
	Order int
	// New returns an empty object of the kind.
	New func() runtime.Object
	// Informer returns the factory's shared informer of the kind,
	// creating it on first use.
	Informer func(f informers.SharedInformerFactory) cache.SharedIndexInformer
	// List returns one page of the objects of the kind in namespace (""
	// means all; ignored for cluster-scoped kinds) and the continue token
	// of the next page ("" when none).
	List func(ctx context.Context, client kubernetes.Interface, namespace string, opts metav1.ListOptions) ([]runtime.Object, string, error)
	// Transform, for a kind a source declares, is the informer transform
	// that keeps what the source reads (nil: objects are cached whole). For
	// the built-in kinds it is nil: pkg/informertransform composes theirs
	// from what the enabled controllers read.
	Transform cache.TransformFunc
	// Validate, when not nil, checks an object read from a file as the
	// API server would (beyond strict decoding), returning its field
	// errors. The built-in kinds' checks are internal/inputfile's.
	Validate func(obj runtime.Object) field.ErrorList
}

// Check returns an error naming k and each required field that is
// missing (Resource, GVK, New, Informer, List), or nil.
func (k Kind) Check() error {
	return required.Check(fmt.Sprintf("input kind %q (resource %q)", k.GVK.Kind, k.Resource),
		required.Field{Name: "Resource", Set: k.Resource != ""},
		required.Field{Name: "GVK", Set: k.GVK.Kind != "" && k.GVK.Version != ""},
		required.Field{Name: "New", Set: k.New != nil},
		required.Field{Name: "Informer", Set: k.Informer != nil},
		required.Field{Name: "List", Set: k.List != nil})
}

// Resource names of the built-in kinds.
const (
	Namespaces     = "namespaces"
	Nodes          = "nodes"
	Services       = "services"
	Pods           = "pods"
	Endpoints      = "endpoints"
	EndpointSlices = "endpointslices"
)

// items returns the items of a typed list as objects, and its continue
// token.
func items(list runtime.Object, err error) ([]runtime.Object, string, error) {
	if err != nil {
		return nil, "", err
	}
	objs, err := meta.ExtractList(list)
	if err != nil {
		return nil, "", err
	}
	lm, err := meta.ListAccessor(list)
	if err != nil {
		return nil, "", err
	}
	return objs, lm.GetContinue(), nil
}

// Builtin returns the built-in kinds, in Order: Namespace, Node, Service,
// Pod, Endpoints, EndpointSlice. Each call returns a new slice.
func Builtin() []Kind {
	return []Kind{
		{
			Resource: Namespaces, GVK: corev1.SchemeGroupVersion.WithKind("Namespace"), Order: 0,
			New: func() runtime.Object { return &corev1.Namespace{} },
			Informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Core().V1().Namespaces().Informer()
			},
			List: func(ctx context.Context, c kubernetes.Interface, _ string, o metav1.ListOptions) ([]runtime.Object, string, error) {
				return items(c.CoreV1().Namespaces().List(ctx, o))
			},
		},
		{
			Resource: Nodes, GVK: corev1.SchemeGroupVersion.WithKind("Node"), Order: 10,
			New: func() runtime.Object { return &corev1.Node{} },
			Informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Core().V1().Nodes().Informer()
			},
			List: func(ctx context.Context, c kubernetes.Interface, _ string, o metav1.ListOptions) ([]runtime.Object, string, error) {
				return items(c.CoreV1().Nodes().List(ctx, o))
			},
		},
		{
			Resource: Services, GVK: corev1.SchemeGroupVersion.WithKind("Service"), Namespaced: true, Order: 20,
			New: func() runtime.Object { return &corev1.Service{} },
			Informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Core().V1().Services().Informer()
			},
			List: func(ctx context.Context, c kubernetes.Interface, ns string, o metav1.ListOptions) ([]runtime.Object, string, error) {
				return items(c.CoreV1().Services(ns).List(ctx, o))
			},
		},
		{
			Resource: Pods, GVK: corev1.SchemeGroupVersion.WithKind("Pod"), Namespaced: true, Order: 30,
			New: func() runtime.Object { return &corev1.Pod{} },
			Informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Core().V1().Pods().Informer()
			},
			List: func(ctx context.Context, c kubernetes.Interface, ns string, o metav1.ListOptions) ([]runtime.Object, string, error) {
				return items(c.CoreV1().Pods(ns).List(ctx, o))
			},
		},
		{
			Resource: Endpoints, GVK: corev1.SchemeGroupVersion.WithKind("Endpoints"), Namespaced: true, Order: 40,
			New: func() runtime.Object { return &corev1.Endpoints{} }, //nolint:staticcheck // v1 Endpoints are what the mirroring and Endpoints controllers read
			Informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Core().V1().Endpoints().Informer() //nolint:staticcheck // as above
			},
			List: func(ctx context.Context, c kubernetes.Interface, ns string, o metav1.ListOptions) ([]runtime.Object, string, error) {
				return items(c.CoreV1().Endpoints(ns).List(ctx, o)) //nolint:staticcheck // as above
			},
		},
		{
			Resource: EndpointSlices, GVK: discovery.SchemeGroupVersion.WithKind("EndpointSlice"), Namespaced: true, Order: 50,
			New: func() runtime.Object { return &discovery.EndpointSlice{} },
			Informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Discovery().V1().EndpointSlices().Informer()
			},
			List: func(ctx context.Context, c kubernetes.Interface, ns string, o metav1.ListOptions) ([]runtime.Object, string, error) {
				return items(c.DiscoveryV1().EndpointSlices(ns).List(ctx, o))
			},
		},
	}
}

// Table is a set of kinds, at most one per GVK and per resource, in
// Order (then kind name).
type Table []Kind

// NewTable returns the built-in kinds plus extra, sorted by Order and
// kind name. A kind given twice (same GVK and resource, as when two
// controllers declare the same kind) is kept once; it returns an error
// when a kind is incomplete (Kind.Check) or two different kinds share a
// GVK or a resource name.
func NewTable(extra ...Kind) (Table, error) {
	t := Table(Builtin())
	var errs []error
	for _, k := range extra {
		if err := k.Check(); err != nil {
			errs = append(errs, err)
			continue
		}
		dup := false
		for _, have := range t {
			switch {
			case have.GVK == k.GVK && have.Resource == k.Resource:
				dup = true
			case have.GVK == k.GVK || have.Resource == k.Resource:
				errs = append(errs, fmt.Errorf("input kinds %s (%s) and %s (%s) collide", have.GVK, have.Resource, k.GVK, k.Resource))
				dup = true
			}
		}
		if !dup {
			t = append(t, k)
		}
	}
	slices.SortStableFunc(t, func(a, b Kind) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.GVK.Kind, b.GVK.Kind))
	})
	return t, errors.Join(errs...)
}

// ByGVK returns the kind of gvk.
func (t Table) ByGVK(gvk schema.GroupVersionKind) (Kind, bool) {
	for _, k := range t {
		if k.GVK == gvk {
			return k, true
		}
	}
	return Kind{}, false
}

// ByKind returns the kind whose GVK.Kind is kind (kinds are unique by
// name in slicekit's table).
func (t Table) ByKind(kind string) (Kind, bool) {
	for _, k := range t {
		if k.GVK.Kind == kind {
			return k, true
		}
	}
	return Kind{}, false
}

// ByResource returns the kind of resource name r.
func (t Table) ByResource(r string) (Kind, bool) {
	for _, k := range t {
		if k.Resource == r {
			return k, true
		}
	}
	return Kind{}, false
}

// Extra returns the kinds of t that are not built in, in order.
func (t Table) Extra() []Kind {
	var out []Kind
	for _, k := range t {
		if !IsBuiltin(k.Resource) {
			out = append(out, k)
		}
	}
	return out
}

// IsBuiltin reports whether resource r is one of Builtin's.
func IsBuiltin(r string) bool {
	switch r {
	case Namespaces, Nodes, Services, Pods, Endpoints, EndpointSlices:
		return true
	}
	return false
}

// ListAll returns every object of k in namespace ("" means all) through
// client, page by page (pageSize objects a page; 0 means no limit).
func (k Kind) ListAll(ctx context.Context, client kubernetes.Interface, namespace string, pageSize int64) ([]runtime.Object, error) {
	var out []runtime.Object
	opts := metav1.ListOptions{Limit: pageSize}
	for {
		objs, cont, err := k.List(ctx, client, namespace, opts)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", k.Resource, err)
		}
		out = append(out, objs...)
		if cont == "" {
			return out, nil
		}
		opts.Continue = cont
	}
}
