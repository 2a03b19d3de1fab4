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
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
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
	"github.com/slicekit/slicekit/pkg/source/servicepods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// The incremental-equality tests (issue 14) run two drop-in controllers
// side by side, each on its own fake clientset and informer stores: one
// with source.PodIPs, an IncrementalSource (per-Service endpoint indexes
// kept up to date by the event handlers), and one whose Source hides that
// capability (every sync recomputes everything). Both receive the same
// informer events through the handlers New registered on the informers,
// drain their Pod queues through the Pod worker, and sync the same
// Services; their EndpointSlices, writes, sync errors, events and queued
// Services must then be the same. A handler path that forgets to mark a Pod
// changed, or to invalidate an index, shows as a difference.
//
// The EndpointSlices the controllers write are reflected into their caches
// by the fixture's reactors, with a new resourceVersion at every write as
// the API server gives (the index takes an unchanged resourceVersion for
// unchanged content). Slice events are not delivered for the controllers'
// own writes (the tracker drops those echoes); EndpointSlice changes by
// another writer are (eqSliceOp).

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

// eqOp is the kind of an informer event.
type eqOp int

const (
	eqAdd eqOp = iota
	eqUpdate
	// eqResync is an update with an unchanged resourceVersion (the stored
	// object as old and new), as a periodic resync delivers.
	eqResync
	eqDelete
)

// eqEvent is one informer event.
type eqEvent struct {
	op eqOp
	// obj is the new object (add, update), or names the object (resync,
	// delete: the stored one is delivered).
	obj runtime.Object
	// tombstone delivers a delete as cache.DeletedFinalStateUnknown.
	tombstone bool
	desc      string
}

// eqStep is the events delivered before the Pod queue is drained and the
// Services synced.
type eqStep struct {
	events []eqEvent
	// race syncs every Service before the Pod workers drain the Pod queue
	// (a Service sync racing the Pod worker), then again after.
	race bool
	// syncAll syncs every Service after the queued ones, not only those
	// the handlers queued.
	syncAll bool
	// sliceOps are changes of EndpointSlices by another writer, applied
	// before the events (never in a race step: the incremental side's
	// early sync would repair the slice before reading the step's Pods).
	sliceOps []eqSliceOp
}

// eqSliceOp changes the n-th EndpointSlice (in canonical order, the same
// slice on both sides) as another writer would: deletes it, or removes an
// endpoint, flips a condition or removes the ports.
type eqSliceOp struct {
	n                 int
	delete, tombstone bool
}

// eqServiceKeys are the Services the tests use (present or not); ns2/a
// shares its name with ns/a, and the Pods of both namespaces share names.
var eqServiceKeys = []string{testNS + "/a", testNS + "/b", testNS + "/c", "ns2/a"}

var (
	eqNamespaces = []string{testNS, "ns2"}
	// eqNodeNames are the Nodes that come and go; eqMissingNode never
	// exists.
	eqNodeNames   = []string{"node-1", "node-2", "node-3"}
	eqMissingNode = "node-9"
	eqBaseTime    = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
)

const eqPodsPerNamespace = 8

// eqWorld is the state of the cluster the events describe; it hands out
// resourceVersions, UIDs and times.
type eqWorld struct {
	rng      *rand.Rand
	seq      int
	services map[string]*corev1.Service
	pods     map[string]*corev1.Pod
	nodes    map[string]*corev1.Node
}

func newEqWorld(seed uint64) *eqWorld {
	return &eqWorld{
		rng:      rand.New(rand.NewPCG(seed, seed^0x5eed)),
		services: map[string]*corev1.Service{},
		pods:     map[string]*corev1.Pod{},
		nodes:    map[string]*corev1.Node{},
	}
}

func (w *eqWorld) next() int { w.seq++; return w.seq }

func (w *eqWorld) time(n int) metav1.Time {
	return metav1.NewTime(eqBaseTime.Add(time.Duration(n) * time.Second))
}

func pick[T any](rng *rand.Rand, xs ...T) T { return xs[rng.IntN(len(xs))] }

func podName(i int) string { return fmt.Sprintf("p%d", i) }

// newPod returns a ready Running Pod ns/p<i> labelled app=app on node-1,
// with one IPv4 address and a container port "web" (8080).
func (w *eqWorld) newPod(ns string, i int, app string) *corev1.Pod {
	n := w.next()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: podName(i), UID: types.UID(fmt.Sprintf("pod-%s-%d-%d", ns, i, n)),
			ResourceVersion: strconv.Itoa(n), CreationTimestamp: w.time(n),
			Labels: map[string]string{"app": app},
		},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "c",
			Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
	w.setReady(p, true)
	w.setIPs(p, 1, 0)
	return p
}

func (w *eqWorld) setReady(p *corev1.Pod, ready bool) {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: w.time(w.next())}}
}

