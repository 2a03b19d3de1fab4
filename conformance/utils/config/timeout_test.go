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

package config

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSetupTimeoutConfig(t *testing.T) {
	tc := TimeoutConfig{SlicesConverge: 10 * time.Second}
	SetupTimeoutConfig(&tc)
	want := DefaultTimeoutConfig()
	want.SlicesConverge = 10 * time.Second
	if d := cmp.Diff(want, tc); d != "" {
		t.Errorf("SetupTimeoutConfig (-want +got):\n%s", d)
	}
	var zero TimeoutConfig
	SetupTimeoutConfig(&zero)
	if d := cmp.Diff(DefaultTimeoutConfig(), zero); d != "" {
		t.Errorf("SetupTimeoutConfig of the zero value (-want +got):\n%s", d)
	}
}

func TestExceeding(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*TimeoutConfig)
		want int
	}{
		{"defaults are conformant", func(*TimeoutConfig) {}, 0},
		{"at the maximum", func(tc *TimeoutConfig) { tc.SlicesConverge = MaxConformantSlicesConverge }, 0},
		{"converge too slow", func(tc *TimeoutConfig) { tc.SlicesConverge = 2 * time.Minute }, 1},
		{"observation too short", func(tc *TimeoutConfig) { tc.NoWriteObservation = time.Second }, 1},
		{"both", func(tc *TimeoutConfig) { tc.SlicesConverge = time.Hour; tc.NoWriteObservation = time.Second }, 2},
	}
	for _, tc := range tests {
		c := DefaultTimeoutConfig()
		tc.mod(&c)
		if got := c.Exceeding(); len(got) != tc.want {
			t.Errorf("%s: Exceeding() = %q, want %d line(s)", tc.name, got, tc.want)
		}
	}
	if got := DefaultTimeoutConfig().Strings()["SlicesConverge"]; got != "30s" {
		t.Errorf("Strings()[SlicesConverge] = %q", got)
	}
}
