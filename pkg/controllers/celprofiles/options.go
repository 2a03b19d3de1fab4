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
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/source/celpods"
)

// AddFlags binds --cel-config to o.ConfigFile (it shapes output:
// AddRenderFlags).
func (o *Options) AddFlags(fs *pflag.FlagSet) { o.AddRenderFlags(fs) }

// AddRenderFlags binds --cel-config to o.ConfigFile.
func (o *Options) AddRenderFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.ConfigFile, "cel-config", o.ConfigFile,
		"The CEL profile file of the cel controller (one controller per profile; see examples/cel).")
}

// Validate, when the controller is enabled, requires --cel-config and
// loads, compiles and type-checks it (celpods.LoadConfig, CompileConfig);
// the errors name --cel-config. When the controller is not enabled it
// refuses --cel-config, so that profiles cannot be silently ignored (as
// --selectorless-cleanup-dry-run without its controller).
func (o *Options) Validate(enabled bool) error {
	o.loaded = nil
	if !enabled {
		if o.ConfigFile != "" {
			return fmt.Errorf("--cel-config needs the %s controller: add it to --controllers", RegistrationName)
		}
		return nil
	}
	if o.ConfigFile == "" {
		return errors.New("--cel-config is required with the cel controller")
	}
	cfg, err := celpods.LoadConfig(o.ConfigFile)
	if err != nil {
		return fmt.Errorf("--cel-config: %w", err)
	}
	if _, err := celpods.CompileConfig(cfg); err != nil {
		return fmt.Errorf("--cel-config: %w", err)
	}
	o.loaded = cfg
	return nil
}
