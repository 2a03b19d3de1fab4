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

	"k8s.io/klog/v2/ktesting"
)

// TestBurstIsPlannedTogether: with two Pods pending, a sync waits for the
// burst to pause, so a third Pod event that arrives meanwhile is in the
// same plan: the second slice (pod3 and pod4) is written once, not twice.
// Without the burst quiet period the sync would plan pod1 and pod3 at once
// and write the second slice again for pod4.
func TestBurstIsPlannedTogether(t *testing.T) {
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	f, podEvent := sixPodFixture(t, dropInOptions{BurstQuietPeriod: 500 * time.Millisecond})
	podEvent(0, t0)                  // pod1: first slice
	podEvent(2, t0.Add(time.Second)) // pod3: second slice
	before := len(f.writes())
	done := make(chan error, 1)
	go func() { done <- f.sync(testNS, "web") }()
	// pod4 (second slice) flips while the sync waits: well inside the quiet
	// period, and long after a sync that did not wait would have planned.
	time.Sleep(100 * time.Millisecond)
	podEvent(3, t0.Add(2*time.Second))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := len(f.writes()) - before; got != 2 {
		t.Errorf("the sync made %d writes, want 2 (pod4's change planned with pod3's)", got)
	}
	if got := notReadyAddresses(f); len(got) != 3 || !got["10.0.0.2"] || !got["10.0.0.4"] || !got["10.0.0.5"] {
		t.Errorf("not ready: %v, want pod1, pod3 and pod4's addresses", got)
	}
}

// TestBurstQuietPeriodSparesOneFlip: a single pending Pod is planned at
// once, however long the quiet period (an hour here: a wait would end
// only with the context).
func TestBurstQuietPeriodSparesOneFlip(t *testing.T) {
	f, podEvent := sixPodFixture(t, dropInOptions{BurstQuietPeriod: time.Hour})
	podEvent(0, time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	before := len(f.writes())
	if err := f.c.SyncService(ctx, testNS+"/web"); err != nil {
		t.Fatalf("one flip was not planned at once: %v", err)
	}
	if got := len(f.writes()) - before; got != 1 {
		t.Errorf("%d writes, want 1", got)
	}
}

// TestBurstWaitEndsWithTheContext: a sync waiting for a burst to pause
// returns the context's error and writes nothing; the events stay pending
// for the next sync.
func TestBurstWaitEndsWithTheContext(t *testing.T) {
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	f, podEvent := sixPodFixture(t, dropInOptions{BurstQuietPeriod: time.Hour})
	podEvent(0, t0)
	podEvent(2, t0.Add(time.Second))
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	before := len(f.writes())
	if err := f.c.SyncService(ctx, testNS+"/web"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("SyncService = %v, want the context's error", err)
	}
	if got := len(f.writes()) - before; got != 0 {
		t.Errorf("%d writes while waiting, want 0", got)
	}
	if got := f.c.indexes.get(testNS+"/web").BurstWait(time.Now(), time.Hour); got <= 0 {
		t.Errorf("the events are no longer pending (BurstWait = %v)", got)
	}
}
