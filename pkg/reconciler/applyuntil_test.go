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
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
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
