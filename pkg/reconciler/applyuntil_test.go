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

package reconciler

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
)

// TestApplyUntil: a plan of three writes (a recycled slice updated, two
// created) stops before the first write superseded reports, never before
// the first write of all, and applies whole when never superseded.
func TestApplyUntil(t *testing.T) {
	ctx := context.Background()
	svc := testService()
	ports := []discovery.EndpointPort{tcpPort("http", 80)}
	gone := existingSlice("gone", svc, ports, ep("10.9.9.9", true))
	cases := []struct {
		name string
		// supersededAfter: superseded reports true once this many calls
		// were made (-1: never; nil function when -2).
		supersededAfter int
		wantWrites      int
		wantSuperseded  bool
	}{
		{"nil function", -2, 3, false},
		{"never superseded", -1, 3, false},
		{"superseded at once", 0, 1, true},
		{"superseded after the second write", 1, 2, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, client := newTestReconciler(t, 2, gone)
			desired := ipv4(ports, eps(6, "10.0.0.")...)
			plan, err := r.Plan(ctx, svc, desired, []*discovery.EndpointSlice{gone})
			if err != nil {
				t.Fatal(err)
			}
			if got := shapeOf(plan); len(got.Create) != 2 || len(got.Update) != 1 || len(got.Delete) != 0 {
				t.Fatalf("unexpected plan shape %+v", got)
			}
			calls := 0
			var superseded func() bool
			if tc.supersededAfter != -2 {
				superseded = func() bool {
					calls++
					return tc.supersededAfter >= 0 && calls > tc.supersededAfter
				}
			}
			client.ClearActions()
			err = r.ApplyUntil(ctx, svc, plan, desired, time.Time{}, superseded)
			var se *SupersededError
			if got := errors.As(err, &se); got != tc.wantSuperseded || (err != nil && !tc.wantSuperseded) {
				t.Fatalf("err %v, want superseded %v", err, tc.wantSuperseded)
			}
			if tc.wantSuperseded && se.Written != tc.wantWrites {
				t.Errorf("Written %d, want %d", se.Written, tc.wantWrites)
			}
			if IsSuperseded(err) != tc.wantSuperseded {
				t.Errorf("IsSuperseded %v", IsSuperseded(err))
			}
			writes := 0
			for _, a := range client.Actions() {
				if v := a.GetVerb(); v == "create" || v == "update" || v == "delete" {
					writes++
				}
			}
			if writes != tc.wantWrites {
				t.Errorf("%d writes, want %d", writes, tc.wantWrites)
			}
		})
	}
}

// recordingPacer is a Pacer that logs its waits in a shared log and
// fails the wait numbered failAt (1-based; 0: never).
type recordingPacer struct {
	log    *[]string
	waits  int
	failAt int
}

func (p *recordingPacer) WaitAvailable(context.Context) error {
	p.waits++
	*p.log = append(*p.log, "wait")
	if p.waits == p.failAt {
		return context.Canceled
	}
	return nil
}

// TestApplyUntilWaitsOnPacerFirst: with a pacer, every write of
// ApplyUntil but the first waits on it and only then asks superseded, so
// that the check sees the events of the wait; the first write never
// waits (the caller waited before planning), a pacer error stops the
// writes with that error, and Apply (no superseded function) never waits.
func TestApplyUntilWaitsOnPacerFirst(t *testing.T) {
	ctx := context.Background()
	svc := testService()
	ports := []discovery.EndpointPort{tcpPort("http", 80)}
	gone := existingSlice("gone", svc, ports, ep("10.9.9.9", true))
	cases := []struct {
		name string
		// supersededAfter: superseded reports true once this many calls
		// were made (-1: never; nil function when -2).
		supersededAfter int
		pacerFailAt     int
		want            []string
		wantErr         func(error) bool
	}{
		{"never superseded", -1, 0,
			[]string{"create", "wait", "superseded?", "create", "wait", "superseded?", "update"}, nil},
		{"superseded after the wait", 0, 0,
			[]string{"create", "wait", "superseded?"}, IsSuperseded},
		{"superseded after the second write", 1, 0,
			[]string{"create", "wait", "superseded?", "create", "wait", "superseded?"}, IsSuperseded},
		{"pacer fails", -1, 2,
			[]string{"create", "wait", "superseded?", "create", "wait"},
			func(err error) bool { return errors.Is(err, context.Canceled) && !IsSuperseded(err) }},
		{"Apply: no superseded function", -2, 0,
			[]string{"create", "create", "update"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, client := newTestReconciler(t, 2, gone)
			var log []string
			WithPacer(&recordingPacer{log: &log, failAt: tc.pacerFailAt})(r)
			client.PrependReactor("*", "endpointslices", func(a k8stesting.Action) (bool, runtime.Object, error) {
				if v := a.GetVerb(); v == "create" || v == "update" || v == "delete" {
					log = append(log, v)
				}
				return false, nil, nil
			})
			desired := ipv4(ports, eps(6, "10.0.0.")...)
			plan, err := r.Plan(ctx, svc, desired, []*discovery.EndpointSlice{gone})
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			var superseded func() bool
			if tc.supersededAfter != -2 {
				superseded = func() bool {
					calls++
					log = append(log, "superseded?")
					return tc.supersededAfter >= 0 && calls > tc.supersededAfter
				}
			}
			err = r.ApplyUntil(ctx, svc, plan, desired, time.Time{}, superseded)
			if tc.wantErr == nil && err != nil || tc.wantErr != nil && !tc.wantErr(err) {
				t.Errorf("unexpected error %v", err)
			}
			if !slices.Equal(log, tc.want) {
				t.Errorf("order:\n got %s\nwant %s", strings.Join(log, ", "), strings.Join(tc.want, ", "))
			}
		})
	}
}

// TestApplyUntilKeepsWriteErrors: a write that failed before the plan
// was superseded is returned, not hidden behind the SupersededError, so
// that the caller retries as after any failed write.
func TestApplyUntilKeepsWriteErrors(t *testing.T) {
	ctx := context.Background()
	svc := testService()
	ports := []discovery.EndpointPort{tcpPort("http", 80)}
	v6 := existingSlice("v6", svc, ports)
	v6.AddressType = discovery.AddressTypeIPv6 // unsupported: deleted after the IPv4 writes
	r, client := newTestReconciler(t, 2, v6)
	client.PrependReactor("create", "endpointslices", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("boom")
	})
	desired := ipv4(ports, eps(1, "10.0.0.")...)
	plan, err := r.Plan(ctx, svc, desired, []*discovery.EndpointSlice{v6})
	if err != nil {
		t.Fatal(err)
	}
	if got := shapeOf(plan); len(got.Create) != 1 || len(got.Unsupported) != 1 {
		t.Fatalf("unexpected plan shape %+v", got)
	}
	err = r.ApplyUntil(ctx, svc, plan, desired, time.Time{}, func() bool { return true })
	if err == nil || IsSuperseded(err) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("ApplyUntil = %v, want the create's error", err)
	}
}
