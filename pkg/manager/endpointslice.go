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

	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
)

// EndpointSliceControllerName is the --controllers name of the
// EndpointSlice controller (KCM: endpointslice-controller).
const EndpointSliceControllerName = "endpointslice"

func init() {
	registry[EndpointSliceControllerName] = Registration{
		Name:             EndpointSliceControllerName,
		Aliases:          []string{"endpointslice-controller"},
		EnabledByDefault: true,
		Workers:          func(o *ControllerOptions) int { return int(o.ConcurrentServiceEndpointSyncs) },
		New:              newEndpointSliceController,
		RBACRules:        endpointslice.RBACRules,
	}
}

// newEndpointSliceController is the registry's InitFunc of the
// EndpointSlice controller.
func newEndpointSliceController(ctx context.Context, ic InitContext) (Controller, error) {
	gate := ic.Options.ExternalEndpointControllerEnabled()
	cleanup := ic.Options.SelectorRemovalCleanupEnabled()
	c, err := endpointslice.New(ctx, ic.Client, ic.InformerFactory, endpointslice.Options{
		ControllerName:             ic.Options.ControllerName,
		MaxEndpointsPerSlice:       ic.Options.MaxEndpointsPerSlice,
		BatchPeriod:                ic.Options.EndpointUpdatesBatchPeriod,
		ExternalEndpointController: &gate,
		SelectorRemovalCleanup:     &cleanup,
		Registerer:                 ic.Registerer,
		EventRecorder:              ic.EventRecorder,
		// With the CEL controllers Pods must stay whole in the shared
		// informer; otherwise the secondary-network controller, built
		// later, installs a Pod transform that keeps what both read.
		SkipInformerTransforms: ic.Options.celEnabled(),
	})
	if err != nil {
		return nil, err
	}
	// The controller's SyncAll (slicecontroller) syncs every Service of
	// the cache in namespace/name order.
	return c, nil
}
