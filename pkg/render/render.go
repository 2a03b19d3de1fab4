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
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/manager"
)

// DefaultMaxPasses is the default Options.MaxPasses.
const DefaultMaxPasses = 10

// Options configure Render.
type Options struct {
	// Controllers selects and configures the controllers, as for `slicekit
	// run`; nil means manager.NewControllerOptions(). Render validates them.
	Controllers *manager.ControllerOptions
	// MaxPasses is the most passes before Render gives up; 0 means
	// DefaultMaxPasses.
	MaxPasses int
}

// Event is an Event a controller recorded during the render.
type Event struct {
	// Object is "Kind namespace/name" of the object the event is about.
	Object string
	// Type is Normal or Warning.
	Type string
	// Reason and Message are the event's.
	Reason, Message string
}

// Result is the outcome of Render.
type Result struct {
	// EndpointSlices are every EndpointSlice that exists afterwards, the
	// input's foreign ones included, sorted by namespace and name, as the
	// fake API server stores them.
	EndpointSlices []*discovery.EndpointSlice
	// Passes is the number of passes run; the last one wrote nothing.
	Passes int
	// Warnings are the sync errors of the last pass (for instance a Pod on
	// a Node that does not exist: live, the controller would retry with
	// back-off and write the same slices) and notes about what render does
	// not model.
	Warnings []error
	// Events are the events the controllers recorded, in order.
	Events []Event
	// Objects are every other object afterwards (Namespaces, Nodes,
	// Services, Pods, Endpoints) as the fake API server stores them, with
	// their uids (derived ones included, which the slices' owner
	// references name), sorted by kind (that order), namespace and name;
	// printed before the slices, they make a complete state
	// (`slicekit render --with-inputs`).
	Objects []runtime.Object
}

// Render runs the enabled controllers on objs to a fixed point, offline,
// and returns the EndpointSlices that exist afterwards.
//
// The objects are stored in a client-go fake clientset that behaves like
// an API server for the writes controllers make (internal/memapi: UIDs,
// resourceVersions, EndpointSlice generations, no-op updates, delete
// preconditions), with names for generateName made deterministically: the
// base plus a 5-character suffix from a counter per namespace and base. An
// object without a uid gets one derived from its kind, namespace and name,
// so that renders of the same input agree. The controllers are constructed
// by the manager's registry, as `slicekit run` constructs them, on an
// informer factory over the fake clientset whose informers are never
// started: before each controller's SyncAll, Render replaces the indexers
// of the Namespace, Node, Service, Pod, Endpoints and EndpointSlice
// informers with the clientset's current objects, so the caches are never
// stale. A pass calls SyncAll of every controller in name order; Render
// stops after the first pass that changed nothing and fails when MaxPasses
// passes did not reach that point.
//
// Topology-aware hints (topology-mode: Auto) are computed from the Nodes
// of the input, as a running controller that has seen those Nodes does
// (the EndpointSlice controller's SyncAll feeds them to its topology
// cache). Not modelled offline: anything that depends on time.
func Render(ctx context.Context, objs []runtime.Object, opts Options) (*Result, error) {
	copts := opts.Controllers
	if copts == nil {
		copts = manager.NewControllerOptions()
	}
	if copts.AddressGuard.ServiceClusterIPRange == "" {
		// Offline there are no ServiceCIDR objects: the pod-address
		// controllers' address guard refuses the ranges render allocates
		// cluster IPs from and the cluster IPs the input gives.
		c := *copts
		c.AddressGuard.ServiceClusterIPRange = serviceRanges(objs)
		copts = &c
	}
	if err := copts.Validate(); err != nil {
		return nil, err
	}
	maxPasses := cmp.Or(opts.MaxPasses, DefaultMaxPasses)

	kinds, err := manager.InputKinds()
	if err != nil {
		return nil, err
	}
	seed, err := prepareSeed(objs, kinds)
	if err != nil {
		return nil, err
	}
	client := memapi.NewClientset(seed...)
	n := newNamer(client)
	client.PrependReactor("create", "*", n.create)

	res := &Result{}
	rec := &recorder{logger: klog.FromContext(ctx), mu: &sync.Mutex{}, events: &res.Events}
	factory := informers.NewSharedInformerFactory(client, 0)
	controllers, err := manager.NewControllers(ctx, manager.InitContext{
		Client:          client,
		InformerFactory: factory,
		Options:         copts,
		EventRecorder:   rec,
	})
	if err != nil {
		return nil, err
	}
	transforms, err := copts.Transforms()
	if err != nil {
		return nil, err
	}
	caches := newCaches(client, factory, transforms, kinds)

	prev, err := caches.refresh(ctx)
	if err != nil {
		return nil, err
	}
	for pass := 1; pass <= maxPasses; pass++ {
		var errs []error
		for _, c := range controllers {
			if _, err := caches.refresh(ctx); err != nil {
				return nil, err
			}
			if err := c.SyncAll(ctx); err != nil {
				errs = append(errs, fmt.Errorf("controller %s: %w", c.Name, err))
			}
		}
		cur, err := caches.refresh(ctx)
		if err != nil {
			return nil, err
		}
		client.ClearActions()
		if maps.Equal(prev, cur) {
			res.Passes = pass
			res.Warnings = errs
			res.EndpointSlices = caches.endpointSlices()
			res.Objects = caches.others()
			return res, nil
		}
		prev = cur
	}
	return nil, fmt.Errorf("no fixed point after %d passes: the controllers keep writing", maxPasses)
}