// setIPs gives p no address (mode 0), IPv4 (1), IPv4 and IPv6 (2) or IPv6
// (3) addresses; gen varies them.
func (w *eqWorld) setIPs(p *corev1.Pod, mode, gen int) {
	i, _ := strconv.Atoi(strings.TrimPrefix(p.Name, "p"))
	nsIdx := slices.Index(eqNamespaces, p.Namespace)
	v4 := fmt.Sprintf("10.%d.%d.%d", nsIdx, gen, i+1)
	v6 := fmt.Sprintf("fd00:%d::%d:%d", nsIdx, gen, i+1)
	var ips []string
	switch mode {
	case 1:
		ips = []string{v4}
	case 2:
		ips = []string{v4, v6}
	case 3:
		ips = []string{v6}
	}
	p.Status.PodIP, p.Status.PodIPs = "", nil
	for _, ip := range ips {
		p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: ip})
	}
	if len(ips) > 0 {
		p.Status.PodIP = ips[0]
	}
}

func podKeyOf(ns string, i int) string { return ns + "/" + podName(i) }

func (w *eqWorld) addPod(p *corev1.Pod) eqEvent {
	w.pods[p.Namespace+"/"+p.Name] = p
	return eqEvent{op: eqAdd, obj: p.DeepCopy(), desc: fmt.Sprintf("add Pod %s/%s %v", p.Namespace, p.Name, p.Labels)}
}

// updatePod changes the Pod with mutate and a new resourceVersion.
func (w *eqWorld) updatePod(ns string, i int, desc string, mutate func(*corev1.Pod)) eqEvent {
	p := w.pods[podKeyOf(ns, i)].DeepCopy()
	mutate(p)
	p.ResourceVersion = strconv.Itoa(w.next())
	w.pods[podKeyOf(ns, i)] = p
	return eqEvent{op: eqUpdate, obj: p.DeepCopy(), desc: fmt.Sprintf("update Pod %s: %s", podKeyOf(ns, i), desc)}
}

func (w *eqWorld) resyncPod(ns string, i int) eqEvent {
	return eqEvent{op: eqResync, obj: w.pods[podKeyOf(ns, i)].DeepCopy(), desc: "resync Pod " + podKeyOf(ns, i)}
}

func (w *eqWorld) deletePod(ns string, i int, tombstone bool) eqEvent {
	p := w.pods[podKeyOf(ns, i)]
	delete(w.pods, podKeyOf(ns, i))
	return eqEvent{op: eqDelete, obj: p.DeepCopy(), tombstone: tombstone, desc: fmt.Sprintf("delete Pod %s (tombstone %v)", podKeyOf(ns, i), tombstone)}
}

// newService returns Service ns/name selecting app=app, with port http
// 80->8080, IPv4.
func (w *eqWorld) newService(ns, name, app string) *corev1.Service {
	n := w.next()
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name, UID: types.UID(fmt.Sprintf("svc-%s-%s-%d", ns, name, n)),
			ResourceVersion: strconv.Itoa(n), CreationTimestamp: w.time(n),
		},
		Spec: corev1.ServiceSpec{
			Type: corev1.ServiceTypeClusterIP, ClusterIP: "10.96.0.10",
			Selector:   map[string]string{"app": app},
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Ports:      eqPorts[0],
		},
	}
}

// eqPorts are the Service port sets: an integer targetPort, the named
// container port, two ports of two protocols, none.
var eqPorts = [][]corev1.ServicePort{
	{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}},
	{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("web")}},
	{
		{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("web")},
		{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromInt32(53)},
	},
	nil,
}

func (w *eqWorld) addService(s *corev1.Service) eqEvent {
	w.services[s.Namespace+"/"+s.Name] = s
	return eqEvent{op: eqAdd, obj: s.DeepCopy(), desc: fmt.Sprintf("add Service %s/%s (uid %s)", s.Namespace, s.Name, s.UID)}
}

func (w *eqWorld) updateService(key, desc string, mutate func(*corev1.Service)) eqEvent {
	s := w.services[key].DeepCopy()
	mutate(s)
	s.ResourceVersion = strconv.Itoa(w.next())
	w.services[key] = s
	return eqEvent{op: eqUpdate, obj: s.DeepCopy(), desc: fmt.Sprintf("update Service %s: %s", key, desc)}
}

func (w *eqWorld) resyncService(key string) eqEvent {
	return eqEvent{op: eqResync, obj: w.services[key].DeepCopy(), desc: "resync Service " + key}
}

func (w *eqWorld) deleteService(key string, tombstone bool) eqEvent {
	s := w.services[key]
	delete(w.services, key)
	return eqEvent{op: eqDelete, obj: s.DeepCopy(), tombstone: tombstone, desc: fmt.Sprintf("delete Service %s (tombstone %v)", key, tombstone)}
}

func (w *eqWorld) addNode(name, zone string) eqEvent {
	n := newNode(name, zone)
	n.ResourceVersion = strconv.Itoa(w.next())
	w.nodes[name] = n
	return eqEvent{op: eqAdd, obj: n.DeepCopy(), desc: fmt.Sprintf("add Node %s zone %q", name, zone)}
}

