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

package serviceindex

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// podIPsIncremental returns the drop-in's source, servicepods.Source, as the
// source.IncrementalSource it is.
func podIPsIncremental() source.IncrementalSource {
	return servicepods.Source(podendpoint.Options{})
}

// The equality test of the incremental path (issue 14): random event
// sequences drive a Service, its Pods and Nodes; at every step the plan is
// computed both ways from the same existing slices, the full planner
// (Desired over every selected Pod, then Reconciler.Plan) and the
// incremental one (Index.Update, then Reconciler.PlanIndexed), and
// any difference fails the test. One of the two plans is then applied
// through Reconciler.Apply to an in-memory API (generated names, UIDs,
// resource versions), so both paths always start from the same slices.

var eqGR = schema.GroupResource{Group: "discovery.k8s.io", Resource: "endpointslices"}

// memSlices is an in-memory EndpointSlice store behind a fake clientset:
// it names generateName objects, assigns UIDs and resource versions and
// honours delete preconditions.
type memSlices struct {
	objs map[string]*discovery.EndpointSlice
	seq  int
	rv   int
}

func newMemSlices() (*memSlices, *fake.Clientset) {
	m := &memSlices{objs: map[string]*discovery.EndpointSlice{}}
	c := memapi.NewClientset()
	c.PrependReactor("*", "endpointslices", m.react)
	return m, c
}

func (m *memSlices) react(a k8stesting.Action) (bool, runtime.Object, error) {
	switch a.GetVerb() {
	case "create":
		s := a.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice).DeepCopy()
		m.seq++
		m.rv++
		if s.Name == "" {
			s.Name = s.GenerateName + strconv.Itoa(m.seq)
		}
		if _, ok := m.objs[s.Name]; ok {
			return true, nil, apierrors.NewAlreadyExists(eqGR, s.Name)
		}
		s.UID = types.UID("uid-" + strconv.Itoa(m.seq))
		s.ResourceVersion = strconv.Itoa(m.rv)
		s.Generation = 1
		m.objs[s.Name] = s
		return true, s.DeepCopy(), nil
	case "update":
		s := a.(k8stesting.UpdateAction).GetObject().(*discovery.EndpointSlice).DeepCopy()
		old, ok := m.objs[s.Name]
		if !ok {
			return true, nil, apierrors.NewNotFound(eqGR, s.Name)
		}
		m.rv++
		s.UID = old.UID
		s.Generation = old.Generation + 1
		s.ResourceVersion = strconv.Itoa(m.rv)
		m.objs[s.Name] = s
		return true, s.DeepCopy(), nil
	case "delete":
		a := a.(k8stesting.DeleteAction)
		old, ok := m.objs[a.GetName()]
		if !ok {
			return true, nil, apierrors.NewNotFound(eqGR, a.GetName())
		}
		if p := a.GetDeleteOptions().Preconditions; p != nil && p.UID != nil && *p.UID != old.UID {
			return true, nil, apierrors.NewConflict(eqGR, a.GetName(), errors.New("UID precondition"))
		}
		delete(m.objs, a.GetName())
		return true, nil, nil
	}
	return false, nil, nil
}

