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
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testobjects"
)

const (
	testName = "custom.example.com"
	testNS   = testobjects.Namespace
)

// fixture is a controller on a memapi clientset whose informers never
// run: Services, Pods and Nodes are put in the caches directly, and the
// EndpointSlice cache is refreshed from the clientset before each sync,
// as `slicekit render` does.
type fixture struct {
	t        *testing.T
	ctx      context.Context
	client   *fake.Clientset
	c        *Controller
	recorder *record.FakeRecorder
	reg      *prometheus.Registry

	serviceStore, podStore, nodeStore cache.Store
	sliceIndexer                      cache.Indexer
}

// addrSource reads the comma-separated "addrs" annotation.
var addrSource = source.PodAddresses{
	Addresses: func(_ context.Context, _ *corev1.Service, pod *corev1.Pod) ([]string, error) {
		v, ok := pod.Annotations["addrs"]
		if !ok {
			return nil, source.Skip("NoAddrs", "no addrs annotation")
		}
		return strings.Split(v, ","), nil
	},
	PodChanged: func(o, c *corev1.Pod) bool { return o.Annotations["addrs"] != c.Annotations["addrs"] },
}

func newFixture(t *testing.T, opts Options, objs ...runtime.Object) *fixture {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	f := &fixture{t: t, ctx: ctx, client: memapi.NewClientset(), recorder: record.NewFakeRecorder(100), reg: prometheus.NewRegistry()}
	factory := informers.NewSharedInformerFactory(f.client, 0)
	if opts.ControllerName == "" {
		opts.ControllerName = testName
	}
	if opts.Source == nil {
		opts.Source = addrSource
	}
	opts.EventRecorder = f.recorder
	opts.Registerer = f.reg
	c, err := New(ctx, f.client, factory, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	f.c = c
	f.serviceStore = factory.Core().V1().Services().Informer().GetStore()
	f.podStore = factory.Core().V1().Pods().Informer().GetStore()
	f.nodeStore = factory.Core().V1().Nodes().Informer().GetStore()
	f.sliceIndexer = factory.Discovery().V1().EndpointSlices().Informer().GetIndexer()
	t.Cleanup(func() {
		c.serviceQueue.ShutDown()
		c.podQueue.ShutDown()
		c.topologyQueue.ShutDown()
	})
	f.add(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}})
	f.add(objs...)
	return f
}

func (f *fixture) add(objs ...runtime.Object) {
	f.t.Helper()
	for _, o := range objs {
		var err error
		switch o := o.(type) {
		case *corev1.Service:
			err = f.serviceStore.Update(o)
		case *corev1.Pod:
			err = f.podStore.Update(o)
		case *corev1.Node:
			err = f.nodeStore.Update(o)
		case *discovery.EndpointSlice:
			_, err = f.client.DiscoveryV1().EndpointSlices(o.Namespace).Create(f.ctx, o, metav1.CreateOptions{})
		default:
			err = fmt.Errorf("unexpected %T", o)
		}
		if err != nil {
			f.t.Fatal(err)
		}
	}
}

// refresh replaces the EndpointSlice cache with the clientset's slices.
func (f *fixture) refresh() {
	f.t.Helper()
	list, err := f.client.DiscoveryV1().EndpointSlices("").List(f.ctx, metav1.ListOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	items := make([]any, 0, len(list.Items))
	for i := range list.Items {
		items = append(items, &list.Items[i])
	}
	if err := f.sliceIndexer.Replace(items, ""); err != nil {
		f.t.Fatal(err)
	}
}

// sync refreshes the slice cache, clears the recorded actions and syncs
// the Service.
func (f *fixture) sync(name string) error {
	f.t.Helper()
	f.refresh()
	f.client.ClearActions()
	return f.c.SyncService(f.ctx, testNS+"/"+name)
}

// mustSync syncs and fails the test on error.
func (f *fixture) mustSync(name string) {
	f.t.Helper()
	if err := f.sync(name); err != nil {
		f.t.Fatalf("SyncService(%s): %v", name, err)
	}
}

// slices returns the clientset's slices of service, by name.
func (f *fixture) slices(service string) []discovery.EndpointSlice {
	f.t.Helper()
	list, err := f.client.DiscoveryV1().EndpointSlices(testNS).List(f.ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + service})
	if err != nil {
		f.t.Fatal(err)
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items
}

// writes returns the EndpointSlice writes of the last sync as "verb".
func (f *fixture) writes() []string {
	var out []string
	for _, a := range memapi.SliceWrites(f.client) {
		out = append(out, a.GetVerb())
	}
	return out
}

// events drains the recorded events.
func (f *fixture) events() []string {
	var out []string
	for {
		select {
		case e := <-f.recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

// metric returns the value of the metric name with the given labels, or
// -1 when absent.
func (f *fixture) metric(name string, labels map[string]string) float64 {
	f.t.Helper()
	if v, ok := gatherMetric(f.t, f.reg, name, labels); ok {
		return v
	}
	return -1
}

// gatherMetric returns the value of the first series of the metric name in
// reg with the given labels (a histogram's sample count), and whether
// there is one.
func gatherMetric(t testing.TB, reg prometheus.Gatherer, name string, labels map[string]string) (float64, bool) {
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

func service(name string, mods ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: name, UID: types.UID("uid-svc-" + name),
			Labels: map[string]string{wellknown.LabelEndpointControllerName: testName, "team": "x"}},
		Spec: corev1.ServiceSpec{
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": name},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
		},
	}
	for _, m := range mods {
		m(s)
	}
	return s
}

func pod(name, app, addrs string, mods ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: name, UID: types.UID("uid-pod-" + name), ResourceVersion: "1",
			Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{NodeName: "node-a"},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			PodIP:      "10.0.0.1",
			PodIPs:     []corev1.PodIP{{IP: "10.0.0.1"}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	}
	if addrs != "-" {
		p.Annotations = map[string]string{"addrs": addrs}
	}
	for _, m := range mods {
		m(p)
	}
	return p
}
