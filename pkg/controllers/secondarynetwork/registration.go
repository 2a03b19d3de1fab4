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

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/networkstatus"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// RegistrationName is the --controllers name of this controller.
const RegistrationName = "secondary-network"

// Flags are this controller's command-line options: --secondary-network-controller-name, the
// KEP-4770 label value (and managed-by value) of the controller.
type Flags = registry.NameFlag

// NewFlags returns the default Flags (ControllerName
// wellknown.SecondaryNetworkControllerName).
func NewFlags() *Flags {
	return registry.NewNameFlag(RegistrationName, wellknown.SecondaryNetworkControllerName)
}

// Registration registers this controller with the manager (pkg/manager):
// not enabled by default, --concurrent-service-endpoint-syncs workers, the
// shared --max-endpoints-per-slice and --endpoint-updates-batch-period,
// its own --secondary-network-controller-name (Flags). It reads Pods (and
// their two network-status annotations), Services, EndpointSlices and
// Nodes, and writes the managed-by value
// --secondary-network-controller-name.
var Registration = registry.WithNameFlag(NewFlags, newFromRegistry, registry.Registration{
	Name:              RegistrationName,
	RBACRules:         RBACRules,
	Reads:             slicecontroller.GuardedReads(wellknown.AnnotationNetworkStatus, wellknown.AnnotationNetworkStatusLegacy),
	AdmissionPolicies: admissionPolicies,
	Oracle:            oracle,
})

// oracle is Registration.Oracle: `slicekit check` runs networkstatus.Source,
// which reads the Pods only, publishes none of their status.podIPs and
// keeps the Pod Ready condition as serving.
func oracle(ic registry.InitContext) []registry.Oracle {
	return []registry.Oracle{{
		ControllerName:    flagsOf(ic).ControllerName,
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
	name := flagsOf(ic).ControllerName
	return []admissionpolicy.Need{
		{Controller: name, Policy: admissionpolicy.PolicyInputs, Keys: []string{wellknown.AnnotationNetworkStatus, wellknown.AnnotationNetworkStatusLegacy}},
		{Controller: name, Policy: admissionpolicy.PolicyOutputs, Keys: []string{name}},
	}
}

// flagsOf returns ic's Flags, the defaults when ic has none.
func flagsOf(ic registry.InitContext) *Flags { return registry.OptionsAs(ic, NewFlags) }

// newFromRegistry is Registration.New for the controller named name.
func newFromRegistry(ctx context.Context, ic registry.InitContext, name string) (registry.Controller, error) {
	return New(ctx, ic.Client, ic.InformerFactory, Options{ControllerName: name, Common: ic.Common()})
}