// list returns the stored slices in an order chosen by rnd (an informer's
// lister order is a map's).
func (m *memSlices) list(rnd chooser) []*discovery.EndpointSlice {
	names := make([]string, 0, len(m.objs))
	for n := range m.objs {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*discovery.EndpointSlice, len(names))
	for i, n := range names {
		out[i] = m.objs[n]
	}
	for i := len(out) - 1; i > 0; i-- {
		j := rnd.Intn(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// chooser is the source of the random decisions: math/rand for the
// normal test, the fuzz input for FuzzIncremental.
type chooser interface{ Intn(n int) int }

// byteChooser takes decisions from fuzz bytes; when they run out, every
// decision is 0.
type byteChooser struct {
	data []byte
	pos  int
}

func (b *byteChooser) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	v := 0
	for k := 0; k < 2; k++ {
		v <<= 8
		if b.pos < len(b.data) {
			v |= int(b.data[b.pos])
			b.pos++
		}
	}
	return v % n
}

func (b *byteChooser) done() bool { return b.pos >= len(b.data) }

type mapNodes map[string]*corev1.Node

func (m mapNodes) Get(name string) (*corev1.Node, error) {
	if n, ok := m[name]; ok {
		return n, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "nodes"}, name)
}

type mapPods map[string]*corev1.Pod

func (m mapPods) Get(name string) (*corev1.Pod, error) {
	if p, ok := m[name]; ok {
		return p, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, name)
}

func (m mapPods) List(sel labels.Selector) ([]*corev1.Pod, error) {
	var out []*corev1.Pod
	for _, p := range m {
		if sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out, nil
}

// idxWorld is the state of one equality run.
type idxWorld struct {
	t        testing.TB
	rnd      chooser
	ctx      context.Context
	svc      *corev1.Service
	pods     mapPods
	nodes    mapNodes
	store    *memSlices
	r        *reconciler.Reconciler
	idx      *Index
	ttFull   *servicepods.TriggerTimeTracker
	podSeq   int
	svcRV    int
	clock    time.Time
	steps    int
	reasons  map[string]int
	diffs    int
	maxPer   int
	dual     bool
	lastStep string
	// records: the incremental side reads the Pods as the informer caches
	// them in slicekit run, compact records through podcache's lister
	// (which lists names and gets each Pod, podNameLister), while the full
	// side reads the whole Pods.
	records bool
}

// podLister returns what the incremental side reads the Pods from.
func (w *idxWorld) podLister() PodLister {
	if !w.records {
		return w.pods
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range w.pods {
		if err := indexer.Add(podcache.New(p, nil)); err != nil {
			w.t.Fatal(err)
		}
	}
	return podcache.NewLister(indexer).Pods(w.svc.Namespace)
}

var eqZones = []string{"zone-a", "zone-b", "zone-c"}

func newIdxWorld(t testing.TB, rnd chooser) *idxWorld {
	w := &idxWorld{t: t, rnd: rnd, ctx: klog.NewContext(context.Background(), logr.Discard()), pods: mapPods{}, nodes: mapNodes{},
		reasons: map[string]int{}, clock: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	w.maxPer = 3 + rnd.Intn(8)
	w.dual = rnd.Intn(3) == 0
	w.records = rnd.Intn(2) == 0
	for i := 0; i < 3; i++ {
		name := fmt.Sprintf("node-%d", i)
		w.nodes[name] = &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelTopologyZone: eqZones[i]}}}
	}
	w.svc = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: "ns", UID: "svc-uid", ResourceVersion: "1",
			Labels: map[string]string{"team": "a"}, CreationTimestamp: metav1.NewTime(w.clock)},
		Spec: corev1.ServiceSpec{
			Selector:  map[string]string{"app": "x"},
			ClusterIP: "10.96.0.1",
			Ports:     []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")}},
		},
	}
	if w.dual {
		w.svc.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	}
	store, client := newMemSlices()
	w.store = store
	r, err := reconciler.New(client, reconciler.Config{
		ControllerName:       "endpointslice-controller.k8s.io",
		OwnerGVK:             reconciler.ServiceGVK,
		MaxEndpointsPerSlice: int32(w.maxPer),
		Placeholder:          true,
		EnforceOwnership:     true,
	})
	if err != nil {
		t.Fatal(err)
	}
	w.r = r
	w.idx = New(podIPsIncremental())
	w.ttFull = servicepods.NewTriggerTimeTracker()
	n := 5 + rnd.Intn(25)
	for i := 0; i < n; i++ {
		w.addPod()
	}
	return w
}

func (w *idxWorld) tick() metav1.Time {
	w.clock = w.clock.Add(time.Second)
	return metav1.NewTime(w.clock)
}

