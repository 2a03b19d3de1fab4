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

//go:build linux

package dataplane

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Timeouts of one request (pitfall 2 of docs/dataplane.md: an expected
// failure may show up as a connect timeout, so probes expected to fail use
// a short one).
// On two cores shared with builds, a request that must succeed gets a
// second, so that a failure is a refused or reset connection, not a
// starved scheduler.
const (
	okTimeout   = time.Second
	failTimeout = 50 * time.Millisecond
)

// client sends requests from the client namespace, one connection each, so
// that every request is a new load-balancing decision of kube-proxy.
type client struct {
	ns      string
	timeout time.Duration
	http    *http.Client
}

func (w *world) newClient(timeout time.Duration) *client {
	c := &client{ns: w.client, timeout: timeout}
	c.http = &http.Client{
		Timeout: timeout + 200*time.Millisecond,
		Transport: &http.Transport{
			DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return dialIn(ctx, c.ns, network, addr, timeout)
			},
		},
	}
	return c
}

// get returns the name the answering Pod gave, or an error.
func (c *client) get(ctx context.Context, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d", resp.StatusCode)
	}
	return string(b), nil
}

// sample is the outcome of a batch of requests.
type sample struct {
	answers map[string]int
	fails   int
	lastErr error
}

func (s sample) names() []string { return slices.Sorted(maps.Keys(s.answers)) }

func (s sample) String() string {
	var parts []string
	for _, n := range s.names() {
		parts = append(parts, fmt.Sprintf("%s×%d", n, s.answers[n]))
	}
	if s.fails > 0 {
		parts = append(parts, fmt.Sprintf("failed×%d (%v)", s.fails, s.lastErr))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " ")
}

// sample sends n requests to url, conc at a time.
func (c *client) sample(ctx context.Context, url string, n, conc int) sample {
	var mu sync.Mutex
	s := sample{answers: map[string]int{}}
	var wg sync.WaitGroup
	per := (n + conc - 1) / conc
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				name, err := c.get(ctx, url)
				mu.Lock()
				if err != nil {
					s.fails++
					s.lastErr = err
				} else {
					s.answers[name]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return s
}

// servesExactly waits until requests to url are answered by exactly the
// Pods want (every one of them, no other, no failure) in two batches in a
// row, then checks a larger batch the same way. It returns how long it
// waited, or an error with the last batch.
func (c *client) servesExactly(ctx context.Context, url string, want []string, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	sort.Strings(want)
	good := 0
	var last sample
	for time.Since(start) < timeout {
		last = c.sample(ctx, url, 8*len(want), 4)
		if last.fails == 0 && slices.Equal(last.names(), want) {
			good++
			if good == 2 {
				waited := time.Since(start)
				// Steady state: a larger batch, still exactly want.
				steady := c.sample(ctx, url, 20*len(want), 4)
				if steady.fails != 0 || !slices.Equal(steady.names(), want) {
					return waited, fmt.Errorf("%s: converged to %v, then answered %v", url, want, steady)
				}
				return waited, nil
			}
			continue
		}
		good = 0
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start), fmt.Errorf("%s: want answers from exactly %v within %v, last batch: %v", url, want, timeout, last)
}

// servesNothing waits until every request to url fails in two batches in a
// row.
func (c *client) servesNothing(ctx context.Context, url string, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	good := 0
	var last sample
	for time.Since(start) < timeout {
		last = c.sample(ctx, url, 8, 4)
		if len(last.answers) == 0 {
			good++
			if good == 2 {
				return time.Since(start), nil
			}
			continue
		}
		good = 0
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start), fmt.Errorf("%s: want no answer within %v, last batch: %v", url, timeout, last)
}

// resolvesExactly waits until CoreDNS answers name with exactly the
// addresses want, twice in a row.
func (w *world) resolvesExactly(ctx context.Context, name string, want []string, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	sort.Strings(want)
	good := 0
	var got []string
	var err error
	r := w.resolver()
	for time.Since(start) < timeout {
		lctx, cancel := context.WithTimeout(ctx, time.Second)
		got, err = r.LookupHost(lctx, name)
		cancel()
		sort.Strings(got)
		if err == nil && slices.Equal(got, want) {
			good++
			if good == 2 {
				return time.Since(start), nil
			}
			continue
		}
		good = 0
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return time.Since(start), fmt.Errorf("DNS %s: want %v within %v: %w", name, want, timeout, err)
	}
	return time.Since(start), fmt.Errorf("DNS %s: want %v within %v, got %v", name, want, timeout, got)
}
