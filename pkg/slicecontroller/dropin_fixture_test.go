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
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
	"github.com/slicekit/slicekit/test/harness/fakecluster"
	"github.com/slicekit/slicekit/test/harness/testobjects"
)

// The drop-in EndpointSlice controller's tests (moved from
// pkg/controllers/endpointslice, which cannot be imported here: it imports
// this package). dropInOptions are the endpointslice.Options they set, and
// newDropIn wires them as endpointslice.New does (without the informer
// transforms: the fixture seeds the informer stores directly).
const (
	dropInControllerName        = "endpointslice-controller.k8s.io"
	dropInSelectorRemovalMetric = "selector_removal_deleted_slices"
)

type dropInOptions struct {
	ControllerName                                                    string
	MaxEndpointsPerSlice                                              int32
	BatchPeriod                                                       time.Duration
	ExternalEndpointController, SelectorRemovalCleanup, TopologyHints *bool
	Registerer                                                        prometheus.Registerer
	EventRecorder                                                     record.EventRecorder
	ConflictReportInterval                                            time.Duration
	Pacer                                                             reconciler.Pacer
	BurstQuietPeriod                                                  time.Duration

	// Source replaces servicepods.Source(podendpoint.Options{}) when set (not an
	// endpointslice.Options field: the incremental equality test runs the
	// drop-in with a Source that is not a source.IncrementalSource).
	Source source.Source
	// wrapFactory, when set, wraps the informer factory handed to New (not
	// an endpointslice.Options field: the incremental equality test
	// captures the event handlers New registers).
	wrapFactory func(informers.SharedInformerFactory) informers.SharedInformerFactory
}

func newDropIn(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, o dropInOptions) (*Controller, error) {
	if o.ControllerName == "" {
		o.ControllerName = dropInControllerName
	}
	if o.Source == nil {
		o.Source = servicepods.Source(podendpoint.Options{})
	}
	return New(ctx, client, factory, Options{
		Name:                   "endpointslice",
		ControllerName:         o.ControllerName,
		Ownership:              DropIn(o.ControllerName, o.ExternalEndpointController == nil || *o.ExternalEndpointController),
		Source:                 o.Source,
		TopologyHints:          o.TopologyHints,
		KCMMetricNames:         true,
		DetectConflicts:        true,
		ConflictReportInterval: o.ConflictReportInterval,
		SelectorRemovalMetric:  dropInSelectorRemovalMetric,
		QueueName:              "endpoint_slice",
		EventSourceComponent:   "endpoint-slice-controller",
		Pacer:                  o.Pacer,
		BurstQuietPeriod:       o.BurstQuietPeriod,
		Common: Common{
			MaxEndpointsPerSlice:   o.MaxEndpointsPerSlice,
			BatchPeriod:            o.BatchPeriod,
			SelectorRemovalCleanup: o.SelectorRemovalCleanup,
			Registerer:             o.Registerer,
			EventRecorder:          o.EventRecorder,
		},
	})
}

// dropInFixture is a controller on a fake cluster whose informer caches
// are seeded directly (KCM endpointslice_controller_test.go newController):
// the informers never run, the caches count as synced, and slice writes are
// served from the EndpointSlice cache and reflected into it
// (fakecluster.ServeSlicesFromCache; unless setReflectWrites(false)), with
// generateName, UID, generation and resourceVersion filled in as the API
// server would.
type dropInFixture struct {
	*fakecluster.Cluster
	t        testing.TB
	client   *fake.Clientset
	c        *Controller
	recorder *record.FakeRecorder
	reg      *prometheus.Registry
	slices   *fakecluster.SliceCache

	serviceStore, podStore, sliceStore, nodeStore cache.Store
}

