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
	"fmt"

	"github.com/spf13/pflag"
)

// AddFlags binds --selectorless-cleanup-dry-run to o (it shapes output:
// AddRenderFlags).
func (o *Options) AddFlags(fs *pflag.FlagSet) { o.AddRenderFlags(fs) }

// AddRenderFlags binds --selectorless-cleanup-dry-run to o.DryRun.
func (o *Options) AddRenderFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.DryRun, "selectorless-cleanup-dry-run", o.DryRun,
		"The selectorless-cleanup controller only reports (Events, log, metric) the leftovers of kube-controller-manager it would delete for Services without selector or of type ExternalName, and deletes nothing.")
}

// Validate refuses --selectorless-cleanup-dry-run without the controller:
// a dry run that silently does nothing would let an operator believe
// leftovers are being reported.
func (o *Options) Validate(enabled bool) error {
	if o.DryRun && !enabled {
		return fmt.Errorf("--selectorless-cleanup-dry-run needs the %s controller: add it to --controllers", RegistrationName)
	}
	return nil
}
