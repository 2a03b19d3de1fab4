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

// Package fakecluster is the fixture the controllers' unit tests share:
// a fake clientset with the API server's reactions, an informer factory
// whose informers never run, and helpers that fill the informer caches
// directly (Put) or from the clientset (Refresh), as a watch would, in the
// way of kube-controller-manager's controller tests (newController in
// pkg/controller/endpointslice/endpointslice_controller_test.go). The
// client-go fake neither names generateName objects nor bumps generations;
// New's clientset does both (internal/memapi), and so do
// ServeSlicesFromCache's reactors for a cache-backed fixture. It is test
// harness: no product package imports it (hack/verify.sh).
package fakecluster

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/memapi"
)

// Cluster is a fake clientset and an informer factory on it whose
// informers are never started: the tests put objects in the caches
// themselves. Build it with New or NewPlain.
type Cluster struct {
	// T is the test; Ctx carries its logger (ktesting).
	T   testing.TB
	Ctx context.Context
	// Client is the clientset; Factory the informer factory on it, to be
	// handed to the controller's New.
	Client  *fake.Clientset
	Factory informers.SharedInformerFactory
	// Recorder and Registry are for the controller's Options
	// (EventRecorder, Registerer); Events and Metric read them.
	Recorder *record.FakeRecorder
	Registry *prometheus.Registry
}

// New returns a Cluster whose clientset is memapi's (generateName, UIDs,
// resourceVersions, EndpointSlice generations as the API server), seeded
// with seed, and whose recorder buffers events events.
func New(t testing.TB, events int, seed ...runtime.Object) *Cluster {
	return newCluster(t, memapi.NewClientset(seed...), events)
}

// NewPlain returns a Cluster on client-go's plain fake clientset, for a
// fixture that serves EndpointSlices from the cache
// (ServeSlicesFromCache).
func NewPlain(t testing.TB, events int) *Cluster {
	return newCluster(t, fake.NewClientset(), events)
}

func newCluster(t testing.TB, client *fake.Clientset, events int) *Cluster {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	return &Cluster{
		T: t, Ctx: ctx, Client: client,
		Factory:  informers.NewSharedInformerFactory(client, 0),
		Recorder: record.NewFakeRecorder(events),
		Registry: prometheus.NewRegistry(),
	}
}

// Store returns the informer cache of obj's kind: Services, Pods, Nodes,
// Endpoints or EndpointSlices (requesting the informer from Factory).
func (c *Cluster) Store(obj runtime.Object) cache.Store {
	c.T.Helper()
	switch obj.(type) {
	case *corev1.Service:
		return c.Factory.Core().V1().Services().Informer().GetStore()
	case *corev1.Pod:
		return c.Factory.Core().V1().Pods().Informer().GetStore()
	case *corev1.Node:
		return c.Factory.Core().V1().Nodes().Informer().GetStore()
	case *corev1.Endpoints:
		return c.Factory.Core().V1().Endpoints().Informer().GetStore()
	case *discovery.EndpointSlice:
		return c.Factory.Discovery().V1().EndpointSlices().Informer().GetStore()
	}
	c.T.Fatalf("fakecluster: no informer cache for %T", obj)
	return nil
}

// Put adds or replaces each object in the informer cache of its kind
// (Store); it fails the test on an error.
func (c *Cluster) Put(objs ...runtime.Object) {
	c.T.Helper()
	for _, o := range objs {
		if err := c.Store(o).Update(o); err != nil {
			c.T.Fatal(err)
		}
	}
}

// RefreshEndpoints replaces the Endpoints cache with the clientset's
// Endpoints objects, as a watch would.
func (c *Cluster) RefreshEndpoints() {
	c.T.Helper()
	list, err := c.Client.CoreV1().Endpoints(metav1.NamespaceAll).List(c.Ctx, metav1.ListOptions{})
	if err != nil {
		c.T.Fatal(err)
	}
	replace(c, &corev1.Endpoints{}, list.ResourceVersion, list.Items)
}

// RefreshSlices replaces the EndpointSlice cache with the clientset's
// EndpointSlices, as a watch would.
func (c *Cluster) RefreshSlices() {
	c.T.Helper()
	list, err := c.Client.DiscoveryV1().EndpointSlices(metav1.NamespaceAll).List(c.Ctx, metav1.ListOptions{})
	if err != nil {
		c.T.Fatal(err)
	}
	replace(c, &discovery.EndpointSlice{}, list.ResourceVersion, list.Items)
}

// replace replaces the cache of kind with items.
func replace[T any](c *Cluster, kind runtime.Object, rv string, items []T) {
	c.T.Helper()
	objs := make([]any, 0, len(items))
	for i := range items {
		objs = append(objs, &items[i])
	}
	if err := c.Store(kind).Replace(objs, rv); err != nil {
		c.T.Fatal(err)
	}
}

