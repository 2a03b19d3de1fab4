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

package slicecontroller

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core"
	corev1informers "k8s.io/client-go/informers/core/v1"
	discoveryinformers "k8s.io/client-go/informers/discovery"
	discoveryv1informers "k8s.io/client-go/informers/discovery/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/source"
)

// The two controllers of an equality test side by side: the informers
// whose handlers they register, one side (a controller with its caches,
// queue and writes), and what is compared (canonical slices, paths).

// fullOnlySource hides the source.IncrementalSource capability of the
// Source it wraps: its method set is source.Source's only, so the
// controller keeps the full path.
type fullOnlySource struct{ source.Source }

// eqHandlers are the event handlers New registered on the Pod, Service,
// Node and EndpointSlice informers, captured by eqFactory.
type eqHandlers struct {
	pod, service, node, slice cache.ResourceEventHandler
}

// eqFactory hands New the factory's informers, recording the handlers New
// adds to the Pod, Service, Node and EndpointSlice informers (the
// informers never run in the fixture, so the test delivers the events to
// those handlers itself).
type eqFactory struct {
	informers.SharedInformerFactory
	h *eqHandlers
}

func (f eqFactory) Core() coreinformers.Interface {
	return eqCore{Interface: f.SharedInformerFactory.Core(), h: f.h}
}

func (f eqFactory) Discovery() discoveryinformers.Interface {
	return eqDiscovery{Interface: f.SharedInformerFactory.Discovery(), h: f.h}
}

type eqDiscovery struct {
	discoveryinformers.Interface
	h *eqHandlers
}

func (d eqDiscovery) V1() discoveryv1informers.Interface {
	return eqDiscoveryV1{Interface: d.Interface.V1(), h: d.h}
}

type eqDiscoveryV1 struct {
	discoveryv1informers.Interface
	h *eqHandlers
}

func (v eqDiscoveryV1) EndpointSlices() discoveryv1informers.TypedEndpointSliceInformer {
	return eqSliceInformer{TypedEndpointSliceInformer: v.Interface.EndpointSlices(), slot: &v.h.slice}
}

type eqSliceInformer struct {
	discoveryv1informers.TypedEndpointSliceInformer
	slot *cache.ResourceEventHandler
}

func (i eqSliceInformer) Informer() cache.SharedIndexInformer {
	return eqInformer{SharedIndexInformer: i.TypedEndpointSliceInformer.Informer(), slot: i.slot}
}

type eqCore struct {
	coreinformers.Interface
	h *eqHandlers
}

func (c eqCore) V1() corev1informers.Interface { return eqCoreV1{Interface: c.Interface.V1(), h: c.h} }

type eqCoreV1 struct {
	corev1informers.Interface
	h *eqHandlers
}

func (v eqCoreV1) Pods() corev1informers.TypedPodInformer {
	return eqPodInformer{TypedPodInformer: v.Interface.Pods(), slot: &v.h.pod}
}

func (v eqCoreV1) Services() corev1informers.TypedServiceInformer {
	return eqServiceInformer{TypedServiceInformer: v.Interface.Services(), slot: &v.h.service}
}

func (v eqCoreV1) Nodes() corev1informers.TypedNodeInformer {
	return eqNodeInformer{TypedNodeInformer: v.Interface.Nodes(), slot: &v.h.node}
}

type eqPodInformer struct {
	corev1informers.TypedPodInformer
	slot *cache.ResourceEventHandler
}

func (i eqPodInformer) Informer() cache.SharedIndexInformer {
	return eqInformer{SharedIndexInformer: i.TypedPodInformer.Informer(), slot: i.slot}
}

type eqServiceInformer struct {
	corev1informers.TypedServiceInformer
	slot *cache.ResourceEventHandler
}

func (i eqServiceInformer) Informer() cache.SharedIndexInformer {
	return eqInformer{SharedIndexInformer: i.TypedServiceInformer.Informer(), slot: i.slot}
}

type eqNodeInformer struct {
	corev1informers.TypedNodeInformer
	slot *cache.ResourceEventHandler
}

func (i eqNodeInformer) Informer() cache.SharedIndexInformer {
	return eqInformer{SharedIndexInformer: i.TypedNodeInformer.Informer(), slot: i.slot}
}

// eqInformer records the handler added to it.
type eqInformer struct {
	cache.SharedIndexInformer
	slot *cache.ResourceEventHandler
}