func (w *idxWorld) ips(i int) []corev1.PodIP {
	v4 := corev1.PodIP{IP: fmt.Sprintf("10.0.%d.%d", i/250, i%250+1)}
	v6 := corev1.PodIP{IP: fmt.Sprintf("fd00::%x", i+1)}
	switch w.rnd.Intn(6) {
	case 0:
		return []corev1.PodIP{v6}
	case 1, 2:
		if w.dual {
			return []corev1.PodIP{v4, v6}
		}
	}
	return []corev1.PodIP{v4}
}

func (w *idxWorld) addPod() {
	w.podSeq++
	name := fmt.Sprintf("pod-%03d", w.podSeq)
	status := corev1.ConditionTrue
	if w.rnd.Intn(4) == 0 {
		status = corev1.ConditionFalse
	}
	ips := w.ips(w.podSeq)
	node := fmt.Sprintf("node-%d", w.rnd.Intn(4)) // node-3 does not exist
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), Labels: map[string]string{"app": "x"}},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ips[0].IP, PodIPs: ips,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: w.tick()}}},
	}
	w.pods[name] = p
	w.idx.PodChanged(name)
}

func (w *idxWorld) podNames() []string {
	names := make([]string, 0, len(w.pods))
	for n := range w.pods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// somePod returns a random existing Pod name, or "".
func (w *idxWorld) somePod() string {
	if len(w.pods) == 0 {
		return ""
	}
	names := w.podNames()
	return names[w.rnd.Intn(len(names))]
}

// mutatePod replaces Pod name by a changed copy (cache objects are never
// modified in place).
func (w *idxWorld) mutatePod(name string, f func(p *corev1.Pod)) {
	p := w.pods[name].DeepCopy()
	f(p)
	w.pods[name] = p
	w.idx.PodChanged(name)
}

// event applies one random event.
func (w *idxWorld) event() {
	name := w.somePod()
	k := w.rnd.Intn(100)
	switch {
	case k < 12 || name == "":
		w.lastStep = "add"
		w.addPod()
	case k < 22:
		w.lastStep = "delete"
		delete(w.pods, name)
		w.idx.PodChanged(name)
	case k < 55:
		w.lastStep = "flip"
		w.mutatePod(name, func(p *corev1.Pod) {
			c := &p.Status.Conditions[0]
			if c.Status == corev1.ConditionTrue {
				c.Status = corev1.ConditionFalse
			} else {
				c.Status = corev1.ConditionTrue
			}
			c.LastTransitionTime = w.tick()
		})
	case k < 62:
		w.lastStep = "ip"
		w.podSeq++
		ips := w.ips(w.podSeq)
		w.mutatePod(name, func(p *corev1.Pod) { p.Status.PodIPs = ips; p.Status.PodIP = ips[0].IP })
	case k < 67:
		w.lastStep = "label"
		w.mutatePod(name, func(p *corev1.Pod) {
			if p.Labels["app"] == "x" {
				p.Labels["app"] = "y"
			} else {
				p.Labels["app"] = "x"
			}
		})
	case k < 72:
		w.lastStep = "terminating"
		w.mutatePod(name, func(p *corev1.Pod) {
			if p.DeletionTimestamp == nil {
				t := w.tick()
				p.DeletionTimestamp = &t
			} else {
				p.DeletionTimestamp = nil
			}
		})
	case k < 75:
		w.lastStep = "phase"
		w.mutatePod(name, func(p *corev1.Pod) {
			if p.Status.Phase == corev1.PodRunning {
				p.Status.Phase = corev1.PodSucceeded
			} else {
				p.Status.Phase = corev1.PodRunning
			}
		})
	case k < 76:
		// A Pod whose named port differs: a second port group, which
		// stays until every Pod agrees again (a "rolling" port change
		// follows when w.portChange is set).
		w.lastStep = "container-port"
		w.mutatePod(name, func(p *corev1.Pod) {
			cp := &p.Spec.Containers[0].Ports[0]
			if cp.ContainerPort == 8080 {
				cp.ContainerPort = 9090
			} else {
				cp.ContainerPort = 8080
			}
		})
	case k < 78:
		// Bring the Pods' named ports back to one value.
		w.lastStep = "container-port-converge"
		for _, n := range w.podNames() {
			if w.pods[n].Spec.Containers[0].Ports[0].ContainerPort != 8080 {
				w.mutatePod(n, func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 8080 })
				break
			}
		}
	case k < 81:
		w.lastStep = "pod-node"
		node := fmt.Sprintf("node-%d", w.rnd.Intn(4))
		w.mutatePod(name, func(p *corev1.Pod) { p.Spec.NodeName = node })
	case k < 83:
		w.lastStep = "node-zone"
		n := fmt.Sprintf("node-%d", w.rnd.Intn(3))
		if node, ok := w.nodes[n]; ok {
			node = node.DeepCopy()
			node.Labels[corev1.LabelTopologyZone] = eqZones[w.rnd.Intn(len(eqZones))]
			w.nodes[n] = node
		}
		w.idx.Invalidate("node-changed")
	case k < 84:
		w.lastStep = "node-add-delete"
		if _, ok := w.nodes["node-3"]; ok {
			delete(w.nodes, "node-3")
		} else {
			w.nodes["node-3"] = &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-3", Labels: map[string]string{corev1.LabelTopologyZone: "zone-d"}}}
		}
		w.idx.Invalidate("node-changed")
	case k < 86:
		w.lastStep = "service-port"
		svc := w.svc.DeepCopy()
		if svc.Spec.Ports[0].Port == 80 {
			svc.Spec.Ports[0].Port = 81
		} else {
			svc.Spec.Ports[0].Port = 80
		}
		w.setService(svc)
	case k < 87:
		w.lastStep = "service-label"
		svc := w.svc.DeepCopy()
		svc.Labels["team"] = fmt.Sprintf("t%d", w.rnd.Intn(3))
		w.setService(svc)
	case k < 88:
		w.lastStep = "service-traffic-distribution"
		svc := w.svc.DeepCopy()
		if svc.Spec.TrafficDistribution == nil {
			svc.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferClose)
		} else {
			svc.Spec.TrafficDistribution = nil
		}
		w.setService(svc)
	case k < 89:
		w.lastStep = "slice-edited"
		// Someone else edits one of our slices.
		if len(w.store.objs) > 0 {
			s := w.store.list(w.rnd)[0].DeepCopy()
			switch k := w.rnd.Intn(4); {
			case len(s.Endpoints) > 0 && k == 0:
				s.Endpoints = s.Endpoints[1:]
			case len(s.Endpoints) > 0 && k == 1:
				s.Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-x"}}}
			case len(s.Endpoints) > 0 && k == 2:
				s.Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-x"}}}
				s.Labels["edited"] = "yes"
			default:
				s.Labels["edited"] = "yes"
			}
			w.store.rv++
			s.ResourceVersion = strconv.Itoa(w.store.rv)
			w.store.objs[s.Name] = s
		}
	case k < 90:
		w.lastStep = "resync"
		w.idx.Invalidate("resync")
	default:
		w.lastStep = "flip-many"
		for i := 0; i < 1+w.rnd.Intn(5); i++ {
			if n := w.somePod(); n != "" {
				w.mutatePod(n, func(p *corev1.Pod) {
					c := &p.Status.Conditions[0]
					if c.Status == corev1.ConditionTrue {
						c.Status = corev1.ConditionFalse
					} else {
						c.Status = corev1.ConditionTrue
					}
					c.LastTransitionTime = w.tick()
				})
			}
		}
	}
}

