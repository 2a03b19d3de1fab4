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
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// flips is the number of readiness flips per controller for the latency
// figures (SLICEKIT_DATAPLANE_FLIPS, default 5; `make bench-dataplane`
// uses more).
func flips() int {
	if n, err := strconv.Atoi(os.Getenv("SLICEKIT_DATAPLANE_FLIPS")); err == nil && n > 0 {
		return n
	}
	return 5
}

// latencies are, per flip, status write → traffic change durations (out:
// not ready, in: ready again) and status write → EndpointSlice seen on a
// watch (the controller's share).
type latencies struct {
	out, in, sliceOut, sliceIn []time.Duration
	// writes is the number of writes to the Service's slices (watch
	// events) during the flips.
	writes int
}

// sliceSeen records when a watch on Service svc's EndpointSlices showed
// Pod pod's ready condition, each time it changed.
type sliceSeen struct {
	mu     sync.Mutex
	writes int // every event: slice writes
	events []readyAt
	cancel context.CancelFunc
}

type readyAt struct {
	at    time.Time
	ready bool
}

func watchReady(t *testing.T, f *fixture, svc, pod string) *sliceSeen {
	ctx, cancel := context.WithCancel(context.Background())
	ss := &sliceSeen{cancel: cancel}
	wi, err := f.w.env.Client.DiscoveryV1().EndpointSlices(f.ns).Watch(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + svc})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer wi.Stop()
		for ev := range wi.ResultChan() {
			s, ok := ev.Object.(*discovery.EndpointSlice)
			if !ok {
				continue
			}
			ss.mu.Lock()
			ss.writes++
			ss.mu.Unlock()
			for _, e := range s.Endpoints {
				if e.TargetRef != nil && e.TargetRef.Name == pod {
					ss.mu.Lock()
					ss.events = append(ss.events, readyAt{time.Now(), e.Conditions.Ready == nil || *e.Conditions.Ready})
					ss.mu.Unlock()
				}
			}
		}
	}()
	return ss
}

// after returns how long after t0 the watch first showed ready.
func (ss *sliceSeen) after(t0 time.Time, ready bool) (time.Duration, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, e := range ss.events {
		if !e.at.Before(t0) && e.ready == ready {
			return e.at.Sub(t0), true
		}
	}
	return 0, false
}

// answer is one request's start time and the Pod that answered.
type answer struct {
	at   time.Time
	name string
}

// probe records every answer of requests to url from loops loops.
type probe struct {
	mu      sync.Mutex
	answers []answer
	stop    chan struct{}
	wg      sync.WaitGroup
}

func startProbe(c *client, url string, loops int) *probe {
	p := &probe{stop: make(chan struct{})}
	for range loops {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for {
				select {
				case <-p.stop:
					return
				default:
				}
				at := time.Now()
				name, err := c.get(context.Background(), url)
				if err != nil {
					continue
				}
				p.mu.Lock()
				p.answers = append(p.answers, answer{at, name})
				p.mu.Unlock()
			}
		}()
	}
	return p
}

func (p *probe) finish() []answer {
	close(p.stop)
	p.wg.Wait()
	slices.SortFunc(p.answers, func(a, b answer) int { return a.at.Compare(b.at) })
	return p.answers
}

// goneAfter returns when traffic stopped reaching pod after t0: the start
// of the first request after its last answer, provided at least n answers
// without it follow.
func goneAfter(answers []answer, pod string, t0 time.Time, n int) (time.Duration, bool) {
	last := -1
	for i, a := range answers {
		if a.name == pod {
			last = i
		}
	}
	if len(answers)-last-1 < n {
		return 0, false
	}
	d := answers[last+1].at.Sub(t0)
	return max(d, 0), true
}

// backAfter returns when traffic first reached pod after t0.
func backAfter(answers []answer, pod string, t0 time.Time) (time.Duration, bool) {
	for _, a := range answers {
		if a.name == pod && !a.at.Before(t0) {
			return a.at.Sub(t0), true
		}
	}
	return 0, false
}

