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
	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/internal/controllerflags"
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

// NewNameFlag returns a NameFlag for --<flag> with value defaultName and
// help text usage.
func NewNameFlag(flag, defaultName, usage string) *NameFlag {
	return &NameFlag{ControllerName: defaultName, flag: flag, usage: usage}
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
	return controllerflags.ControllerName(f.Flag(), f.ControllerName)
}

// ManagedBy returns the managed-by value the flag sets, for
// Registration.ManagedBy.
func (f *NameFlag) ManagedBy() []ManagedBy {
	return []ManagedBy{{Flag: f.Flag(), Value: f.ControllerName}}
}