// prepareSeed deep-copies objs, gives a derived uid to objects without
// one and sorts them by kind (kinds' Order: what others refer to first),
// namespace and name. An object of a kind not in kinds is an error.
func prepareSeed(objs []runtime.Object, kinds inputkinds.Table) ([]runtime.Object, error) {
	kindOrder := map[string]int{}
	for _, k := range kinds {
		kindOrder[k.GVK.Kind] = k.Order
	}
	out := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		o = o.DeepCopyObject()
		m, err := meta.Accessor(o)
		if err != nil {
			return nil, err
		}
		kind, err := kindOf(o)
		if err != nil {
			return nil, err
		}
		if _, ok := kindOrder[kind]; !ok {
			return nil, fmt.Errorf("unsupported kind %s", kind)
		}
		if m.GetUID() == "" {
			m.SetUID(derivedUID(kind, m.GetNamespace(), m.GetName()))
		}
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b runtime.Object) int {
		ka, _ := kindOf(a)
		kb, _ := kindOf(b)
		ma, _ := meta.Accessor(a)
		mb, _ := meta.Accessor(b)
		return cmp.Or(cmp.Compare(kindOrder[ka], kindOrder[kb]),
			cmp.Compare(ma.GetNamespace(), mb.GetNamespace()), cmp.Compare(ma.GetName(), mb.GetName()))
	})
	return out, nil
}

// caches refreshes the informer indexers from the fake clientset.
type caches struct {
	client  *fake.Clientset
	sources []source
}

// source is one resource: how to list it, the indexer to fill and the
// informer transform `slicekit run` would install on that informer.
type source struct {
	kind    string
	gvk     schema.GroupVersionKind
	list    func(ctx context.Context) ([]runtime.Object, error)
	indexer cache.Indexer
	// transform is applied to each object before it enters the indexer, as
	// client-go applies an informer's transform; nil keeps objects whole.
	transform cache.TransformFunc
	// stored are the clientset's objects of the last refresh, whole: the
	// result is built from them, never from the transformed cache.
	stored []runtime.Object
}

// newCaches returns the caches of the factory's informers of every kind in
// kinds, filled from client by refresh through transforms
// (manager.ControllerOptions.Transforms), so that the controllers see the
// objects as `slicekit run` caches them.
func newCaches(client *fake.Clientset, f informers.SharedInformerFactory, transforms informertransform.Transforms, kinds inputkinds.Table) *caches {
	c := &caches{client: client}
	for _, k := range kinds {
		c.sources = append(c.sources, source{
			kind: k.GVK.Kind,
			gvk:  k.GVK,
			list: func(ctx context.Context) ([]runtime.Object, error) {
				return k.ListAll(ctx, client, "", 0)
			},
			indexer:   k.Informer(f).GetIndexer(),
			transform: transforms[informertransform.Informer(k.Resource)],
		})
	}
	return c
}

// refresh replaces every indexer's content with the clientset's objects
// and returns a fingerprint of the stored state: "Kind namespace/name" to
// resourceVersion.
func (c *caches) refresh(ctx context.Context) (map[string]string, error) {
	state := map[string]string{}
	for i := range c.sources {
		s := &c.sources[i]
		objs, err := s.list(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing %s objects: %w", s.kind, err)
		}
		s.stored = objs
		items := make([]any, 0, len(objs))
		for _, o := range objs {
			m, err := meta.Accessor(o)
			if err != nil {
				return nil, err
			}
			state[s.kind+" "+m.GetNamespace()+"/"+m.GetName()] = m.GetResourceVersion()
			// The transforms build new objects; without one the indexer
			// shares the stored object, which nothing modifies (cache
			// objects are read-only; the result is built from copies).
			var item any = o
			if s.transform != nil {
				if item, err = s.transform(item); err != nil {
					return nil, fmt.Errorf("transforming %s %s/%s: %w", s.kind, m.GetNamespace(), m.GetName(), err)
				}
			}
			items = append(items, item)
		}
		if err := s.indexer.Replace(items, ""); err != nil {
			return nil, fmt.Errorf("filling the %s cache: %w", s.kind, err)
		}
	}
	return state, nil
}

// others returns copies of the cached objects other than EndpointSlices,
// sorted by kind (source order), namespace and name, with TypeMeta set.
func (c *caches) others() []runtime.Object {
	var out []runtime.Object
	for _, s := range c.sources {
		if s.kind == "EndpointSlice" {
			continue
		}
		var objs []runtime.Object
		for _, o := range s.stored {
			cp := o.DeepCopyObject()
			cp.GetObjectKind().SetGroupVersionKind(s.gvk)
			objs = append(objs, cp)
		}
		slices.SortFunc(objs, func(a, b runtime.Object) int {
			ma, _ := meta.Accessor(a)
			mb, _ := meta.Accessor(b)
			return cmp.Or(cmp.Compare(ma.GetNamespace(), mb.GetNamespace()), cmp.Compare(ma.GetName(), mb.GetName()))
		})
		out = append(out, objs...)
	}
	return out
}

// endpointSlices returns the cached EndpointSlices sorted by namespace and
// name.
func (c *caches) endpointSlices() []*discovery.EndpointSlice {
	var out []*discovery.EndpointSlice
	for _, s := range c.sources {
		if s.kind != "EndpointSlice" {
			continue
		}
		for _, o := range s.stored {
			out = append(out, o.(*discovery.EndpointSlice).DeepCopy())
		}
	}
	slices.SortFunc(out, func(a, b *discovery.EndpointSlice) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}
