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

package memapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

const ns = "ns-a"

func newSlice(name, generateName string) *discovery.EndpointSlice {
	return &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, GenerateName: generateName, Namespace: ns,
			Labels: map[string]string{discovery.LabelServiceName: "svc-a"},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.0.0.1"}}},
	}
}

func TestSuffix(t *testing.T) {
	for n, want := range map[int64]string{0: "bbbbb", 1: "bbbbc", 26: "bbbb9", 27: "bbbcb", 27*27*27*27*27 - 1: "99999"} {
		if got := suffix(n); got != want {
			t.Errorf("suffix(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCreateGenerateName(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset(newSlice("svc-a-bbbbc", ""))
	client := cs.DiscoveryV1().EndpointSlices(ns)
	var names []string
	for range 3 {
		s, err := client.Create(ctx, newSlice("", "svc-a-"), metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create: %v", err)
		}
		if s.GenerateName != "svc-a-" {
			t.Errorf("generateName = %q, want it kept", s.GenerateName)
		}
		names = append(names, s.Name)
	}
	// svc-a-bbbbc is taken by the seeded slice and skipped.
	if diff := cmp.Diff([]string{"svc-a-bbbbb", "svc-a-bbbbd", "svc-a-bbbbf"}, names); diff != "" {
		t.Errorf("generated names (-want +got):\n%s", diff)
	}

	// A name wins over generateName.
	s, err := client.Create(ctx, newSlice("fixed", "svc-a-"), metav1.CreateOptions{})
	if err != nil || s.Name != "fixed" {
		t.Errorf("create with name: got %v, %v; want name fixed", s, err)
	}

	// The base is cut to 58 characters.
	long := strings.Repeat("x", 70)
	s, err = client.Create(ctx, newSlice("", long), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if len(s.Name) != 63 || !strings.HasPrefix(s.Name, long[:58]) {
		t.Errorf("name %q: want 58 characters of the base plus 5", s.Name)
	}

	// Neither name nor generateName.
	if _, err := client.Create(ctx, newSlice("", ""), metav1.CreateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("create without name: got %v, want Invalid", err)
	}

	// Any resource gets generated names.
	pod, err := cs.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "web-"}}, metav1.CreateOptions{})
	if err != nil || !strings.HasPrefix(pod.Name, "web-") || len(pod.Name) != len("web-")+5 || pod.UID == "" || pod.ResourceVersion == "" {
		t.Errorf("pod create: got %+v, %v", pod.ObjectMeta, err)
	}

	// An existing name is still AlreadyExists.
	if _, err := client.Create(ctx, newSlice("fixed", ""), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second create of fixed: got %v, want AlreadyExists", err)
	}
}

func TestCreateStampsMetadata(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset()
	in := newSlice("", "svc-a-")
	in.Generation = 7
	s, err := cs.DiscoveryV1().EndpointSlices(ns).Create(ctx, in, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Generation != 1 || s.UID == "" || s.ResourceVersion == "" {
		t.Errorf("created slice: generation %d uid %q resourceVersion %q; want 1 and both set", s.Generation, s.UID, s.ResourceVersion)
	}
	if in.Name != "" || in.UID != "" || in.ResourceVersion != "" || in.Generation != 7 {
		t.Errorf("the caller's object was modified: %+v", in.ObjectMeta)
	}
	got, err := cs.DiscoveryV1().EndpointSlices(ns).Get(ctx, s.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.UID != s.UID || got.ResourceVersion != s.ResourceVersion || got.Generation != 1 {
		t.Errorf("stored %+v differs from returned %+v", got.ObjectMeta, s.ObjectMeta)
	}
	// A UID given by the caller is kept (the fake cannot tell it from a
	// server-assigned one).
	in2 := newSlice("with-uid", "")
	in2.UID = "given"
	s2, err := cs.DiscoveryV1().EndpointSlices(ns).Create(ctx, in2, metav1.CreateOptions{})
	if err != nil || s2.UID != "given" {
		t.Errorf("create with uid: %v, %v", s2, err)
	}
}

func TestSeededObjects(t *testing.T) {
	in := newSlice("seed", "")
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: ns, UID: "uid-p"}}
	cs := NewClientset(in, pod)
	if in.UID != "" || in.ResourceVersion != "" || in.Generation != 0 {
		t.Errorf("seed object modified: %+v", in.ObjectMeta)
	}
	s, err := cs.DiscoveryV1().EndpointSlices(ns).Get(t.Context(), "seed", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.UID == "" || s.ResourceVersion == "" || s.Generation != 1 {
		t.Errorf("seeded slice: %+v; want uid, resourceVersion and generation 1", s.ObjectMeta)
	}
	p, err := cs.CoreV1().Pods(ns).Get(t.Context(), "p", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.UID != "uid-p" || p.ResourceVersion == "" || p.Generation != 0 {
		t.Errorf("seeded pod: %+v; want uid kept, resourceVersion set, no generation", p.ObjectMeta)
	}
}

func TestUpdateGenerationAndResourceVersion(t *testing.T) {
	ctx := t.Context()
	tests := []struct {
		name       string
		mutate     func(*discovery.EndpointSlice)
		wantGenInc bool
		wantNoOp   bool
	}{
		{name: "no change", mutate: func(*discovery.EndpointSlice) {}, wantNoOp: true},
		{name: "nil and empty are the same", mutate: func(s *discovery.EndpointSlice) {
			s.Annotations = map[string]string{}
			s.Ports = []discovery.EndpointPort{}
		}, wantNoOp: true},
		{name: "managedFields only", mutate: func(s *discovery.EndpointSlice) {
			s.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "someone"}}
		}, wantNoOp: true},
		{name: "client generation ignored", mutate: func(s *discovery.EndpointSlice) { s.Generation = 42 }, wantNoOp: true},
		{name: "endpoints", mutate: func(s *discovery.EndpointSlice) {
			s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{"10.0.0.2"}})
		}, wantGenInc: true},
		{name: "ports", mutate: func(s *discovery.EndpointSlice) {
			s.Ports = []discovery.EndpointPort{{Port: ptr.To[int32](80)}}
		}, wantGenInc: true},
		{name: "labels", mutate: func(s *discovery.EndpointSlice) { s.Labels["team"] = "blue" }, wantGenInc: true},
		{name: "annotations", mutate: func(s *discovery.EndpointSlice) {
			s.Annotations = map[string]string{"a": "b"}
		}},
		{name: "owner references", mutate: func(s *discovery.EndpointSlice) {
			s.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: "svc-a", UID: "u"}}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := NewClientset()
			client := cs.DiscoveryV1().EndpointSlices(ns)
			created, err := client.Create(ctx, newSlice("", "svc-a-"), metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			w, err := client.Watch(ctx, metav1.ListOptions{ResourceVersion: created.ResourceVersion})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()

			in := created.DeepCopy()
			tc.mutate(in)
			updated, err := client.Update(ctx, in, metav1.UpdateOptions{})
			if err != nil {
				t.Fatalf("update: %v", err)
			}
			wantGen := created.Generation
			if tc.wantGenInc {
				wantGen++
			}
			if updated.Generation != wantGen {
				t.Errorf("generation = %d, want %d", updated.Generation, wantGen)
			}
			if tc.wantNoOp != (updated.ResourceVersion == created.ResourceVersion) {
				t.Errorf("resourceVersion %s -> %s; no-op expected: %v", created.ResourceVersion, updated.ResourceVersion, tc.wantNoOp)
			}
			if updated.UID != created.UID {
				t.Errorf("uid changed: %s -> %s", created.UID, updated.UID)
			}
			stored, err := client.Get(ctx, created.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if stored.ResourceVersion != updated.ResourceVersion || stored.Generation != updated.Generation {
				t.Errorf("stored rv/generation %s/%d, returned %s/%d", stored.ResourceVersion, stored.Generation, updated.ResourceVersion, updated.Generation)
			}
			gotEvent := false
			select {
			case ev := <-w.ResultChan():
				gotEvent = ev.Type == watch.Modified
			default:
			}
			if gotEvent == tc.wantNoOp {
				t.Errorf("watch event sent: %v; no-op expected: %v", gotEvent, tc.wantNoOp)
			}

			// A second identical update is always a no-op.
			again, err := client.Update(ctx, stored.DeepCopy(), metav1.UpdateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if again.ResourceVersion != stored.ResourceVersion || again.Generation != stored.Generation {
				t.Errorf("repeated update changed rv/generation: %s/%d -> %s/%d", stored.ResourceVersion, stored.Generation, again.ResourceVersion, again.Generation)
			}
		})
	}
}

