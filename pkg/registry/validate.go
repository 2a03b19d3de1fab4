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

package registry

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
)

// The validators of the controller settings, shared by the options that
// bind them (Shared, each controller's options) and by `slicekit check`,
// which describes the same settings: run, render and check accept and
// refuse the same values with the same words.

// ManagedBy is a managed-by value (label
// endpointslice.kubernetes.io/managed-by) a controller writes and what sets
// it: a flag ("--controller-name") or a description ("the mirroring
// controller's managed-by value").
type ManagedBy struct {
	// Flag is the flag or description of the value.
	Flag string
	// Value is the managed-by value.
	Value string
}

// ControllerName returns an error unless value, given with flag (such as
// "--controller-name"), is a non-empty label value: a managed-by value is
// a label value, and an empty one claims nothing.
func ControllerName(flag, value string) error {
	if value == "" {
		return fmt.Errorf("%s %q must be a non-empty label value", flag, value)
	}
	if msgs := validation.IsValidLabelValue(value); len(msgs) > 0 {
		return fmt.Errorf("%s %q is not a label value (63 characters at most, alphanumerics with -, _ or . inside): %s", flag, value, strings.Join(msgs, "; "))
	}
	return nil
}

// Distinct returns one error for each pair of names with the same value:
// two controllers with one managed-by value would each delete or rewrite
// the other's slices (docs/kep4770.md (a)). Empty values are left to
// ControllerName.
func Distinct(names ...ManagedBy) []error {
	var errs []error
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[i].Value != "" && names[i].Value == names[j].Value {
				errs = append(errs, fmt.Errorf("%s and %s are both %q: each controller needs its own managed-by value",
					names[i].Flag, names[j].Flag, names[i].Value))
			}
		}
	}
	return errs
}

// InRange returns an error naming flag unless 1 <= n <= limit (KCM's
// ranges for --max-endpoints-per-slice, reconciler.MaxEndpointsPerSliceLimit,
// and --mirroring-max-endpoints-per-subset).
func InRange(flag string, n, limit int32) error {
	if n < 1 || n > limit {
		return fmt.Errorf("%s=%d must be between 1 and %d", flag, n, limit)
	}
	return nil
}

// WorkerCount returns an error naming flag unless 1 <= n <=
// MaxConcurrentServiceEndpointSyncs (KCM's range for its worker counts).
func WorkerCount(flag string, n int32) error {
	return InRange(flag, n, MaxConcurrentServiceEndpointSyncs)
}

// NonNegative returns an error naming flag when d is negative.
func NonNegative(flag string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%s=%s must not be negative", flag, d)
	}
	return nil
}
