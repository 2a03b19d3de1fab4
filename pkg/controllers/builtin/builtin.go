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

// Package builtin lists slicekit's built-in controllers, each declared by
// its own package (a registry.Registration), and the one table of the
// kinds they read; it resolves --controllers against that list
// (EnabledControllers), holds the controllers' options (ControllerOptions:
// --controllers, the shared settings, each controller's own) and
// constructs the enabled controllers (NewControllers). `slicekit run`
// (pkg/manager), `slicekit render` and `slicekit check` read this list;
// adding a controller is one line in Registrations.
package builtin

import (
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/endpoints"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/controllers/selectorlesscleanup"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/registry"
)

// Registrations returns the built-in controllers' registrations, in name
// order. Each call returns a new slice.
func Registrations() []registry.Registration {
	return []registry.Registration{
		celprofiles.Registration,
		dranetwork.Registration,
		endpoints.Registration,
		endpointslice.Registration,
		mirroring.Registration,
		secondarynetwork.Registration,
		selectorlesscleanup.Registration,
	}
}

// InputKinds returns the one table of the kinds slicekit reads
// (pkg/inputkinds): the built-in kinds plus every kind a built-in
// controller declares in its Reads.Kinds, whether enabled or not, so that
// `slicekit render` and `slicekit check` read those objects from files and
// clusters whichever controllers run. It returns an error when two
// registrations declare colliding kinds (inputkinds.NewTable).
func InputKinds() (inputkinds.Table, error) {
	return registry.InputKinds(Registrations())
}