func TestUpdateConcurrency(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset(newSlice("s", ""))
	client := cs.DiscoveryV1().EndpointSlices(ns)
	v1, err := client.Get(ctx, "s", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first := v1.DeepCopy()
	first.Labels["x"] = "1"
	v2, err := client.Update(ctx, first, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	stale := v1.DeepCopy()
	stale.Labels["x"] = "2"
	if _, err := client.Update(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update with stale resourceVersion: got %v, want Conflict", err)
	}

	unconditional := v1.DeepCopy()
	unconditional.ResourceVersion = ""
	unconditional.Labels["x"] = "3"
	v3, err := client.Update(ctx, unconditional, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("unconditional update: %v", err)
	}
	if v3.Generation != v2.Generation+1 || v3.ResourceVersion == v2.ResourceVersion {
		t.Errorf("unconditional update: generation %d rv %s after %d %s", v3.Generation, v3.ResourceVersion, v2.Generation, v2.ResourceVersion)
	}

	wrongUID := v3.DeepCopy()
	wrongUID.UID = "other"
	if _, err := client.Update(ctx, wrongUID, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update with another uid: got %v, want Conflict", err)
	}

	missing := newSlice("missing", "")
	if _, err := client.Update(ctx, missing, metav1.UpdateOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("update of a missing slice: got %v, want NotFound", err)
	}
}

func TestPatch(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset(newSlice("s", ""))
	client := cs.DiscoveryV1().EndpointSlices(ns)
	before, err := client.Get(ctx, "s", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		pt         types.PatchType
		patch      string
		wantGenInc bool
		wantNoOp   bool
	}{
		{name: "merge no-op", pt: types.MergePatchType, patch: `{"addressType":"IPv4"}`, wantNoOp: true},
		{name: "merge annotations", pt: types.MergePatchType, patch: `{"metadata":{"annotations":{"a":"b"}}}`},
		{name: "strategic labels", pt: types.StrategicMergePatchType, patch: `{"metadata":{"labels":{"x":"y"}}}`, wantGenInc: true},
		{name: "json endpoints", pt: types.JSONPatchType, patch: `[{"op":"add","path":"/endpoints/-","value":{"addresses":["10.0.0.9"]}}]`, wantGenInc: true},
	}
	for _, tc := range tests {
		got, err := client.Patch(ctx, "s", tc.pt, []byte(tc.patch), metav1.PatchOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		wantGen := before.Generation
		if tc.wantGenInc {
			wantGen++
		}
		if got.Generation != wantGen {
			t.Errorf("%s: generation %d, want %d", tc.name, got.Generation, wantGen)
		}
		if tc.wantNoOp != (got.ResourceVersion == before.ResourceVersion) {
			t.Errorf("%s: resourceVersion %s -> %s; no-op expected: %v", tc.name, before.ResourceVersion, got.ResourceVersion, tc.wantNoOp)
		}
		stored, err := client.Get(ctx, "s", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if stored.ResourceVersion != got.ResourceVersion || stored.Generation != got.Generation {
			t.Errorf("%s: stored %s/%d, returned %s/%d", tc.name, stored.ResourceVersion, stored.Generation, got.ResourceVersion, got.Generation)
		}
		before = stored
	}
	if _, err := client.Patch(ctx, "missing", types.MergePatchType, []byte(`{}`), metav1.PatchOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("patch of a missing slice: got %v, want NotFound", err)
	}
}

func TestDeletePreconditions(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset(newSlice("s", ""))
	client := cs.DiscoveryV1().EndpointSlices(ns)
	s, err := client.Get(ctx, "s", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	other := types.UID("other")
	if err := client.Delete(ctx, "s", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &other}}); !apierrors.IsConflict(err) {
		t.Errorf("delete with another uid: got %v, want Conflict", err)
	}
	staleRV := "0"
	if err := client.Delete(ctx, "s", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &staleRV}}); !apierrors.IsConflict(err) {
		t.Errorf("delete with another resourceVersion: got %v, want Conflict", err)
	}
	if err := client.Delete(ctx, "s", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &s.UID, ResourceVersion: &s.ResourceVersion}}); err != nil {
		t.Errorf("delete with matching preconditions: %v", err)
	}
	if err := client.Delete(ctx, "s", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &s.UID}}); !apierrors.IsNotFound(err) {
		t.Errorf("delete of a deleted slice: got %v, want NotFound", err)
	}
	if err := client.Delete(ctx, "s", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("delete of a deleted slice without preconditions: got %v, want NotFound", err)
	}
}

