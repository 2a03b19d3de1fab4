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

package mirroring

import (
	"context"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// RegistrationName is the --controllers name of the mirroring controller
// (KCM: endpointslice-mirroring-controller).
const RegistrationName = "endpointslice-mirroring"

// Registration registers the mirroring controller with the manager
// (pkg/manager): enabled by default,
// --mirroring-concurrent-service-endpoint-syncs workers, its --mirroring-*
// flags (Options); a Service labelled with the shared --controller-name is
// not delegated (KEP-4770: that name means "the default"). It reads
// Services, Endpoints and EndpointSlices, and writes the managed-by value
// wellknown.MirroringControllerName.
var Registration = registry.Registration{
	Name:             RegistrationName,
	Aliases:          []string{"endpointslice-mirroring-controller", "endpointslicemirroring"},
	EnabledByDefault: true,
	NewOptions:       func() registry.Options { return NewOptions() },
	Workers:          func(ic registry.InitContext) int { return int(optionsOf(ic).MirroringConcurrentServiceEndpointSyncs) },
	New:              newFromRegistry,
	RBACRules:        RBACRules,
	Reads: informertransform.Reads{Informers: []informertransform.Informer{
		informertransform.Services, informertransform.Endpoints, informertransform.EndpointSlices,
	}},
	ManagedBy: func(registry.InitContext) []registry.ManagedBy {
		return []registry.ManagedBy{{Flag: "the mirroring controller's managed-by value", Value: wellknown.MirroringControllerName}}
	},
}

// optionsOf returns ic's Options, the defaults when ic has none.
func optionsOf(ic registry.InitContext) *Options { return registry.OptionsAs(ic, NewOptions) }

// newFromRegistry is Registration.New: New with the Options the flags were
// bound to (defaulted by NewOptions, checked by Validate) and what the
// shared settings and ic give.
func newFromRegistry(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
	opts := *optionsOf(ic)
	gate := ic.Shared.ExternalEndpointControllerEnabled()
	cleanup := ic.Shared.SelectorRemovalCleanupEnabled()
	opts.ExternalEndpointController = &gate
	opts.SelectorRemovalCleanup = &cleanup
	opts.AcceptedControllerNames = []string{ic.Shared.ControllerName}
	opts.Registerer = ic.Registerer
	opts.EventRecorder = ic.EventRecorder
	return New(ctx, ic.Client, ic.InformerFactory, opts)
}
