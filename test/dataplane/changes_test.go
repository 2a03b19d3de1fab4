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
	"sync"
	"syscall"
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/slicekit/slicekit/test/harness/procs"
)

// load sends requests to one URL from several loops until stopped,
// counting answers and failures per phase.
type load struct {
	mu     sync.Mutex
	phase  string
	counts map[string]*phaseCount
	order  []string
	stop   chan struct{}
	wg     sync.WaitGroup
}

type phaseCount struct {
	ok, failed int
	errs       []string
}

// startLoad starts loops request loops against url from the client
// namespace.
func startLoad(c *client, url string, loops int) *load {
	l := &load{counts: map[string]*phaseCount{}, stop: make(chan struct{})}
	l.setPhase("before")
	for range loops {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for {
				select {
				case <-l.stop:
					return
				default:
				}
				_, err := c.get(context.Background(), url)
				l.mu.Lock()
				pc := l.counts[l.phase]
				if err != nil {
					pc.failed++
					if len(pc.errs) < 5 {
						pc.errs = append(pc.errs, fmt.Sprintf("%s %v", time.Now().Format("15:04:05.000"), err))
					}
				} else {
					pc.ok++
				}
				l.mu.Unlock()
				time.Sleep(2 * time.Millisecond)
			}
		}()
	}
	return l
}

// setPhase starts counting under a new phase name.
func (l *load) setPhase(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.phase = name
	if l.counts[name] == nil {
		l.counts[name] = &phaseCount{}
		l.order = append(l.order, name)
	}
}

func (l *load) finish() {
	close(l.stop)
	l.wg.Wait()
}

// canaryWrite flips Pod canary's readiness and returns how long after
// since its EndpointSlice showed the change: the first slice write of a
// controller that has just taken over.
func canaryWrite(ctx context.Context, f *fixture, since time.Time, ready bool, timeout time.Duration) (time.Duration, error) {
	if err := f.setReady(ctx, "canary", ready); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		l, err := f.w.env.Client.DiscoveryV1().EndpointSlices(f.ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=canary"})
		if err == nil {
			for _, s := range l.Items {
				for _, e := range s.Endpoints {
					if e.TargetRef != nil && e.TargetRef.Name == "canary" && e.Conditions.Ready != nil && *e.Conditions.Ready == ready {
						return time.Since(since), nil
					}
				}
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(since), fmt.Errorf("canary's slice did not show ready=%v within %v", ready, timeout)
}

// sliceWriter records the writes (as watch events) to the EndpointSlices
// of one Service; take returns and forgets those seen so far.
type sliceWriter struct {
	mu     sync.Mutex
	events []string
	cancel context.CancelFunc
}

// watchSlices watches the EndpointSlices of Service svc from now on.
func watchSlices(t *testing.T, f *fixture, svc string) *sliceWriter {
	ctx, cancel := context.WithCancel(context.Background())
	sw := &sliceWriter{cancel: cancel}
	l, err := f.w.env.Client.DiscoveryV1().EndpointSlices(f.ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + svc})
	if err != nil {
		t.Fatal(err)
	}
	wi, err := f.w.env.Client.DiscoveryV1().EndpointSlices(f.ns).Watch(ctx, metav1.ListOptions{
		LabelSelector: discovery.LabelServiceName + "=" + svc, ResourceVersion: l.ResourceVersion,
	})
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
			sw.mu.Lock()
			sw.events = append(sw.events, fmt.Sprintf("%s %s %s (managed-by %s)", time.Now().Format("15:04:05.000"), ev.Type, s.Name, s.Labels[discovery.LabelManagedBy]))
			sw.mu.Unlock()
		}
	}()
	return sw
}

func (sw *sliceWriter) take() []string {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	e := sw.events
	sw.events = nil
	return e
}

