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
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"
	testingclock "k8s.io/utils/clock/testing"
)

// TestConflictDetector covers the second-writer detection: which slice
// events are reported, and the rate limit of events.
func TestConflictDetector(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	entry := func(manager string, at time.Time) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "discovery.k8s.io/v1", Time: ptrTime(at)}
	}
	withFields := func(s *discovery.EndpointSlice, entries ...metav1.ManagedFieldsEntry) *discovery.EndpointSlice {
		s = s.DeepCopy()
		s.ManagedFields = entries
		return s
	}
	own := newSlice("svc-1", "svc", self)
	foreignManaged := newSlice("svc-c", "svc", custom)
	before, after := start.Add(-time.Hour), start.Add(time.Minute)

	type step struct {
		old, cur *discovery.EndpointSlice
		advance  time.Duration
	}
	tests := []struct {
		name        string
		steps       []step
		wantEvents  int
		wantCounter float64
	}{
		{name: "own manager only", steps: []step{{cur: withFields(own, entry(self, after))}}},
		{name: "history before start is not reported", steps: []step{{cur: withFields(own, entry(self, after), entry("kube-controller-manager", before))}}},
		{name: "foreign create after start", steps: []step{{cur: withFields(own, entry("intruder", after))}}, wantEvents: 1, wantCounter: 1},
		{name: "foreign entry appears on update", steps: []step{{old: withFields(own, entry(self, after)), cur: withFields(own, entry(self, after), entry("intruder", after))}},
			wantEvents: 1, wantCounter: 1},
		{name: "old foreign entry advances (KCM still running)", steps: []step{{
			old: withFields(own, entry("kube-controller-manager", before)),
			cur: withFields(own, entry("kube-controller-manager", after)),
		}}, wantEvents: 1, wantCounter: 1},
		{name: "unchanged foreign entry on update (our own write)", steps: []step{{
			old: withFields(own, entry("kube-controller-manager", before), entry(self, before)),
			cur: withFields(own, entry("kube-controller-manager", before), entry(self, after)),
		}}},
		{name: "slice of another controller is not checked", steps: []step{{cur: withFields(foreignManaged, entry("anyone", after))}}},
		{name: "repeated writes within the interval: one event, every write counted", steps: []step{
			{old: withFields(own, entry("x", before)), cur: withFields(own, entry("x", after))},
			{old: withFields(own, entry("x", after)), cur: withFields(own, entry("x", after.Add(time.Second))), advance: time.Minute},
			{old: withFields(own, entry("x", after.Add(time.Second))), cur: withFields(own, entry("x", after.Add(2*time.Second))), advance: time.Minute},
		}, wantEvents: 1, wantCounter: 3},
		{name: "again after the interval", steps: []step{
			{old: withFields(own, entry("x", before)), cur: withFields(own, entry("x", after))},
			{old: withFields(own, entry("x", after)), cur: withFields(own, entry("x", after.Add(time.Second))), advance: 11 * time.Minute},
		}, wantEvents: 2, wantCounter: 2},
		{name: "two managers are reported separately", steps: []step{
			{cur: withFields(own, entry("x", after), entry("y", after))},
		}, wantEvents: 2, wantCounter: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newDropInFixture(t, dropInOptions{})
			f.add(newService("svc"))
			clk := testingclock.NewFakePassiveClock(start)
			rec := record.NewFakeRecorder(10)
			reg := prometheus.NewRegistry()
			d, err := newConflictDetector(self, DefaultConflictReportInterval, clk, rec, f.c.serviceLister, reg)
			if err != nil {
				t.Fatal(err)
			}
			logger, _ := ktesting.NewTestContext(t)
			for _, s := range tc.steps {
				clk.SetTime(clk.Now().Add(s.advance))
				d.observe(logger, s.old, s.cur)
			}
			close(rec.Events)
			var events []string
			for e := range rec.Events {
				events = append(events, e)
				if !strings.HasPrefix(e, "Warning "+ReasonConflictingWriter+" EndpointSlice svc-1 ") {
					t.Errorf("event %q", e)
				}
			}
			if len(events) != tc.wantEvents {
				t.Errorf("events = %q, want %d", events, tc.wantEvents)
			}
			total := 0.0
			fams, _ := reg.Gather()
			for _, mf := range fams {
				if mf.GetName() != ConflictingWritesMetricName {
					t.Errorf("unexpected metric %s", mf.GetName())
				}
				for _, m := range mf.GetMetric() {
					total += m.GetCounter().GetValue()
				}
			}
			if total != tc.wantCounter {
				t.Errorf("%s total = %v, want %v", ConflictingWritesMetricName, total, tc.wantCounter)
			}
		})
	}
}

// TestConflictDetectorManagerCardinality: the manager label is capped.
func TestConflictDetectorManagerCardinality(t *testing.T) {
	start := time.Now()
	clk := testingclock.NewFakePassiveClock(start)
	reg := prometheus.NewRegistry()
	f := newDropInFixture(t, dropInOptions{})
	d, err := newConflictDetector(self, time.Minute, clk, nil, f.c.serviceLister, reg)
	if err != nil {
		t.Fatal(err)
	}
	logger, _ := ktesting.NewTestContext(t)
	for i := range maxManagerLabels + 5 {
		s := newSlice("s", "svc", self)
		s.UID = "u"
		s.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m" + string(rune('a'+i)), Operation: metav1.ManagedFieldsOperationUpdate, Time: ptrTime(start.Add(time.Hour))}}
		d.observe(logger, nil, s)
	}
	fams, _ := reg.Gather()
	series := 0
	for _, mf := range fams {
		series += len(mf.GetMetric())
	}
	if series != maxManagerLabels+1 {
		t.Errorf("series = %d, want %d", series, maxManagerLabels+1)
	}
}

func ptrTime(t time.Time) *metav1.Time {
	mt := metav1.NewTime(t)
	return &mt
}
