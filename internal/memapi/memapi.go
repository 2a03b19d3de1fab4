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

package memapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"sync"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	k8stesting "k8s.io/client-go/testing"
)

// EndpointSlicesResource is the resource of EndpointSlices.
var EndpointSlicesResource = discovery.SchemeGroupVersion.WithResource("endpointslices")

// NewClientset returns client-go's fake.NewSimpleClientset(objects...) with
// reactors that make writes behave like a kube-apiserver:
//
//   - create (any resource, no subresource): a missing name with a
//     generateName becomes generateName (cut to 58 characters) plus a
//     5-character suffix from the API server's alphabet, derived from a
//     counter (deterministic, skipping names in use); a missing UID is set to
//     a deterministic UUID-shaped value; resourceVersion is set (see below).
//     An EndpointSlice gets generation 1.
//   - update (any resource): NotFound for a missing object; Conflict when the
//     request carries a resourceVersion other than the stored one (an empty
//     one is an unconditional update, which EndpointSlices allow); UID,
//     creationTimestamp and generation cannot be changed by the client. An
//     update that changes nothing (managedFields aside) is a no-op, as in
//     the API server: nothing is stored, no watch event is sent, and the
//     stored object is returned with its resourceVersion and generation. Any
//     other update gets a new resourceVersion; an EndpointSlice's generation
//     is incremented when anything but metadata, or its labels, changed
//     (k8s.io/kubernetes pkg/registry/discovery/endpointslice strategy.go
//     PrepareForUpdate). Other kinds keep their generation (their own
//     strategies are not modelled).
//   - patch (JSON, merge and strategic merge; any resource, no subresource):
//     the patch is applied to the stored object and the result handled as an
//     update. Server-side apply patches are left to the fake's default.
//   - delete: NotFound for a missing object; Conflict when
//     DeleteOptions.Preconditions name another UID or resourceVersion.
//
// The objects are deep-copied and stored as if they had been created
// through the API: a missing UID and EndpointSlice generation are set, and
// the resourceVersion is always set; names are not generated for them. It
// panics when an object cannot be stored (as client-go's NewClientset).
//
// A resourceVersion is the number client-go's object tracker gives the
// stored version (per resource, increasing, also the resourceVersion of a
// list), so watching from an object's resourceVersion behaves as with the
// API server. Each write reads that number by listing the resource in a
// namespace no object can be in (a pass over the resource's objects, no
// copies); seeding counts it itself, so that it takes time linear in the
// number of objects.
//
// Discovery lists networking.k8s.io/v1 servicecidrs, as the API server of
// the Kubernetes release slicekit is built for (ServiceCIDR objects are GA
// since 1.33): the pod-address controllers' address guard then watches
// ServiceCIDR objects instead of failing closed for want of a Service CIDR.
// No other resource is listed.
//
// The clientset is client-go's fake.NewSimpleClientset: its object tracker
// stores what it is given, without field management (managedFields are
// kept as written; client-go's field-managed tracker builds a REST mapper
// on every write, most of a large render's write time). Watches and lists
// are client-go's; subresource writes are client-go's defaults, and
// server-side apply is not supported.
func NewClientset(objects ...runtime.Object) *fake.Clientset {
	return NewClientsetWithOptions(Options{}, objects...)
}

// Options configure NewClientsetWithOptions.
type Options struct {
	// SeedUID, when set, gives the uid of a seeded object without one
	// (kind, namespace and name given), instead of the counter-based uid.
	// Render derives uids from the object's identity this way, so that a
	// render's uids depend only on its input, without copying the input
	// to set them first.
	SeedUID func(kind, namespace, name string) types.UID
}

// NewClientsetWithOptions is NewClientset with opts. It panics when an
// object cannot be stored (as client-go's NewClientset).
func NewClientsetWithOptions(opts Options, objects ...runtime.Object) *fake.Clientset {
	cs := fake.NewSimpleClientset()
	cs.Resources = []*metav1.APIResourceList{{GroupVersion: "networking.k8s.io/v1",
		APIResources: []metav1.APIResource{{Name: "servicecidrs", Kind: "ServiceCIDR", Verbs: metav1.Verbs{"get", "list", "watch"}}}}}
	s := &server{tracker: cs.Tracker(), seedRV: map[schema.GroupVersionResource]int64{}, seedUID: opts.SeedUID,
		lastRV: map[schema.GroupVersionResource]givenRV{}}
	for _, o := range objects {
		if err := s.seed(o.DeepCopyObject()); err != nil {
			panic(err)
		}
	}
	s.seedUID = nil
	s.seedRV = nil
	// PrependReactor puts each reactor first: the last one added runs first.
	cs.PrependReactor("delete", "*", s.delete)
	cs.PrependReactor("patch", "*", s.patch)
	cs.PrependReactor("update", "*", s.update)
	cs.PrependReactor("create", "*", s.create)
	return cs
}

