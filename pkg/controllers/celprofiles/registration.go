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

package celprofiles

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/celpods"
)

// RegistrationName is the --controllers name of the CEL profile
// controllers (one per profile of --cel-config).
const RegistrationName = "cel"

// Flags are the CEL controllers' command-line options.
type Flags struct {
	// ConfigFile is --cel-config, the CEL profile file; required when the
	// controller is enabled.
	ConfigFile string

	// config is ConfigFile as Validate loaded it.
	config *celpods.Config
}

// NewFlags returns the default Flags (no profile file).
func NewFlags() *Flags { return &Flags{} }

// AddFlags adds every flag of f to fs (all shape output: AddRenderFlags).
func (f *Flags) AddFlags(fs *pflag.FlagSet) { f.AddRenderFlags(fs) }

// AddRenderFlags adds --cel-config to fs.
func (f *Flags) AddRenderFlags(fs *pflag.FlagSet) {
	fs.StringVar(&f.ConfigFile, "cel-config", f.ConfigFile,
		"The CEL profile file of the cel controller (one controller per profile; see examples/cel).")
}

// Validate, when the controller is enabled, requires --cel-config and
// loads, compiles and type-checks it (celpods.LoadConfig, CompileConfig);
// the errors name --cel-config. When the controller is not enabled it
// refuses --cel-config, so that profiles cannot be silently ignored (as
// --selectorless-cleanup-dry-run without its controller).
func (f *Flags) Validate(enabled bool) error {
	f.config = nil
	if !enabled {
		if f.ConfigFile != "" {
			return fmt.Errorf("--cel-config needs the %s controller: add it to --controllers", RegistrationName)
		}
		return nil
	}
	if f.ConfigFile == "" {
		return errors.New("--cel-config is required with the cel controller")
	}
	cfg, err := celpods.LoadConfig(f.ConfigFile)
	if err != nil {
		return fmt.Errorf("--cel-config: %w", err)
	}
	if _, err := celpods.CompileConfig(cfg); err != nil {
		return fmt.Errorf("--cel-config: %w", err)
	}
	f.config = cfg
	return nil
}

// Registration registers the CEL controllers with the manager
// (pkg/manager): not enabled by default, --concurrent-service-endpoint-syncs
// workers, the shared --max-endpoints-per-slice and
// --endpoint-updates-batch-period, its own --cel-config (Flags). A CEL
// expression may read any field of a Pod or Service, so it declares
// AllPodFields and AllServiceFields: Pods and Services stay whole, Nodes
// and EndpointSlices are trimmed. Its managed-by values are the profile
// names, checked against the other controllers' (CheckManagedBy).
var Registration = registry.Registration{
	Name:              RegistrationName,
	NewOptions:        func() registry.Options { return NewFlags() },
	Workers:           registry.ServiceWorkers,
	New:               newFromRegistry,
	RBACRules:         RBACRules,
	Reads:             reads(),
	CheckManagedBy:    checkProfileNames,
	AdmissionPolicies: admissionPolicies,
}

// admissionPolicies is Registration.AdmissionPolicies: per profile, the
// Pod annotations and labels it declares must be guarded (none declared:
// no input need), and so must its slices.
func admissionPolicies(ic registry.InitContext) []admissionpolicy.Need {
	f := flagsOf(ic)
	if f.config == nil {
		return nil
	}
	var needs []admissionpolicy.Need
	for _, p := range f.config.Profiles {
		if keys := append(slices.Clone(p.PodAnnotations), p.PodLabels...); len(keys) > 0 {
			needs = append(needs, admissionpolicy.Need{Controller: p.Name, Policy: admissionpolicy.PolicyInputs, Keys: keys})
		}
		needs = append(needs, admissionpolicy.Need{Controller: p.Name, Policy: admissionpolicy.PolicyOutputs, Keys: []string{p.Name}})
	}
	return needs
}

// reads is slicecontroller.Reads with every Pod and Service field.
func reads() informertransform.Reads {
	r := slicecontroller.GuardedReads()
	r.AllPodFields, r.AllServiceFields = true, true
	return r
}

// flagsOf returns ic's Flags, the defaults when ic has none.
func flagsOf(ic registry.InitContext) *Flags { return registry.OptionsAs(ic, NewFlags) }

// checkProfileNames returns an error for each profile named like another
// enabled controller's managed-by value: both would write the same slices.
func checkProfileNames(ic registry.InitContext, others []registry.ManagedBy) []error {
	f := flagsOf(ic)
	if f.config == nil {
		return nil // not validated, or invalid: Validate reported it
	}
	var errs []error
	for _, p := range f.config.Profiles {
		for _, o := range others {
			if p.Name == o.Value {
				errs = append(errs, fmt.Errorf("--cel-config: profile name %q is taken: %s is %q too", p.Name, o.Flag, o.Value))
				break
			}
		}
	}
	return errs
}

// newFromRegistry is Registration.New.
func newFromRegistry(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
	return New(ctx, ic.Client, ic.InformerFactory, Options{ConfigFile: flagsOf(ic).ConfigFile, Common: ic.Common()})
}
