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

package dranetwork

import (
	"context"

	"github.com/spf13/pflag"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/networkdata"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// RegistrationName is the --controllers name of this controller.
const RegistrationName = "dra-network"

// NewOptions returns the default Options, the target of this controller's
// flag: ControllerName wellknown.DRANetworkControllerName.
func NewOptions() *Options {
	return &Options{ControllerName: wellknown.DRANetworkControllerName}
}

// AddFlags binds --dra-network-controller-name to o.ControllerName
// (registry.Options; the name shapes output: AddRenderFlags).
func (o *Options) AddFlags(fs *pflag.FlagSet) { o.AddRenderFlags(fs) }

// AddRenderFlags binds --dra-network-controller-name to o.ControllerName.
func (o *Options) AddRenderFlags(fs *pflag.FlagSet) {
	registry.AddControllerNameFlag(fs, &o.ControllerName, RegistrationName)
}

// Validate returns an error naming --dra-network-controller-name when the
// controller is enabled and its name is not a non-empty label value
// (registry.ValidateControllerName).
func (o *Options) Validate(enabled bool) error {
	return registry.ValidateControllerName(RegistrationName, o.ControllerName, enabled)
}

// reads is what the controller reads: the Service controller's informers
// (with the Nodes' addresses its address guard refuses), the Pods' claim
// references (podcache.ResourceClaims) and ResourceClaims.
func reads() informertransform.Reads {
	r := slicecontroller.GuardedReads()
	r.PodFields = []podcache.Field{podcache.ResourceClaims}
	r.Kinds = []inputkinds.Kind{ResourceClaimKind}
	return r
}

// Registration registers this controller with the manager (pkg/manager):
// not enabled by default (--controllers=*,dra-network),
// --concurrent-service-endpoint-syncs workers, the shared
// --max-endpoints-per-slice and --endpoint-updates-batch-period, its own
// --dra-network-controller-name (Options). It reads Pods (with their claim
// references), Services, EndpointSlices, Nodes and ResourceClaims, and
// writes the managed-by value --dra-network-controller-name.
var Registration = registry.Registration{
	Name:       RegistrationName,
	NewOptions: func() registry.Options { return NewOptions() },
	Workers:    registry.ServiceWorkers,
	New:        newFromRegistry,
	ManagedBy:  managedBy,
	RBACRules:  RBACRules,
	Reads:      reads(),
	Needs:      []registry.API{ResourceClaimAPI},
	Oracle:     oracle,
}

// ResourceClaimAPI is the API the controller reads ResourceClaims from:
// resource.k8s.io/v1, served by default from Kubernetes 1.34 on. On an
// older server the manager leaves the controller out (Registration.Needs).
var ResourceClaimAPI = registry.API{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaims", Since: "1.34"}

// oracle is Registration.Oracle: `slicekit check` runs networkdata.Source
// over the input's ResourceClaims (none without them: the Services are
// then not judged against the source). The controller's serving
// condition also follows its devices' Ready conditions.
func oracle(ic registry.InitContext) []registry.Oracle {
	return []registry.Oracle{{
		ControllerName: optionsOf(ic).ControllerName,
		Source:         oracleSource,
		PodAddresses:   true,
	}}
}

// oracleSource returns networkdata.Source over the ResourceClaims of in,
// nil when in has none.
func oracleSource(in registry.OracleInput) source.Source {
	objs, have := in.Objects(ResourceClaimKind.GVK.Kind)
	if !have {
		return nil
	}
	byKey := make(map[types.NamespacedName]*resourceapi.ResourceClaim, len(objs))
	for _, o := range objs {
		if rc, ok := o.(*resourceapi.ResourceClaim); ok {
			byKey[types.NamespacedName{Namespace: rc.Namespace, Name: rc.Name}] = rc
		}
	}
	return networkdata.Source(func(namespace, name string) (*resourceapi.ResourceClaim, error) {
		if rc := byKey[types.NamespacedName{Namespace: namespace, Name: name}]; rc != nil {
			return rc, nil
		}
		return nil, apierrors.NewNotFound(resourceapi.Resource(resourceClaimsPlural), name)
	})
}

// optionsOf returns ic's Options, the defaults when ic has none.
func optionsOf(ic registry.InitContext) *Options { return registry.OptionsAs(ic, NewOptions) }

// managedBy is Registration.ManagedBy: --dra-network-controller-name.
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