func TestCountSliceWrites(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset()
	client := cs.DiscoveryV1().EndpointSlices(ns)
	s, err := client.Create(ctx, newSlice("", "svc-a-"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Update(ctx, s, metav1.UpdateOptions{}); err != nil { // no-op, still a write request
		t.Fatal(err)
	}
	if _, err := client.Patch(ctx, s.Name, types.MergePatchType, []byte(`{"metadata":{"labels":{"a":"b"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(ctx, s.Name, metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.Delete(ctx, s.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"create": 1, "update": 1, "patch": 1, "delete": 1, "delete-collection": 1}
	if diff := cmp.Diff(want, CountSliceWrites(cs)); diff != "" {
		t.Errorf("CountSliceWrites (-want +got):\n%s", diff)
	}
	if n := len(SliceWrites(cs)); n != 5 {
		t.Errorf("SliceWrites: %d, want 5", n)
	}
	if n := len(Writes(cs.Actions(), "pods")); n != 1 {
		t.Errorf("pod writes: %d, want 1", n)
	}
	cs.ClearActions()
	if n := len(SliceWrites(cs)); n != 0 {
		t.Errorf("after ClearActions: %d writes", n)
	}
}

func TestResourceVersionsFollowTheTracker(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset(newSlice("a", ""), newSlice("b", ""), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: ns}})
	client := cs.DiscoveryV1().EndpointSlices(ns)
	list, err := client.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := list.Items[1].ResourceVersion; got != list.ResourceVersion {
		t.Errorf("last seeded slice has resourceVersion %s, list %s", got, list.ResourceVersion)
	}
	if list.Items[0].ResourceVersion == list.Items[1].ResourceVersion {
		t.Errorf("seeded slices share resourceVersion %s", list.Items[0].ResourceVersion)
	}

	// A watch from the list's resourceVersion sees exactly the later writes.
	w, err := client.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	created, err := client.Create(ctx, newSlice("", "svc-a-"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	list2, err := client.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.ResourceVersion != list2.ResourceVersion {
		t.Errorf("created resourceVersion %s, list %s", created.ResourceVersion, list2.ResourceVersion)
	}
	var events []string
	for done := false; !done; {
		select {
		case ev := <-w.ResultChan():
			s := ev.Object.(*discovery.EndpointSlice)
			events = append(events, string(ev.Type)+" "+s.Name+" "+s.ResourceVersion)
		default:
			done = true
		}
	}
	if diff := cmp.Diff([]string{"ADDED " + created.Name + " " + created.ResourceVersion}, events); diff != "" {
		t.Errorf("watch events (-want +got):\n%s", diff)
	}
}

// TestResourceVersionsFollowTheTrackerOverManyWrites: nextRV's remembered
// number (no list per write) stays the tracker's through creates, updates,
// unchanged updates, deletes and failed creates.
func TestResourceVersionsFollowTheTrackerOverManyWrites(t *testing.T) {
	ctx := t.Context()
	cs := NewClientset(newSlice("seed", ""))
	client := cs.DiscoveryV1().EndpointSlices(ns)
	check := func(step string, rv string) {
		t.Helper()
		list, err := client.List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if rv != list.ResourceVersion {
			t.Fatalf("%s: resourceVersion %s, list %s", step, rv, list.ResourceVersion)
		}
	}
	var names []string
	for i := range 20 {
		s, err := client.Create(ctx, newSlice("", "svc-a-"), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("create %d", i), s.ResourceVersion)
		names = append(names, s.Name)
		if i%3 == 0 {
			s.Endpoints[0].Addresses = []string{fmt.Sprintf("10.0.1.%d", i)}
			u, err := client.Update(ctx, s, metav1.UpdateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("update %d", i), u.ResourceVersion)
		}
		if i%4 == 0 && i > 0 {
			if err := client.Delete(ctx, names[i-1], metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if i%5 == 0 {
			if _, err := client.Create(ctx, newSlice(s.Name, ""), metav1.CreateOptions{}); err == nil {
				t.Fatalf("create %d again succeeded", i)
			}
		}
	}
	s, err := client.Create(ctx, newSlice("last", ""), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("last create", s.ResourceVersion)
}
