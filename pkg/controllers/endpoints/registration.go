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

	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
)

// RegistrationName is the --controllers name of the Endpoints controller
// (KCM: endpoints-controller). It is not enabled by default: replacing
// KCM's EndpointSlice and mirroring controllers is the usual deployment
// (docs/managed-clusters.md, "Replacing KCM's controllers").
const RegistrationName = "endpoints"

// Flags are the Endpoints controller's command-line options.
type Flags struct {
	// ConcurrentEndpointSyncs is --concurrent-endpoint-syncs, 1..50.
	// Default: DefaultConcurrentEndpointSyncs.
	ConcurrentEndpointSyncs int32
}

// NewFlags returns the default Flags (KCM's).
func NewFlags() *Flags {
	return &Flags{ConcurrentEndpointSyncs: DefaultConcurrentEndpointSyncs}
}

// AddFlags adds --concurrent-endpoint-syncs to fs.
func (f *Flags) AddFlags(fs *pflag.FlagSet) {
	fs.Int32Var(&f.ConcurrentEndpointSyncs, "concurrent-endpoint-syncs", f.ConcurrentEndpointSyncs,
		"The number of Services the Endpoints controller syncs at once, 1..50 (it also uses --endpoint-updates-batch-period).")
}

// AddRenderFlags adds nothing: the worker count does not shape output.
func (f *Flags) AddRenderFlags(*pflag.FlagSet) {}

// Validate reports a worker count outside KCM's range, whether or not the
// controller is enabled.
func (f *Flags) Validate(bool) error {
	return registry.WorkerCount("--concurrent-endpoint-syncs", f.ConcurrentEndpointSyncs)
}

// Registration registers the Endpoints controller with the manager
// (pkg/manager): not enabled by default, --concurrent-endpoint-syncs
// workers (Flags), the shared --endpoint-updates-batch-period and
// --controller-name (accepted as "the default" in the KEP-4770 label). It
// reads Services, Pods and Endpoints; it updates Endpoints read from the
// cache, so it declares AllEndpointsFields (a trimmed cache would make an
// update delete the last-applied annotation). It writes Endpoints, not
// EndpointSlices: no managed-by value.
var Registration = registry.Registration{
	Name:       RegistrationName,
	Aliases:    []string{"endpoints-controller", "endpoint"},
	NewOptions: func() registry.Options { return NewFlags() },
	Workers:    func(ic registry.InitContext) int { return int(flagsOf(ic).ConcurrentEndpointSyncs) },
	New:        newFromRegistry,
	RBACRules:  RBACRules,
	Reads: informertransform.Reads{
		Informers:          []informertransform.Informer{informertransform.Services, informertransform.Pods, informertransform.Endpoints},
		AllEndpointsFields: true,
	},
}

// flagsOf returns ic's Flags, the defaults when ic has none.
func flagsOf(ic registry.InitContext) *Flags { return registry.OptionsAs(ic, NewFlags) }

// newFromRegistry is Registration.New.
func newFromRegistry(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
	gate := ic.Shared.ExternalEndpointControllerEnabled()
	cleanup := ic.Shared.SelectorRemovalCleanupEnabled()
	return New(ctx, ic.Client, ic.InformerFactory, Options{
		ConcurrentEndpointSyncs:    flagsOf(ic).ConcurrentEndpointSyncs,
		EndpointUpdatesBatchPeriod: ic.Shared.EndpointUpdatesBatchPeriod,
		ExternalEndpointController: &gate,
		SelectorRemovalCleanup:     &cleanup,
		AcceptedControllerNames:    []string{ic.Shared.ControllerName},
		Registerer:                 ic.Registerer,
		EventRecorder:              ic.EventRecorder,
	})
}
