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

// Package controllerflags validates the controller settings that several
// commands share, so that `slicekit run`, `slicekit render` and `slicekit
// check` accept and refuse the same values with the same words: the
// EndpointSlice limits (KCM --max-endpoints-per-slice,
// --mirroring-max-endpoints-per-subset) and the managed-by values of the
// controllers (label values that must differ, or two controllers fight over
// the same slices; docs/kep4770.md (a)).
package controllerflags

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
)

// MaxEndpointsPerSlice returns an error naming --max-endpoints-per-slice
// unless 1 <= n <= reconciler.MaxEndpointsPerSliceLimit (KCM's range,
// pkg/controller/endpointslice/config/validation).
func MaxEndpointsPerSlice(n int32) error {
	return inRange("--max-endpoints-per-slice", n, reconciler.MaxEndpointsPerSliceLimit)
}

// MirroringMaxEndpointsPerSubset returns an error naming
// --mirroring-max-endpoints-per-subset unless 1 <= n <=
// endpointsmirroring.MaxEndpointsPerSubsetLimit (KCM's range).
func MirroringMaxEndpointsPerSubset(n int32) error {
	return inRange("--mirroring-max-endpoints-per-subset", n, endpointsmirroring.MaxEndpointsPerSubsetLimit)
}

func inRange(flag string, n, limit int32) error {
	if n < 1 || n > limit {
		return fmt.Errorf("%s=%d must be between 1 and %d", flag, n, limit)
	}
	return nil
}

// ControllerName returns an error unless value, given with flag (such as
// "--controller-name"), is a non-empty label value: a managed-by value
// (endpointslice.kubernetes.io/managed-by) is a label value, and an empty
// one claims nothing.
func ControllerName(flag, value string) error {
	if value == "" {
		return fmt.Errorf("%s %q must be a non-empty label value", flag, value)
	}
	if msgs := validation.IsValidLabelValue(value); len(msgs) > 0 {
		return fmt.Errorf("%s %q is not a label value (63 characters at most, alphanumerics with -, _ or . inside): %s", flag, value, strings.Join(msgs, "; "))
	}
	return nil
}

// Name is a controller's managed-by value and what sets it: a flag
// ("--controller-name") or a description ("the mirroring controller's
// managed-by value").
type Name struct {
	// Flag is the flag or description of the value.
	Flag string
	// Value is the managed-by value.
	Value string
}

// Distinct returns one error for each pair of names with the same value:
// two controllers with one managed-by value would each delete or rewrite
// the other's slices. Empty values are left to ControllerName.
func Distinct(names ...Name) []error {
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
