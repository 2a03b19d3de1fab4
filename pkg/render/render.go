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
	"reflect"
	"slices"
	"strconv"
	"strings"
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
	// (`slicekit render --with-inputs`). Objects of kinds the controllers
	// only read are shallow copies of the input objects (their own
	// ObjectMeta fields, shared labels, spec and status): treat them as
	// read-only.
	Objects []runtime.Object
}

// Render runs the enabled controllers on objs to a fixed point, offline,
// and returns the EndpointSlices that exist afterwards.
//
// The objects of the kinds the controllers write (Endpoints and
// EndpointSlices) are stored in a client-go fake clientset that behaves like
// an API server for the writes controllers make (internal/memapi: UIDs,
// resourceVersions, EndpointSlice generations, no-op updates, delete
// preconditions), with names for generateName made deterministically: the
// base plus a 5-character suffix from a counter per namespace and base. An
// object without a uid gets one derived from its kind, namespace and name,
// so that renders of the same input agree. The objects of the other kinds,
// which the controllers only read from their informers, are kept outside
// the clientset, as it would store them (derived uids, resourceVersions
// numbered as its tracker numbers them), without copying them: the
// clientset's tracker copies every object it stores and again on every
// list. A controller that writes one of them fails the render. The
// controllers are constructed
// by builtin.NewControllers, as `slicekit run` constructs them, on an
// informer factory over the fake clientset whose informers are never
// started: before each controller's SyncAll, Render replaces the indexers
// of the input kinds' informers that the controllers wrote to since the
// last replacement (all of them the first time) with the clientset's
// current objects, so the caches are never stale. A pass calls SyncAll of
// every controller in name order; Render stops after the first pass that
// changed nothing (Result.Passes counts it) and fails when MaxPasses
// passes wrote and the next one wrote again: a render that one pass
// settles succeeds with MaxPasses 1.
//
// Topology-aware hints (topology-mode: Auto) are computed from the Nodes
// of the input, as a running controller that has seen those Nodes does
// (the EndpointSlice controller's SyncAll feeds them to its topology
// cache). Not modelled offline: anything that depends on time.
//
// opts.Controllers (nil: builtin.NewControllerOptions()) and
// opts.MaxPasses are read; Render validates the controller options.
func Render(ctx context.Context, objs []runtime.Object, opts Options) (*Result, error) {
	copts := opts.Controllers
	if copts == nil {
		copts = builtin.NewControllerOptions()
	}
	kinds, err := builtin.InputKinds()
	if err != nil {
		return nil, err
	}
	transforms, err := copts.Transforms()
	if err != nil {
		return nil, err
	}
	return render(ctx, objs, copts, opts.MaxPasses, kinds, transforms)
}

