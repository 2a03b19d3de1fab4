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
	"context"
	"fmt"
	"slices"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
)

// RegistrationName is the --controllers name of the CEL profile
// controllers (one per profile of --cel-config).
const RegistrationName = "cel"

// Registration registers the CEL controllers with the manager
// (pkg/manager): not enabled by default, --concurrent-service-endpoint-syncs
// workers, the shared --max-endpoints-per-slice and
// --endpoint-updates-batch-period, its own --cel-config (Options). A CEL
// expression may read any field of a Pod or Service, so it declares
// AllPodFields and AllServiceFields: Pods and Services stay whole, Nodes
// and EndpointSlices are trimmed. Its managed-by values are the profile
// names, checked against the other controllers' (CheckManagedBy).
var Registration = registry.Registration{
	Name:              RegistrationName,
	NewOptions:        func() registry.Options { return &Options{} },
	Workers:           registry.ServiceWorkers,
	New:               newFromRegistry,
	RBACRules:         RBACRules,
	Reads:             reads(),
	CheckManagedBy:    checkProfileNames,
	AdmissionPolicies: admissionPolicies,
}

// admissionPolicies is Registration.AdmissionPolicies: per profile, the
// Pod annotations and labels it declares must be guarded (none declared:
// no input need), and so must its slices.
func admissionPolicies(ic registry.InitContext) []admissionpolicy.Need {
	o := optionsOf(ic)
	if o.loaded == nil {
		return nil
	}
	var needs []admissionpolicy.Need
	for _, p := range o.loaded.Profiles {
		if keys := append(slices.Clone(p.PodAnnotations), p.PodLabels...); len(keys) > 0 {
			needs = append(needs, admissionpolicy.Need{Controller: p.Name, Policy: admissionpolicy.PolicyInputs, Keys: keys})
		}
		needs = append(needs, admissionpolicy.Need{Controller: p.Name, Policy: admissionpolicy.PolicyOutputs, Keys: []string{p.Name}})
	}
	return needs
}

// reads is slicecontroller.Reads with every Pod and Service field.
func reads() informertransform.Reads {
	r := slicecontroller.GuardedReads()
	r.AllPodFields, r.AllServiceFields = true, true
	return r
}

// optionsOf returns ic's Options, the defaults when ic has none.
func optionsOf(ic registry.InitContext) *Options {
	return registry.OptionsAs(ic, func() *Options { return &Options{} })
}

// checkProfileNames returns an error for each profile named like another
// enabled controller's managed-by value: both would write the same slices.
func checkProfileNames(ic registry.InitContext, others []registry.ManagedBy) []error {
	o := optionsOf(ic)
	if o.loaded == nil {
		return nil // not validated, or invalid: Validate reported it
	}
	var errs []error
	for _, p := range o.loaded.Profiles {
		for _, other := range others {
			if p.Name == other.Value {
				errs = append(errs, fmt.Errorf("--cel-config: profile name %q is taken: %s is %q too", p.Name, other.Flag, other.Value))
				break
			}
		}
	}
	return errs
}

// newFromRegistry is Registration.New: New with the Options --cel-config
// was bound to and the settings every Service controller shares.
func newFromRegistry(ctx context.Context, ic registry.InitContext) (registry.Controller, error) {
	var opts Options
	if bound, ok := ic.Options.(*Options); ok {
		opts = *bound
	}
	opts.Common = ic.Common()
	return New(ctx, ic.Client, ic.InformerFactory, opts)
}
