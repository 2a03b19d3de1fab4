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
	"errors"
	"time"

	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// RegistrationName is the --controllers name of the mirroring controller
// (KCM: endpointslice-mirroring-controller).
const RegistrationName = "endpointslice-mirroring"

// Flags are the mirroring controller's command-line options (KCM's
// --mirroring-* flags).
type Flags struct {
	// MaxEndpointsPerSubset is --mirroring-max-endpoints-per-subset,
	// 1..1000. Default: DefaultMaxEndpointsPerSubset.
	MaxEndpointsPerSubset int32
	// ConcurrentServiceEndpointSyncs is
	// --mirroring-concurrent-service-endpoint-syncs, 1..50. Default:
	// DefaultConcurrentServiceEndpointSyncs.
	ConcurrentServiceEndpointSyncs int32
	// EndpointSliceUpdatesBatchPeriod is
	// --mirroring-endpointslice-updates-batch-period. Default: 0.
	EndpointSliceUpdatesBatchPeriod time.Duration
}

// NewFlags returns the default Flags (KCM's).
func NewFlags() *Flags {
	return &Flags{
		MaxEndpointsPerSubset:          DefaultMaxEndpointsPerSubset,
		ConcurrentServiceEndpointSyncs: DefaultConcurrentServiceEndpointSyncs,
	}
}

// AddFlags adds every flag of f to fs.
func (f *Flags) AddFlags(fs *pflag.FlagSet) {
	f.AddRenderFlags(fs)
	fs.Int32Var(&f.ConcurrentServiceEndpointSyncs, "mirroring-concurrent-service-endpoint-syncs", f.ConcurrentServiceEndpointSyncs,
		"The number of Endpoints objects the mirroring controller syncs at once, 1..50.")
	fs.DurationVar(&f.EndpointSliceUpdatesBatchPeriod, "mirroring-endpointslice-updates-batch-period", f.EndpointSliceUpdatesBatchPeriod,
		"How long the mirroring controller waits after an EndpointSlice change before syncing, so that several changes make one write.")
}

// AddRenderFlags adds --mirroring-max-endpoints-per-subset to fs.
func (f *Flags) AddRenderFlags(fs *pflag.FlagSet) {
	fs.Int32Var(&f.MaxEndpointsPerSubset, "mirroring-max-endpoints-per-subset", f.MaxEndpointsPerSubset,
		"The most addresses the mirroring controller mirrors per Endpoints subset, 1..1000 (ready addresses first; the rest is skipped with a Warning Event).")
}

// Validate reports every flag outside KCM's range, whether or not the
// controller is enabled (as KCM validates its configuration).
func (f *Flags) Validate(bool) error {
	return errors.Join(
		registry.InRange("--mirroring-max-endpoints-per-subset", f.MaxEndpointsPerSubset, endpointsmirroring.MaxEndpointsPerSubsetLimit),
		registry.WorkerCount("--mirroring-concurrent-service-endpoint-syncs", f.ConcurrentServiceEndpointSyncs),
		registry.NonNegative("--mirroring-endpointslice-updates-batch-period", f.EndpointSliceUpdatesBatchPeriod),
	)
}

// Registration registers the mirroring controller with the manager
// (pkg/manager): enabled by default,
// --mirroring-concurrent-service-endpoint-syncs workers, its --mirroring-*
// flags (Flags); a Service labelled with the shared --controller-name is
// not delegated (KEP-4770: that name means "the default"). It reads
// Services, Endpoints and EndpointSlices, and writes the managed-by value
// wellknown.MirroringControllerName.
var Registration = registry.Registration{
	Name:             RegistrationName,
	Aliases:          []string{"endpointslice-mirroring-controller", "endpointslicemirroring"},
	EnabledByDefault: true,
	NewOptions:       func() registry.Options { return NewFlags() },
	Workers:          func(ic registry.InitContext) int { return int(flagsOf(ic).ConcurrentServiceEndpointSyncs) },
	New:              newFromRegistry,
	RBACRules:        RBACRules,
	Reads: informertransform.Reads{Informers: []informertransform.Informer{
		informertransform.Services, informertransform.Endpoints, informertransform.EndpointSlices,
	}},
	ManagedBy: func(registry.InitContext) []registry.ManagedBy {
		return []registry.ManagedBy{{Flag: "the mirroring controller's managed-by value", Value: wellknown.MirroringControllerName}}
	},
}

// flagsOf returns ic's Flags, the defaults when ic has none.
func flagsOf(ic registry.InitContext) *Flags { return registry.OptionsAs(ic, NewFlags) }

// newFromRegistry is Registration.New.
func newFromRegistry(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
	f := flagsOf(ic)
	gate := ic.Shared.ExternalEndpointControllerEnabled()
	cleanup := ic.Shared.SelectorRemovalCleanupEnabled()
	return New(ctx, ic.Client, ic.InformerFactory, Options{
		MirroringMaxEndpointsPerSubset:           f.MaxEndpointsPerSubset,
		MirroringConcurrentServiceEndpointSyncs:  f.ConcurrentServiceEndpointSyncs,
		MirroringEndpointSliceUpdatesBatchPeriod: f.EndpointSliceUpdatesBatchPeriod,
		ExternalEndpointController:               &gate,
		SelectorRemovalCleanup:                   &cleanup,
		AcceptedControllerNames:                  []string{ic.Shared.ControllerName},
		Registerer:                               ic.Registerer,
		EventRecorder:                            ic.EventRecorder,
	})
}
