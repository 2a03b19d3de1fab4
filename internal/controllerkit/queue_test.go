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

package controllerkit

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

func TestHandleErr(t *testing.T) {
	ctx := context.Background()
	q := workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Millisecond))
	defer q.ShutDown()
	r := Retry{RetryMsg: "retrying", DropMsg: "dropping"}
	boom := errors.New("boom")
	for i := range MaxRetries {
		HandleErr(ctx, q, "ns/a", boom, r)
		if got := q.NumRequeues("ns/a"); got != i+1 {
			t.Fatalf("after %d failures NumRequeues = %d, want %d", i+1, got, i+1)
		}
	}
	HandleErr(ctx, q, "ns/a", boom, r) // the budget is spent: dropped
	if got := q.NumRequeues("ns/a"); got != 0 {
		t.Errorf("after MaxRetries+1 failures NumRequeues = %d, want 0 (dropped)", got)
	}
	HandleErr(ctx, q, "ns/b", boom, r)
	HandleErr(ctx, q, "ns/b", nil, r)
	if got := q.NumRequeues("ns/b"); got != 0 {
		t.Errorf("after a success NumRequeues = %d, want 0", got)
	}
}

func TestSyncRateLimiter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		maxBackOff time.Duration
		want       []time.Duration // delays of the first failures, then the bound
	}{
		{"EndpointSlice", MaxSyncBackOff, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 64 * time.Second, 1000 * time.Second}},
		{"mirroring", MirroringMaxSyncBackOff, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 64 * time.Second, 100 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rl := syncRateLimiter(tc.maxBackOff)
			var got []time.Duration
			for i := range 20 {
				d := rl.When("ns/a")
				switch i {
				case 0, 1, 2, 6, 19:
					got = append(got, d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v", got)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("delays %v, want %v", got, tc.want)
					break
				}
			}
			rl.Forget("ns/a")
			if d := rl.When("ns/a"); d != DefaultSyncBackOff {
				t.Errorf("after Forget the delay is %v, want %v", d, DefaultSyncBackOff)
			}
		})
	}
}

func TestRunWorkers(t *testing.T) {
	q := NewSyncQueue("test", nil)
	var started, processed atomic.Int32
	q.Add("ns/a")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- RunWorkers(ctx, "test", []cache.InformerSynced{func() bool { return true }},
			func(context.Context) { started.Add(1) }, q.ShutDown,
			Worker(q, func(_ context.Context, _ string) { processed.Add(1); cancel() }))
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("RunWorkers = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunWorkers did not return after ctx was cancelled")
	}
	if started.Load() != 1 || processed.Load() != 1 || !q.ShuttingDown() {
		t.Errorf("start ran %d times, %d items processed, queue shut down %v; want 1, 1, true", started.Load(), processed.Load(), q.ShuttingDown())
	}

	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if err := RunWorkers(ctx2, "test", []cache.InformerSynced{func() bool { return false }}, nil, func() {}); err == nil {
		t.Error("RunWorkers with caches that never sync and a done ctx = nil, want an error")
	}
}

func TestWorkerCount(t *testing.T) {
	for _, tc := range []struct {
		workers, def, want int
		wantErr            bool
	}{
		{0, 5, 5, false},
		{3, 5, 3, false},
		{-1, 5, 0, true},
		{0, 0, 0, true},
	} {
		got, err := WorkerCount("test", tc.workers, tc.def)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("WorkerCount(%d, %d) = %d, %v; want %d, error %v", tc.workers, tc.def, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestReplicate(t *testing.T) {
	var a, b int
	fns := Replicate(3, func(context.Context) { a++ }, func(context.Context) { b++ })
	for _, f := range fns {
		f(context.Background())
	}
	if len(fns) != 6 || a != 3 || b != 3 {
		t.Errorf("Replicate(3, a, b) gave %d functions calling a %d and b %d times; want 6, 3, 3", len(fns), a, b)
	}
	if got := Replicate(0, func(context.Context) {}); len(got) != 0 {
		t.Errorf("Replicate(0, f) = %d functions, want 0", len(got))
	}
}

func TestSyncAll(t *testing.T) {
	var synced []string
	boom := errors.New("boom")
	err := SyncAll(context.Background(), func() ([]string, error) { return []string{"a", "b", "c"}, nil },
		func(_ context.Context, k string) error {
			synced = append(synced, k)
			if k == "b" {
				return boom
			}
			return nil
		})
	if !errors.Is(err, boom) || len(synced) != 3 {
		t.Errorf("SyncAll synced %v and returned %v; want a, b, c and boom", synced, err)
	}
	if err := SyncAll(context.Background(), func() ([]string, error) { return nil, boom }, nil); !errors.Is(err, boom) {
		t.Errorf("SyncAll with a failing keys = %v, want boom", err)
	}
}

// TestLoopAndRunner runs a Loop under a Runner: a failing item is retried
// until it succeeds, Result sees every outcome, Start runs before the
// workers, and Run returns after ctx ends with the queue shut down.
func TestLoopAndRunner(t *testing.T) {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Millisecond))
	var syncs, failures, successes atomic.Int32
	done := make(chan struct{})
	loop := &Loop[string]{
		Queue: q,
		Sync: func(_ context.Context, key string) error {
			if syncs.Add(1) < 3 {
				return errors.New("not yet")
			}
			close(done)
			return nil
		},
		Result: func(err error) {
			if err != nil {
				failures.Add(1)
			} else {
				successes.Add(1)
			}
		},
		Retry: Retry{RetryMsg: "retrying"},
	}
	var started atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	r := Runner{
		Name:      "test",
		Synced:    []cache.InformerSynced{func() bool { return true }},
		Starting:  "Starting",
		Stopping:  "Stopping",
		Start:     func(context.Context, int) { started.Store(true); q.Add("ns/a") },
		Queues:    []interface{ ShutDown() }{q},
		PerWorker: []func(context.Context){loop.Worker},
	}
	errc := make(chan error, 1)
	go func() { errc <- r.Run(ctx, 2) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the item was not retried until it succeeded")
	}
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("Run: %v", err)
	}
	if !started.Load() || failures.Load() != 2 || successes.Load() != 1 || !q.ShuttingDown() {
		t.Errorf("started %v, failures %d, successes %d, queue shut down %v; want true, 2, 1, true",
			started.Load(), failures.Load(), successes.Load(), q.ShuttingDown())
	}
	if q.NumRequeues("ns/a") != 0 {
		t.Errorf("NumRequeues after the success = %d, want 0 (forgotten)", q.NumRequeues("ns/a"))
	}
	if err := (Runner{Name: "test"}).Run(context.Background(), 0); err == nil {
		t.Error("Run with 0 workers and no default: want an error")
	}
}

func TestSortedKeys(t *testing.T) {
	pods := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "b", Name: "x"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "y"}},
	}
	if got := ObjectKeys(pods); !slices.Equal(got, []string{"b/x", "a/y"}) {
		t.Errorf("ObjectKeys = %v", got)
	}
	if got := SortedKeys(ObjectKeys(pods), []string{"a/y", "a-b/z"}, nil); !slices.Equal(got, []string{"a-b/z", "a/y", "b/x"}) {
		t.Errorf("SortedKeys = %v, want distinct keys sorted as strings", got)
	}
}
