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
	"errors"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// hookPacer is a reconciler.Pacer that runs hooks[i] during its i-th
// wait (as if the event arrived while the client's rate limiter had no
// token) and counts the waits.
type hookPacer struct {
	waits int
	hooks map[int]func()
}

func (p *hookPacer) WaitAvailable(context.Context) error {
	p.waits++
	if h := p.hooks[p.waits]; h != nil {
		h()
	}
	return nil
}

// pacerFixture is sixPodFixture with pacer.
func pacerFixture(t *testing.T, pacer *hookPacer) (*dropInFixture, func(i int, at time.Time)) {
	t.Helper()
	return sixPodFixture(t, dropInOptions{Pacer: pacer})
}

// sixPodFixture is the drop-in fixture of the pacer, burst and superseded
// tests, with o and two endpoints per slice: one Service with six ready
// Pods in three slices of two (pod1,pod2 | pod3,pod4 | pod5,pod6), synced
// once, and a function that makes Pod i not ready at a given time and
// delivers the event as the informer would.
func sixPodFixture(t *testing.T, o dropInOptions) (*dropInFixture, func(i int, at time.Time)) {
	t.Helper()
	o.MaxEndpointsPerSlice = 2
	f := newDropInFixture(t, o)
	f.add(newService("web"), newNode("node-1", "zone-a"))
	pods := make([]*corev1.Pod, 6)
	for i := range pods {
		pods[i] = newPod(i+1, "web", true)
		f.add(pods[i])
	}
	podEvent := func(i int, at time.Time) {
		t.Helper()
		old := pods[i]
		cur := old.DeepCopy()
		cur.ResourceVersion = f.nextResourceVersion()
		cur.Status.Conditions[0].Status = corev1.ConditionFalse
		cur.Status.Conditions[0].LastTransitionTime = metav1.NewTime(at)
		pods[i] = cur
		if err := f.podStore.Update(cur); err != nil {
			t.Fatal(err)
		}
		f.c.onPodUpdate(old, cur)
		for f.c.podQueue.Len() > 0 {
			key, _ := f.c.podQueue.Get()
			if err := f.c.syncPod(key); err != nil {
				t.Fatal(err)
			}
			f.c.podQueue.Done(key)
		}
	}
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.ownSlices(testNS, "web")); n != 3 {
		t.Fatalf("%d slices, want 3", n)
	}
	return f, podEvent
}

// notReadyAddresses returns the addresses of the Service's endpoints that
// are not ready.
func notReadyAddresses(f *dropInFixture) map[string]bool {
	out := map[string]bool{}
	for _, s := range f.ownSlices(testNS, "web") {
		for _, ep := range s.Endpoints {
			if !ptr.Deref(ep.Conditions.Ready, true) {
				out[ep.Addresses[0]] = true
			}
		}
	}
	return out
}

// TestPacerPlansAfterTheWait: a sync waits for the client's rate limiter
// before it plans, so a Pod event that arrives during that wait is in
// the plan: two slices written once each, by one sync that is not
// superseded.
func TestPacerPlansAfterTheWait(t *testing.T) {
	const metric = "endpoint_slice_controller_" + SupersededSyncsMetricName
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	pacer := &hookPacer{}
	f, podEvent := pacerFixture(t, pacer)
	podEvent(0, t0)                  // pod1: first slice
	podEvent(2, t0.Add(time.Second)) // pod3: second slice
	pacer.waits = 0
	// pod4 (second slice) flips while the sync waits before planning.
	pacer.hooks = map[int]func(){1: func() { podEvent(3, t0.Add(2*time.Second)) }}
	before := len(f.writes())
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatal(err)
	}
	if got := len(f.writes()) - before; got != 2 {
		t.Errorf("the sync made %d writes, want 2 (pod4's change planned with pod3's)", got)
	}
	if got := f.metric(metric, nil); got != 0 {
		t.Errorf("%s = %v, want 0: the event of the wait is in the plan", metric, got)
	}
	if got := notReadyAddresses(f); len(got) != 3 || !got["10.0.0.2"] || !got["10.0.0.4"] || !got["10.0.0.5"] {
		t.Errorf("not ready: %v, want pod1, pod3 and pod4's addresses", got)
	}
	if pacer.waits != 2 {
		t.Errorf("%d waits, want 2 (before planning, before the second write)", pacer.waits)
	}
}

