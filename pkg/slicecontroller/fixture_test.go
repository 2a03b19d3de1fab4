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
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/fakecluster"
	"github.com/slicekit/slicekit/test/harness/testobjects"
)

const (
	testName = "custom.example.com"
	testNS   = testobjects.Namespace
)

// fixture is a controller on a fake cluster whose informers never run
// (test/harness/fakecluster): Services, Pods and Nodes are put in the
// caches directly, and the EndpointSlice cache is refreshed from the
// clientset before each sync, as `slicekit render` does.
type fixture struct {
	*fakecluster.Cluster
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
	fc := fakecluster.New(t, 100)
	f := &fixture{Cluster: fc, t: t, ctx: fc.Ctx, client: fc.Client, recorder: fc.Recorder, reg: fc.Registry,
		serviceStore: fc.Store(&corev1.Service{}), podStore: fc.Store(&corev1.Pod{}), nodeStore: fc.Store(&corev1.Node{}),
		sliceIndexer: fc.Factory.Discovery().V1().EndpointSlices().Informer().GetIndexer()}
	if opts.ControllerName == "" {
		opts.ControllerName = testName
	}
	if opts.Source == nil {
		opts.Source = addrSource
	}
	opts.EventRecorder = f.recorder
	opts.Registerer = f.reg
	c, err := New(f.ctx, f.client, fc.Factory, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	f.c = c
	t.Cleanup(func() {
		c.serviceQueue.ShutDown()
		c.podQueue.ShutDown()
		c.topologyQueue.ShutDown()
	})
	f.add(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}})
	f.add(objs...)
	return f
}

// add puts Services, Pods and Nodes in the caches and creates
// EndpointSlices through the clientset.
func (f *fixture) add(objs ...runtime.Object) {
	f.t.Helper()
	for _, o := range objs {
		if s, ok := o.(*discovery.EndpointSlice); ok {
			if _, err := f.client.DiscoveryV1().EndpointSlices(s.Namespace).Create(f.ctx, s, metav1.CreateOptions{}); err != nil {
				f.t.Fatal(err)
			}
			continue
		}
		f.Put(o)
	}
}

// refresh replaces the EndpointSlice cache with the clientset's slices.
func (f *fixture) refresh() { f.RefreshSlices() }

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
func (f *fixture) events() []string { return f.Events() }

// metric returns the value of the metric name with the given labels, or
// -1 when absent.
func (f *fixture) metric(name string, labels map[string]string) float64 {
	f.t.Helper()
	if v, ok := f.Metric(name, labels); ok {
		return v
	}
	return -1
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
