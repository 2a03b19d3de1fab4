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

	"github.com/slicekit/slicekit/pkg/controllers/endpoints"
	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
)

// MirroringControllerName is the --controllers name of the EndpointSlice
// mirroring controller (KCM: endpointslice-mirroring-controller).
const MirroringControllerName = "endpointslice-mirroring"

// EndpointsControllerName is the --controllers name of the Endpoints
// controller (KCM: endpoints-controller). It is not enabled by default:
// replacing KCM's EndpointSlice and mirroring controllers is the usual
// deployment (see README, "Replacing KCM's controllers").
const EndpointsControllerName = "endpoints"

func init() {
	registry[MirroringControllerName] = Registration{
		Name:             MirroringControllerName,
		Aliases:          []string{"endpointslice-mirroring-controller", "endpointslicemirroring"},
		EnabledByDefault: true,
		Workers:          func(o *ControllerOptions) int { return int(o.MirroringConcurrentServiceEndpointSyncs) },
		New:              newMirroringController,
		RBACRules:        mirroring.RBACRules,
	}
	registry[EndpointsControllerName] = Registration{
		Name:      EndpointsControllerName,
		Aliases:   []string{"endpoints-controller", "endpoint"},
		Workers:   func(o *ControllerOptions) int { return int(o.ConcurrentEndpointSyncs) },
		New:       newEndpointsController,
		RBACRules: endpoints.RBACRules,
	}
}

// newMirroringController is the registry's InitFunc of the mirroring
// controller. A Service labelled with the EndpointSlice controller's own
// name is not delegated (KEP-4770: that name means "the default").
func newMirroringController(ctx context.Context, ic InitContext) (Controller, error) {
	gate := ic.Options.ExternalEndpointControllerEnabled()
	cleanup := ic.Options.SelectorRemovalCleanupEnabled()
	return mirroring.New(ctx, ic.Client, ic.InformerFactory, mirroring.Options{
		MirroringMaxEndpointsPerSubset:           ic.Options.MirroringMaxEndpointsPerSubset,
		MirroringConcurrentServiceEndpointSyncs:  ic.Options.MirroringConcurrentServiceEndpointSyncs,
		MirroringEndpointSliceUpdatesBatchPeriod: ic.Options.MirroringEndpointSliceUpdatesBatchPeriod,
		ExternalEndpointController:               &gate,
		SelectorRemovalCleanup:                   &cleanup,
		AcceptedControllerNames:                  []string{ic.Options.ControllerName},
		Registerer:                               ic.Registerer,
		EventRecorder:                            ic.EventRecorder,
	})
}

// newEndpointsController is the registry's InitFunc of the Endpoints
// controller.
func newEndpointsController(ctx context.Context, ic InitContext) (Controller, error) {
	gate := ic.Options.ExternalEndpointControllerEnabled()
	cleanup := ic.Options.SelectorRemovalCleanupEnabled()
	return endpoints.New(ctx, ic.Client, ic.InformerFactory, endpoints.Options{
		ConcurrentEndpointSyncs:    ic.Options.ConcurrentEndpointSyncs,
		EndpointUpdatesBatchPeriod: ic.Options.EndpointUpdatesBatchPeriod,
		ExternalEndpointController: &gate,
		SelectorRemovalCleanup:     &cleanup,
		AcceptedControllerNames:    []string{ic.Options.ControllerName},
		Registerer:                 ic.Registerer,
		EventRecorder:              ic.EventRecorder,
	})
}
