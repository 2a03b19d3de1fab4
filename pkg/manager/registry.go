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

package manager

import (
	"context"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/registry"
)

// Controller is a controller the manager runs and `slicekit render`
// drives offline (registry.Controller).
type Controller = registry.Controller

// Registration describes one controller (registry.Registration); each
// controller package exports its own and pkg/controllers/builtin lists
// them.
type Registration = registry.Registration

// ControllerOptions configure the controllers (builtin.ControllerOptions,
// shared by `slicekit run`, `slicekit render` and `slicekit check`).
type ControllerOptions = builtin.ControllerOptions

// InitContext is what NewControllers receives (builtin.InitContext).
type InitContext = builtin.InitContext

// NamedController is a constructed controller (builtin.NamedController).
type NamedController = builtin.NamedController

// NewControllerOptions returns the default controller options
// (builtin.NewControllerOptions).
func NewControllerOptions() *ControllerOptions { return builtin.NewControllerOptions() }

// KnownControllers returns the names of every built-in controller, sorted
// (builtin.KnownControllers).
func KnownControllers() []string { return builtin.KnownControllers() }

// DefaultControllers returns the controllers "*" enables, sorted
// (builtin.DefaultControllers).
func DefaultControllers() []string { return builtin.DefaultControllers() }

// NewControllers constructs the enabled controllers in name order
// (builtin.NewControllers); its errors are builtin.NewControllers'.
func NewControllers(ctx context.Context, ic InitContext) ([]NamedController, error) {
	return builtin.NewControllers(ctx, ic)
}

// InputKinds returns the one table of the kinds slicekit reads
// (builtin.InputKinds).
func InputKinds() (inputkinds.Table, error) { return builtin.InputKinds() }
