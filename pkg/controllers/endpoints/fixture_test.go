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

package endpoints

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/fakecluster"
)

const ns = "ns-a"

// fixture is a controller on a fake cluster whose informers never run
// (test/harness/fakecluster): Service and Pod caches are filled directly,
// and after each sync the Endpoints cache is refreshed from the clientset,
// as a watch would.
type fixture struct {
	*fakecluster.Cluster
	t        *testing.T
	ctx      context.Context
	client   *fake.Clientset
	c        *Controller
	recorder *record.FakeRecorder

	serviceStore, podStore, endpointsStore cache.Store
}

func newFixture(t *testing.T, opts Options, objs ...runtime.Object) *fixture {
	t.Helper()
	var eps, cached []runtime.Object
	for _, o := range objs {
		if _, ok := o.(*corev1.Endpoints); ok {
			eps = append(eps, o)
		} else {
			cached = append(cached, o)
		}
	}
	fc := fakecluster.New(t, 100, eps...)
	f := &fixture{Cluster: fc, t: t, ctx: fc.Ctx, client: fc.Client, recorder: fc.Recorder,
		serviceStore: fc.Store(&corev1.Service{}), podStore: fc.Store(&corev1.Pod{}), endpointsStore: fc.Store(&corev1.Endpoints{})}
	if opts.EventRecorder == nil {
		opts.EventRecorder = f.recorder
	}
	c, err := New(f.ctx, f.client, fc.Factory, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c.cachesSynced = []cache.InformerSynced{func() bool { return true }}
	f.c = c
	t.Cleanup(func() { c.queue.ShutDown(); c.podQueue.ShutDown() })
	fc.Put(cached...)
	f.refresh()
	f.client.ClearActions()
	return f
}

func (f *fixture) put(o runtime.Object) { f.Put(o) }

func (f *fixture) refresh() { f.RefreshEndpoints() }

func (f *fixture) sync(name string) error {
	f.t.Helper()
	err := f.c.SyncService(f.ctx, ns+"/"+name)
	f.refresh()
	return err
}

func (f *fixture) mustSync(name string) {
	f.t.Helper()
	if err := f.sync(name); err != nil {
		f.t.Fatalf("SyncService(%s): %v", name, err)
	}
}

// endpoints returns the Endpoints object name, or nil.
func (f *fixture) endpoints(name string) *corev1.Endpoints {
	f.t.Helper()
	ep, err := f.client.CoreV1().Endpoints(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return ep
}

// writes returns the verbs of the Endpoints writes since the last call.
func (f *fixture) writes() []string {
	var out []string
	for _, a := range memapi.Writes(f.client.Actions(), "endpoints") {
		out = append(out, a.GetVerb())
	}
	f.client.ClearActions()
	return out
}

func (f *fixture) events() []string { return f.Events() }

func service(name string, mods ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-svc-" + name),
			CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))},
		Spec: corev1.ServiceSpec{
			Type:       corev1.ServiceTypeClusterIP,
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": "a"},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
		},
	}
	for _, m := range mods {
		m(s)
	}
	return s
}

func withLabel(k, v string) func(*corev1.Service) {
	return func(s *corev1.Service) {
		if s.Labels == nil {
			s.Labels = map[string]string{}
		}
		s.Labels[k] = v
	}
}

func pod(name string, ready bool, ips ...string) *corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{"app": "a"}},
		Spec:       corev1.PodSpec{NodeName: "node-a"},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status}},
		},
	}
	for _, ip := range ips {
		p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: ip})
	}
	if len(ips) > 0 {
		p.Status.PodIP = ips[0]
	}
	return p
}

// customEndpoints is a hand-written Endpoints object without the
// managed-by label.
func customEndpoints(name string, ips ...string) *corev1.Endpoints {
	ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	ss := corev1.EndpointSubset{Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}}
	for _, ip := range ips {
		ss.Addresses = append(ss.Addresses, corev1.EndpointAddress{IP: ip})
	}
	ep.Subsets = []corev1.EndpointSubset{ss}
	return ep
}

// ownEndpoints is an Endpoints object as this controller writes it.
func ownEndpoints(name string, ips ...string) *corev1.Endpoints {
	ep := customEndpoints(name, ips...)
	ep.Labels = map[string]string{wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}
	return ep
}