func (i eqInformer) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	*i.slot = h
	return i.SharedIndexInformer.AddEventHandler(h)
}

// eqImmediateQueue queues at once what is queued after a delay (the
// EndpointSlice handlers' endpointSliceChangeMinSyncDelay), so that every
// step drains the same keys on both sides whatever the timing.
type eqImmediateQueue struct {
	workqueue.TypedRateLimitingInterface[string]
}

func (q eqImmediateQueue) AddAfter(key string, _ time.Duration) { q.Add(key) }

// eqSide is one of the two controllers.
type eqSide struct {
	name string
	f    *dropInFixture
	h    eqHandlers
	ctx  context.Context
}

func newEqSide(t *testing.T, name string, src source.Source, maxPerSlice int32) *eqSide {
	t.Helper()
	s := &eqSide{name: name}
	s.f = newDropInFixture(t, dropInOptions{
		Source:               src,
		MaxEndpointsPerSlice: maxPerSlice,
		wrapFactory: func(f informers.SharedInformerFactory) informers.SharedInformerFactory {
			return eqFactory{SharedInformerFactory: f, h: &s.h}
		},
	})
	if s.h.pod == nil || s.h.service == nil || s.h.node == nil || s.h.slice == nil {
		t.Fatalf("%s: New registered no Pod, Service, Node or EndpointSlice handler: %+v", name, s.h)
	}
	s.f.c.serviceQueue = eqImmediateQueue{s.f.c.serviceQueue}
	s.f.c.serviceLoop.Queue = s.f.c.serviceQueue
	// Thousands of syncs: keep the log to warnings and the like.
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.Verbosity(1)))
	s.ctx = klog.NewContext(context.Background(), logger)
	return s
}

