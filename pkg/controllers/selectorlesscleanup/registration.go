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

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
)

// RegistrationName is the --controllers name of this controller: opt-in,
// for clusters whose kube-controller-manager keeps its endpoint
// controllers (docs/managed-clusters.md).
const RegistrationName = "selectorless-cleanup"

// Registration registers this controller with the manager (pkg/manager):
// not enabled by default, 2 workers, its --selectorless-cleanup-dry-run
// (Options). It reads Services, EndpointSlices and Endpoints and deletes,
// never writes, slices: no managed-by value.
var Registration = registry.Registration{
	Name:       RegistrationName,
	NewOptions: func() registry.Options { return &Options{} },
	Workers:    func(registry.InitContext) int { return 2 },
	RBACRules:  RBACRules,
	Reads: informertransform.Reads{Informers: []informertransform.Informer{
		informertransform.Services, informertransform.EndpointSlices, informertransform.Endpoints,
	}},
	New: func(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
		opts := *registry.OptionsAs(ic, func() *Options { return &Options{} })
		opts.Registerer, opts.EventRecorder = ic.Registerer, ic.EventRecorder
		return New(ctx, ic.Client, ic.InformerFactory, opts)
	},
}
