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

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// sliceState is what the tracker keeps of one EndpointSlice.
type sliceState struct {
	// service is namespace/name of the Service (kubernetes.io/service-name).
	service string
	// ready maps each endpoint's first address to its ready condition
	// (nil counts as ready, as the API says).
	ready map[string]bool
}

// tracker follows every EndpointSlice of the cluster through one watch and
// answers whether the slices publish what the benchmark expects. It
// timestamps each event as it arrives, so latencies are seen as a client of
// the API server sees them.
type tracker struct {
	mu     sync.Mutex
	slices map[string]sliceState // namespace/name
	// bySvc lists the slices of each Service.
	bySvc map[string]map[string]bool
	// byIP maps an address to the slices listing it and its ready value there.
	byIP map[string]map[string]bool
	// ipChanged is when an address last appeared or changed its ready value.
	ipChanged map[string]time.Time
	// events counts watch events (each a slice create, update or delete).
	events int
	// lastEvent is when the last event arrived.
	lastEvent time.Time
	// changed is closed (and replaced) on every event.
	changed chan struct{}
}

func newTracker() *tracker {
	return &tracker{
		slices:    map[string]sliceState{},
		bySvc:     map[string]map[string]bool{},
		byIP:      map[string]map[string]bool{},
		ipChanged: map[string]time.Time{},
		changed:   make(chan struct{}),
	}
}

// run lists the EndpointSlices of all namespaces and then follows them
// with a watch (re-established from the last resourceVersion when it ends)
// until ctx ends. It returns once the list is applied; errors of the list
// are returned, the watch runs in the background.
func (t *tracker) run(ctx context.Context, client kubernetes.Interface) error {
	list, err := client.DiscoveryV1().EndpointSlices("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("listing EndpointSlices: %w", err)
	}
	for i := range list.Items {
		t.apply(watch.Added, &list.Items[i], time.Now(), false)
	}
	rw, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return client.DiscoveryV1().EndpointSlices("").Watch(ctx, o)
		},
	})
	if err != nil {
		return fmt.Errorf("watching EndpointSlices: %w", err)
	}
	go func() {
		defer rw.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-rw.ResultChan():
				if !ok {
					return
				}
				s, isSlice := ev.Object.(*discovery.EndpointSlice)
				if !isSlice {
					continue
				}
				t.apply(ev.Type, s, time.Now(), true)
			}
		}
	}()
	return nil
}

// apply records one event of slice s received at now; count says whether
// it is a write to count (not the initial list).
func (t *tracker) apply(typ watch.EventType, s *discovery.EndpointSlice, now time.Time, count bool) {
	key := s.Namespace + "/" + s.Name
	t.mu.Lock()
	defer t.mu.Unlock()
	if count {
		t.events++
	}
	t.lastEvent = now
	old, had := t.slices[key]
	if had {
		for ip := range old.ready {
			delete(t.byIP[ip], key)
			if len(t.byIP[ip]) == 0 {
				delete(t.byIP, ip)
			}
		}
		delete(t.bySvc[old.service], key)
		delete(t.slices, key)
	}
	if typ != watch.Deleted {
		st := sliceState{service: s.Namespace + "/" + s.Labels[discovery.LabelServiceName], ready: map[string]bool{}}
		for _, ep := range s.Endpoints {
			if len(ep.Addresses) == 0 {
				continue
			}
			ip := ep.Addresses[0]
			r := ep.Conditions.Ready == nil || *ep.Conditions.Ready
			st.ready[ip] = r
			if prev, ok := old.ready[ip]; !had || !ok || prev != r {
				t.ipChanged[ip] = now
			}
			if t.byIP[ip] == nil {
				t.byIP[ip] = map[string]bool{}
			}
			t.byIP[ip][key] = r
		}
		t.slices[key] = st
		if t.bySvc[st.service] == nil {
			t.bySvc[st.service] = map[string]bool{}
		}
		t.bySvc[st.service][key] = true
	}
	close(t.changed)
	t.changed = make(chan struct{})
}

// count returns the number of write events so far.
func (t *tracker) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.events
}

// slicesIn returns the number of slices in namespace ns. The caller holds
// t.mu.
func (t *tracker) slicesIn(ns string) int {
	n := 0
	for _, st := range t.slices {
		if len(st.service) > len(ns) && st.service[:len(ns)+1] == ns+"/" {
			n++
		}
	}
	return n
}

// serviceOK says whether the slices of service (namespace/name) list
// exactly the addresses of want, each once, with its ready value. The
// caller holds t.mu.
func (t *tracker) serviceOK(service string, want map[string]bool) bool {
	n := 0
	for key := range t.bySvc[service] {
		n += len(t.slices[key].ready)
	}
	if n != len(want) {
		return false
	}
	for ip, ready := range want {
		in := t.byIP[ip]
		if len(in) != 1 {
			return false
		}
		for key, r := range in {
			if r != ready || t.slices[key].service != service {
				return false
			}
		}
	}
	return true
}

// waitUntil waits until cond (called with t.mu held) holds, and returns
// when the event that made it hold arrived (lastEvent at that moment), or
// an error after timeout.
func (t *tracker) waitUntil(ctx context.Context, timeout time.Duration, what string, cond func() bool) (time.Time, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		ok, at, ch := cond(), t.lastEvent, t.changed
		t.mu.Unlock()
		if ok {
			return at, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-deadline.C:
			return time.Time{}, fmt.Errorf("%s not seen on the EndpointSlice watch within %v", what, timeout)
		}
	}
}

// waitServices waits until every Service in want (namespace/name to
// address to ready) is published exactly, and returns when the last event
// needed arrived, or the error of alive (called before each check). It checks at most every 50ms: a full check costs
// O(addresses).
func (t *tracker) waitServices(ctx context.Context, timeout time.Duration, want map[string]map[string]bool, alive func() error) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		if err := alive(); err != nil {
			return time.Time{}, err
		}
		t.mu.Lock()
		ok, at := true, t.lastEvent
		for svc, w := range want {
			if !t.serviceOK(svc, w) {
				ok = false
				break
			}
		}
		t.mu.Unlock()
		if ok {
			return at, nil
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("the EndpointSlices of %d Service(s) did not converge within %v", len(want), timeout)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitIP waits until the slices list ip once with ready, and returns when
// that was first seen.
func (t *tracker) waitIP(ctx context.Context, timeout time.Duration, ip string, ready bool) (time.Time, error) {
	var at time.Time
	_, err := t.waitUntil(ctx, timeout, fmt.Sprintf("endpoint %s ready=%v", ip, ready), func() bool {
		in := t.byIP[ip]
		if len(in) != 1 {
			return false
		}
		for _, r := range in {
			if r != ready {
				return false
			}
		}
		at = t.ipChanged[ip]
		return true
	})
	return at, err
}