// leaseHolder returns the holder of slicekit's Lease.
func leaseHolder(ctx context.Context, f *fixture) string {
	l, err := f.w.env.Client.CoordinationV1().Leases("kube-system").Get(ctx, "slicekit", metav1.GetOptions{})
	if err != nil || l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// runChanges keeps requests flowing to f's web Service while the endpoint
// controller changes: KCM → slicekit (adoption of KCM's slices), slicekit
// restart, kill -9, and leader failover between two replicas. Every phase
// must have 0 failed requests; the time to the first slice write after
// each event (canary) is logged.
func runChanges(t *testing.T, f *fixture, ctrl *controllers, kcm *procs.Proc) {
	ctx := context.Background()
	c := f.w.newClient(okTimeout)
	all := []string{"web-a1", "web-a2", "web-b1", "web-c1"}
	if _, err := c.servesExactly(ctx, f.url("web"), all, convergeTimeout); err != nil {
		t.Fatal(err)
	}
	if _, err := canaryWrite(ctx, f, time.Now(), true, convergeTimeout); err != nil {
		t.Fatal(err)
	}
	sw := watchSlices(t, f, "web")
	defer sw.cancel()
	ld := startLoad(c, f.url("web"), 4)
	time.Sleep(time.Second)
	canary := false
	type result struct {
		name                string
		sinceEvent, started time.Duration
		writes              []string
	}
	var results []result
	measure := func(name string, event time.Time, started time.Time) {
		t.Helper()
		d, err := canaryWrite(ctx, f, event, canary, convergeTimeout)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		canary = !canary
		time.Sleep(2 * time.Second) // requests keep flowing after the write
		results = append(results, result{name: name, sinceEvent: d, started: d - started.Sub(event), writes: sw.take()})
	}

	// Migration: stop KCM, start slicekit; it adopts KCM's slices.
	ld.setPhase("migration KCM → slicekit")
	ev := time.Now()
	if err := kcm.Stop(); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	s1 := ctrl.slicekitReplica()
	ctrl.current = append(ctrl.current, s1)
	measure("migration KCM → slicekit", ev, started)

	// Restart: SIGTERM, then a new process.
	ld.setPhase("slicekit restart")
	ev = time.Now()
	if err := s1.Stop(); err != nil {
		t.Fatal(err)
	}
	started = time.Now()
	s2 := ctrl.slicekitReplica()
	ctrl.current = append(ctrl.current, s2)
	measure("slicekit restart (SIGTERM, start)", ev, started)

	// kill -9: the Lease stays held until it expires.
	ld.setPhase("slicekit kill -9")
	ev = time.Now()
	if err := kill(s2); err != nil {
		t.Fatal(err)
	}
	started = time.Now()
	s3 := ctrl.slicekitReplica()
	ctrl.current = append(ctrl.current, s3)
	measure("slicekit kill -9, start", ev, started)

	// Leader failover: a second replica waits; the leader stops.
	ld.setPhase("leader failover")
	s4 := ctrl.slicekitReplica()
	ctrl.current = append(ctrl.current, s4)
	time.Sleep(2 * time.Second)
	before := leaseHolder(ctx, f)
	ev = time.Now()
	_ = syscall.Kill(-s3.Pid(), syscall.SIGTERM)
	if err := s3.Stop(); err != nil {
		t.Fatal(err)
	}
	measure("leader failover (leader SIGTERM, standby takes over)", ev, ev)
	after := leaseHolder(ctx, f)
	if before == after || after == "" {
		t.Errorf("leader failover: Lease holder %q before, %q after", before, after)
	}
	if err := s4.Exited(); err != nil {
		t.Error(err)
	}
	ld.setPhase("after")
	time.Sleep(time.Second)
	ld.finish()

	for _, r := range results {
		t.Logf("%-55s first slice write %v after the event (%v after the new process started); writes to web's slices: %d",
			r.name, r.sinceEvent.Round(time.Millisecond), r.started.Round(time.Millisecond), len(r.writes))
		for _, w := range r.writes {
			t.Logf("    %s", w)
		}
	}
	total := 0
	for _, n := range ld.order {
		pc := ld.counts[n]
		t.Logf("requests during %-28s ok %6d  failed %d %v", n+":", pc.ok, pc.failed, pc.errs)
		total += pc.ok + pc.failed
		if pc.failed > 0 {
			t.Errorf("%s: %d failed requests (of %d)", n, pc.failed, pc.ok+pc.failed)
		}
	}
	if total < 1000 {
		t.Errorf("only %d requests sent: the load did not run", total)
	}
}