// server holds the counters of one clientset. The fake clientset runs
// reactors under its own lock; mu makes server safe on its own anyway.
type server struct {
	mu      sync.Mutex
	tracker k8stesting.ObjectTracker
	uid     int64
	names   int64
	// seedRV is, while NewClientset seeds, the resourceVersion the tracker
	// gave the last seeded object of each resource (nextRV without a list).
	seedRV map[schema.GroupVersionResource]int64
	// lastRV is the resourceVersion nextRV gave last, per resource.
	lastRV map[schema.GroupVersionResource]givenRV
	// seedUID is Options.SeedUID while NewClientset seeds.
	seedUID func(kind, namespace, name string) types.UID
}

// seed stores obj (a list is flattened) as if it had been created through
// the API, without reactors.
func (s *server) seed(obj runtime.Object) error {
	if meta.IsListType(obj) {
		items, err := meta.ExtractList(obj)
		if err != nil {
			return err
		}
		for _, it := range items {
			if err := s.seed(it); err != nil {
				return err
			}
		}
		return nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	kinds, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return err
	}
	gvr, _ := meta.UnsafeGuessKindToResource(kinds[0])
	if m.GetUID() == "" {
		if s.seedUID != nil {
			m.SetUID(s.seedUID(kinds[0].Kind, m.GetNamespace(), m.GetName()))
		} else {
			m.SetUID(s.nextUID())
		}
	}
	next, known := s.seedRV[gvr]
	if known {
		next++
	} else {
		rv, err := s.nextRV(gvr, obj)
		if err != nil {
			return err
		}
		if next, err = strconv.ParseInt(rv, 10, 64); err != nil {
			return err
		}
	}
	m.SetResourceVersion(strconv.FormatInt(next, 10))
	if es, ok := obj.(*discovery.EndpointSlice); ok && es.Generation == 0 {
		es.Generation = 1
	}
	if err := s.tracker.Add(obj); err != nil {
		return err
	}
	s.seedRV[gvr] = next
	s.lastRV[gvr] = givenRV{namespace: m.GetNamespace(), name: m.GetName(), rv: next}
	return nil
}

// rvProbeNamespace is a namespace no object can be in (not a DNS label):
// listing it gives the resource's latest resourceVersion without copying
// any object.
const rvProbeNamespace = "memapi:resource-version-probe"

// nextRV returns the resourceVersion the tracker will give obj, of resource
// gvr, when it stores it next: the tracker numbers the stored versions of
// each resource (it reports the latest number as a list's resourceVersion)
// but does not write the number into the objects. Using the same number
// makes a watch from an object's resourceVersion start where the API
// server's would. The clientset serialises requests, so nothing is stored
// in between; tests that write through Tracker() directly at the same time
// may break this.
//
// Listing costs a pass over every object of the resource (the tracker
// filters by namespace), which made writing n slices quadratic; so the
// number given last is remembered with the object it was given to, and
// when that object is stored with it, the tracker's latest number is that
// one (its writes are numbered one by one; a delete does not count). Any
// doubt (the write failed, the object changed since) lists again.
func (s *server) nextRV(gvr schema.GroupVersionResource, obj runtime.Object) (string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	last, ok := s.lastRV[gvr]
	s.mu.Unlock()
	cur := int64(-1)
	if ok {
		if stored, err := s.tracker.Get(gvr, last.namespace, last.name); err == nil {
			if sm, err := meta.Accessor(stored); err == nil && sm.GetResourceVersion() == strconv.FormatInt(last.rv, 10) {
				cur = last.rv
			}
		}
	}
	if cur < 0 {
		if cur, err = s.listRV(gvr, obj); err != nil {
			return "", err
		}
	}
	s.mu.Lock()
	s.lastRV[gvr] = givenRV{namespace: m.GetNamespace(), name: m.GetName(), rv: cur + 1}
	s.mu.Unlock()
	return strconv.FormatInt(cur+1, 10), nil
}

// givenRV is the resourceVersion nextRV gave an object last.
type givenRV struct {
	namespace, name string
	rv              int64
}

// listRV returns the tracker's latest resourceVersion of gvr, listing an
// empty namespace.
func (s *server) listRV(gvr schema.GroupVersionResource, obj runtime.Object) (int64, error) {
	kinds, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return 0, err
	}
	list, err := s.tracker.List(gvr, kinds[0], rvProbeNamespace)
	if err != nil {
		return 0, err
	}
	lm, err := meta.ListAccessor(list)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(lm.GetResourceVersion(), 10, 64)
}

