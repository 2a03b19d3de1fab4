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

package serviceindex

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// failingPods fails every call.
type failingPods struct{}

func (failingPods) Get(string) (*corev1.Pod, error)             { return nil, errors.New("boom") }
func (failingPods) List(labels.Selector) ([]*corev1.Pod, error) { return nil, errors.New("boom") }

func TestServiceIndexUpdate(t *testing.T) {
	ctx := context.Background()
	w := newIdxWorld(t, &byteChooser{})
	svc := w.svc
	steps := []struct {
		name        string
		do          func()
		pods        PodLister
		wantRebuilt string
		wantReady   bool
		wantPods    int
	}{
		{"first", func() {}, w.pods, RebuildFirstSync, true, len(w.pods)},
		{"nothing changed", func() {}, w.pods, "", true, 0},
		{"one pod changed", func() { w.idx.PodChanged("pod-001") }, w.pods, "", true, 1},
		{"lookup fails", func() { w.idx.PodChanged("pod-002") }, failingPods{}, "", false, 0},
		{"after a failure", func() {}, w.pods, RebuildLookupFailed, true, len(w.pods)},
		{"invalidated", func() { w.idx.Invalidate("node-changed") }, w.pods, "node-changed", true, len(w.pods)},
		{"service changed", func() {
			svc = svc.DeepCopy()
			svc.ResourceVersion = "2"
			svc.Spec.Ports[0].Port = 81
		}, w.pods, RebuildServiceChanged, true, len(w.pods)},
		{"service recreated", func() {
			svc = svc.DeepCopy()
			svc.UID = "other"
			svc.CreationTimestamp = metav1.Now()
		}, w.pods, RebuildServiceChanged, true, len(w.pods)},
	}
	for _, st := range steps {
		st.do()
		u, err := w.idx.Update(ctx, svc, labels.Set(svc.Spec.Selector).AsSelectorPreValidated(), st.pods, w.nodes)
		var skip *podendpoint.SkippedPodError
		if err != nil && !errors.As(err, &skip) && st.wantReady {
			t.Errorf("%s: error %v", st.name, err)
		}
		if u.Rebuilt != st.wantRebuilt || u.Ready != st.wantReady || u.Pods != st.wantPods {
			t.Errorf("%s: got rebuilt %q ready %v pods %d, want %q %v %d", st.name, u.Rebuilt, u.Ready, u.Pods, st.wantRebuilt, st.wantReady, st.wantPods)
		}
	}
}

func TestServiceIndexBurstWait(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, tc := range []struct {
		name   string
		quiet  time.Duration
		events []int // ms after t0 of PodChanged, one Pod each
		same   bool  // all events for the same Pod
		at     int   // ms after t0 of the question
		want   time.Duration
	}{
		{name: "off", quiet: 0, events: []int{0, 1}, at: 1, want: 0},
		{name: "nothing pending", quiet: ms(20), at: 5, want: 0},
		{name: "one flip is planned at once", quiet: ms(20), events: []int{0}, at: 0, want: 0},
		{name: "one Pod changed twice is planned at once", quiet: ms(20), events: []int{0, 3}, same: true, at: 3, want: 0},
		{name: "burst: rest of the quiet period", quiet: ms(20), events: []int{0, 5}, at: 10, want: ms(15)},
		{name: "burst paused long enough", quiet: ms(20), events: []int{0, 5}, at: 25, want: 0},
		{name: "burst long past the quiet period", quiet: ms(20), events: []int{0, 5}, at: 100, want: 0},
		{name: "never past ten quiet periods", quiet: ms(20), events: []int{0, 60, 120, 190}, at: 195, want: ms(5)},
		{name: "ten quiet periods reached", quiet: ms(20), events: []int{0, 100, 199}, at: 200, want: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := New(podIPsIncremental())
			var clock time.Time
			x.now = func() time.Time { return clock }
			for i, e := range tc.events {
				clock = t0.Add(ms(e))
				name := fmt.Sprintf("pod-%d", i)
				if tc.same {
					name = "pod"
				}
				x.PodChanged(name)
			}
			if got := x.BurstWait(t0.Add(ms(tc.at)), tc.quiet); got != tc.want {
				t.Errorf("BurstWait = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestServiceIndexBurstWaitStartsAfterUpdate checks that the first event
// after an Update starts a new burst: the ten-period limit counts from it,
// not from an event already planned.
func TestServiceIndexBurstWaitStartsAfterUpdate(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	w := newIdxWorld(t, &byteChooser{})
	x := w.idx
	clock := t0
	x.now = func() time.Time { return clock }
	x.PodChanged("pod-001")
	x.PodChanged("pod-002")
	if _, err := x.Update(context.Background(), w.svc, labels.Set(w.svc.Spec.Selector).AsSelectorPreValidated(), w.pods, w.nodes); err != nil {
		t.Fatalf("Update: %v", err)
	}
	if got := x.BurstWait(clock, 20*time.Millisecond); got != 0 {
		t.Errorf("BurstWait with nothing pending = %v, want 0", got)
	}
	clock = t0.Add(time.Second)
	x.PodChanged("c")
	x.PodChanged("d")
	if got, want := x.BurstWait(clock.Add(time.Millisecond), 20*time.Millisecond), 19*time.Millisecond; got != want {
		t.Errorf("BurstWait after Update = %v, want %v", got, want)
	}
}
