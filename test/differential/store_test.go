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

package differential

import (
	"context"
	"fmt"
	"sort"
	"strconv"

	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	discoveryv1client "k8s.io/client-go/kubernetes/typed/discovery/v1"
	k8stesting "k8s.io/client-go/testing"
)

// sliceStore is the EndpointSlice storage behind a fake clientset: a
// prepended reactor serves create, update, delete, get and list of
// endpointslices from a plain map, so the object tracker of the fake
// clientset (reflection, deep copies, watch fan-out) is never involved.
//
// Like the API server (and the reactors of KCM's own reconciler tests) it
// names objects that only have generateName, sets generation 1 on create
// and bumps it on every update, assigns UIDs and resource versions, and
// honours the UID precondition of a delete (slicekit deletes with one); an
// update may not change the address type (immutable in the API).
//
// With copy set, objects are deep-copied in and out, so neither the
// reconciler nor the harness can alias stored state (the differential
// test). Without it, a shallow copy of the top-level struct is stored and
// returned, which is enough to keep a reconciler's object unmodified and
// costs one allocation (the benchmarks).
type sliceStore struct {
	copy bool
	// tag makes generated names and UIDs of different stores distinct.
	tag    string
	objs   map[string]*discovery.EndpointSlice // by namespace/name
	seq    int
	rv     int
	writes []write
	// creates, updates, deletes count successful writes since reset.
	creates, updates, deletes int
	// record, when set, appends every successful write to writes.
	record bool
	// keys caches the sorted keys of objs for list; nil when stale.
	keys []string
}

// write is one successful API write, as seen by the store.
type write struct {
	verb string // create, update, delete
	name string
	// obj is the stored object after a create or update (nil for delete).
	obj *discovery.EndpointSlice
}

func newSliceStore(tag string, deepCopy, record bool) *sliceStore {
	return &sliceStore{copy: deepCopy, tag: tag, record: record, objs: map[string]*discovery.EndpointSlice{}}
}

// newClient returns a fake clientset whose endpointslices live in s. It
// is a bare fake.Clientset (no object tracker, no apply type converter,
// which fake.NewClientset would build): the reactor serves everything the
// reconcilers call.
func (s *sliceStore) newClient() *fake.Clientset {
	c := &fake.Clientset{}
	c.AddReactor("*", "endpointslices", s.react)
	return c
}

// reset empties the store and seeds it with slices (stored as given when
// the store does not copy), keeping the name sequence so that generated
// names never collide with earlier ones.
func (s *sliceStore) reset(slices []*discovery.EndpointSlice) {
	clear(s.objs)
	s.keys = nil
	for _, sl := range slices {
		s.objs[sl.Namespace+"/"+sl.Name] = s.in(sl)
	}
	s.writes = s.writes[:0]
	s.creates, s.updates, s.deletes = 0, 0, 0
}

func (s *sliceStore) writeCount() int { return s.creates + s.updates + s.deletes }

// list returns the stored slices sorted by namespace/name (deep copies when
// the store copies).
// The sorted keys are cached until a create, delete or reset changes
// them, so that listing costs what an informer's index costs (a pass over
// the owner's slices), not a sort: the benchmarks count it on every side.
func (s *sliceStore) list() []*discovery.EndpointSlice {
	if s.keys == nil {
		keys := make([]string, 0, len(s.objs))
		for k := range s.objs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		s.keys = keys
	}
	out := make([]*discovery.EndpointSlice, 0, len(s.keys))
	for _, k := range s.keys {
		out = append(out, s.out(s.objs[k]))
	}
	return out
}

func (s *sliceStore) in(sl *discovery.EndpointSlice) *discovery.EndpointSlice {
	if s.copy {
		return sl.DeepCopy()
	}
	c := *sl
	return &c
}

func (s *sliceStore) out(sl *discovery.EndpointSlice) *discovery.EndpointSlice {
	if s.copy {
		return sl.DeepCopy()
	}
	return sl
}

var endpointSliceGR = discovery.Resource("endpointslices")

func (s *sliceStore) react(action k8stesting.Action) (bool, runtime.Object, error) {
	ns := action.GetNamespace()
	// Switch on the verb: an UpdateAction also satisfies CreateAction.
	switch action.GetVerb() {
	case "create":
		obj, err := s.create(ns, action.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice))
		return true, obj, err
	case "update":
		obj, err := s.update(ns, action.(k8stesting.UpdateAction).GetObject().(*discovery.EndpointSlice))
		return true, obj, err
	case "delete":
		a := action.(k8stesting.DeleteAction)
		return true, nil, s.delete(ns, a.GetName(), a.GetDeleteOptions())
	case "get":
		a := action.(k8stesting.GetAction)
		obj, ok := s.objs[ns+"/"+a.GetName()]
		if !ok {
			return true, nil, apierrors.NewNotFound(endpointSliceGR, a.GetName())
		}
		return true, s.out(obj), nil
	case "list":
		a := action.(k8stesting.ListAction)
		l := &discovery.EndpointSliceList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(s.rv)}}
		sel := a.GetListRestrictions().Labels
		for _, obj := range s.list() {
			if (ns == "" || obj.Namespace == ns) && (sel == nil || sel.Matches(labels.Set(obj.Labels))) {
				l.Items = append(l.Items, *obj)
			}
		}
		return true, l, nil
	}
	return false, nil, nil
}