// measureFlips flips Pod flip-1 of f not ready and back n times and returns,
// per flip, how long after the status write traffic stopped reaching it and
// reached it again (through kube-proxy, as a client sees it). Pitfalls 3
// and 4 of docs/dataplane.md: a pause over kube-proxy's minSyncPeriod
// before each change; several request loops, and "gone" means 40 answers
// in a row without the Pod.
func measureFlips(t *testing.T, f *fixture, n int) latencies {
	ctx := context.Background()
	c := f.w.newClient(okTimeout)
	var lat latencies
	if _, err := c.servesExactly(ctx, f.url("flip"), []string{"flip-1", "flip-2", "flip-3"}, convergeTimeout); err != nil {
		t.Errorf("latency: %v", err)
		return lat
	}
	seen := watchReady(t, f, "flip", "flip-1")
	defer seen.cancel()
	wait := func(p *probe, done func([]answer) bool) []answer {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			p.mu.Lock()
			snap := slices.Clone(p.answers)
			p.mu.Unlock()
			slices.SortFunc(snap, func(a, b answer) int { return a.at.Compare(b.at) })
			if done(snap) {
				break
			}
		}
		return p.finish()
	}
	for range n {
		time.Sleep(1200 * time.Millisecond)
		p := startProbe(c, f.url("flip"), 4)
		time.Sleep(100 * time.Millisecond)
		t0 := time.Now()
		if err := f.setReady(ctx, "flip-1", false); err != nil {
			t.Fatal(err)
		}
		answers := wait(p, func(a []answer) bool { _, ok := goneAfter(a, "flip-1", t0, 40); return ok })
		if d, ok := seen.after(t0, false); ok {
			lat.sliceOut = append(lat.sliceOut, d)
		}
		d, ok := goneAfter(answers, "flip-1", t0, 40)
		if !ok {
			t.Errorf("latency: flip-1 still answered 10s after it was set not ready")
		} else {
			lat.out = append(lat.out, d)
		}

		time.Sleep(1200 * time.Millisecond)
		p = startProbe(c, f.url("flip"), 4)
		time.Sleep(100 * time.Millisecond)
		t0 = time.Now()
		if err := f.setReady(ctx, "flip-1", true); err != nil {
			t.Fatal(err)
		}
		answers = wait(p, func(a []answer) bool { _, ok := backAfter(a, "flip-1", t0); return ok })
		if d, ok := seen.after(t0, true); ok {
			lat.sliceIn = append(lat.sliceIn, d)
		}
		d, ok = backAfter(answers, "flip-1", t0)
		if !ok {
			t.Errorf("latency: flip-1 answered nothing 10s after it was set ready")
		} else {
			lat.in = append(lat.in, d)
		}
	}
	time.Sleep(200 * time.Millisecond) // late writes
	seen.mu.Lock()
	lat.writes = seen.writes
	seen.mu.Unlock()
	return lat
}

// quantile returns the q-quantile (nearest rank) of ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func ratio(a, b time.Duration) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// reportLatency logs, and appends to $SLICEKIT_DATAPLANE_REPORT, the flip
// → traffic change p50/p99 of KCM and slicekit side by side, and their
// ratio (slicekit / KCM; below 1 is faster).
func reportLatency(t *testing.T, mode string, kcm, sk latencies) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n| kube-proxy %s | flips | KCM p50 ms | KCM p99 ms | slicekit p50 ms | slicekit p99 ms | p50 ratio | p99 ratio |\n|---|---|---|---|---|---|---|---|\n", mode)
	for _, r := range []struct {
		name string
		k, s []time.Duration
	}{
		{"not ready → slice on a watch", kcm.sliceOut, sk.sliceOut},
		{"ready → slice on a watch", kcm.sliceIn, sk.sliceIn},
		{"not ready → traffic stops", kcm.out, sk.out},
		{"ready → traffic reaches it", kcm.in, sk.in},
	} {
		fmt.Fprintf(&b, "| %s | %d/%d | %s | %s | %s | %s | %s | %s |\n", r.name, len(r.k), len(r.s),
			ms(quantile(r.k, 0.5)), ms(quantile(r.k, 0.99)), ms(quantile(r.s, 0.5)), ms(quantile(r.s, 0.99)),
			ratio(quantile(r.s, 0.5), quantile(r.k, 0.5)), ratio(quantile(r.s, 0.99), quantile(r.k, 0.99)))
	}
	fmt.Fprintf(&b, "\nslice writes during the flips (2 status changes per flip): KCM %d, slicekit %d\n", kcm.writes, sk.writes)
	t.Log(b.String())
	if path := os.Getenv("SLICEKIT_DATAPLANE_REPORT"); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Error(err)
			return
		}
		defer func() { _ = f.Close() }()
		_, _ = f.WriteString(b.String())
	}
}
