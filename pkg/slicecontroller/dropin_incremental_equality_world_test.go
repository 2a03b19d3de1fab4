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
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// The world of an equality test: the events (Pods, Services, Nodes,
// slices edited by another writer) and the harness that delivers them to
// both sides and compares them after each step.

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
		inc:  newEqSide(t, "incremental", servicepods.Source(podendpoint.Options{}), maxPerSlice),
		full: newEqSide(t, "full", fullOnlySource{servicepods.Source(podendpoint.Options{})}, maxPerSlice),
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
