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

package endpoints

import (
	"context"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
)

// RegistrationName is the --controllers name of the Endpoints controller
// (KCM: endpoints-controller). It is not enabled by default: replacing
// KCM's EndpointSlice and mirroring controllers is the usual deployment
// (docs/managed-clusters.md, "Replacing KCM's controllers").
const RegistrationName = "endpoints"

// Registration registers the Endpoints controller with the manager
// (pkg/manager): not enabled by default, --concurrent-endpoint-syncs
// workers (Options), the shared --endpoint-updates-batch-period and
// --controller-name (accepted as "the default" in the KEP-4770 label). It
// reads Services, Pods and Endpoints; it updates Endpoints read from the
// cache, so it declares AllEndpointsFields (a trimmed cache would make an
// update delete the last-applied annotation). It writes Endpoints, not
// EndpointSlices: no managed-by value.
var Registration = registry.Registration{
	Name:       RegistrationName,
	Aliases:    []string{"endpoints-controller", "endpoint"},
	NewOptions: func() registry.Options { return NewOptions() },
	Workers:    func(ic registry.InitContext) int { return int(optionsOf(ic).ConcurrentEndpointSyncs) },
	New:        newFromRegistry,
	RBACRules:  RBACRules,
	Reads: informertransform.Reads{
		Informers:          []informertransform.Informer{informertransform.Services, informertransform.Pods, informertransform.Endpoints},
		AllEndpointsFields: true,
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
	opts.EndpointUpdatesBatchPeriod = ic.Shared.BatchPeriod
	opts.ExternalEndpointController = &gate
	opts.SelectorRemovalCleanup = &cleanup
	opts.AcceptedControllerNames = []string{ic.Shared.ControllerName}
	opts.Registerer = ic.Registerer
	opts.EventRecorder = ic.EventRecorder
	return New(ctx, ic.Client, ic.InformerFactory, opts)
}
