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

package suite

import (
	"context"
	"slices"
	"strings"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/slicekit/slicekit/pkg/check"
)

// ConsumerFindings runs `slicekit check` (package pkg/check) over namespace
// ns and returns, as strings, the findings of its consumer rules
// (check.ConsumerRules, any severity) on the slices of the controller
// under test and on the Services named in services (the rules that judge
// all slices of a Service together report on the Service).
func (s *ConformanceTestSuite) ConsumerFindings(ctx context.Context, ns string, services ...string) ([]string, error) {
	inv, cfg, err := s.loadForCheck(ctx, ns)
	if err != nil {
		return nil, err
	}
	ours := map[string]bool{}
	for _, sl := range inv.EndpointSlices {
		if sl.Labels[discovery.LabelManagedBy] == s.ControllerName {
			ours[sl.Name] = true
		}
	}
	var out []string
	for _, f := range check.Check(ctx, inv, cfg).Findings {
		if !slices.Contains(check.ConsumerRules(), f.Rule) {
			continue
		}
		if f.Object.Kind == "EndpointSlice" && ours[f.Object.Name] || f.Object.Kind == "Service" && slices.Contains(services, f.Object.Name) {
			out = append(out, f.String())
		}
	}
	return out, nil
}

// ConsumerRulesMustPass waits (SlicesConverge) until ConsumerFindings has
// nothing to say about the controller's slices in ns and the Services
// named, and fails t otherwise.
func (s *ConformanceTestSuite) ConsumerRulesMustPass(t *testing.T, ns string, services ...string) {
	t.Helper()
	var found []string
	err := wait.PollUntilContextTimeout(t.Context(), s.TimeoutConfig.PollInterval, s.TimeoutConfig.SlicesConverge, true, func(ctx context.Context) (bool, error) {
		var err error
		if found, err = s.ConsumerFindings(ctx, ns, services...); err != nil {
			found = []string{err.Error()}
			return false, nil
		}
		return len(found) == 0, nil
	})
	if err != nil {
		t.Errorf("slicekit check's consumer rules find, after %s, on the slices of %s in %s:\n  %s",
			s.TimeoutConfig.SlicesConverge, s.ControllerName, ns, strings.Join(found, "\n  "))
	}
}
