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

package mirroring

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
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/fakecluster"
)

const ns = "ns-a"

// fixture is a controller on a fake cluster whose informers never run
// (test/harness/fakecluster): their caches are filled directly, and after
// each sync the EndpointSlice cache is refreshed from the clientset, as a
// watch would (KCM endpointslicemirroring_controller_test.go newController
// does the same by hand).
type fixture struct {
	*fakecluster.Cluster
	t        *testing.T
	ctx      context.Context
	client   *fake.Clientset
	c        *Controller
	recorder *record.FakeRecorder
	reg      *prometheus.Registry

	endpointsStore, serviceStore, sliceStore cache.Store
}

func newFixture(t *testing.T, opts Options, objs ...runtime.Object) *fixture {
	t.Helper()
	var slices, cached []runtime.Object
	for _, o := range objs {
		if _, ok := o.(*discovery.EndpointSlice); ok {
			slices = append(slices, o)
		} else {
			cached = append(cached, o)
		}
	}
	fc := fakecluster.New(t, 1000, slices...)
	f := &fixture{Cluster: fc, t: t, ctx: fc.Ctx, client: fc.Client, recorder: fc.Recorder, reg: fc.Registry,
		endpointsStore: fc.Store(&corev1.Endpoints{}), serviceStore: fc.Store(&corev1.Service{}), sliceStore: fc.Store(&discovery.EndpointSlice{})}
	if opts.EventRecorder == nil {
		opts.EventRecorder = f.recorder
	}
	if opts.Registerer == nil {
		opts.Registerer = f.reg
	}
	c, err := New(f.ctx, f.client, fc.Factory, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c.cachesSynced = []cache.InformerSynced{func() bool { return true }}
	f.c = c
	t.Cleanup(c.queue.ShutDown)
	fc.Put(cached...)
	f.refresh()
	f.client.ClearActions()
	return f
}

// put adds or replaces a Service or Endpoints object in the caches.
func (f *fixture) put(o runtime.Object) { f.Put(o) }

// refresh replaces the EndpointSlice cache with the clientset's slices.
func (f *fixture) refresh() { f.RefreshSlices() }

// sync runs SyncEndpoints for name and refreshes the slice cache.
func (f *fixture) sync(name string) error {
	f.t.Helper()
	err := f.c.SyncEndpoints(f.ctx, ns+"/"+name)
	f.refresh()
	return err
}

// mustSync syncs and fails the test on error.
func (f *fixture) mustSync(name string) {
	f.t.Helper()
	if err := f.sync(name); err != nil {
		f.t.Fatalf("SyncEndpoints(%s): %v", name, err)
	}
}

// slices returns the slices of service name (all managers), sorted by name.
func (f *fixture) slices(name string) []discovery.EndpointSlice {
	f.t.Helper()
	list, err := f.client.DiscoveryV1().EndpointSlices(ns).List(context.Background(), metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + name})
	if err != nil {
		f.t.Fatal(err)
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items
}

// mirrored returns the slices of name managed by this controller.
func (f *fixture) mirrored(name string) []discovery.EndpointSlice {
	var out []discovery.EndpointSlice
	for _, s := range f.slices(name) {
		if s.Labels[discovery.LabelManagedBy] == wellknown.MirroringControllerName {
			out = append(out, s)
		}
	}
	return out
}

// writes returns the slice writes since the last call, as "verb name".
func (f *fixture) writes() []string {
	var out []string
	for _, a := range memapi.SliceWrites(f.client) {
		s := a.GetVerb()
		switch a := a.(type) {
		case interface{ GetObject() runtime.Object }:
			if o, ok := a.GetObject().(*discovery.EndpointSlice); ok {
				s += " " + o.Name
			}
		case interface{ GetName() string }:
			s += " " + a.GetName()
		}
		out = append(out, strings.TrimSpace(s))
	}
	f.client.ClearActions()
	return out
}

// events drains the recorded events.
func (f *fixture) events() []string { return f.Events() }

func service(name string, mods ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-svc-" + name)},
		Spec: corev1.ServiceSpec{
			Type:  corev1.ServiceTypeClusterIP,
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}},
		},
	}
	for _, m := range mods {
		m(s)
	}
	return s
}

func withSelector(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "a"} }

func withServiceLabel(k, v string) func(*corev1.Service) {
	return func(s *corev1.Service) {
		if s.Labels == nil {
			s.Labels = map[string]string{}
		}
		s.Labels[k] = v
	}
}

func endpointsObj(name string, subsets ...corev1.EndpointSubset) *corev1.Endpoints {
	return &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-ep-" + name), ResourceVersion: "1"},
		Subsets:    subsets,
	}
}

func subset(ready []string, notReady []string, ports ...corev1.EndpointPort) corev1.EndpointSubset {
	ss := corev1.EndpointSubset{Ports: ports}
	for _, ip := range ready {
		ss.Addresses = append(ss.Addresses, corev1.EndpointAddress{IP: ip})
	}
	for _, ip := range notReady {
		ss.NotReadyAddresses = append(ss.NotReadyAddresses, corev1.EndpointAddress{IP: ip})
	}
	return ss
}

func httpPort() corev1.EndpointPort {
	return corev1.EndpointPort{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}
}

// mirroredSlice is a slice as KCM mirrors ep, named name.
func mirroredSlice(name string, ep *corev1.Endpoints, managedBy string, ips ...string) *discovery.EndpointSlice {
	s := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name,
			Labels: map[string]string{discovery.LabelServiceName: ep.Name, discovery.LabelManagedBy: managedBy},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Endpoints", Name: ep.Name, UID: ep.UID,
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}
	for _, ip := range ips {
		s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}})
	}
	return s
}

// addresses returns the sorted addresses of slices, with "!" before
// not-ready ones.
func addresses(slices []discovery.EndpointSlice) []string {
	var out []string
	for _, s := range slices {
		for _, e := range s.Endpoints {
			p := ""
			if e.Conditions.Ready != nil && !*e.Conditions.Ready {
				p = "!"
			}
			out = append(out, p+strings.Join(e.Addresses, ","))
		}
	}
	sort.Strings(out)
	return out
}
