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

package registry

import (
	"context"

	"github.com/spf13/pflag"
)

// NameFlag is the Options of a labelled controller whose only own flag is
// the name it answers to (the KEP-4770 label value, also its managed-by
// value), such as --secondary-network-controller-name and
// --dra-network-controller-name. Build it with NewNameFlag.
type NameFlag struct {
	// ControllerName is the flag's value.
	ControllerName string

	// flag is the flag's name without dashes; usage its help text.
	flag, usage string
}

// NewNameFlag returns the NameFlag of the controller registered as
// controller: --<controller>-controller-name, with value defaultName and
// a help text naming the controller.
func NewNameFlag(controller, defaultName string) *NameFlag {
	return &NameFlag{
		ControllerName: defaultName,
		flag:           controller + "-controller-name",
		usage: "The service.kubernetes.io/endpoint-controller-name value the " + controller +
			" controller answers to, and its managed-by value.",
	}
}

// Flag returns the flag with its dashes ("--<flag>").
func (f *NameFlag) Flag() string { return "--" + f.flag }

// AddFlags adds the flag to fs (it shapes output: AddRenderFlags).
func (f *NameFlag) AddFlags(fs *pflag.FlagSet) { f.AddRenderFlags(fs) }

// AddRenderFlags adds the flag to fs.
func (f *NameFlag) AddRenderFlags(fs *pflag.FlagSet) {
	fs.StringVar(&f.ControllerName, f.flag, f.ControllerName, f.usage)
}

// Validate returns an error when the controller is enabled and the name is
// empty or not a label value (the KEP-4770 label's value and the
// managed-by value both are label values), so that `slicekit run` and
// `slicekit render` refuse it before starting (exit 2). The manager checks
// the name against the other controllers' (Registration.ManagedBy).
func (f *NameFlag) Validate(enabled bool) error {
	if !enabled {
		return nil
	}
	return ControllerName(f.Flag(), f.ControllerName)
}

// ManagedBy returns the managed-by value the flag sets, for
// Registration.ManagedBy.
func (f *NameFlag) ManagedBy() []ManagedBy {
	return []ManagedBy{{Flag: f.Flag(), Value: f.ControllerName}}
}

// WithNameFlag returns r completed as the Registration of a labelled
// Service controller whose only own option is the NameFlag newFlags
// returns: NewOptions is newFlags, Workers ServiceWorkers (unless r sets
// it), New calls newController with the flag's value, and ManagedBy
// returns the flag's value. The caller sets Name, RBACRules, Reads and
// the other fields in r.
func WithNameFlag(newFlags func() *NameFlag, newController func(ctx context.Context, ic InitContext, name string) (Controller, error), r Registration) Registration {
	flagsOf := func(ic InitContext) *NameFlag { return OptionsAs(ic, newFlags) }
	r.NewOptions = func() Options { return newFlags() }
	if r.Workers == nil {
		r.Workers = ServiceWorkers
	}
	r.New = func(ctx context.Context, ic InitContext) (Controller, error) {
		return newController(ctx, ic, flagsOf(ic).ControllerName)
	}
	r.ManagedBy = func(ic InitContext) []ManagedBy { return flagsOf(ic).ManagedBy() }
	return r
}