func (s *server) nextUID() types.UID {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.uid++
	return types.UID(fmt.Sprintf("00000000-0000-4000-8000-%012x", s.uid))
}

// nameAlphabet is the API server's (k8s.io/apimachinery/pkg/util/rand): no
// vowels, no look-alike digits.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedNameLength is the longest base the API server keeps
// (apiserver names.go: 63 - 5).
const maxGeneratedNameLength = 58

// suffix renders n in base 27 over nameAlphabet, 5 characters.
func suffix(n int64) string {
	b := make([]byte, 5)
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = nameAlphabet[n%int64(len(nameAlphabet))]
		n /= int64(len(nameAlphabet))
	}
	return string(b)
}

func (s *server) generateName(gvr schema.GroupVersionResource, ns, base string) string {
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	for {
		s.mu.Lock()
		n := s.names
		s.names++
		s.mu.Unlock()
		name := base + suffix(n)
		if _, err := s.tracker.Get(gvr, ns, name); apierrors.IsNotFound(err) {
			return name
		}
	}
}

func (s *server) create(action k8stesting.Action) (bool, runtime.Object, error) {
	ca, ok := action.(k8stesting.CreateActionImpl)
	if !ok || ca.GetSubresource() != "" {
		return false, nil, nil
	}
	obj := ca.GetObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return false, nil, nil
	}
	if m.GetName() == "" && m.GetGenerateName() != "" {
		m.SetName(s.generateName(ca.GetResource(), ca.GetNamespace(), m.GetGenerateName()))
	}
	if m.GetName() == "" {
		gk := schema.GroupKind{Group: ca.GetResource().Group, Kind: ca.GetResource().Resource}
		if kinds, _, err := scheme.Scheme.ObjectKinds(obj); err == nil && len(kinds) > 0 {
			gk = kinds[0].GroupKind()
		}
		return true, nil, apierrors.NewInvalid(gk, "", field.ErrorList{
			field.Required(field.NewPath("metadata", "name"), "name or generateName is required"),
		})
	}
	if m.GetNamespace() == "" {
		m.SetNamespace(ca.GetNamespace())
	}
	if m.GetUID() == "" {
		m.SetUID(s.nextUID())
	}
	rv, err := s.nextRV(ca.GetResource(), obj)
	if err != nil {
		return true, nil, err
	}
	m.SetResourceVersion(rv)
	if es, ok := obj.(*discovery.EndpointSlice); ok {
		es.Generation = 1
	}
	// Fall through to the default reactor, which stores the object.
	return false, nil, nil
}

func (s *server) update(action k8stesting.Action) (bool, runtime.Object, error) {
	ua, ok := action.(k8stesting.UpdateActionImpl)
	if !ok || ua.GetSubresource() != "" {
		return false, nil, nil
	}
	obj := ua.GetObject()
	stored, handled, err := s.prepareUpdate(ua.GetResource(), ua.GetNamespace(), obj)
	if handled {
		return true, stored, err
	}
	return false, nil, nil
}

