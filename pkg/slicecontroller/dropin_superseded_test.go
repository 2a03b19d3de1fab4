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
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
)

// TestSupersededSyncFoldsNewEvents: a Pod event that arrives while a sync
// is writing stops the sync after that write (reconciler.ApplyUntil); the
// next sync writes the rest together with the new event, so a slice that
// two syncs would each have written is written once, and its trigger time
// is still the earliest change's.
func TestSupersededSyncFoldsNewEvents(t *testing.T) {
	const metric = "endpoint_slice_controller_" + SupersededSyncsMetricName
	f, podEvent := sixPodFixture(t, dropInOptions{})
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	podEvent(0, t0)                  // pod1: first slice
	podEvent(2, t0.Add(time.Second)) // pod3: second slice
	// While the sync writes its first slice, pod4 (second slice) flips.
	injected := false
	f.client.PrependReactor("update", "endpointslices", func(k8stesting.Action) (bool, runtime.Object, error) {
		if !injected {
			injected = true
			podEvent(3, t0.Add(2*time.Second))
		}
		return false, nil, nil // on to the fixture's reactor
	})
	before := len(f.writes())
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatalf("a superseded sync is not an error: %v", err)
	}
	if got := len(f.writes()) - before; got != 1 {
		t.Fatalf("the superseded sync made %d writes, want 1", got)
	}
	if got := f.metric(metric, nil); got != 1 {
		t.Errorf("%s = %v, want 1", metric, got)
	}
	if err := f.sync(testNS, "web"); err != nil {
		t.Fatal(err)
	}
	if got := len(f.writes()) - before; got != 2 {
		t.Errorf("%d writes for the three flips, want 2 (the second slice once)", got)
	}
	for _, s := range f.ownSlices(testNS, "web") {
		for _, ep := range s.Endpoints {
			if ep.Addresses[0] == "10.0.0.4" { // pod3's slice, written by the second sync
				want := t0.Format(time.RFC3339Nano)
				if got := s.Annotations[corev1.EndpointsLastChangeTriggerTime]; got != want {
					t.Errorf("trigger time of %s = %q, want the earliest change %q (carried over)", s.Name, got, want)
				}
			}
		}
	}
	if notReady := notReadyAddresses(f); len(notReady) != 3 || !notReady["10.0.0.2"] || !notReady["10.0.0.4"] || !notReady["10.0.0.5"] {
		t.Errorf("not ready: %v, want pod1, pod3 and pod4's addresses", notReady)
	}
	if got := f.metric(metric, nil); got != 1 {
		t.Errorf("%s = %v after the second sync, want 1", metric, got)
	}
}
