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

package check

// The check as `slicekit check` runs it: with the oracles and input kinds
// of slicekit's built-in controllers (pkg/controllers/builtin), which the
// package itself does not import.

import (
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/registry"
)

// builtinConfig returns cfg with the oracles of the built-in controllers
// at their default options.
func builtinConfig(cfg Config) Config {
	cfg.Oracles = registry.Oracles(builtin.Registrations(), nil)
	return cfg
}

// secondaryConfig returns the Config with the built-in oracles, the
// secondary-network controller's named secondary.
func secondaryConfig(secondary string) Config {
	f := secondarynetwork.NewOptions()
	f.ControllerName = secondary
	return Config{Oracles: registry.Oracles(builtin.Registrations(), map[string]registry.Options{secondarynetwork.RegistrationName: f})}
}

// builtinKinds returns the input kinds of the built-in controllers.
func builtinKinds() inputkinds.Table {
	t, err := builtin.InputKinds()
	if err != nil {
		panic(err) // the registry tests catch colliding kinds
	}
	return t
}

// newBuiltinOptions returns NewOptions for the built-in controllers, as
// `slicekit check` makes them.
func newBuiltinOptions() *Options { return NewOptions(builtin.Registrations()...) }