// render is Render with the kinds table and the informer transforms of
// copts computed by the caller, once per run (Run reads the input with
// them too).
func render(ctx context.Context, objs []runtime.Object, copts *builtin.ControllerOptions, maxPasses int,
	kinds inputkinds.Table, transforms informertransform.Transforms) (*Result, error) {
	if len(copts.AddressGuard.ServiceCIDRs) == 0 {
		// Offline there are no ServiceCIDR objects: the pod-address
		// controllers' address guard refuses the ranges render allocates
		// cluster IPs from and the cluster IPs the input gives (unless
		// --service-cluster-ip-range is given: Validate sets it then).
		c := *copts
		c.AddressGuard.ServiceCIDRs = serviceRanges(objs)
		copts = &c
	}
	if err := copts.Validate(); err != nil {
		return nil, err
	}
	maxPasses = cmp.Or(maxPasses, DefaultMaxPasses)

	seed, held, err := prepareSeed(objs, kinds)
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
		Kinds:           kinds,
		Transforms:      transforms,
	})
	if err != nil {
		return nil, err
	}
	caches := newCaches(client, factory, transforms, kinds, held)
	// Runs first: marks the resource of every write as changed, so that
	// refresh lists again only what the controllers wrote.
	client.PrependReactor("*", "*", caches.noteWrite)

	prev, err := caches.refresh(ctx)
	if err != nil {
		return nil, err
	}
	// maxPasses bounds the passes that write; one more pass, which writes
	// nothing, shows the fixed point.
	for pass := 1; pass <= maxPasses+1; pass++ {
		var errs []error
		for _, c := range controllers {
			if _, err := caches.refresh(ctx); err != nil {
				return nil, err
			}
			if err := c.SyncAll(ctx); err != nil {
				errs = append(errs, fmt.Errorf("controller %s: %w", c.Name, err))
			}
			if err := caches.heldWritten(); err != nil {
				return nil, fmt.Errorf("controller %s: %w", c.Name, err)
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
	return nil, fmt.Errorf("no fixed point: the controllers still wrote in pass %d, after --max-passes=%d passes that wrote", maxPasses+1, maxPasses)
}

// writtenKinds are the resources the controllers write: only these are
// stored in the fake clientset. The objects of every other kind are only
// read, from the informer caches, and Render keeps them outside the
// clientset (held): the clientset would copy each object when storing it
// and again on every list, and Pods, the bulk of an input, are never
// written.
var writtenKinds = map[string]bool{inputkinds.Endpoints: true, inputkinds.EndpointSlices: true}

// prepareSeed returns the objects of writtenKinds sorted by kind (kinds'
// Order: what others refer to first), namespace and name, to seed the
// clientset with, and the objects of every other kind, by resource, in the
// same order, each as the clientset would store it (heldObjects); objs
// itself is not modified (the clientset stores copies and gives uids, see
// derivedUID). An object of a kind not in kinds is an error, and so is an
// object of a held kind given twice (the clientset refuses it).
func prepareSeed(objs []runtime.Object, kinds inputkinds.Table) ([]runtime.Object, map[string]*heldObjects, error) {
	kindOrder := map[string]inputkinds.Kind{}
	for _, k := range kinds {
		kindOrder[k.GVK.Kind] = k
	}
	type keyed struct {
		obj             runtime.Object
		kind            inputkinds.Kind
		namespace, name string
	}
	sorted := make([]keyed, 0, len(objs))
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			return nil, nil, err
		}
		kind, err := kindOf(o)
		if err != nil {
			return nil, nil, err
		}
		k, ok := kindOrder[kind]
		if !ok {
			return nil, nil, fmt.Errorf("unsupported kind %s", kind)
		}
		sorted = append(sorted, keyed{obj: o, kind: k, namespace: m.GetNamespace(), name: m.GetName()})
	}
	slices.SortStableFunc(sorted, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.kind.Order, b.kind.Order), cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
	})
	var seed []runtime.Object
	held := map[string]*heldObjects{}
	for i, k := range sorted {
		if writtenKinds[k.kind.Resource] {
			seed = append(seed, k.obj)
			continue
		}
		h := held[k.kind.Resource]
		if h == nil {
			h = &heldObjects{kind: k.kind.GVK.Kind}
			held[k.kind.Resource] = h
		}
		if i > 0 && sorted[i-1].kind.Resource == k.kind.Resource && sorted[i-1].namespace == k.namespace && sorted[i-1].name == k.name {
			return nil, nil, fmt.Errorf("%s %s/%s given twice", k.kind.GVK.Kind, k.namespace, k.name)
		}
		h.objs = append(h.objs, k.obj)
	}
	return seed, held, nil
}

// heldObjects are the input objects of one kind that Render keeps outside
// the clientset, sorted by namespace and name.
type heldObjects struct {
	kind string
	objs []runtime.Object
}

// object returns the i-th object as the clientset would store it when
// seeded with the kind's objects in order: a shallow copy (it shares
// labels, spec and status with the input object, which nothing modifies:
// cache objects are read-only) with the derived uid when it has none and
// resourceVersion 2+i (client-go's object tracker numbers the versions of
// each resource from 2).
func (h *heldObjects) object(i int) (runtime.Object, error) {
	o := h.objs[i]
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s: %T is not a pointer to a struct", h.kind, o)
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem())
	obj, ok := cp.Interface().(runtime.Object)
	if !ok {
		return nil, fmt.Errorf("%s: %T is not an object", h.kind, o)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	if m.GetUID() == "" {
		m.SetUID(derivedUID(h.kind, m.GetNamespace(), m.GetName()))
	}
	m.SetResourceVersion(strconv.Itoa(2 + i))
	return obj, nil
}

