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

// Package ratelimit provides the API client's rate limiter: client-go's
// token bucket (flowcontrol.NewTokenBucketRateLimiter: qps tokens per
// second, at most burst stored, the bucket full at the start) that can
// also tell when a token is available without taking it.
//
// A controller whose writes wait for the client's rate limiter plans each
// write before that wait, so the events that arrive during the wait are
// written by a later plan (a second write of the same slice). With
// TokenBucket.WaitAvailable it can wait first and plan afterwards, so
// that the write it plans goes out at once with what is known then
// (pkg/reconciler's Pacer, used by the EndpointSlice controller; the
// manager builds its main client with a TokenBucket).
package ratelimit

import (
	"context"
	"errors"
	"math"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/client-go/util/flowcontrol"
)

// TokenBucket is a flowcontrol.RateLimiter with the semantics of
// client-go's flowcontrol.NewTokenBucketRateLimiter, plus WaitAvailable.
// It is safe for concurrent use; set it as rest.Config.RateLimiter.
type TokenBucket struct {
	limiter *rate.Limiter
	qps     float32
}

var _ flowcontrol.RateLimiter = (*TokenBucket)(nil)

// NewTokenBucket returns a token bucket that refills at qps tokens per
// second up to burst tokens and starts full, as
// flowcontrol.NewTokenBucketRateLimiter(qps, burst). Like it, it does not
// validate: with burst < 1 no request is ever let through, and with
// qps <= 0 only the first burst requests are.
func NewTokenBucket(qps float32, burst int) *TokenBucket {
	return &TokenBucket{limiter: rate.NewLimiter(rate.Limit(qps), burst), qps: qps}
}

// TryAccept takes a token and returns true when one is available now;
// otherwise it returns false and takes nothing.
func (b *TokenBucket) TryAccept() bool { return b.tryAcceptAt(time.Now()) }

// Accept takes a token, blocking until it is available (client-go
// reserves the token at once, so requests are served in call order).
func (b *TokenBucket) Accept() {
	now := time.Now()
	time.Sleep(b.limiter.ReserveN(now, 1).DelayFrom(now))
}

// Wait takes a token, blocking until it is available. It returns the
// context's error when ctx ends first (or is already done), and an error
// at once when the wait would outlast ctx's deadline or burst is below 1
// (rate.Limiter.Wait).
func (b *TokenBucket) Wait(ctx context.Context) error { return b.limiter.Wait(ctx) }

// Stop does nothing (client-go's token bucket has nothing to stop).
func (b *TokenBucket) Stop() {}

// QPS returns the refill rate in tokens (requests) per second.
func (b *TokenBucket) QPS() float32 { return b.qps }

// ErrNeverAvailable is returned by WaitAvailable when no token can ever
// become available: burst is below 1, or qps is not positive and the
// bucket is empty.
var ErrNeverAvailable = errors.New("ratelimit: no token can ever become available (burst < 1, or qps <= 0 and the bucket is empty)")

// WaitAvailable blocks until at least one token is available, without
// taking it: a Wait, Accept or TryAccept right after it takes a token at
// once unless another caller took it in between. Tokens already promised
// to callers blocked in Wait or Accept are not available, so it waits for
// them to be served first. It returns nil when a token is available,
// ctx.Err() when ctx is done before (or already), and ErrNeverAvailable
// at once when no token can ever become available.
func (b *TokenBucket) WaitAvailable(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for {
		d, ok := b.availableAfter(time.Now())
		if !ok {
			return ErrNeverAvailable
		}
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
			// Another caller may have taken the token meanwhile: look
			// again.
		}
	}
}

// tryAcceptAt is TryAccept at time now.
func (b *TokenBucket) tryAcceptAt(now time.Time) bool { return b.limiter.AllowN(now, 1) }

// availableAfter returns how long after now a token is available (0 or
// less: at now), or false when none ever will be. The delay is rounded
// up to the nanosecond, so that a caller that sleeps it finds the token.
func (b *TokenBucket) availableAfter(now time.Time) (time.Duration, bool) {
	limit := b.limiter.Limit()
	if limit == rate.Inf {
		return 0, true
	}
	if b.limiter.Burst() < 1 {
		return 0, false
	}
	missing := 1 - b.limiter.TokensAt(now)
	if missing <= 0 {
		return 0, true
	}
	if limit <= 0 {
		return 0, false
	}
	secs := missing / float64(limit)
	if secs >= float64(math.MaxInt64/int64(time.Second)) {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(math.Ceil(secs * float64(time.Second))), true
}