func (w *idxWorld) setService(svc *corev1.Service) {
	w.svcRV++
	svc.ResourceVersion = strconv.Itoa(w.svcRV + 1)
	w.svc = svc
}

// selected returns the Pods the Service selects.
func (w *idxWorld) selected() []*corev1.Pod {
	all, _ := w.pods.List(labels.Set(w.svc.Spec.Selector).AsSelectorPreValidated())
	return all
}

// step computes both plans from the same slices, compares them and applies
// one. It returns false when it found a difference.
func (w *idxWorld) step() bool {
	w.steps++
	existing := w.store.list(w.rnd)
	pods := w.selected()
	desired, derr := servicepods.Desired(w.ctx, w.svc, pods, w.nodes, podendpoint.Options{})
	if desired == nil {
		w.t.Fatalf("step %d: Desired: %v", w.steps, derr)
	}
	full, err := w.r.Plan(w.ctx, w.svc, desired, existing)
	if err != nil {
		w.t.Fatal(err)
	}
	ttFull := w.ttFull.ComputeEndpointLastChangeTriggerTime(w.svc.Namespace, w.svc, pods)

	u, uerr := w.idx.Update(w.ctx, w.svc, labels.Set(w.svc.Spec.Selector).AsSelectorPreValidated(), w.podLister(), w.nodes)
	if (derr == nil) != (uerr == nil) || (derr != nil && derr.Error() != uerr.Error()) {
		w.t.Errorf("step %d (%s): errors differ: full %v, incremental %v", w.steps, w.lastStep, derr, uerr)
		w.diffs++
	}
	inc, incDesired, reason, err := w.r.PlanIndexed(w.ctx, w.svc, w.idx.Endpoints(), existing)
	if err != nil {
		w.t.Fatal(err)
	}
	if u.Rebuilt != "" {
		reason = u.Rebuilt
	}
	if reason == "" {
		reason = "incremental"
	}
	w.reasons[reason]++
	if !ttFull.Equal(u.TriggerTime) {
		w.t.Errorf("step %d (%s): trigger time: full %v, incremental %v", w.steps, w.lastStep, ttFull, u.TriggerTime)
		w.diffs++
	}
	if d := planDiff(full, inc); d != "" {
		w.t.Errorf("step %d (%s, %s, maxPer %d, dual %v): plans differ: %s", w.steps, w.lastStep, reason, w.maxPer, w.dual, d)
		w.diffs++
		return false
	}
	if w.steps%50 == 0 {
		if got := w.idx.Endpoints().Desired(); !apiequality.Semantic.DeepEqual(got, desired) {
			w.t.Errorf("step %d: Index.Desired differs from Desired:\n%s", w.steps, dumpDesired(got)+"\nvs\n"+dumpDesired(desired))
			w.diffs++
		}
	}
	// Apply one of the two (a failed or skipped Apply now and then: the
	// index must not rely on its plans being written).
	plan, d := full, desired
	if w.rnd.Intn(2) == 0 {
		plan, d = inc, incDesired
	}
	if w.rnd.Intn(50) != 0 {
		if err := w.r.Apply(w.ctx, w.svc, plan, d, u.TriggerTime); err != nil {
			w.t.Fatalf("step %d: Apply: %v", w.steps, err)
		}
	}
	return true
}

