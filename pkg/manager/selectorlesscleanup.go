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

package manager

import (
	"context"

	"github.com/slicekit/slicekit/pkg/controllers/selectorlesscleanup"
)

// SelectorlessCleanupControllerName is the --controllers name of the
// selectorless-cleanup controller (pkg/controllers/selectorlesscleanup):
// opt-in, for clusters whose kube-controller-manager keeps its endpoint
// controllers (README "On managed clusters").
const SelectorlessCleanupControllerName = "selectorless-cleanup"

func init() {
	registry[SelectorlessCleanupControllerName] = Registration{
		Name:      SelectorlessCleanupControllerName,
		Workers:   func(*ControllerOptions) int { return 2 },
		RBACRules: selectorlesscleanup.RBACRules,
		New: func(ctx context.Context, ic InitContext) (Controller, error) {
			return selectorlesscleanup.New(ctx, ic.Client, ic.InformerFactory, selectorlesscleanup.Options{
				DryRun:        ic.Options.SelectorlessCleanupDryRun,
				Registerer:    ic.Registerer,
				EventRecorder: ic.EventRecorder,
			})
		},
	}
}
