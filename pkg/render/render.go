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
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/inputkinds"
)

// DefaultMaxPasses is the default Options.MaxPasses.
const DefaultMaxPasses = 10

// Options configure Render.
type Options struct {
	// Controllers selects and configures the controllers, as for `slicekit
	// run`; nil means builtin.NewControllerOptions(). Render validates them.
	Controllers *builtin.ControllerOptions
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
// by builtin.NewControllers, as `slicekit run` constructs them, on an
// informer factory over the fake clientset whose informers are never
// started: before each controller's SyncAll, Render replaces the indexers
// of the input kinds' informers that the controllers wrote to since the
// last replacement (all of them the first time) with the clientset's
// current objects, so the caches are never stale. A pass calls SyncAll of every controller in name order; Render
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
		copts = builtin.NewControllerOptions()
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

	kinds, err := builtin.InputKinds()
	if err != nil {
		return nil, err
	}
	seed, err := prepareSeed(objs, kinds)
	if err != nil {
		return nil, err
	}
	client := memapi.NewClientsetWithOptions(memapi.Options{SeedUID: derivedUID}, seed...)
	n := newNamer(client)
	client.PrependReactor("create", "*", n.create)

	res := &Result{}
	rec := &recorder{logger: klog.FromContext(ctx), mu: &sync.Mutex{}, events: &res.Events}
	factory := informers.NewSharedInformerFactory(client, 0)
	controllers, err := builtin.NewControllers(ctx, builtin.InitContext{
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
	// Runs first: marks the resource of every write as changed, so that
	// refresh lists again only what the controllers wrote.
	client.PrependReactor("*", "*", caches.noteWrite)

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
			if res.EndpointSlices, res.Objects, err = caches.result(ctx); err != nil {
				return nil, err
			}
			return res, nil
		}
		prev = cur
	}
	return nil, fmt.Errorf("no fixed point after %d passes: the controllers keep writing", maxPasses)
}

// prepareSeed returns objs sorted by kind (kinds' Order: what others refer
// to first), namespace and name; objs itself is not modified (the
// clientset stores copies and gives uids, see derivedUID). An object of a
// kind not in kinds is an error.
func prepareSeed(objs []runtime.Object, kinds inputkinds.Table) ([]runtime.Object, error) {
	kindOrder := map[string]int{}
	for _, k := range kinds {
		kindOrder[k.GVK.Kind] = k.Order
	}
	type keyed struct {
		obj             runtime.Object
		order           int
		namespace, name string
	}
	sorted := make([]keyed, 0, len(objs))
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			return nil, err
		}
		kind, err := kindOf(o)
		if err != nil {
			return nil, err
		}
		order, ok := kindOrder[kind]
		if !ok {
			return nil, fmt.Errorf("unsupported kind %s", kind)
		}
		sorted = append(sorted, keyed{obj: o, order: order, namespace: m.GetNamespace(), name: m.GetName()})
	}
	slices.SortStableFunc(sorted, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
	})
	out := make([]runtime.Object, 0, len(sorted))
	for _, k := range sorted {
		out = append(out, k.obj)
	}
	return out, nil
}

// caches refreshes the informer indexers from the fake clientset.
type caches struct {
	client  *fake.Clientset
	sources []source

	mu sync.Mutex
	// written are the resources written since their last refresh.
	written map[string]bool
}

// source is one resource: how to list it, the indexer to fill and the
// informer transform `slicekit run` would install on that informer.
type source struct {
	kind string
	gvk  schema.GroupVersionKind
	// resource is the kind's resource ("pods"), as write actions name it.
	resource string
	list     func(ctx context.Context) ([]runtime.Object, error)
	indexer  cache.Indexer
	// transform is applied to each object before it enters the indexer, as
	// client-go applies an informer's transform; nil keeps objects whole.
	transform cache.TransformFunc
	// state is the fingerprint of the last refresh's list: "Kind
	// namespace/name" to resourceVersion.
	state map[string]string
	// listed is set once state holds a list.
	listed bool
}