// prepareUpdate applies the API server's update rules to obj, the new
// version of an object, in place. handled is true when the request is
// finished: an error, or a no-op update (then ret is the stored object).
func (s *server) prepareUpdate(gvr schema.GroupVersionResource, ns string, obj runtime.Object) (ret runtime.Object, handled bool, err error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, false, nil
	}
	if m.GetNamespace() != "" {
		ns = m.GetNamespace()
	}
	old, err := s.tracker.Get(gvr, ns, m.GetName())
	if err != nil {
		return nil, true, err
	}
	om, err := meta.Accessor(old)
	if err != nil {
		return nil, false, nil
	}
	gr := gvr.GroupResource()
	if rv := m.GetResourceVersion(); rv != "" && rv != om.GetResourceVersion() {
		return nil, true, apierrors.NewConflict(gr, m.GetName(),
			fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	if m.GetUID() != "" && m.GetUID() != om.GetUID() {
		return nil, true, apierrors.NewConflict(gr, m.GetName(),
			fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", m.GetUID(), om.GetUID())) //nolint:staticcheck // ST1005: kube-apiserver's own message, verbatim
	}
	// Fields the client cannot change.
	m.SetUID(om.GetUID())
	m.SetCreationTimestamp(om.GetCreationTimestamp())
	m.SetGeneration(om.GetGeneration())
	m.SetResourceVersion(om.GetResourceVersion())
	if newES, ok := obj.(*discovery.EndpointSlice); ok {
		if oldES, ok := old.(*discovery.EndpointSlice); ok && endpointSliceChanged(oldES, newES) {
			newES.Generation = oldES.Generation + 1
		}
	}
	if unchanged(old, obj) {
		return old, true, nil
	}
	rv, err := s.nextRV(gvr, obj)
	if err != nil {
		return nil, true, err
	}
	m.SetResourceVersion(rv)
	return nil, false, nil
}

// endpointSliceChanged is the generation rule of the API server's
// EndpointSlice strategy: anything but metadata, or the labels, changed.
func endpointSliceChanged(old, cur *discovery.EndpointSlice) bool {
	o, c := *old, *cur
	o.ObjectMeta, c.ObjectMeta = metav1.ObjectMeta{}, metav1.ObjectMeta{}
	o.TypeMeta, c.TypeMeta = metav1.TypeMeta{}, metav1.TypeMeta{}
	return !apiequality.Semantic.DeepEqual(o, c) || !apiequality.Semantic.DeepEqual(old.Labels, cur.Labels)
}

// unchanged reports whether cur equals old apart from managedFields and
// TypeMeta (the stored and the sent forms differ there without meaning a
// change).
func unchanged(old, cur runtime.Object) bool {
	o, c := old.DeepCopyObject(), cur.DeepCopyObject()
	for _, x := range []runtime.Object{o, c} {
		if m, err := meta.Accessor(x); err == nil {
			m.SetManagedFields(nil)
		}
		x.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	}
	return apiequality.Semantic.DeepEqual(o, c)
}

func (s *server) patch(action k8stesting.Action) (bool, runtime.Object, error) {
	pa, ok := action.(k8stesting.PatchActionImpl)
	if !ok || pa.GetSubresource() != "" || pa.GetPatchType() == types.ApplyPatchType {
		return false, nil, nil
	}
	gvr, ns := pa.GetResource(), pa.GetNamespace()
	old, err := s.tracker.Get(gvr, ns, pa.GetName())
	if err != nil {
		return true, nil, err
	}
	oldJSON, err := json.Marshal(old)
	if err != nil {
		return true, nil, err
	}
	var patched []byte
	switch pa.GetPatchType() {
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(pa.GetPatch())
		if err != nil {
			return true, nil, apierrors.NewBadRequest(err.Error())
		}
		patched, err = p.Apply(oldJSON)
		if err != nil {
			return true, nil, apierrors.NewBadRequest(err.Error())
		}
	case types.MergePatchType:
		patched, err = jsonpatch.MergePatch(oldJSON, pa.GetPatch())
		if err != nil {
			return true, nil, apierrors.NewBadRequest(err.Error())
		}
	case types.StrategicMergePatchType:
		patched, err = strategicpatch.StrategicMergePatch(oldJSON, pa.GetPatch(), old)
		if err != nil {
			return true, nil, apierrors.NewBadRequest(err.Error())
		}
	default:
		return false, nil, nil
	}
	obj := reflect.New(reflect.TypeOf(old).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(patched, obj); err != nil {
		return true, nil, apierrors.NewBadRequest(err.Error())
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return true, nil, err
	}
	if m.GetName() != pa.GetName() {
		return true, nil, apierrors.NewBadRequest("the name of the object cannot be changed by a patch")
	}
	ret, handled, err := s.prepareUpdate(gvr, ns, obj)
	if handled {
		return true, ret, err
	}
	if err := s.tracker.Patch(gvr, obj, ns, pa.PatchOptions); err != nil {
		return true, nil, err
	}
	stored, err := s.tracker.Get(gvr, ns, pa.GetName())
	return true, stored, err
}

func (s *server) delete(action k8stesting.Action) (bool, runtime.Object, error) {
	da, ok := action.(k8stesting.DeleteActionImpl)
	if !ok || da.GetSubresource() != "" {
		return false, nil, nil
	}
	pre := da.DeleteOptions.Preconditions
	if pre == nil || (pre.UID == nil && pre.ResourceVersion == nil) {
		return false, nil, nil
	}
	gvr := da.GetResource()
	old, err := s.tracker.Get(gvr, da.GetNamespace(), da.GetName())
	if err != nil {
		return true, nil, err
	}
	om, err := meta.Accessor(old)
	if err != nil {
		return false, nil, nil
	}
	if pre.UID != nil && *pre.UID != om.GetUID() {
		return true, nil, apierrors.NewConflict(gvr.GroupResource(), da.GetName(),
			fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *pre.UID, om.GetUID())) //nolint:staticcheck // ST1005: kube-apiserver's own message, verbatim
	}
	if pre.ResourceVersion != nil && *pre.ResourceVersion != om.GetResourceVersion() {
		return true, nil, apierrors.NewConflict(gvr.GroupResource(), da.GetName(),
			fmt.Errorf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *pre.ResourceVersion, om.GetResourceVersion())) //nolint:staticcheck // ST1005: kube-apiserver's own message, verbatim
	}
	return false, nil, nil
}