func newDropInFixture(t testing.TB, opts dropInOptions) *dropInFixture {
	t.Helper()
	fc := fakecluster.NewPlain(t, 100)
	f := &dropInFixture{Cluster: fc, t: t, client: fc.Client, recorder: fc.Recorder, reg: fc.Registry,
		serviceStore: fc.Store(&corev1.Service{}), podStore: fc.Store(&corev1.Pod{}),
		sliceStore: fc.Store(&discovery.EndpointSlice{}), nodeStore: fc.Store(&corev1.Node{})}
	if opts.EventRecorder == nil {
		opts.EventRecorder = f.recorder
	}
	if opts.Registerer == nil {
		opts.Registerer = f.reg
	}
	handed := fc.Factory
	if opts.wrapFactory != nil {
		handed = opts.wrapFactory(fc.Factory)
	}
	c, err := newDropIn(fc.Ctx, f.client, handed, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c.cachesSynced = []cache.InformerSynced{func() bool { return true }}
	f.c = c
	t.Cleanup(func() {
		c.serviceQueue.ShutDown()
		c.podQueue.ShutDown()
		c.topologyQueue.ShutDown()
	})
	f.slices = fakecluster.ServeSlicesFromCache(fc)
	return f
}

func (f *dropInFixture) setReflectWrites(v bool) { f.slices.SetReflect(v) }

// nextResourceVersion returns a resourceVersion no slice had before
// (from 1000, above those of the slices the tests seed).
func (f *dropInFixture) nextResourceVersion() string { return f.slices.NextResourceVersion() }

func (f *dropInFixture) add(objs ...runtime.Object) { f.Put(objs...) }

// sync runs SyncService for ns/name with a test logger.
func (f *dropInFixture) sync(ns, name string) error {
	f.t.Helper()
	_, ctx := ktesting.NewTestContext(f.t)
	return f.c.SyncService(ctx, ns+"/"+name)
}

// writes returns the create, update and delete actions on endpointslices.
func (f *dropInFixture) writes() []k8stesting.Action {
	var out []k8stesting.Action
	for _, a := range f.client.Actions() {
		if a.GetResource().Resource != "endpointslices" {
			continue
		}
		switch a.GetVerb() {
		case "create", "update", "delete":
			out = append(out, a)
		}
	}
	return out
}

// verbs renders actions as "create", "update" or "delete <name>".
func verbs(actions []k8stesting.Action) []string {
	out := make([]string, 0, len(actions))
	for _, a := range actions {
		s := a.GetVerb()
		if d, ok := a.(k8stesting.DeleteActionImpl); ok {
			s += " " + d.Name
		}
		out = append(out, s)
	}
	return out
}

// events drains the recorded events.
func (f *dropInFixture) events() []string { return f.Events() }

func (f *dropInFixture) ownSlices(ns, svc string) []*discovery.EndpointSlice {
	var out []*discovery.EndpointSlice
	for _, o := range f.sliceStore.List() {
		s := o.(*discovery.EndpointSlice)
		if s.Namespace == ns && s.Labels[discovery.LabelServiceName] == svc && s.Labels[discovery.LabelManagedBy] == f.c.opts.ControllerName {
			out = append(out, s)
		}
	}
	return out
}

// testNS ("ns") is the namespace of the test objects (fixture_test.go).

// The shared test objects (test/harness/testobjects).
var (
	newService = testobjects.Service
	labelled   = testobjects.Labelled
	newPod     = testobjects.Pod
	newNode    = testobjects.Node
)

// newSlice returns a slice of service svc managed by managedBy, with one
// endpoint per IP.
func newSlice(name, svc, managedBy string, ips ...string) *discovery.EndpointSlice {
	s := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: testNS, UID: types.UID("uid-" + name), Generation: 1, ResourceVersion: "1",
			Labels: map[string]string{discovery.LabelServiceName: svc, discovery.LabelManagedBy: managedBy},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc,
				UID: types.UID("svc-uid-" + svc), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
		Endpoints:   []discovery.Endpoint{},
	}
	for _, ip := range ips {
		s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}})
	}
	return s
}

// mutationCheck keeps deep copies of objects handed to the caches, to prove
// that the controller never modifies cached objects (KCM
// cacheMutationCheck). Reactors replace cached slices with new objects, so
// the originals must stay as they were.
type mutationCheck struct {
	originals, copies []runtime.Object
}

func newMutationCheck(objs ...runtime.Object) *mutationCheck {
	mc := &mutationCheck{}
	for _, o := range objs {
		mc.originals = append(mc.originals, o)
		mc.copies = append(mc.copies, o.DeepCopyObject())
	}
	return mc
}

func (mc *mutationCheck) check(t *testing.T) {
	t.Helper()
	for i, o := range mc.originals {
		if diff := cmp.Diff(mc.copies[i], o); diff != "" {
			t.Errorf("cached %T was modified (-before +after):\n%s", o, diff)
		}
	}
}

// spyQueue records Add and AddAfter calls on top of a real queue.
type spyQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	mu    sync.Mutex
	calls []queued
}

type queued struct {
	key   string
	delay time.Duration
}

func (q *spyQueue) Add(key string) {
	q.mu.Lock()
	q.calls = append(q.calls, queued{key: key})
	q.mu.Unlock()
	q.TypedRateLimitingInterface.Add(key)
}

func (q *spyQueue) AddAfter(key string, d time.Duration) {
	q.mu.Lock()
	q.calls = append(q.calls, queued{key: key, delay: d})
	q.mu.Unlock()
	q.TypedRateLimitingInterface.AddAfter(key, d)
}

func (q *spyQueue) take() []queued {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.calls
	q.calls = nil
	return out
}

func (f *dropInFixture) spyServiceQueue() *spyQueue {
	q := &spyQueue{TypedRateLimitingInterface: f.c.serviceQueue}
	f.c.serviceQueue, f.c.serviceLoop.Queue = q, q
	return q
}

// metric returns the value of the series of name whose labels include
// labels: a counter's or gauge's value, a histogram's sample count; 0 when
// absent.
func (f *dropInFixture) metric(name string, labels map[string]string) float64 {
	f.t.Helper()
	v, _ := f.Metric(name, labels)
	return v
}

func mustQuantity(s string) resource.Quantity { return resource.MustParse(s) }