// caches refreshes the informer indexers from the fake clientset.
type caches struct {
	client  *fake.Clientset
	sources []source

	mu sync.Mutex
	// written are the resources written since their last refresh.
	written map[string]bool
	// heldWrites are the writes to held resources (none expected).
	heldWrites []string
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
	// held, when set, are the kind's objects, kept outside the clientset
	// (see writtenKinds); list is not used.
	held *heldObjects
}

// newCaches returns the caches of the factory's informers of every kind in
// kinds, filled from client by refresh through transforms
// (builtin.ControllerOptions.Transforms), so that the controllers see the
// objects as `slicekit run` caches them.
//
// The objects of the kinds not in writtenKinds come from held (by
// resource; a kind without objects has none there) instead.
func newCaches(client *fake.Clientset, f informers.SharedInformerFactory, transforms informertransform.Transforms, kinds inputkinds.Table, held map[string]*heldObjects) *caches {
	c := &caches{client: client, written: map[string]bool{}}
	for _, k := range kinds {
		var h *heldObjects
		if !writtenKinds[k.Resource] {
			h = cmp.Or(held[k.Resource], &heldObjects{kind: k.GVK.Kind})
		}
		c.sources = append(c.sources, source{
			kind:     k.GVK.Kind,
			gvk:      k.GVK,
			resource: k.Resource,
			list: func(ctx context.Context) ([]runtime.Object, error) {
				return k.ListAll(ctx, client, "", 0)
			},
			indexer:   k.Informer(f).GetIndexer(),
			transform: transforms[informertransform.Informer(k.Resource)],
			held:      h,
		})
	}
	return c
}

// noteWrite is a reactor that records the resource of every create,
// update, patch and delete; it never ends the reactor chain.
func (c *caches) noteWrite(action k8stesting.Action) (bool, runtime.Object, error) {
	switch action.GetVerb() {
	case "create", "update", "patch", "delete", "delete-collection":
		r := action.GetResource().Resource
		c.mu.Lock()
		c.written[r] = true
		for _, s := range c.sources {
			if s.held != nil && s.resource == r {
				c.heldWrites = append(c.heldWrites, action.GetVerb()+" "+r)
			}
		}
		c.mu.Unlock()
	}
	return false, nil, nil
}

// heldWritten returns an error naming the writes to resources Render holds
// outside the clientset (writtenKinds lacks them): the caches would not
// show them, so the render would not be faithful.
func (c *caches) heldWritten() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.heldWrites) == 0 {
		return nil
	}
	return fmt.Errorf("wrote objects render keeps read-only (%s)", strings.Join(slices.Compact(slices.Sorted(slices.Values(c.heldWrites))), ", "))
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

// refresh lists the source's objects (its held objects when it has them)
// and replaces its indexer's content.
func (s *source) refresh(ctx context.Context) error {
	objs, err := s.objects(ctx)
	if err != nil {
		return err
	}
	state := make(map[string]string, len(objs))
	items := make([]any, 0, len(objs))
	for i, o := range objs {
		objs[i] = nil // the indexer holds what it needs: let the rest go
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

// objects returns the source's objects: its held objects as the clientset
// would store them (heldObjects.object), or the clientset's list.
func (s *source) objects(ctx context.Context) ([]runtime.Object, error) {
	if s.held == nil {
		objs, err := s.list(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing %s objects: %w", s.kind, err)
		}
		return objs, nil
	}
	objs := make([]runtime.Object, len(s.held.objs))
	for i := range objs {
		o, err := s.held.object(i)
		if err != nil {
			return nil, err
		}
		objs[i] = o
	}
	return objs, nil
}

// result lists every kind's objects once the controllers are done and
// returns the EndpointSlices sorted by namespace and name, and the other
// objects sorted by kind (source order), namespace and name, with TypeMeta
// set: the result is built from the clientset's whole objects and the held
// ones, never from the transformed caches. The caches are emptied first,
// so that the objects are held once (in the clientset or the input)
// besides the result.
func (c *caches) result(ctx context.Context) ([]*discovery.EndpointSlice, []runtime.Object, error) {
	for _, s := range c.sources {
		if err := s.indexer.Replace(nil, ""); err != nil {
			return nil, nil, fmt.Errorf("emptying the %s cache: %w", s.kind, err)
		}
	}
	var eps []*discovery.EndpointSlice
	var others []runtime.Object
	for _, s := range c.sources {
		objs, err := s.objects(ctx)
		if err != nil {
			return nil, nil, err
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