// Events drains the events recorded so far.
func (c *Cluster) Events() []string {
	var out []string
	for {
		select {
		case e := <-c.Recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

// Metric returns the value of the first series of the metric name in
// Registry with the given labels (a histogram's sample count), and
// whether there is one.
func (c *Cluster) Metric(name string, labels map[string]string) (float64, bool) {
	c.T.Helper()
	return GatherMetric(c.T, c.Registry, name, labels)
}

// GatherMetric returns the value of the first series of the metric name
// in reg with the given labels (a histogram's sample count), and whether
// there is one; it fails t when reg cannot be gathered.
func GatherMetric(t testing.TB, reg prometheus.Gatherer, name string, labels map[string]string) (float64, bool) {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	series:
		for _, m := range mf.GetMetric() {
			have := map[string]string{}
			for _, lp := range m.GetLabel() {
				have[lp.GetName()] = lp.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue series
				}
			}
			switch {
			case m.Counter != nil:
				return m.GetCounter().GetValue(), true
			case m.Gauge != nil:
				return m.GetGauge().GetValue(), true
			case m.Histogram != nil:
				return float64(m.GetHistogram().GetSampleCount()), true
			}
		}
	}
	return 0, false
}

// SliceCache serves the EndpointSlice writes of a plain fake clientset
// from the EndpointSlice informer cache, as KCM's controller tests do:
// see ServeSlicesFromCache.
type SliceCache struct {
	store cache.Store

	mu sync.Mutex
	// reflect: writes change the cache (SetReflect).
	reflect        bool
	nameSeq, rvSeq int
}

// ServeSlicesFromCache installs reactors on c.Client (NewPlain) that serve
// EndpointSlice creates, updates and deletes from the EndpointSlice cache
// as the API server would: a create gets a generateName name
// (<generateName><5-digit sequence>), UID "uid-<name>", generation 1 and a
// new resourceVersion (from 1001, above those of seeded slices); an
// update keeps the stored UID and generation, bumps the generation and
// gets a new resourceVersion; a delete of a missing slice is NotFound and
// one whose UID precondition fails a Conflict. While reflecting (the
// default) each write is applied to the cache at once.
func ServeSlicesFromCache(c *Cluster) *SliceCache {
	sc := &SliceCache{store: c.Store(&discovery.EndpointSlice{}), reflect: true}
	c.Client.PrependReactor("create", "endpointslices", sc.create)
	c.Client.PrependReactor("update", "endpointslices", sc.update)
	c.Client.PrependReactor("delete", "endpointslices", sc.delete)
	return sc
}

// SetReflect sets whether writes change the cache (a stale cache when
// false).
func (sc *SliceCache) SetReflect(v bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.reflect = v
}

func (sc *SliceCache) reflecting() bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.reflect
}

// NextResourceVersion returns a resourceVersion no slice had before, for
// a test that writes the cache itself.
func (sc *SliceCache) NextResourceVersion() string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.rvSeq++
	return strconv.Itoa(1000 + sc.rvSeq)
}

func (sc *SliceCache) create(action k8stesting.Action) (bool, runtime.Object, error) {
	s := action.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice).DeepCopy()
	sc.mu.Lock()
	sc.nameSeq++
	if s.GenerateName != "" && s.Name == "" {
		s.Name = fmt.Sprintf("%s%05d", s.GenerateName, sc.nameSeq)
	}
	sc.mu.Unlock()
	s.UID = types.UID("uid-" + s.Name)
	s.Generation = 1
	s.ResourceVersion = sc.NextResourceVersion()
	if sc.reflecting() {
		_ = sc.store.Add(s)
	}
	return true, s, nil
}

func (sc *SliceCache) update(action k8stesting.Action) (bool, runtime.Object, error) {
	s := action.(k8stesting.UpdateAction).GetObject().(*discovery.EndpointSlice).DeepCopy()
	// As the API server: the UID and generation are the stored object's
	// (an update may send neither, as when a placeholder is reused), the
	// generation is bumped and the resourceVersion is new (the incremental
	// planner takes an unchanged resourceVersion for unchanged content).
	if o, ok, _ := sc.store.GetByKey(s.Namespace + "/" + s.Name); ok {
		stored := o.(*discovery.EndpointSlice)
		if s.UID == "" {
			s.UID = stored.UID
		}
		s.Generation = max(s.Generation, stored.Generation)
	}
	s.Generation++
	s.ResourceVersion = sc.NextResourceVersion()
	if sc.reflecting() {
		_ = sc.store.Update(s)
	}
	return true, s, nil
}

func (sc *SliceCache) delete(action k8stesting.Action) (bool, runtime.Object, error) {
	da := action.(k8stesting.DeleteActionImpl)
	obj, ok, _ := sc.store.GetByKey(da.Namespace + "/" + da.Name)
	gr := schema.GroupResource{Group: discovery.GroupName, Resource: "endpointslices"}
	if !ok {
		return true, nil, apierrors.NewNotFound(gr, da.Name)
	}
	if p := da.DeleteOptions.Preconditions; p != nil && p.UID != nil && *p.UID != obj.(*discovery.EndpointSlice).UID {
		return true, nil, apierrors.NewConflict(gr, da.Name, fmt.Errorf("precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, obj.(*discovery.EndpointSlice).UID))
	}
	if sc.reflecting() {
		_ = sc.store.Delete(obj)
	}
	return true, nil, nil
}
