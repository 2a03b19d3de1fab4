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
	"time"
)

// TimeoutConfig holds every wait of the suite. A conformant
// implementation must pass with values no larger than the documented
// "max value for a conformant implementation"; larger values are allowed
// for slow environments, but the report then records that the run used
// them (see Exceeding).
type TimeoutConfig struct {
	// APICall bounds one API request of the suite itself (create, update,
	// delete, list).
	// Max value for a conformant implementation: none (not about the
	// controller).
	APICall time.Duration

	// PodRunning is how long a Pod of the RealPods mode may take to be
	// scheduled, started and given an IP (image pull included).
	// Max value for a conformant implementation: none (not about the
	// controller).
	PodRunning time.Duration

	// SlicesConverge is the time within which the controller's
	// EndpointSlices must reflect a change: a new Service, a Pod created,
	// relabelled, made (not) ready, terminating or deleted, a Service
	// label added, changed or removed.
	// Max value for a conformant implementation: 60 seconds.
	SlicesConverge time.Duration

	// NoWriteObservation is how long negative assertions watch: that no
	// slice of the controller appears for a Service it must ignore, and
	// that a foreign slice is not written while the suite churns Pods.
	// Longer is stricter.
	// Max value for a conformant implementation: none. Values below 5
	// seconds are not meaningful and are reported as such.
	NoWriteObservation time.Duration

	// Cleanup bounds the deletion of the suite's objects after a test.
	// Max value for a conformant implementation: none.
	Cleanup time.Duration

	// PollInterval is the time between two checks of a condition.
	// Max value for a conformant implementation: none.
	PollInterval time.Duration
}

// DefaultTimeoutConfig returns the defaults: APICall 30s, PodRunning 3m,
// SlicesConverge 30s, NoWriteObservation 5s, Cleanup 60s, PollInterval
// 250ms.
func DefaultTimeoutConfig() TimeoutConfig {
	return TimeoutConfig{
		APICall:            30 * time.Second,
		PodRunning:         3 * time.Minute,
		SlicesConverge:     30 * time.Second,
		NoWriteObservation: 5 * time.Second,
		Cleanup:            60 * time.Second,
		PollInterval:       250 * time.Millisecond,
	}
}

// MaxConformantSlicesConverge is the largest SlicesConverge a conformant
// run may use.
const MaxConformantSlicesConverge = 60 * time.Second

// MinMeaningfulNoWriteObservation is the smallest NoWriteObservation that
// makes the negative assertions meaningful.
const MinMeaningfulNoWriteObservation = 5 * time.Second

// SetupTimeoutConfig sets every zero field of tc to its default.
func SetupTimeoutConfig(tc *TimeoutConfig) {
	d := DefaultTimeoutConfig()
	set := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	set(&tc.APICall, d.APICall)
	set(&tc.PodRunning, d.PodRunning)
	set(&tc.SlicesConverge, d.SlicesConverge)
	set(&tc.NoWriteObservation, d.NoWriteObservation)
	set(&tc.Cleanup, d.Cleanup)
	set(&tc.PollInterval, d.PollInterval)
}

// Exceeding returns, for each timeout outside its conformant bounds, a
// line naming it; nil when the run's timeouts prove conformance.
func (tc TimeoutConfig) Exceeding() []string {
	var out []string
	if tc.SlicesConverge > MaxConformantSlicesConverge {
		out = append(out, "SlicesConverge "+tc.SlicesConverge.String()+" exceeds the conformant maximum "+MaxConformantSlicesConverge.String())
	}
	if tc.NoWriteObservation < MinMeaningfulNoWriteObservation {
		out = append(out, "NoWriteObservation "+tc.NoWriteObservation.String()+" is below the meaningful minimum "+MinMeaningfulNoWriteObservation.String())
	}
	return out
}

// Strings returns the timeouts by field name, as Go duration strings (for
// reports).
func (tc TimeoutConfig) Strings() map[string]string {
	return map[string]string{
		"APICall":            tc.APICall.String(),
		"PodRunning":         tc.PodRunning.String(),
		"SlicesConverge":     tc.SlicesConverge.String(),
		"NoWriteObservation": tc.NoWriteObservation.String(),
		"Cleanup":            tc.Cleanup.String(),
		"PollInterval":       tc.PollInterval.String(),
	}
}
