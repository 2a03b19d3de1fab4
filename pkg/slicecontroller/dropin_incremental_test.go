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
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/serviceindex"
)

// TestIncrementalSyncPaths drives the drop-in (servicepods.Source, an
// IncrementalSource) through the events that keep its per-Service index and
// checks, by <subsystem>_syncs_by_path_total, which syncs planned
// incrementally and which fell back to the full planner, and that the
// slices follow the Pods either way.
func TestIncrementalSyncPaths(t *testing.T) {
	const metric = "endpoint_slice_controller_" + SyncsByPathMetricName
	f := newDropInFixture(t, dropInOptions{})
	if f.c.indexes == nil {
		t.Fatal("the drop-in's servicepods.Source is not handled as an IncrementalSource")
	}
	svc := newService("web")
	node := newNode("node-1", "zone-a")
	pods := []*corev1.Pod{newPod(1, "web", true), newPod(2, "web", true), newPod(3, "web", false)}
	f.add(svc, node)
	for _, p := range pods {
		f.add(p)
	}

	// ready returns the ready condition of each endpoint by address.
	ready := func() map[string]bool {
		t.Helper()
		out := map[string]bool{}
		for _, s := range f.ownSlices(testNS, "web") {
			for _, ep := range s.Endpoints {
				out[ep.Addresses[0]] = ptr.Deref(ep.Conditions.Ready, false)
			}
		}
		return out
	}
	zones := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, s := range f.ownSlices(testNS, "web") {
			for _, ep := range s.Endpoints {
				out[ep.Addresses[0]] = ptr.Deref(ep.Zone, "")
			}
		}
		return out
	}
	// podEvent updates the Pod cache and runs the Pod handler and the Pod
	// queue's worker, as the informer would; it returns the Services the
	// worker queued.
	podEvent := func(old, cur *corev1.Pod) []string {
		t.Helper()
		if err := f.podStore.Update(cur); err != nil {
			t.Fatal(err)
		}
		q := f.spyServiceQueue()
		f.c.onPodUpdate(old, cur)
		for f.c.podQueue.Len() > 0 {
			key, _ := f.c.podQueue.Get()
			if err := f.c.syncPod(key); err != nil {
				t.Fatal(err)
			}
			f.c.podQueue.Done(key)
		}
		var keys []string
		for _, c := range q.take() {
			keys = append(keys, c.key)
		}
		return keys
	}
	mustSync := func() {
		t.Helper()
		if err := f.sync(testNS, "web"); err != nil {
			t.Fatal(err)
		}
	}
	paths := func(want map[string]float64) {
		t.Helper()
		for path, n := range want {
			if got := f.metric(metric, map[string]string{"path": path}); got != n {
				t.Errorf("%s{path=%q} = %v, want %v", metric, path, got, n)
			}
		}
	}

	mustSync()
	paths(map[string]float64{serviceindex.RebuildFirstSync: 1, SyncPathIncremental: 0})
	if got := ready(); len(got) != 3 || !got["10.0.0.2"] || got["10.0.0.4"] {
		t.Fatalf("after the first sync: %v", got)
	}

	// A readiness flip: incremental.
	flipped := pods[0].DeepCopy()
	flipped.ResourceVersion = "2"
	flipped.Status.Conditions[0].Status = corev1.ConditionFalse
	if got := podEvent(pods[0], flipped); len(got) != 1 || got[0] != testNS+"/web" {
		t.Fatalf("readiness flip queued %v", got)
	}
	mustSync()
	paths(map[string]float64{SyncPathIncremental: 1})
	if got := ready(); got["10.0.0.2"] {
		t.Errorf("readiness flip not written incrementally: %v", got)
	}

	// A change KCM does not sync for (the phase of a not-ready Pod) queues
	// nothing, but the next sync reads it, as the full path reads every Pod.
	failed := pods[2].DeepCopy()
	failed.ResourceVersion = "2"
	failed.Status.Phase = corev1.PodFailed
	if got := podEvent(pods[2], failed); len(got) != 0 {
		t.Errorf("a phase change queued %v", got)
	}
	flipped2 := pods[1].DeepCopy()
	flipped2.ResourceVersion = "2"
	flipped2.Status.Conditions[0].Status = corev1.ConditionFalse
	podEvent(pods[1], flipped2)
	mustSync()
	paths(map[string]float64{SyncPathIncremental: 2})
	if got := ready(); len(got) != 2 || got["10.0.0.3"] {
		t.Errorf("after a phase change and a flip: %v, want the failed Pod gone and 10.0.0.3 not ready", got)
	}

	// A Node's zone label changes: the full planner, with the new zone.
	rezoned := newNode("node-1", "zone-b")
	if err := f.nodeStore.Update(rezoned); err != nil {
		t.Fatal(err)
	}
	f.c.indexes.onNodeEvent(node, rezoned)
	mustSync()
	paths(map[string]float64{InvalidateNodeChanged: 1, SyncPathIncremental: 2})
	if got := zones(); got["10.0.0.2"] != "zone-b" {
		t.Errorf("zones after the Node change: %v", got)
	}
	// A Node update that leaves the zone alone keeps the index.
	relabelled := rezoned.DeepCopy()
	relabelled.Labels["other"] = "x"
	f.c.indexes.onNodeEvent(rezoned, relabelled)
	mustSync()
	paths(map[string]float64{InvalidateNodeChanged: 1, SyncPathIncremental: 3})

	// The Service changes (new resourceVersion): the full planner.
	svc2 := svc.DeepCopy()
	svc2.ResourceVersion = "2"
	svc2.Spec.PublishNotReadyAddresses = true
	if err := f.serviceStore.Update(svc2); err != nil {
		t.Fatal(err)
	}
	f.c.onServiceEvent(svc, svc2)
	mustSync()
	paths(map[string]float64{serviceindex.RebuildServiceChanged: 1})
	if got := ready(); !got["10.0.0.2"] || !got["10.0.0.3"] {
		t.Errorf("publishNotReadyAddresses not written: %v", got)
	}

	// A periodic resync of the Service: the full planner.
	f.c.onServiceEvent(svc2, svc2)
	mustSync()
	paths(map[string]float64{InvalidateResync: 1, SyncPathIncremental: 3})

	// A Pod deleted: incremental.
	if err := f.podStore.Delete(flipped); err != nil {
		t.Fatal(err)
	}
	f.c.onPodUpdate(flipped, nil)
	key, _ := f.c.podQueue.Get()
	if err := f.c.syncPod(key); err != nil {
		t.Fatal(err)
	}
	f.c.podQueue.Done(key)
	mustSync()
	paths(map[string]float64{SyncPathIncremental: 4})
	if got := ready(); len(got) != 1 {
		t.Errorf("after deleting a Pod: %v", got)
	}
	var eps int
	for _, s := range f.ownSlices(testNS, "web") {
		if s.AddressType != discovery.AddressTypeIPv4 {
			t.Errorf("slice %s of address type %s", s.Name, s.AddressType)
		}
		eps += len(s.Endpoints)
	}
	if eps != 1 {
		t.Errorf("%d endpoints, want 1", eps)
	}

	// SyncAll (render) uses the full planner.
	_, ctx := ktesting.NewTestContext(t)
	if err := f.c.SyncAll(ctx); err != nil {
		t.Fatal(err)
	}
	paths(map[string]float64{InvalidateSyncAll: 1, SyncPathIncremental: 4})

	// A deleted Service drops its index.
	if err := f.serviceStore.Delete(svc2); err != nil {
		t.Fatal(err)
	}
	mustSync()
	if f.c.indexes.lookup(testNS+"/web") != nil {
		t.Error("the index of a deleted Service was kept")
	}
}
