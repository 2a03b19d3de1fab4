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

package endpointslice

import (
	"context"

	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
)

// RegistrationName is the --controllers name of this controller (KCM:
// endpointslice-controller).
const RegistrationName = "endpointslice"

// Registration registers this controller with the manager (pkg/manager):
// enabled by default, --concurrent-service-endpoint-syncs workers, the
// shared --controller-name, --max-endpoints-per-slice,
// --endpoint-updates-batch-period, --endpoint-updates-burst-quiet-period
// and feature gates, no options of its own. It reads Pods, Services,
// EndpointSlices and Nodes, no Pod annotation; its managed-by value is the
// shared --controller-name, which the manager always checks.
var Registration = registry.Registration{
	Name:             RegistrationName,
	Aliases:          []string{"endpointslice-controller"},
	EnabledByDefault: true,
	Workers:          registry.ServiceWorkers,
	New:              newFromRegistry,
	RBACRules:        RBACRules,
	Reads:            slicecontroller.Reads(),
}

// newFromRegistry is Registration.New.
func newFromRegistry(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
	gate := ic.Shared.ExternalEndpointControllerEnabled()
	cleanup := ic.Shared.SelectorRemovalCleanupEnabled()
	return New(ctx, ic.Client, ic.InformerFactory, Options{
		ControllerName:             ic.Shared.ControllerName,
		MaxEndpointsPerSlice:       ic.Shared.MaxEndpointsPerSlice,
		BatchPeriod:                ic.Shared.BatchPeriod,
		BurstQuietPeriod:           ic.Shared.EndpointUpdatesBurstQuietPeriod,
		ExternalEndpointController: &gate,
		SelectorRemovalCleanup:     &cleanup,
		Registerer:                 ic.Registerer,
		EventRecorder:              ic.EventRecorder,
		Pacer:                      ic.Pacer,
	})
}
