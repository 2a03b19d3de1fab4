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

package builtin

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/registry"
)

// ControllerOptions configure the controllers. `slicekit run` and
// `slicekit render` share them, so that both run the controllers the same
// way. Create them with NewControllerOptions.
//
// They are composed of --controllers, the settings several controllers
// share (registry.Shared, embedded: ControllerName, MaxEndpointsPerSlice,
// ConcurrentServiceEndpointSyncs, BatchPeriod, AddressGuard,
// FeatureGates) and each registered controller's own options (For), which
// the controller's package defaults, binds and validates.
type ControllerOptions struct {
	// Controllers lists the controllers to enable, in KCM's --controllers
	// syntax: "*" enables every controller enabled by default, "name"
	// enables one, "-name" disables one. See KnownControllers.
	Controllers []string

	registry.Shared

	// options are the registered controllers' own options, by name.
	options map[string]registry.Options
}

// NewControllerOptions returns the default controller options.
func NewControllerOptions() *ControllerOptions {
	o := &ControllerOptions{
		Controllers: []string{"*"},
		Shared:      registry.NewShared(),
		options:     map[string]registry.Options{},
	}
	for _, r := range registrations {
		if r.NewOptions != nil {
			o.options[r.Name] = r.NewOptions()
		}
	}
	return o
}

// For returns the own options of the controller registered as name (for
// example a *mirroring.Options), nil when it has none.
func (o *ControllerOptions) For(name string) registry.Options { return o.options[name] }

// AddFlags adds every controller flag to fs: --controllers, the shared
// flags and every registered controller's flags.
func (o *ControllerOptions) AddFlags(fs *pflag.FlagSet) {
	o.addFlags(fs, (*registry.Shared).AddFlags, registry.Options.AddFlags)
}

// AddRenderFlags adds the controller flags that shape output (no workers,
// no batching) to fs: --controllers, --controller-name,
// --max-endpoints-per-slice, --feature-gates and each registered
// controller's render flags.
func (o *ControllerOptions) AddRenderFlags(fs *pflag.FlagSet) {
	o.addFlags(fs, (*registry.Shared).AddRenderFlags, registry.Options.AddRenderFlags)
}

// addFlags adds --controllers, then the flags shared adds of the shared
// settings, then the flags own adds of each controller's options.
func (o *ControllerOptions) addFlags(fs *pflag.FlagSet, shared func(*registry.Shared, *pflag.FlagSet), own func(registry.Options, *pflag.FlagSet)) {
	o.addControllersFlag(fs)
	shared(&o.Shared, fs)
	for _, r := range registrations {
		if opts := o.options[r.Name]; opts != nil {
			own(opts, fs)
		}
	}
}

func (o *ControllerOptions) addControllersFlag(fs *pflag.FlagSet) {
	fs.StringSliceVar(&o.Controllers, "controllers", o.Controllers, fmt.Sprintf(
		"The controllers to enable. '*' enables every controller enabled by default, 'foo' enables foo, '-foo' disables foo. "+
			"Known controllers: %s. Enabled by default: %s.",
		strings.Join(KnownControllers(), ", "), strings.Join(DefaultControllers(), ", ")))
}

// Complete folds the KCM alias --endpointslice-updates-batch-period into
// BatchPeriod (registry.Shared.Complete).
func (o *ControllerOptions) Complete() error { return o.Shared.Complete() }

// Validate reports every invalid controller option: --controllers, the
// shared settings, each controller's own options (told whether it is
// enabled) and, across the enabled controllers, their managed-by values
// (validateManagedBy). With an invalid --controllers only the shared
// settings are validated besides.
func (o *ControllerOptions) Validate() error {
	var errs []error
	if enabled, err := o.EnabledControllers(); err != nil {
		errs = append(errs, err)
	} else {
		valid := map[string]bool{}
		for _, r := range registrations {
			opts := o.options[r.Name]
			if opts == nil {
				valid[r.Name] = true
				continue
			}
			err := opts.Validate(slices.Contains(enabled, r.Name))
			valid[r.Name] = err == nil
			errs = append(errs, err)
		}
		errs = append(errs, o.validateManagedBy(enabled, valid)...)
	}
	errs = append(errs, o.Shared.Validate())
	return errors.Join(errs...)
}

// validateManagedBy checks the managed-by values of the enabled
// controllers, as their registrations declare them: --controller-name
// (shared; the EndpointSlice controller's, and "the default" of the
// mirroring and Endpoints controllers) and each ManagedBy must all differ,
// or two controllers would delete each other's slices; and each
// CheckManagedBy of a controller whose options are valid gets the values
// of the others.
func (o *ControllerOptions) validateManagedBy(enabled []string, valid map[string]bool) []error {
	names := []registry.ManagedBy{{Flag: "--controller-name", Value: o.ControllerName}}
	own := map[string][]registry.ManagedBy{}
	for _, name := range enabled {
		if r := byName[name]; r.ManagedBy != nil {
			own[name] = r.ManagedBy(o.optionsContext(name))
			names = append(names, own[name]...)
		}
	}
	errs := registry.Distinct(names...)
	for _, name := range enabled {
		r := byName[name]
		if r.CheckManagedBy == nil || !valid[name] {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(names), func(n registry.ManagedBy) bool { return slices.Contains(own[name], n) })
		errs = append(errs, r.CheckManagedBy(o.optionsContext(name), others)...)
	}
	return errs
}

// AdmissionNeeds returns what the enabled controllers need from
// slicekit's admission policies (Registration.AdmissionPolicies), in
// controller order. It returns the error of EnabledControllers.
func (o *ControllerOptions) AdmissionNeeds() ([]admissionpolicy.Need, error) {
	names, err := o.EnabledControllers()
	if err != nil {
		return nil, err
	}
	var needs []admissionpolicy.Need
	for _, name := range names {
		if f := byName[name].AdmissionPolicies; f != nil {
			needs = append(needs, f(o.optionsContext(name))...)
		}
	}
	return needs, nil
}