// planDiff describes the first difference between two plans, or "".
func planDiff(a, b *reconciler.Plan) string {
	if len(a.AddressTypes) != len(b.AddressTypes) {
		return fmt.Sprintf("%d address types vs %d", len(a.AddressTypes), len(b.AddressTypes))
	}
	for i := range a.AddressTypes {
		x, y := &a.AddressTypes[i], &b.AddressTypes[i]
		if x.AddressType != y.AddressType || x.Added != y.Added || x.Removed != y.Removed {
			return fmt.Sprintf("%s: added/removed %d/%d vs %s %d/%d", x.AddressType, x.Added, x.Removed, y.AddressType, y.Added, y.Removed)
		}
		if !apiequality.Semantic.DeepEqual(x.PortGroups, y.PortGroups) {
			return fmt.Sprintf("%s: port groups %v vs %v", x.AddressType, x.PortGroups, y.PortGroups)
		}
		for _, l := range []struct {
			what string
			x, y []*discovery.EndpointSlice
		}{{"create", x.Create, y.Create}, {"update", x.Update, y.Update}, {"delete", x.Delete, y.Delete}} {
			if len(l.x) != len(l.y) {
				return fmt.Sprintf("%s: %d %s vs %d:\n%s\nvs\n%s", x.AddressType, len(l.x), l.what, len(l.y), dumpSlices(l.x), dumpSlices(l.y))
			}
			for j := range l.x {
				if !apiequality.Semantic.DeepEqual(l.x[j], l.y[j]) {
					return fmt.Sprintf("%s: %s %d:\n%s\nvs\n%s", x.AddressType, l.what, j, dumpSlices(l.x), dumpSlices(l.y))
				}
			}
		}
	}
	if !apiequality.Semantic.DeepEqual(a.DeleteUnsupported, b.DeleteUnsupported) {
		return "delete unsupported"
	}
	if !apiequality.Semantic.DeepEqual(a.Events, b.Events) {
		return fmt.Sprintf("events %v vs %v", a.Events, b.Events)
	}
	if !apiequality.Semantic.DeepEqual(a.Ignored, b.Ignored) {
		return "ignored"
	}
	return ""
}