func (w *eqWorld) updateNode(name, desc string, mutate func(*corev1.Node)) eqEvent {
	n := w.nodes[name].DeepCopy()
	mutate(n)
	n.ResourceVersion = strconv.Itoa(w.next())
	w.nodes[name] = n
	return eqEvent{op: eqUpdate, obj: n.DeepCopy(), desc: fmt.Sprintf("update Node %s: %s", name, desc)}
}

func (w *eqWorld) resyncNode(name string) eqEvent {
	return eqEvent{op: eqResync, obj: w.nodes[name].DeepCopy(), desc: "resync Node " + name}
}

func (w *eqWorld) deleteNode(name string, tombstone bool) eqEvent {
	n := w.nodes[name]
	delete(w.nodes, name)
	return eqEvent{op: eqDelete, obj: n.DeepCopy(), tombstone: tombstone, desc: fmt.Sprintf("delete Node %s (tombstone %v)", name, tombstone)}
}

func setZone(zone string) func(*corev1.Node) {
	return func(n *corev1.Node) {
		if zone == "" {
			delete(n.Labels, corev1.LabelTopologyZone)
		} else {
			n.Labels[corev1.LabelTopologyZone] = zone
		}
	}
}

// eqHarness runs steps on the two sides and compares them after each.
type eqHarness struct {
	t         *testing.T
	inc, full *eqSide
	history   []string // the last steps' events, for failure messages
	steps     int
	syncs     int
	races     int
	sliceOps  int
}

func newEqHarness(t *testing.T, maxPerSlice int32) *eqHarness {
	t.Helper()
	h := &eqHarness{
		t:    t,
		inc:  newEqSide(t, "incremental", source.PodIPs(servicepods.Options{}), maxPerSlice),
		full: newEqSide(t, "full", fullOnlySource{source.PodIPs(servicepods.Options{})}, maxPerSlice),
	}
	if h.inc.f.c.indexes == nil {
		t.Fatal("the incremental side has no indexes")
	}
	if h.full.f.c.indexes != nil {
		t.Fatal("the full side has indexes: fullOnlySource is an IncrementalSource")
	}
	return h
}

// run delivers the step's events to both sides, drains their Pod queues
// (syncing every Service first when st.race), syncs the queued Services
// (every Service when st.syncAll or st.race) and fails the test at the
// first difference between the sides: queued Services, sync errors,
// write counts, events, EndpointSlices. It returns whether every sync of
// the step succeeded.
func (h *eqHarness) run(st eqStep) bool {
	t := h.t
	t.Helper()
	h.steps++
	var descs []string
	for _, ev := range st.events {
		descs = append(descs, ev.desc)
	}
	line := fmt.Sprintf("step %d (race %v, syncAll %v): %s", h.steps, st.race, st.syncAll, strings.Join(descs, "; "))
	h.history = append(h.history, line)
	if len(h.history) > 8 {
		h.history = h.history[1:]
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\nlast steps:\n  %s", fmt.Sprintf(format, args...), strings.Join(h.history, "\n  "))
	}

	for _, op := range st.sliceOps {
		if di, df := h.inc.editSlice(t, op), h.full.editSlice(t, op); di != df {
			fail("slice op %+v: incremental %q, full %q", op, di, df)
		} else if di != "" {
			h.sliceOps++
			h.history[len(h.history)-1] += "; " + di
		}
	}
	for _, ev := range st.events {
		h.inc.deliver(t, ev)
		h.full.deliver(t, ev)
	}
	if st.race {
		h.races++
		// The errors may differ: the incremental side has not read the
		// Pods of this step yet.
		h.inc.syncKeys(eqServiceKeys)
		h.full.syncKeys(eqServiceKeys)
	}
	qInc, qFull := h.inc.drain(t), h.full.drain(t)
	if !slices.Equal(qInc, qFull) {
		fail("queued Services differ: incremental %v, full %v", qInc, qFull)
	}
	keys := sets.New(qInc...)
	if st.syncAll || st.race {
		keys.Insert(eqServiceKeys...)
	}
	h.syncs += keys.Len()
	errInc := h.inc.syncKeys(sets.List(keys))
	errFull := h.full.syncKeys(sets.List(keys))
	if diff := cmp.Diff(errFull, errInc); diff != "" {
		fail("sync errors differ (-full +incremental):\n%s", diff)
	}
	slicesDiff := cmp.Diff(h.full.canonical(), h.inc.canonical())
	if wi, wf := h.inc.takeWrites(), h.full.takeWrites(); !maps.Equal(wi, wf) {
		fail("writes differ after syncing %v: incremental %v, full %v; EndpointSlices (-full +incremental):\n%s", sets.List(keys), wi, wf, slicesDiff)
	}
	if ei, ef := h.inc.f.events(), h.full.f.events(); !slices.Equal(ei, ef) {
		fail("events differ: incremental %q, full %q", ei, ef)
	}
	if slicesDiff != "" {
		fail("EndpointSlices differ after syncing %v (-full +incremental):\n%s", sets.List(keys), slicesDiff)
	}
	return len(errInc) == 0
}