// newCaches returns the caches of the factory's informers of every kind in
// kinds, filled from client by refresh through transforms
// (builtin.ControllerOptions.Transforms), so that the controllers see the
// objects as `slicekit run` caches them.
func newCaches(client *fake.Clientset, f informers.SharedInformerFactory, transforms informertransform.Transforms, kinds inputkinds.Table) *caches {
	c := &caches{client: client, written: map[string]bool{}}
	for _, k := range kinds {
		c.sources = append(c.sources, source{
			kind:     k.GVK.Kind,
			gvk:      k.GVK,
			resource: k.Resource,
			list: func(ctx context.Context) ([]runtime.Object, error) {
				return k.ListAll(ctx, client, "", 0)
			},
			indexer:   k.Informer(f).GetIndexer(),
			transform: transforms[informertransform.Informer(k.Resource)],
		})
	}
	return c
}

// noteWrite is a reactor that records the resource of every create,
// update, patch and delete; it never ends the reactor chain.
func (c *caches) noteWrite(action k8stesting.Action) (bool, runtime.Object, error) {
	switch action.GetVerb() {
	case "create", "update", "patch", "delete", "delete-collection":
		c.mu.Lock()
		c.written[action.GetResource().Resource] = true
		c.mu.Unlock()
	}
	return false, nil, nil
}

// refresh replaces the content of every indexer whose resource was
// written since its last refresh (every indexer the first time) with the
// clientset's objects, and returns a fingerprint of the stored state:
// "Kind namespace/name" to resourceVersion. Unwritten resources keep their
// cache and fingerprint: listing them again would copy every object
// (Pods, the bulk of an input, are never written) and find the same.
func (c *caches) refresh(ctx context.Context) (map[string]string, error) {
	c.mu.Lock()
	written := c.written
	c.written = map[string]bool{}
	c.mu.Unlock()
	state := map[string]string{}
	for i := range c.sources {
		s := &c.sources[i]
		if !s.listed || written[s.resource] {
			if err := s.refresh(ctx); err != nil {
				return nil, err
			}
		}
		maps.Copy(state, s.state)
	}
	return state, nil
}

// refresh lists the source's objects and replaces its indexer's content.
func (s *source) refresh(ctx context.Context) error {
	objs, err := s.list(ctx)
	if err != nil {
		return fmt.Errorf("listing %s objects: %w", s.kind, err)
	}
	state := make(map[string]string, len(objs))
	items := make([]any, 0, len(objs))
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			return err
		}
		state[s.kind+" "+m.GetNamespace()+"/"+m.GetName()] = m.GetResourceVersion()
		// The transforms build new objects; without one the indexer
		// shares the stored object, which nothing modifies (cache
		// objects are read-only).
		var item any = o
		if s.transform != nil {
			if item, err = s.transform(item); err != nil {
				return fmt.Errorf("transforming %s %s/%s: %w", s.kind, m.GetNamespace(), m.GetName(), err)
			}
		}
		items = append(items, item)
	}
	if err := s.indexer.Replace(items, ""); err != nil {
		return fmt.Errorf("filling the %s cache: %w", s.kind, err)
	}
	s.state, s.listed = state, true
	return nil
}

// result lists every kind's objects once the controllers are done and
// returns the EndpointSlices sorted by namespace and name, and the other
// objects sorted by kind (source order), namespace and name, with TypeMeta
// set: the result is built from the clientset's whole objects, never from
// the transformed caches. The caches are emptied first, so that the
// objects are held once (in the clientset) besides the result.
func (c *caches) result(ctx context.Context) ([]*discovery.EndpointSlice, []runtime.Object, error) {
	for _, s := range c.sources {
		if err := s.indexer.Replace(nil, ""); err != nil {
			return nil, nil, fmt.Errorf("emptying the %s cache: %w", s.kind, err)
		}
	}
	var eps []*discovery.EndpointSlice
	var others []runtime.Object
	for _, s := range c.sources {
		objs, err := s.list(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("listing %s objects: %w", s.kind, err)
		}
		// The lists are the clientset's copies, sorted by namespace and
		// name; nothing else holds them.
		slices.SortStableFunc(objs, func(a, b runtime.Object) int {
			ma, _ := meta.Accessor(a)
			mb, _ := meta.Accessor(b)
			return cmp.Or(cmp.Compare(ma.GetNamespace(), mb.GetNamespace()), cmp.Compare(ma.GetName(), mb.GetName()))
		})
		for _, o := range objs {
			if es, ok := o.(*discovery.EndpointSlice); ok && s.kind == "EndpointSlice" {
				eps = append(eps, es)
				continue
			}
			o.GetObjectKind().SetGroupVersionKind(s.gvk)
			others = append(others, o)
		}
	}
	return eps, others, nil
}
