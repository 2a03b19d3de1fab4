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

package selectorlesscleanup

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
)

// RegistrationName is the --controllers name of this controller: opt-in,
// for clusters whose kube-controller-manager keeps its endpoint
// controllers (docs/managed-clusters.md).
const RegistrationName = "selectorless-cleanup"

// Flags are this controller's command-line options.
type Flags struct {
	// DryRun is --selectorless-cleanup-dry-run (Options.DryRun).
	DryRun bool
}

// AddFlags adds every flag of f to fs (all shape output: AddRenderFlags).
func (f *Flags) AddFlags(fs *pflag.FlagSet) { f.AddRenderFlags(fs) }

// AddRenderFlags adds --selectorless-cleanup-dry-run to fs.
func (f *Flags) AddRenderFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&f.DryRun, "selectorless-cleanup-dry-run", f.DryRun,
		"The selectorless-cleanup controller only reports (Events, log, metric) the leftovers of kube-controller-manager it would delete for Services without selector or of type ExternalName, and deletes nothing.")
}

// Validate refuses --selectorless-cleanup-dry-run without the controller:
// a dry run that silently does nothing would let an operator believe
// leftovers are being reported.
func (f *Flags) Validate(enabled bool) error {
	if f.DryRun && !enabled {
		return fmt.Errorf("--selectorless-cleanup-dry-run needs the %s controller: add it to --controllers", RegistrationName)
	}
	return nil
}

// Registration registers this controller with the manager (pkg/manager):
// not enabled by default, 2 workers, its --selectorless-cleanup-dry-run
// (Flags). It reads Services, EndpointSlices and Endpoints and deletes,
// never writes, slices: no managed-by value.
var Registration = registry.Registration{
	Name:       RegistrationName,
	NewOptions: func() registry.Options { return &Flags{} },
	Workers:    func(registry.InitContext) int { return 2 },
	RBACRules:  RBACRules,
	Reads: informertransform.Reads{Informers: []informertransform.Informer{
		informertransform.Services, informertransform.EndpointSlices, informertransform.Endpoints,
	}},
	New: func(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
		f, _ := ic.Options.(*Flags)
		return New(ctx, ic.Client, ic.InformerFactory, Options{
			DryRun:        f != nil && f.DryRun,
			Registerer:    ic.Registerer,
			EventRecorder: ic.EventRecorder,
		})
	},
}