func (s *sliceStore) create(ns string, in *discovery.EndpointSlice) (*discovery.EndpointSlice, error) {
	obj := s.in(in)
	obj.Namespace = ns
	if obj.Name == "" {
		if obj.GenerateName == "" {
			return nil, apierrors.NewBadRequest("name or generateName is required")
		}
		for {
			s.seq++
			obj.Name = obj.GenerateName + s.tag + strconv.Itoa(s.seq)
			if _, taken := s.objs[ns+"/"+obj.Name]; !taken {
				break
			}
		}
	}
	key := ns + "/" + obj.Name
	if _, ok := s.objs[key]; ok {
		return nil, apierrors.NewAlreadyExists(endpointSliceGR, obj.Name)
	}
	s.seq++
	obj.UID = types.UID("uid-" + s.tag + strconv.Itoa(s.seq))
	obj.Generation = 1
	s.rv++
	obj.ResourceVersion = strconv.Itoa(s.rv)
	s.objs[key] = obj
	s.keys = nil
	s.creates++
	if s.record {
		s.writes = append(s.writes, write{verb: "create", name: obj.Name, obj: obj.DeepCopy()})
	}
	return s.out(obj), nil
}

func (s *sliceStore) update(ns string, in *discovery.EndpointSlice) (*discovery.EndpointSlice, error) {
	obj := s.in(in)
	key := ns + "/" + obj.Name
	old, ok := s.objs[key]
	if !ok {
		return nil, apierrors.NewNotFound(endpointSliceGR, obj.Name)
	}
	if obj.AddressType != old.AddressType {
		// The API server rejects this (addressType is immutable); a
		// reconciler must recycle only slices of the same type.
		return nil, apierrors.NewInvalid(discovery.SchemeGroupVersion.WithKind("EndpointSlice").GroupKind(), obj.Name, field.ErrorList{
			field.Invalid(field.NewPath("addressType"), obj.AddressType, "field is immutable"),
		})
	}
	obj.Namespace = ns
	obj.UID = old.UID
	obj.Generation = old.Generation + 1
	s.rv++
	obj.ResourceVersion = strconv.Itoa(s.rv)
	s.objs[key] = obj
	s.updates++
	if s.record {
		s.writes = append(s.writes, write{verb: "update", name: obj.Name, obj: obj.DeepCopy()})
	}
	return s.out(obj), nil
}

func (s *sliceStore) delete(ns, name string, opts metav1.DeleteOptions) error {
	key := ns + "/" + name
	old, ok := s.objs[key]
	if !ok {
		return apierrors.NewNotFound(endpointSliceGR, name)
	}
	if p := opts.Preconditions; p != nil && p.UID != nil && *p.UID != old.UID {
		return apierrors.NewConflict(endpointSliceGR, name, fmt.Errorf("precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, old.UID))
	}
	delete(s.objs, key)
	s.keys = nil
	s.deletes++
	if s.record {
		s.writes = append(s.writes, write{verb: "delete", name: name})
	}
	return nil
}

// directClient returns a clientset whose EndpointSlice create, update and
// delete call s directly. The fake clientset's action machinery deep-copies
// every action (and so every slice written) before any reactor sees it
// (client-go testing Fake.Invokes): in the benchmarks that copy cost a
// fifth of slicekit's time, the same for both sides, and would only dilute
// the comparison. Everything else is the bare fake's.
func (s *sliceStore) directClient() kubernetes.Interface {
	return &directClientset{Clientset: &fake.Clientset{}, store: s}
}

type directClientset struct {
	*fake.Clientset
	store *sliceStore
}

func (c *directClientset) DiscoveryV1() discoveryv1client.DiscoveryV1Interface {
	return &directDiscovery{DiscoveryV1Interface: c.Clientset.DiscoveryV1(), store: c.store}
}

type directDiscovery struct {
	discoveryv1client.DiscoveryV1Interface
	store *sliceStore
}

func (d *directDiscovery) EndpointSlices(namespace string) discoveryv1client.EndpointSliceInterface {
	return &directSlices{EndpointSliceInterface: d.DiscoveryV1Interface.EndpointSlices(namespace), ns: namespace, store: d.store}
}

type directSlices struct {
	discoveryv1client.EndpointSliceInterface
	ns    string
	store *sliceStore
}

func (c *directSlices) Create(_ context.Context, s *discovery.EndpointSlice, _ metav1.CreateOptions) (*discovery.EndpointSlice, error) {
	return c.store.create(c.ns, s)
}

func (c *directSlices) Update(_ context.Context, s *discovery.EndpointSlice, _ metav1.UpdateOptions) (*discovery.EndpointSlice, error) {
	return c.store.update(c.ns, s)
}

func (c *directSlices) Delete(_ context.Context, name string, opts metav1.DeleteOptions) error {
	return c.store.delete(c.ns, name, opts)
}
