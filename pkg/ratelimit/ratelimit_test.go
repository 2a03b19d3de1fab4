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

package ratelimit

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"k8s.io/client-go/util/flowcontrol"
	clocktesting "k8s.io/utils/clock/testing"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestNeverMoreThanBurstPlusQPSTimesT: a caller that takes every token
// it can, polling at a fixed step, gets at most burst + qps*t requests
// through in t, at every point of the run; and, being greedy, at least
// 90% of that by the end (the test reaches the limit).
func TestNeverMoreThanBurstPlusQPSTimesT(t *testing.T) {
	cases := []struct {
		name     string
		qps      float32
		burst    int
		step     time.Duration
		duration time.Duration
	}{
		{"KCM's 20/30, polled every ms", 20, 30, time.Millisecond, 10 * time.Second},
		{"KCM's 20/30, polled every 120ms", 20, 30, 120 * time.Millisecond, 10 * time.Second},
		{"burst 1", 5, 1, 7 * time.Millisecond, 5 * time.Second},
		{"fractional qps", 0.5, 3, 100 * time.Millisecond, 20 * time.Second},
		{"high qps", 1000, 10, 250 * time.Microsecond, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := NewTokenBucket(tc.qps, tc.burst)
			accepted := 0
			for now := t0; !now.After(t0.Add(tc.duration)); now = now.Add(tc.step) {
				for b.tryAcceptAt(now) {
					accepted++
				}
				elapsed := now.Sub(t0).Seconds()
				limit := float64(tc.burst) + float64(tc.qps)*elapsed
				if float64(accepted) > limit+1e-9 {
					t.Fatalf("at %v: %d accepted, more than burst + qps*t = %.3f", now.Sub(t0), accepted, limit)
				}
			}
			if limit := float64(tc.burst) + float64(tc.qps)*tc.duration.Seconds(); float64(accepted) < 0.9*limit {
				t.Errorf("%d accepted in %v, less than 90%% of burst + qps*t = %.1f", accepted, tc.duration, limit)
			}
		})
	}
}

// TestSameDecisionsAsClientGo: TryAccept decides as client-go's token
// bucket with the same qps and burst, on the same random request times.
func TestSameDecisionsAsClientGo(t *testing.T) {
	for _, qb := range []struct {
		qps   float32
		burst int
	}{{20, 30}, {5, 10}, {1, 1}, {100, 1}} {
		rng := rand.New(rand.NewPCG(uint64(qb.qps), uint64(qb.burst)))
		clock := clocktesting.NewFakePassiveClock(t0)
		theirs := flowcontrol.NewTokenBucketPassiveRateLimiterWithClock(qb.qps, qb.burst, clock)
		ours := NewTokenBucket(qb.qps, qb.burst)
		now := t0
		agreed := 0
		for i := range 5000 {
			now = now.Add(time.Duration(rng.ExpFloat64() * float64(time.Second) / float64(2*qb.qps)))
			clock.SetTime(now)
			want := theirs.TryAccept()
			if got := ours.tryAcceptAt(now); got != want {
				t.Fatalf("qps %v burst %d, request %d at %v: accepted %v, client-go %v", qb.qps, qb.burst, i, now.Sub(t0), got, want)
			}
			if want {
				agreed++
			}
		}
		if agreed == 0 || agreed == 5000 {
			t.Fatalf("qps %v burst %d: %d of 5000 accepted; the test does not reach the limit", qb.qps, qb.burst, agreed)
		}
		if ours.QPS() != qb.qps {
			t.Errorf("QPS() = %v, want %v", ours.QPS(), qb.qps)
		}
	}
}