// deliver applies ev to the side's informer store and calls the handler
// New registered for its kind, as the informer would: an update's old
// object is the one in the store, a resync hands the stored object as old
// and new, a tombstone carries the last stored state.
func (s *eqSide) deliver(t *testing.T, ev eqEvent) {
	t.Helper()
	var store cache.Store
	var h cache.ResourceEventHandler
	switch ev.obj.(type) {
	case *corev1.Pod:
		store, h = s.f.podStore, s.h.pod
	case *corev1.Service:
		store, h = s.f.serviceStore, s.h.service
	case *corev1.Node:
		store, h = s.f.nodeStore, s.h.node
	default:
		t.Fatalf("unexpected %T", ev.obj)
	}
	obj := ev.obj.DeepCopyObject()
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		t.Fatal(err)
	}
	stored, ok, err := store.GetByKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if ok == (ev.op == eqAdd) {
		t.Fatalf("%s: %s: object in the store: %v", s.name, ev.desc, ok)
	}
	switch ev.op {
	case eqAdd:
		err = store.Add(obj)
		h.OnAdd(obj, false)
	case eqUpdate:
		err = store.Update(obj)
		h.OnUpdate(stored, obj)
	case eqResync:
		h.OnUpdate(stored, stored)
	case eqDelete:
		err = store.Delete(stored)
		if ev.tombstone {
			h.OnDelete(cache.DeletedFinalStateUnknown{Key: key, Obj: stored})
		} else {
			h.OnDelete(stored)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// drain runs the Pod worker until the Pod queue is empty, then empties the
// Service queue and returns its keys, sorted.
func (s *eqSide) drain(t *testing.T) []string {
	t.Helper()
	c := s.f.c
	for c.podQueue.Len() > 0 {
		key, shutdown := c.podQueue.Get()
		if shutdown {
			t.Fatal("pod queue shut down")
		}
		c.podLoop.Process(s.ctx, key)
		c.podQueue.Done(key)
		if n := c.podQueue.NumRequeues(key); n > 0 {
			t.Fatalf("%s: the Pod worker failed on a key (%d requeues)", s.name, n)
		}
	}
	keys := sets.New[string]()
	for c.serviceQueue.Len() > 0 {
		key, shutdown := c.serviceQueue.Get()
		if shutdown {
			t.Fatal("service queue shut down")
		}
		keys.Insert(key)
		c.serviceQueue.Forget(key)
		c.serviceQueue.Done(key)
	}
	return sets.List(keys)
}

// syncKeys syncs each Service key, in order, and returns the error of each
// (as text; "" for none).
func (s *eqSide) syncKeys(keys []string) map[string]string {
	out := map[string]string{}
	for _, key := range keys {
		if err := s.f.c.SyncService(s.ctx, key); err != nil {
			out[key] = err.Error()
		}
	}
	return out
}

// takeWrites returns the number of EndpointSlice writes by verb since the
// last call, and clears the recorded actions.
func (s *eqSide) takeWrites() map[string]int {
	out := map[string]int{}
	for _, v := range verbs(s.f.writes()) {
		out[strings.Fields(v)[0]]++
	}
	s.f.client.ClearActions()
	return out
}

// eqCanon is an EndpointSlice without what the two controllers may name
// differently (name, UID, resourceVersion, generation).
type eqCanon struct {
	Namespace       string
	Labels          map[string]string
	Annotations     map[string]string
	OwnerReferences []metav1.OwnerReference
	AddressType     discovery.AddressType
	Ports           []discovery.EndpointPort
	Endpoints       []discovery.Endpoint
}

// canonical returns every EndpointSlice in the side's cache, canonicalised
// and sorted.
func (s *eqSide) canonical() []eqCanon {
	c, _ := s.canonicalSlices()
	return c
}

// canonicalSlices returns every EndpointSlice in the side's cache,
// canonicalised and sorted, and the slices in the same order.
func (s *eqSide) canonicalSlices() ([]eqCanon, []*discovery.EndpointSlice) {
	var out []eqCanon
	var keys []string
	var objs []*discovery.EndpointSlice
	for _, o := range s.f.sliceStore.List() {
		sl := o.(*discovery.EndpointSlice)
		objs = append(objs, sl)
		c := eqCanon{
			Namespace: sl.Namespace, Labels: sl.Labels, Annotations: sl.Annotations,
			OwnerReferences: sl.OwnerReferences, AddressType: sl.AddressType,
			Ports: sl.Ports, Endpoints: sl.Endpoints,
		}
		out = append(out, c)
		b, err := json.Marshal(c)
		if err != nil {
			panic(err)
		}
		keys = append(keys, string(b))
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	sorted := make([]eqCanon, len(out))
	sortedObjs := make([]*discovery.EndpointSlice, len(out))
	for i, j := range idx {
		sorted[i], sortedObjs[i] = out[j], objs[j]
	}
	return sorted, sortedObjs
}

// editSlice applies op to the n-th slice (modulo their number) in
// canonical order, as another writer would, and delivers the event to the
// EndpointSlice handler New registered. It returns what it did, or "" when
// there is no slice.
func (s *eqSide) editSlice(t *testing.T, op eqSliceOp) string {
	t.Helper()
	_, objs := s.canonicalSlices()
	if len(objs) == 0 {
		return ""
	}
	old := objs[op.n%len(objs)]
	desc := fmt.Sprintf("slice of %s/%s #%d: ", old.Namespace, old.Labels[discovery.LabelServiceName], op.n%len(objs))
	if op.delete {
		if err := s.f.sliceStore.Delete(old); err != nil {
			t.Fatal(err)
		}
		if op.tombstone {
			s.h.slice.OnDelete(cache.DeletedFinalStateUnknown{Key: old.Namespace + "/" + old.Name, Obj: old})
		} else {
			s.h.slice.OnDelete(old)
		}
		return desc + fmt.Sprintf("deleted (tombstone %v)", op.tombstone)
	}
	cur := old.DeepCopy()
	switch {
	case len(cur.Endpoints) > 0 && op.n%2 == 0:
		cur.Endpoints = cur.Endpoints[:len(cur.Endpoints)-1]
		desc += "last endpoint removed"
	case len(cur.Endpoints) > 0:
		cur.Endpoints[0].Conditions.Ready = ptr.To(!ptr.Deref(cur.Endpoints[0].Conditions.Ready, false))
		desc += "first endpoint's ready flipped"
	default:
		cur.Ports = nil
		desc += "ports removed"
	}
	cur.Generation++
	cur.ResourceVersion = s.f.nextResourceVersion()
	if err := s.f.sliceStore.Update(cur); err != nil {
		t.Fatal(err)
	}
	s.h.slice.OnUpdate(old, cur)
	return desc
}

// pathCounts returns <subsystem>_syncs_by_path_total by path.
func (s *eqSide) pathCounts(t *testing.T) map[string]float64 {
	t.Helper()
	families, err := s.f.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range families {
		if mf.GetName() != "endpoint_slice_controller_"+SyncsByPathMetricName {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "path" {
					out[lp.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	return out
}