// TestIncrementalEqualityScenarios runs hand-written event sequences, one
// per handler path that must mark a Pod changed or invalidate an index,
// through an incremental and a full-path drop-in controller fed the same
// events through their registered handlers, and checks after every step
// that both wrote the same EndpointSlices (eqHarness.run) and that the
// incremental side did plan incrementally where the case expects it.
func TestIncrementalEqualityScenarios(t *testing.T) {
	// base adds Nodes node-1 (zone-a) and node-2 (zone-b), Services ns/a
	// (app=a) and ns/b (app=b), Pods ns/p0..p3 (app=a) and ns/p4, ns/p5
	// (app=b), and syncs everything.
	base := func(w *eqWorld) eqStep {
		st := eqStep{syncAll: true}
		st.events = append(st.events, w.addNode("node-1", "zone-a"), w.addNode("node-2", "zone-b"))
		st.events = append(st.events, w.addService(w.newService(testNS, "a", "a")), w.addService(w.newService(testNS, "b", "b")))
		for i := range 6 {
			app := "a"
			if i >= 4 {
				app = "b"
			}
			p := w.newPod(testNS, i, app)
			if i%2 == 1 {
				p.Spec.NodeName = "node-2"
			}
			st.events = append(st.events, w.addPod(p))
		}
		return st
	}
	one := func(evs ...eqEvent) eqStep { return eqStep{events: evs} }
	setApp := func(app string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { p.Labels["app"] = app }
	}
	svcA := testNS + "/a"

	for _, tc := range []struct {
		name string
		// steps after base.
		steps func(w *eqWorld) []eqStep
		// wantIncremental: the incremental side planned at least one sync
		// incrementally after base.
		wantIncremental bool
	}{{
		name: "label change moves a Pod between Services and out of all",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "app=b", setApp("b"))),
				one(w.updatePod(testNS, 0, "app=c", setApp("c"))),
				one(w.updatePod(testNS, 0, "app=a", setApp("a"))),
				one(w.updatePod(testNS, 1, "app=b and not ready", func(p *corev1.Pod) { setApp("b")(p); w.setReady(p, false) })),
				one(w.updatePod(testNS, 4, "tier=fe added", func(p *corev1.Pod) { p.Labels["tier"] = "fe" })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Pod deleted, with and without a tombstone",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.deletePod(testNS, 1, false)),
				one(w.deletePod(testNS, 2, true)),
				one(w.deletePod(testNS, 4, true), w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Pod added before and after its Service; deleted and re-created in one step",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.addPod(w.newPod(testNS, 6, "c"))),
				one(w.addService(w.newService(testNS, "c", "c"))),
				one(w.addPod(w.newPod(testNS, 7, "c"))),
				one(w.deletePod(testNS, 6, false), w.addPod(func() *corev1.Pod {
					p := w.newPod(testNS, 6, "c")
					w.setIPs(p, 1, 1)
					return p
				}())),
				one(w.deletePod(testNS, 7, true), w.addPod(w.newPod(testNS, 7, "a"))),
			}
		},
		wantIncremental: true,
	}, {
		name: "periodic resyncs with unchanged resourceVersions",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.resyncPod(testNS, 0), w.resyncService(svcA), w.resyncNode("node-1")),
				{events: []eqEvent{w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) }), w.resyncPod(testNS, 0)}, syncAll: true},
				one(w.resyncService(svcA), w.updatePod(testNS, 2, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "phase Failed and Succeeded are read at the next sync though they queue nothing",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "phase Failed", func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed })),
				one(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.updatePod(testNS, 2, "phase Succeeded", func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded })),
				{events: []eqEvent{w.updatePod(testNS, 3, "annotation", func(p *corev1.Pod) { p.Annotations = map[string]string{"x": "y"} })}, syncAll: true},
			}
		},
		wantIncremental: true,
	}, {
		name: "hostname and subdomain changes",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "hostname h0, subdomain a", func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "h0", "a" })),
				{events: []eqEvent{w.updatePod(testNS, 0, "hostname h1", func(p *corev1.Pod) { p.Spec.Hostname = "h1" })}, syncAll: true},
				{events: []eqEvent{w.updatePod(testNS, 0, "subdomain b", func(p *corev1.Pod) { p.Spec.Subdomain = "b" })}, syncAll: true},
				{events: []eqEvent{w.updatePod(testNS, 0, "subdomain a", func(p *corev1.Pod) { p.Spec.Subdomain = "a" })}, syncAll: true},
			}
		},
		wantIncremental: true,
	}, {
		name: "nodeName changes, Pods on a missing Node, the Node added and deleted",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				{events: []eqEvent{w.updatePod(testNS, 0, "node-2", func(p *corev1.Pod) { p.Spec.NodeName = "node-2" })}, syncAll: true},
				{events: []eqEvent{w.updatePod(testNS, 2, "missing node", func(p *corev1.Pod) { p.Spec.NodeName = eqMissingNode })}, syncAll: true},
				{events: []eqEvent{w.addNode(eqMissingNode, "zone-c")}, syncAll: true},
				{events: []eqEvent{w.deleteNode(eqMissingNode, true)}, syncAll: true},
				one(w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				// With publishNotReadyAddresses a Pod on a missing Node is
				// not skipped but has no zone, until the Node is added.
				one(w.updateService(svcA, "publishNotReadyAddresses", func(s *corev1.Service) { s.Spec.PublishNotReadyAddresses = true })),
				{events: []eqEvent{w.addNode(eqMissingNode, "zone-d")}, syncAll: true},
				{events: []eqEvent{w.updateNode(eqMissingNode, "zone-e", setZone("zone-e"))}, syncAll: true},
				{events: []eqEvent{w.deleteNode(eqMissingNode, false)}, syncAll: true},
				one(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "deletionTimestamp and IP changes",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "terminating", func(p *corev1.Pod) { p.DeletionTimestamp = ptr.To(w.time(w.next())) })),
				one(w.updatePod(testNS, 1, "new IP", func(p *corev1.Pod) { w.setIPs(p, 1, 2) })),
				one(w.updatePod(testNS, 2, "no IP", func(p *corev1.Pod) { w.setIPs(p, 0, 0) })),
				one(w.updateService(svcA, "dual-stack", func(s *corev1.Service) {
					s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
				})),
				one(w.updatePod(testNS, 3, "dual-stack IPs", func(p *corev1.Pod) { w.setIPs(p, 2, 0) })),
				one(w.deletePod(testNS, 0, false)),
			}
		},
		wantIncremental: true,
	}, {
		name: "Node zone change, add and delete",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updateNode("node-1", "zone-c", setZone("zone-c"))),
				one(w.updatePod(testNS, 2, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.updateNode("node-2", "other label", func(n *corev1.Node) { n.Labels["x"] = "y" })),
				{events: []eqEvent{w.updateNode("node-2", "no zone", setZone(""))}, syncAll: true},
				{events: []eqEvent{w.deleteNode("node-1", true)}, syncAll: true},
				{events: []eqEvent{w.addNode("node-1", "zone-b")}, syncAll: true},
				one(w.updatePod(testNS, 3, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Service selector, ports and traffic distribution change",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updateService(svcA, "selector app=b", func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "b"} })),
				one(w.updatePod(testNS, 4, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.updateService(svcA, "named ports", func(s *corev1.Service) { s.Spec.Ports = eqPorts[2] })),
				one(w.updateService(svcA, "PreferSameNode", func(s *corev1.Service) {
					s.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferSameNode)
				})),
				one(w.updatePod(testNS, 5, "node-1", func(p *corev1.Pod) { p.Spec.NodeName = "node-1" }),
					w.updatePod(testNS, 4, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
				one(w.updateService(svcA, "no selector", func(s *corev1.Service) { s.Spec.Selector = nil })),
				one(w.updateService(svcA, "selector app=a", func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "a"} })),
				one(w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Service deleted and re-created",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.deleteService(svcA, false)),
				one(w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.addService(w.newService(testNS, "a", "a"))),
				one(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				// Deleted and re-created before the sync: same key, new UID.
				one(w.deleteService(svcA, true), w.updatePod(testNS, 2, "not ready", func(p *corev1.Pod) { w.setReady(p, false) }),
					w.addService(w.newService(testNS, "a", "a"))),
				one(w.updatePod(testNS, 3, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				// Delegated to another controller and back.
				one(w.updateService(svcA, "delegated", func(s *corev1.Service) {
					s.Labels = map[string]string{wellknown.LabelEndpointControllerName: "other"}
				})),
				one(w.updatePod(testNS, 3, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
				one(w.updateService(svcA, "not delegated", func(s *corev1.Service) { s.Labels = nil })),
				one(w.updatePod(testNS, 0, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "a Service sync runs before the Pod worker drains",
		steps: func(w *eqWorld) []eqStep {
			race := func(evs ...eqEvent) eqStep { return eqStep{events: evs, race: true} }
			return []eqStep{
				race(w.updatePod(testNS, 0, "app=b", setApp("b"))),
				race(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				race(w.updatePod(testNS, 2, "phase Failed", func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed })),
				race(w.deletePod(testNS, 3, true)),
				race(w.addPod(w.newPod(testNS, 3, "a"))),
				race(w.updatePod(testNS, 1, "hostname", func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "h1", "a" })),
				race(w.updateNode("node-1", "zone-c", setZone("zone-c")), w.updatePod(testNS, 1, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
				race(w.updateService(svcA, "ports", func(s *corev1.Service) { s.Spec.Ports = eqPorts[1] }), w.updatePod(testNS, 0, "app=a", setApp("a"))),
				one(w.updatePod(testNS, 4, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, maxPer := range []int32{2, 100} {
				h := newEqHarness(t, maxPer)
				w := newEqWorld(1)
				h.run(base(w))
				before := h.inc.pathCounts(t)[SyncPathIncremental]
				for _, st := range tc.steps(w) {
					h.run(st)
				}
				if got := h.inc.pathCounts(t)[SyncPathIncremental] - before; tc.wantIncremental && got == 0 {
					t.Errorf("maxEndpointsPerSlice %d: no sync planned incrementally (paths %v): the case checks nothing of the index", maxPer, h.inc.pathCounts(t))
				}
			}
		})
	}
}

// randomPod returns Pod ns/p<i> with random labels, readiness, addresses,
// Node, hostname, subdomain, phase and container port.
func (w *eqWorld) randomPod(ns string, i int) *corev1.Pod {
	r := w.rng
	p := w.newPod(ns, i, pick(r, "a", "b", "c"))
	if r.IntN(2) == 0 {
		p.Labels["tier"] = pick(r, "fe", "be")
	}
	p.Spec.NodeName = pick(r, "node-1", "node-2", "node-3")
	if r.IntN(12) == 0 {
		p.Spec.NodeName = pick(r, eqMissingNode, "")
	}
	if r.IntN(3) == 0 {
		p.Spec.Hostname = fmt.Sprintf("h%d", i)
		p.Spec.Subdomain = pick(r, "", "a", "b")
	}
	if r.IntN(8) == 0 {
		// A second port group for Services targeting the named port.
		p.Spec.Containers[0].Ports[0].ContainerPort = 9090
	}
	p.Status.Phase = pick(r, corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodPending)
	w.setReady(p, r.IntN(10) < 7)
	w.setIPs(p, pick(r, 1, 1, 1, 1, 1, 2, 2, 2, 0, 3), r.IntN(3))
	return p
}

// mutatePod changes one random thing about p and returns what.
func (w *eqWorld) mutatePod(p *corev1.Pod) string {
	r := w.rng
	switch r.IntN(11) {
	case 0, 1:
		ready := !servicepods.IsPodReady(p)
		w.setReady(p, ready)
		return fmt.Sprintf("ready=%v", ready)
	case 2:
		mode, gen := pick(r, 1, 1, 2, 0, 3), r.IntN(3)
		w.setIPs(p, mode, gen)
		return fmt.Sprintf("IPs %v", p.Status.PodIPs)
	case 3, 4:
		p.Labels["app"] = pick(r, "a", "b", "c")
		return "app=" + p.Labels["app"]
	case 5:
		if t := pick(r, "", "fe", "be"); t == "" {
			delete(p.Labels, "tier")
		} else {
			p.Labels["tier"] = t
		}
		return fmt.Sprintf("labels %v", p.Labels)
	case 6:
		p.Spec.NodeName = pick(r, "node-1", "node-2", "node-3", eqMissingNode)
		return "nodeName " + p.Spec.NodeName
	case 7:
		if r.IntN(2) == 0 {
			p.Spec.Hostname = pick(r, "", "h", "h2")
			return "hostname " + p.Spec.Hostname
		}
		p.Spec.Subdomain = pick(r, "", "a", "b")
		return "subdomain " + p.Spec.Subdomain
	case 8:
		if p.DeletionTimestamp == nil {
			p.DeletionTimestamp = ptr.To(w.time(w.next()))
			return "terminating"
		}
		p.Annotations = map[string]string{"n": strconv.Itoa(w.next())}
		return "annotation"
	case 9:
		p.Status.Phase = pick(r, corev1.PodFailed, corev1.PodSucceeded, corev1.PodRunning, corev1.PodPending)
		return "phase " + string(p.Status.Phase)
	default:
		p.Annotations = map[string]string{"n": strconv.Itoa(w.next())}
		return "annotation"
	}
}

// randomService returns Service key with a random selector, ports,
// families, publishNotReadyAddresses and traffic distribution.
func (w *eqWorld) randomService(key string) *corev1.Service {
	ns, name, _ := strings.Cut(key, "/")
	s := w.newService(ns, name, "a")
	for range 1 + w.rng.IntN(3) {
		w.mutateService(s)
	}
	return s
}

// mutateService changes one random thing about s and returns what.
func (w *eqWorld) mutateService(s *corev1.Service) string {
	r := w.rng
	switch r.IntN(10) {
	case 0, 1, 2:
		s.Spec.Selector = pick(r,
			map[string]string{"app": "a"}, map[string]string{"app": "b"}, map[string]string{"app": "c"},
			map[string]string{"app": "a", "tier": "fe"}, map[string]string{"tier": "be"},
			map[string]string{"app": "b"}, nil)
		return fmt.Sprintf("selector %v", s.Spec.Selector)
	case 3:
		s.Spec.Ports = eqPorts[r.IntN(len(eqPorts))]
		return fmt.Sprintf("ports %v", s.Spec.Ports)
	case 4:
		s.Spec.IPFamilies = pick(r,
			[]corev1.IPFamily{corev1.IPv4Protocol},
			[]corev1.IPFamily{corev1.IPv4Protocol},
			[]corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol},
			[]corev1.IPFamily{corev1.IPv6Protocol})
		return fmt.Sprintf("families %v", s.Spec.IPFamilies)
	case 5:
		s.Spec.PublishNotReadyAddresses = !s.Spec.PublishNotReadyAddresses
		return fmt.Sprintf("publishNotReadyAddresses %v", s.Spec.PublishNotReadyAddresses)
	case 6:
		s.Spec.TrafficDistribution = pick(r, nil, ptr.To(corev1.ServiceTrafficDistributionPreferClose), ptr.To(corev1.ServiceTrafficDistributionPreferSameNode))
		return fmt.Sprintf("trafficDistribution %v", ptr.Deref(s.Spec.TrafficDistribution, ""))
	case 7:
		if s.Labels[wellknown.LabelEndpointControllerName] == "" && r.IntN(3) == 0 {
			s.Labels = map[string]string{wellknown.LabelEndpointControllerName: "other"}
			return "delegated"
		}
		s.Labels = nil
		return "not delegated"
	case 8:
		if s.Spec.Type != corev1.ServiceTypeExternalName && r.IntN(3) == 0 {
			s.Spec.Type, s.Spec.ExternalName = corev1.ServiceTypeExternalName, "example.com"
			return "type ExternalName"
		}
		s.Spec.Type, s.Spec.ExternalName = corev1.ServiceTypeClusterIP, ""
		return "type ClusterIP"
	default:
		s.Annotations = map[string]string{"n": strconv.Itoa(w.next())}
		return "annotation"
	}
}

// initialStep adds the Nodes, the Services and the Pods, in random order,
// and syncs everything.
func (w *eqWorld) initialStep() eqStep {
	var evs []eqEvent
	for _, n := range eqNodeNames {
		evs = append(evs, w.addNode(n, pick(w.rng, "zone-a", "zone-b", "")))
	}
	for _, key := range eqServiceKeys {
		if w.rng.IntN(4) > 0 {
			evs = append(evs, w.addService(w.randomService(key)))
		}
	}
	for _, ns := range eqNamespaces {
		for i := range eqPodsPerNamespace {
			if w.rng.IntN(5) > 0 {
				evs = append(evs, w.addPod(w.randomPod(ns, i)))
			}
		}
	}
	w.rng.Shuffle(len(evs), func(i, j int) { evs[i], evs[j] = evs[j], evs[i] })
	return eqStep{events: evs, syncAll: true}
}

// podEvent returns a random event for a random Pod: added when absent,
// else updated, resynced or deleted (with a tombstone at times, re-created
// in the same step at times).
func (w *eqWorld) podEvent() []eqEvent {
	r := w.rng
	ns, i := pick(r, eqNamespaces...), r.IntN(eqPodsPerNamespace)
	if w.pods[podKeyOf(ns, i)] == nil {
		return []eqEvent{w.addPod(w.randomPod(ns, i))}
	}
	switch x := r.IntN(20); {
	case x < 14:
		var descs []string
		ev := w.updatePod(ns, i, "", func(p *corev1.Pod) {
			for range 1 + r.IntN(3)/2 + r.IntN(3)/2 {
				descs = append(descs, w.mutatePod(p))
			}
		})
		ev.desc += strings.Join(descs, ", ")
		return []eqEvent{ev}
	case x < 16:
		return []eqEvent{w.resyncPod(ns, i)}
	default:
		evs := []eqEvent{w.deletePod(ns, i, r.IntN(3) == 0)}
		if r.IntN(3) == 0 {
			evs = append(evs, w.addPod(w.randomPod(ns, i)))
		}
		return evs
	}
}

// serviceEvent returns a random event for a random Service: added when
// absent, else updated, resynced or deleted (re-created in the same step
// at times).
func (w *eqWorld) serviceEvent() []eqEvent {
	r := w.rng
	key := pick(r, eqServiceKeys...)
	if w.services[key] == nil {
		return []eqEvent{w.addService(w.randomService(key))}
	}
	switch x := r.IntN(20); {
	case x < 12:
		var desc string
		ev := w.updateService(key, "", func(s *corev1.Service) { desc = w.mutateService(s) })
		ev.desc += desc
		return []eqEvent{ev}
	case x < 15:
		return []eqEvent{w.resyncService(key)}
	default:
		evs := []eqEvent{w.deleteService(key, r.IntN(3) == 0)}
		if r.IntN(3) == 0 {
			evs = append(evs, w.addService(w.randomService(key)))
		}
		return evs
	}
}

// nodeEvent returns a random event for a random Node: added when absent,
// else a zone change, another label change, a resync or a delete.
func (w *eqWorld) nodeEvent() []eqEvent {
	r := w.rng
	name := pick(r, eqNodeNames...)
	if w.nodes[name] == nil {
		return []eqEvent{w.addNode(name, pick(r, "zone-a", "zone-b", ""))}
	}
	switch x := r.IntN(20); {
	case x < 8:
		zone := pick(r, "zone-a", "zone-b", "zone-c", "")
		return []eqEvent{w.updateNode(name, "zone "+zone, setZone(zone))}
	case x < 12:
		return []eqEvent{w.updateNode(name, "other label", func(n *corev1.Node) { n.Labels["x"] = strconv.Itoa(w.next()) })}
	case x < 15:
		return []eqEvent{w.resyncNode(name)}
	default:
		return []eqEvent{w.deleteNode(name, r.IntN(3) == 0)}
	}
}

// randomStep returns one to three random events (mostly Pod events). A
// race step (a Service sync before the Pod worker drains) happens only when
// settled: the previous step synced every Service without error. Then the
// incremental side's early sync reads no Pod (none is marked changed yet)
// or all of them (a Service or Node event invalidated the index), and both
// sides end the step with the same writes. Otherwise its early sync would
// read some of the step's changes (Pods marked by earlier steps and not
// synced since, Pods skipped for a missing Node, which every sync reads
// again) and apply the rest after the drain: the same endpoints in the
// end, but the packing of endpoints into slices and the trigger-time
// annotation depend on the order changes arrive in, in KCM too.
func (w *eqWorld) randomStep(settled bool) eqStep {
	r := w.rng
	var st eqStep
	for range 1 + r.IntN(3) {
		switch x := r.IntN(100); {
		case x < 84:
			st.events = append(st.events, w.podEvent()...)
		case x < 96:
			st.events = append(st.events, w.serviceEvent()...)
		default:
			st.events = append(st.events, w.nodeEvent()...)
		}
	}
	st.race = settled && r.IntN(2) == 0
	st.syncAll = r.IntN(3) == 0
	if !st.race && r.IntN(25) == 0 {
		st.sliceOps = append(st.sliceOps, eqSliceOp{n: r.IntN(1000), delete: r.IntN(3) == 0, tombstone: r.IntN(2) == 0})
	}
	return st
}

// TestIncrementalEqualityRandomized feeds seeded random event streams
// (Pod add, update of every field an endpoint depends on and of fields it
// does not, resync and delete with and without tombstones; Service add,
// selector, ports, families, traffic distribution, type and delegation
// changes, resync, delete and re-create; Node add, zone and label changes,
// resync, delete; EndpointSlices edited or deleted by another writer;
// Service syncs racing the Pod worker) to an incremental
// and a full-path drop-in controller through their registered handlers,
// and checks after every step that both queued the same Services and
// wrote the same EndpointSlices (eqHarness.run). It also checks that at
// least a quarter of the incremental side's syncs did plan incrementally
// (the others rebuild: first sync, Service or Node change, resync, or a
// shape the incremental planner leaves to the full one), so that the
// comparison keeps exercising the index.
func TestIncrementalEqualityRandomized(t *testing.T) {
	seeds, steps := []uint64{1, 2, 3, 4}, 500
	if !testing.Short() {
		seeds, steps = []uint64{1, 2, 3, 4, 5, 6, 7, 8}, 2500
	}
	for _, seed := range seeds {
		maxPer := []int32{3, 100, 2, 5}[seed%4]
		t.Run(fmt.Sprintf("seed=%d,maxEndpointsPerSlice=%d", seed, maxPer), func(t *testing.T) {
			runEqRandom(t, seed, steps, maxPer)
		})
	}
}

// runEqRandom runs steps random steps of seed on a new eqHarness, after
// an initial step that creates the Nodes, Services and Pods.
func runEqRandom(t *testing.T, seed uint64, steps int, maxPer int32) {
	t.Helper()
	h := newEqHarness(t, maxPer)
	w := newEqWorld(seed)
	settled := h.run(w.initialStep())
	for range steps {
		st := w.randomStep(settled)
		clean := h.run(st)
		settled = (st.syncAll || st.race) && clean
	}
	paths := h.inc.pathCounts(t)
	var total float64
	for _, n := range paths {
		total += n
	}
	t.Logf("%d steps (%d races, %d slice edits), %d Service syncs, incremental side's syncs by path: %v", h.steps, h.races, h.sliceOps, h.syncs, paths)
	if inc := paths[SyncPathIncremental]; inc < total/4 {
		t.Errorf("only %v of %v syncs planned incrementally (%v): the comparison hardly exercises the index", inc, total, paths)
	}
}
