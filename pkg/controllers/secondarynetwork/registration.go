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

package secondarynetwork

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/networkstatus"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// RegistrationName is the --controllers name of this controller.
const RegistrationName = "secondary-network"

// NewOptions returns the default Options, the target of this controller's
// flag: ControllerName wellknown.SecondaryNetworkControllerName.
func NewOptions() *Options {
	return &Options{ControllerName: wellknown.SecondaryNetworkControllerName}
}

// AddFlags binds --secondary-network-controller-name to o.ControllerName
// (registry.Options; the name shapes output: AddRenderFlags).
func (o *Options) AddFlags(fs *pflag.FlagSet) { o.AddRenderFlags(fs) }

// AddRenderFlags binds --secondary-network-controller-name to
// o.ControllerName.
func (o *Options) AddRenderFlags(fs *pflag.FlagSet) {
	registry.AddControllerNameFlag(fs, &o.ControllerName, RegistrationName)
}

// Validate returns an error naming --secondary-network-controller-name
// when the controller is enabled and its name is not a non-empty label
// value (registry.ValidateControllerName).
func (o *Options) Validate(enabled bool) error {
	return registry.ValidateControllerName(RegistrationName, o.ControllerName, enabled)
}

// Registration registers this controller with the manager (pkg/manager):
// not enabled by default, --concurrent-service-endpoint-syncs workers, the
// shared --max-endpoints-per-slice and --endpoint-updates-batch-period,
// its own --secondary-network-controller-name (Options). It reads Pods (and
// their two network-status annotations), Services, EndpointSlices and
// Nodes, and writes the managed-by value
// --secondary-network-controller-name.
var Registration = registry.Registration{
	Name:              RegistrationName,
	NewOptions:        func() registry.Options { return NewOptions() },
	Workers:           registry.ServiceWorkers,
	New:               newFromRegistry,
	ManagedBy:         managedBy,
	RBACRules:         RBACRules,
	Reads:             slicecontroller.GuardedReads(wellknown.AnnotationNetworkStatus, wellknown.AnnotationNetworkStatusLegacy),
	AdmissionPolicies: admissionPolicies,
	Oracle:            oracle,
}

// oracle is Registration.Oracle: `slicekit check` runs networkstatus.Source,
// which reads the Pods only, publishes none of their status.podIPs and
// keeps the Pod Ready condition as serving.
func oracle(ic registry.InitContext) []registry.Oracle {
	return []registry.Oracle{{
		ControllerName:    optionsOf(ic).ControllerName,
		Source:            func(registry.OracleInput) source.Source { return networkstatus.Source() },
		PodAddresses:      true,
		PodReadyServing:   true,
		OtherNetwork:      true,
		AdmissionPolicies: admissionPolicies(ic),
	}}
}

// admissionPolicies is Registration.AdmissionPolicies: the network-status
// annotations (both keys) must be guarded, and so must the slices of
// --secondary-network-controller-name.
func admissionPolicies(ic registry.InitContext) []admissionpolicy.Need {
	name := optionsOf(ic).ControllerName
	return []admissionpolicy.Need{
		{Controller: name, Policy: admissionpolicy.PolicyInputs, Keys: []string{wellknown.AnnotationNetworkStatus, wellknown.AnnotationNetworkStatusLegacy}},
		{Controller: name, Policy: admissionpolicy.PolicyOutputs, Keys: []string{name}},
	}
}

// optionsOf returns ic's Options, the defaults when ic has none.
func optionsOf(ic registry.InitContext) *Options { return registry.OptionsAs(ic, NewOptions) }

// managedBy is Registration.ManagedBy: --secondary-network-controller-name.
func managedBy(ic registry.InitContext) []registry.ManagedBy {
	return []registry.ManagedBy{{Flag: registry.ControllerNameFlag(RegistrationName), Value: optionsOf(ic).ControllerName}}
}

// newFromRegistry is Registration.New: New with the Options the flag was
// bound to and the shared settings (ic.Common).
func newFromRegistry(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
	opts := *optionsOf(ic)
	opts.Common = ic.Common()
	return New(ctx, ic.Client, ic.InformerFactory, opts)
}