func dumpSlices(l []*discovery.EndpointSlice) string {
	var b strings.Builder
	for _, s := range l {
		fmt.Fprintf(&b, "  %s%s %s ports=%s:", s.Name, s.GenerateName, s.AddressType, reconciler.PortMapKey(s.Ports))
		for _, e := range s.Endpoints {
			fmt.Fprintf(&b, " %s/%v/%v", e.TargetRef.Name, e.Addresses, *e.Conditions.Ready)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func dumpDesired(d *reconciler.Desired) string {
	var b strings.Builder
	for _, g := range d.Groups {
		fmt.Fprintf(&b, "%s %s:", g.AddressType, reconciler.PortMapKey(g.Ports))
		for _, e := range g.Endpoints {
			fmt.Fprintf(&b, " %s", e.TargetRef.Name)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestIncrementalEqualsFull runs random event sequences (Pod add, delete,
// readiness flip, IP change, label change, terminating, phase, container
// port, Node zone change, Node add/delete, Service port, label and
// trafficDistribution change, slices edited by someone else, resync),
// max endpoints per slice 3-10, single- and dual-stack, and compares the
// plans at every step: 10,000 steps in all (1,000 with -short).
func TestIncrementalEqualsFull(t *testing.T) {
	runs, steps := 40, 250
	if testing.Short() {
		runs = 4
	}
	total := 0
	reasons := map[string]int{}
	for run := 0; run < runs; run++ {
		rnd := rand.New(rand.NewSource(int64(run)))
		w := newIdxWorld(t, rnd)
		for i := 0; i < steps; i++ {
			if i > 0 {
				w.event()
			}
			if !w.step() {
				t.Fatalf("run %d: stopping at the first difference", run)
			}
		}
		total += w.steps
		for k, v := range w.reasons {
			reasons[k] += v
		}
	}
	t.Logf("%d steps, plans by path: %v", total, reasons)
	if reasons["incremental"] < total/2 {
		t.Errorf("only %d of %d steps planned incrementally", reasons["incremental"], total)
	}
}

// FuzzIncremental drives the same comparison from fuzz bytes.
func FuzzIncremental(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("readiness flips and rolling updates"))
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		rnd := &byteChooser{data: data}
		w := newIdxWorld(t, rnd)
		w.step()
		for i := 0; i < 200 && !rnd.done(); i++ {
			w.event()
			if !w.step() {
				return
			}
		}
	})
}