// TestPacerWaitsBeforeTheSupersededCheck: a Pod event that arrives while
// a later write waits for the client's rate limiter stops the sync before
// that write (the check comes after the wait), so the next sync writes
// that slice once, with the event.
func TestPacerWaitsBeforeTheSupersededCheck(t *testing.T) {
	const metric = "endpoint_slice_controller_" + SupersededSyncsMetricName
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	pacer := &hookPacer{}
	f, podEvent := pacerFixture(t, pacer)
	podEvent(0, t0)                  // pod1: first slice
	podEvent(2, t0.Add(time.Second)) // pod3: second slice
	pacer.waits = 0
	// pod4 (second slice) flips while the second write waits.
	pacer.hooks = map[int]func(){2: func() { podEvent(3, t0.Add(2*time.Second)) }}
	before := len(f.writes())
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatalf("a superseded sync is not an error: %v", err)
	}
	if got := len(f.writes()) - before; got != 1 {
		t.Fatalf("the superseded sync made %d writes, want 1", got)
	}
	if got := f.metric(metric, nil); got != 1 {
		t.Errorf("%s = %v, want 1", metric, got)
	}
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatal(err)
	}
	if got := len(f.writes()) - before; got != 2 {
		t.Errorf("%d writes for the three flips, want 2 (the second slice once)", got)
	}
	if got := notReadyAddresses(f); len(got) != 3 || !got["10.0.0.2"] || !got["10.0.0.4"] || !got["10.0.0.5"] {
		t.Errorf("not ready: %v, want pod1, pod3 and pod4's addresses", got)
	}
}

// errPacer is a reconciler.Pacer whose wait fails, as when the context
// ends.
type errPacer struct{ fail bool }

func (p *errPacer) WaitAvailable(context.Context) error {
	if p.fail {
		return context.Canceled
	}
	return nil
}

// TestPacerErrorLeavesTheEventsPending: when the wait before planning
// fails, the sync returns the error and writes nothing, and the events
// stay for the next sync.
func TestPacerErrorLeavesTheEventsPending(t *testing.T) {
	pacer := &errPacer{}
	f := newDropInFixture(t, dropInOptions{MaxEndpointsPerSlice: 2, Pacer: pacer})
	f.add(newService("web"), newNode("node-1", "zone-a"))
	pod := newPod(1, "web", true)
	f.add(pod)
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatal(err)
	}
	cur := pod.DeepCopy()
	cur.ResourceVersion = f.nextResourceVersion()
	cur.Status.Conditions[0].Status = corev1.ConditionFalse
	if err := f.podStore.Update(cur); err != nil {
		t.Fatal(err)
	}
	f.c.onPodUpdate(pod, cur)
	for f.c.podQueue.Len() > 0 {
		key, _ := f.c.podQueue.Get()
		if err := f.c.syncPod(key); err != nil {
			t.Fatal(err)
		}
		f.c.podQueue.Done(key)
	}
	pacer.fail = true
	before := len(f.writes())
	if err := f.sync(testNS, "web"); !errors.Is(err, context.Canceled) {
		t.Fatalf("sync = %v, want the pacer's error", err)
	}
	if got := len(f.writes()) - before; got != 0 {
		t.Fatalf("%d writes after a failed wait, want 0", got)
	}
	pacer.fail = false
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatal(err)
	}
	if got := notReadyAddresses(f); len(got) != 1 {
		t.Errorf("not ready: %v, want the Pod's address: its event stayed pending", got)
	}
}
