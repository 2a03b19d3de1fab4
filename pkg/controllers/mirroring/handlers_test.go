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

package mirroring

import (
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// queued returns the keys waiting in the queue (AddAfter delays are not
// awaited: the fixtures use a zero batch period).
func (f *fixture) queued() []string {
	f.t.Helper()
	var keys []string
	deadline := time.Now().Add(time.Second)
	// AddAfter with a zero delay adds at once; give the queue's delaying
	// goroutine a moment anyway.
	for time.Now().Before(deadline) {
		if f.c.queue.Len() == 0 {
			if len(keys) > 0 || time.Until(deadline) < 900*time.Millisecond {
				break
			}
			time.Sleep(5 * time.Millisecond)
			continue
		}
		k, _ := f.c.queue.Get()
		f.c.queue.Done(k)
		f.c.queue.Forget(k)
		keys = append(keys, k)
	}
	return keys
}

// TestHandlers checks which informer events queue the Endpoints key (rule
// b11 plus the KEP-4770 label).
func TestHandlers(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	skip := ep.DeepCopy()
	skip.Labels = map[string]string{discovery.LabelSkipMirror: "true"}
	leader := ep.DeepCopy()
	leader.Annotations = map[string]string{resourcelock.LeaderElectionRecordAnnotationKey: "x"}
	plain := service("svc")
	withSel := service("svc", withSelector)
	labelled := service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "custom"))
	labelledB := service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "custom-b"))
	ours := mirroredSlice("svc-m", ep, wellknown.MirroringControllerName, "10.0.0.1")
	ours.Generation = 1
	foreign := mirroredSlice("svc-f", ep, "other", "10.0.0.1")
	renamed := ours.DeepCopy()
	renamed.Labels[discovery.LabelServiceName] = "svc2"

	tests := []struct {
		name    string
		trigger func(c *Controller)
		want    []string
	}{
		{"Endpoints add", func(c *Controller) { c.onEndpointsAdd(c.testLogger(), ep) }, []string{"ns-a/svc"}},
		{"Endpoints add, skip-mirror", func(c *Controller) { c.onEndpointsAdd(c.testLogger(), skip) }, nil},
		{"Endpoints add, leader annotation", func(c *Controller) { c.onEndpointsAdd(c.testLogger(), leader) }, nil},
		{"Endpoints update to skip-mirror", func(c *Controller) { c.onEndpointsUpdate(c.testLogger(), ep, skip) }, []string{"ns-a/svc"}},
		{"Endpoints update from skip-mirror (case 17)", func(c *Controller) { c.onEndpointsUpdate(c.testLogger(), skip, ep) }, []string{"ns-a/svc"}},
		{"Endpoints update, both skip-mirror", func(c *Controller) { c.onEndpointsUpdate(c.testLogger(), skip, skip) }, nil},
		{"Endpoints delete", func(c *Controller) { c.onEndpointsDelete(c.testLogger(), ep) }, []string{"ns-a/svc"}},
		{"Endpoints delete tombstone", func(c *Controller) {
			c.onEndpointsDelete(c.testLogger(), cache.DeletedFinalStateUnknown{Key: "ns-a/svc", Obj: ep})
		}, []string{"ns-a/svc"}},
		{"Service add, selectorless (case 17)", func(c *Controller) { c.onServiceAdd(plain) }, []string{"ns-a/svc"}},
		{"Service add, selector", func(c *Controller) { c.onServiceAdd(withSel) }, nil},
		{"Service update, selector added (case 01)", func(c *Controller) { c.onServiceUpdate(plain, withSel) }, []string{"ns-a/svc"}},
		{"Service update, selector removed", func(c *Controller) { c.onServiceUpdate(withSel, plain) }, []string{"ns-a/svc"}},
		{"Service update, no relevant change", func(c *Controller) { c.onServiceUpdate(plain, plain.DeepCopy()) }, nil},
		{"Service update, KEP label added", func(c *Controller) { c.onServiceUpdate(plain, labelled) }, []string{"ns-a/svc"}},
		{"Service update, KEP label removed", func(c *Controller) { c.onServiceUpdate(labelled, plain) }, []string{"ns-a/svc"}},
		{"Service update, KEP label value changed (rule (a)6)", func(c *Controller) { c.onServiceUpdate(labelled, labelledB) }, nil},
		{"Service delete, selectorless", func(c *Controller) { c.onServiceDelete(plain) }, []string{"ns-a/svc"}},
		{"Service delete tombstone", func(c *Controller) {
			c.onServiceDelete(cache.DeletedFinalStateUnknown{Key: "ns-a/svc", Obj: plain})
		}, []string{"ns-a/svc"}},
		{"Service delete, selector", func(c *Controller) { c.onServiceDelete(withSel) }, nil},
		{"slice add, ours, untracked", func(c *Controller) { c.onEndpointSliceAdd(ours) }, []string{"ns-a/svc"}},
		{"slice add, foreign", func(c *Controller) { c.onEndpointSliceAdd(foreign) }, nil},
		{"slice add, ours, own write", func(c *Controller) { c.tracker.Update(ours); c.onEndpointSliceAdd(ours) }, nil},
		{"slice update, service-name changed", func(c *Controller) { c.onEndpointSliceUpdate(c.testLogger(), ours, renamed) },
			[]string{"ns-a/svc2", "ns-a/svc"}},
		{"slice update, managed-by changed away", func(c *Controller) { c.onEndpointSliceUpdate(c.testLogger(), ours, foreign) }, []string{"ns-a/svc"}},
		{"slice update, foreign", func(c *Controller) { c.onEndpointSliceUpdate(c.testLogger(), foreign, foreign) }, nil},
		{"slice delete, ours, tracked, not expected (E17)", func(c *Controller) { c.tracker.Update(ours); c.onEndpointSliceDelete(ours) }, []string{"ns-a/svc"}},
		{"slice delete, ours, expected", func(c *Controller) { c.tracker.ExpectDeletion(ours); c.onEndpointSliceDelete(ours) }, nil},
		{"slice delete, ours, untracked", func(c *Controller) { c.onEndpointSliceDelete(ours) }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Options{})
			tc.trigger(f.c)
			if got := f.queued(); !equalStrings(got, tc.want) {
				t.Errorf("queued %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUnchangedSliceIsTracked: a slice found up to date is tracked, so that
// its deletion by someone else queues a sync that recreates it (KCM
// reconcileByPortMapping; E17).
func TestUnchangedSliceIsTracked(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	f := newFixture(t, Options{}, service("svc"), ep, mirroredSlice("svc-m", ep, wellknown.MirroringControllerName, "10.0.0.1"))
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Fatalf("up-to-date slice written: %v", w)
	}
	s := f.mirrored("svc")[0]
	f.c.onEndpointSliceDelete(&s)
	if got := f.queued(); !equalStrings(got, []string{"ns-a/svc"}) {
		t.Fatalf("queued %v after the slice was deleted by someone else", got)
	}
}

// TestSweepDelegated: at start-up, delegated Services with mirrored slices
// are queued.
func TestSweepDelegated(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	ep2 := endpointsObj("svc2", subset([]string{"10.0.0.2"}, nil, httpPort()))
	f := newFixture(t, Options{},
		service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "x")), ep, mirroredSlice("svc-m", ep, wellknown.MirroringControllerName, "10.0.0.1"),
		service("svc2"), ep2, mirroredSlice("svc2-m", ep2, wellknown.MirroringControllerName, "10.0.0.2"))
	f.c.sweepDelegated(f.ctx)
	if got := f.queued(); !equalStrings(got, []string{"ns-a/svc"}) {
		t.Errorf("sweep queued %v, want [ns-a/svc]", got)
	}
	gateOff := false
	f2 := newFixture(t, Options{ExternalEndpointController: &gateOff},
		service("svc", withServiceLabel(wellknown.LabelEndpointControllerName, "x")), ep, mirroredSlice("svc-m", ep, wellknown.MirroringControllerName, "10.0.0.1"))
	f2.c.sweepDelegated(f2.ctx)
	if got := f2.queued(); len(got) != 0 {
		t.Errorf("sweep with the gate off queued %v", got)
	}
}

// TestSyncAll syncs every Endpoints object and every name with a mirrored
// slice.
func TestSyncAll(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	gone := endpointsObj("gone", subset([]string{"10.0.0.9"}, nil, httpPort()))
	f := newFixture(t, Options{}, service("svc"), ep, mirroredSlice("gone-m", gone, wellknown.MirroringControllerName, "10.0.0.9"))
	keys, err := f.c.Keys()
	if err != nil {
		t.Fatal(err)
	}
	if !equalStrings(keys, []string{"ns-a/gone", "ns-a/svc"}) {
		t.Errorf("Keys() = %v", keys)
	}
	if err := f.c.SyncAll(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.refresh()
	if len(f.mirrored("gone")) != 0 || len(f.mirrored("svc")) != 1 {
		t.Errorf("after SyncAll: gone %d slices, svc %d slices; want 0 and 1", len(f.mirrored("gone")), len(f.mirrored("svc")))
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// testLogger returns a logger for calling handlers directly.
func (c *Controller) testLogger() klog.Logger { return klog.Background() }