// TestAvailableAfter: the delay until a token is available, from the
// bucket's state at explicit times, and that looking takes no token.
func TestAvailableAfter(t *testing.T) {
	cases := []struct {
		name   string
		qps    float32
		burst  int
		taken  int           // tokens taken at t0
		at     time.Duration // asked at t0+at
		want   time.Duration
		wantOK bool
	}{
		{"full bucket", 20, 30, 0, 0, 0, true},
		{"one token left", 20, 30, 29, 0, 0, true},
		{"empty bucket: one refill", 20, 30, 30, 0, 50 * time.Millisecond, true},
		{"empty bucket, 20ms later", 20, 30, 30, 20 * time.Millisecond, 30 * time.Millisecond, true},
		{"empty bucket, refilled", 20, 30, 30, 50 * time.Millisecond, 0, true},
		{"slow refill", 0.5, 1, 1, 0, 2 * time.Second, true},
		{"burst 0", 20, 0, 0, 0, 0, false},
		{"no refill, bucket left", 0, 2, 1, 0, 0, true},
		{"no refill, bucket empty", 0, 2, 2, 0, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := NewTokenBucket(tc.qps, tc.burst)
			for range tc.taken {
				if !b.tryAcceptAt(t0) {
					t.Fatal("could not take the tokens to start with")
				}
			}
			for range 3 { // looking twice changes nothing
				d, ok := b.availableAfter(t0.Add(tc.at))
				if ok != tc.wantOK || (ok && d != tc.want) {
					t.Fatalf("availableAfter = %v, %v; want %v, %v", d, ok, tc.want, tc.wantOK)
				}
			}
			if tc.wantOK {
				// A token is there at the time announced, not before.
				at := t0.Add(tc.at + tc.want)
				if tc.want > 0 && b.limiter.TokensAt(at.Add(-time.Microsecond)) >= 1 {
					t.Errorf("a token is available before the delay announced")
				}
				if !b.tryAcceptAt(at) {
					t.Errorf("no token at the time announced")
				}
			}
		})
	}
}

// TestAvailableAfterCountsReservations: tokens promised to callers
// blocked in Wait or Accept (a negative balance) are not available.
func TestAvailableAfterCountsReservations(t *testing.T) {
	b := NewTokenBucket(20, 1)
	b.limiter.ReserveN(t0, 1) // the burst
	b.limiter.ReserveN(t0, 1) // a caller waiting 50ms
	b.limiter.ReserveN(t0, 1) // a caller waiting 100ms
	d, ok := b.availableAfter(t0)
	if want := 150 * time.Millisecond; !ok || d != want {
		t.Fatalf("availableAfter = %v, %v; want %v after the two waiting callers", d, ok, want)
	}
}

// TestWaitAvailable: WaitAvailable returns at once when a token is
// available and takes none; it waits for the refill when the bucket is
// empty; it returns the context's error when the context ends first, and
// ErrNeverAvailable when no token can come. No wall-clock duration is
// asserted.
func TestWaitAvailable(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		qps     float32
		burst   int
		drain   bool // take every token first
		ctx     func() (context.Context, context.CancelFunc)
		wantErr error
	}{
		{"token available", 1, 2, false, background, nil},
		{"refills", 1000, 1, true, background, nil},
		{"context ends first", 0.001, 1, true, timeout(10 * time.Millisecond), context.DeadlineExceeded},
		{"context already done", 1000, 1, false, func() (context.Context, context.CancelFunc) { return cancelled, func() {} }, context.Canceled},
		{"burst 0", 1000, 0, false, background, ErrNeverAvailable},
		{"no refill, empty", 0, 1, true, background, ErrNeverAvailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := NewTokenBucket(tc.qps, tc.burst)
			if tc.drain {
				for b.TryAccept() {
				}
			}
			ctx, cancel := tc.ctx()
			defer cancel()
			start := b.limiter.Tokens()
			err := b.WaitAvailable(ctx)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("WaitAvailable = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil {
				return
			}
			// It took nothing: the bucket holds at least one token and
			// no fewer than before (time only adds tokens), all there to
			// take.
			after := b.limiter.Tokens()
			if after < 1 || after < start {
				t.Fatalf("WaitAvailable returned with %.3f tokens, %.3f before", after, start)
			}
			for i := range int(math.Floor(after)) {
				if !b.TryAccept() {
					t.Fatalf("token %d of %.3f could not be taken after WaitAvailable", i+1, after)
				}
			}
		})
	}
}

func background() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}

func timeout(d time.Duration) func() (context.Context, context.CancelFunc) {
	return func() (context.Context, context.CancelFunc) { return context.WithTimeout(context.Background(), d) }
}

// TestWaitAndAccept: Wait and Accept take a token each, as client-go's;
// Wait fails at once on a done context and takes nothing.
func TestWaitAndAccept(t *testing.T) {
	b := NewTokenBucket(1000, 2)
	b.Accept()
	if err := b.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := b.limiter.Tokens(); got >= 1 {
		t.Errorf("%.3f tokens left after Accept and Wait from a bucket of 2, want < 1", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b = NewTokenBucket(1, 1)
	if err := b.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait on a done context = %v, want context.Canceled", err)
	}
	if !b.TryAccept() {
		t.Error("a failed Wait took the token")
	}
	b.Stop()
}
