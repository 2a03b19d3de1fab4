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

package fakecluster

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestPutAndRefresh(t *testing.T) {
	seeded := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "seeded"}, AddressType: discovery.AddressTypeIPv4}
	c := New(t, 10, seeded)
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}}
	c.Put(svc, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}})
	if _, ok, _ := c.Store(svc).GetByKey("ns/svc"); !ok {
		t.Error("Put: the Service is not in the Service cache")
	}
	if n := len(c.Store(&discovery.EndpointSlice{}).List()); n != 0 {
		t.Fatalf("slice cache before RefreshSlices: %d objects, want 0", n)
	}
	created, err := c.Client.DiscoveryV1().EndpointSlices("ns").Create(c.Ctx,
		&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", GenerateName: "svc-"}, AddressType: discovery.AddressTypeIPv4}, metav1.CreateOptions{})
	if err != nil || created.Name == "" || created.Generation != 1 {
		t.Fatalf("Create with generateName: %+v, %v; want a name and generation 1", created, err)
	}
	c.RefreshSlices()
	if n := len(c.Store(&discovery.EndpointSlice{}).List()); n != 2 {
		t.Errorf("slice cache after RefreshSlices: %d objects, want 2", n)
	}
	c.Recorder.Event(svc, corev1.EventTypeNormal, "R", "m")
	if ev := c.Events(); len(ev) != 1 || ev[0] != "Normal R m" {
		t.Errorf("Events = %q", ev)
	}
	if ev := c.Events(); len(ev) != 0 {
		t.Errorf("Events after draining = %q", ev)
	}
}

func TestServeSlicesFromCache(t *testing.T) {
	for _, reflect := range []bool{true, false} {
		c := NewPlain(t, 10)
		sc := ServeSlicesFromCache(c)
		sc.SetReflect(reflect)
		store := c.Store(&discovery.EndpointSlice{})
		s, err := c.Client.DiscoveryV1().EndpointSlices("ns").Create(c.Ctx,
			&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", GenerateName: "svc-"}}, metav1.CreateOptions{})
		if err != nil || s.Name != "svc-00001" || s.UID != "uid-svc-00001" || s.Generation != 1 || s.ResourceVersion != "1001" {
			t.Fatalf("reflect=%v: create: %+v, %v", reflect, s.ObjectMeta, err)
		}
		if _, ok, _ := store.GetByKey("ns/svc-00001"); ok != reflect {
			t.Errorf("reflect=%v: created slice in the cache: %v", reflect, ok)
		}
		if !reflect {
			continue
		}
		upd := s.DeepCopy()
		upd.UID, upd.Generation = "", 0
		u, err := c.Client.DiscoveryV1().EndpointSlices("ns").Update(c.Ctx, upd, metav1.UpdateOptions{})
		if err != nil || u.UID != s.UID || u.Generation != 2 || u.ResourceVersion != "1002" {
			t.Errorf("update: %+v, %v; want the stored UID, generation 2, resourceVersion 1002", u.ObjectMeta, err)
		}
		wrong := types.UID("other")
		err = c.Client.DiscoveryV1().EndpointSlices("ns").Delete(c.Ctx, s.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &wrong}})
		if !apierrors.IsConflict(err) {
			t.Errorf("delete with a wrong UID: %v, want a Conflict", err)
		}
		if err := c.Client.DiscoveryV1().EndpointSlices("ns").Delete(c.Ctx, s.Name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("delete: %v", err)
		}
		if err := c.Client.DiscoveryV1().EndpointSlices("ns").Delete(c.Ctx, s.Name, metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("second delete: %v, want NotFound", err)
		}
	}
}

func TestStoreUnknownKind(t *testing.T) {
	ft := &fatalT{TB: t}
	c := New(t, 1)
	c.T = ft
	func() {
		defer func() { _ = recover() }()
		c.Store(&corev1.ConfigMap{})
	}()
	if !ft.failed {
		t.Error("Store of a ConfigMap did not fail the test")
	}
}

// fatalT records Fatalf instead of stopping the test.
type fatalT struct {
	testing.TB
	failed bool
}

func (f *fatalT) Fatalf(string, ...any) { f.failed = true; panic("fatal") }
func (f *fatalT) Helper()               {}
