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

package manager

import (
	"testing"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"

	"github.com/slicekit/slicekit/pkg/ratelimit"
)

// rateLimiterOf returns the rate limiter of a client New built.
func rateLimiterOf(t *testing.T, c kubernetes.Interface) flowcontrol.RateLimiter {
	t.Helper()
	cs, ok := c.(*kubernetes.Clientset)
	if !ok {
		t.Fatalf("client is a %T", c)
	}
	return cs.DiscoveryV1().RESTClient().GetRateLimiter()
}

// TestMainClientRateLimiterIsThePacer: the main client's rate limiter is a
// ratelimit.TokenBucket with the --kube-api-qps and --kube-api-burst
// values, and it is the pacer the controllers get; the preflight and
// leader election clients have limiters of their own. A rate limiter
// RESTConfig brings is kept for every client, and is the pacer only when
// it can be one.
func TestMainClientRateLimiterIsThePacer(t *testing.T) {
	own := ratelimit.NewTokenBucket(7, 3)
	cases := []struct {
		name      string
		limiter   flowcontrol.RateLimiter // RESTConfig's
		wantPacer bool
	}{
		{"slicekit's token bucket", nil, true},
		{"RESTConfig's limiter that cannot tell", flowcontrol.NewFakeAlwaysRateLimiter(), false},
		{"RESTConfig's token bucket", own, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOptions()
			o.RESTConfig = &rest.Config{Host: "http://127.0.0.1:1", RateLimiter: tc.limiter}
			o.MetricsBindAddress = DisabledBindAddress
			o.HealthProbeBindAddress = DisabledBindAddress
			o.LeaderElection.LeaderElect = true
			o.LeaderElection.ResourceNamespace = "default"
			m, err := New(t.Context(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			mainLimiter := rateLimiterOf(t, m.client)
			if (m.pacer != nil) != tc.wantPacer {
				t.Fatalf("pacer %v, want one: %v", m.pacer, tc.wantPacer)
			}
			if m.pacer != nil && any(m.pacer) != any(mainLimiter) {
				t.Errorf("the pacer (%p) is not the main client's rate limiter (%p)", m.pacer, mainLimiter)
			}
			if tc.limiter != nil {
				if mainLimiter != tc.limiter {
					t.Errorf("main client's limiter %T, want RESTConfig's", mainLimiter)
				}
				for name, c := range map[string]kubernetes.Interface{"preflight": m.preflightClient, "leader election": m.leaseClient} {
					if rateLimiterOf(t, c) != tc.limiter {
						t.Errorf("%s client's limiter is not RESTConfig's", name)
					}
				}
				return
			}
			tb, ok := mainLimiter.(*ratelimit.TokenBucket)
			if !ok || tb.QPS() != DefaultKubeAPIQPS {
				t.Fatalf("main client's limiter %T (QPS %v), want a ratelimit.TokenBucket of QPS %v", mainLimiter, mainLimiter.QPS(), DefaultKubeAPIQPS)
			}
			// The bucket holds the burst: exactly that many requests pass at once.
			n := 0
			for tb.TryAccept() {
				n++
			}
			if n != int(DefaultKubeAPIBurst) {
				t.Errorf("the bucket let %d requests through at once, want the burst %d", n, DefaultKubeAPIBurst)
			}
			for name, c := range map[string]kubernetes.Interface{"preflight": m.preflightClient, "leader election": m.leaseClient} {
				if l := rateLimiterOf(t, c); l == nil || l == mainLimiter {
					t.Errorf("%s client's limiter %v, want one of its own", name, l)
				}
			}
		})
	}
}
