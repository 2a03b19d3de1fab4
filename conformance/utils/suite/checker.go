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

	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/registry"
)

// loadForCheck lists namespace ns for `slicekit check` (check.LoadCluster)
// with the kinds slicekit's built-in controllers read (ResourceClaims
// too), and returns the check's Config: the default controller is the
// implementation under test when it claims SupportDefaultController, and
// the built-in controllers' oracles (at their default names) judge the
// Services delegated to them.
func (s *ConformanceTestSuite) loadForCheck(ctx context.Context, ns string) (*check.Inventory, check.Config, error) {
	kinds, err := builtin.InputKinds()
	if err != nil {
		return nil, check.Config{}, err
	}
	inv, err := check.LoadCluster(ctx, s.Client, ns, kinds)
	if err != nil {
		return nil, check.Config{}, err
	}
	cfg := check.Config{Oracles: registry.Oracles(builtin.Registrations(), nil)}
	if s.SupportsFeature(SupportDefaultController) {
		cfg.DefaultControllerName = s.ControllerName
	}
	return inv, cfg, nil
}
