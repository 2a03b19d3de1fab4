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

// Flags are this controller's command-line options: --dra-network-controller-name, the
// KEP-4770 label value (and managed-by value) of the controller.
type Flags = registry.NameFlag

// NewFlags returns the default Flags (ControllerName
// wellknown.DRANetworkControllerName).
func NewFlags() *Flags {
	return registry.NewNameFlag(RegistrationName, wellknown.DRANetworkControllerName)
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
// --dra-network-controller-name (Flags). It reads Pods (with their claim
// references), Services, EndpointSlices, Nodes and ResourceClaims, and
// writes the managed-by value --dra-network-controller-name.
var Registration = registry.WithNameFlag(NewFlags, newFromRegistry, registry.Registration{
	Name:      RegistrationName,
	RBACRules: RBACRules,
	Reads:     reads(),
	Needs:     []registry.API{ResourceClaimAPI},
	Oracle:    oracle,
})

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
		ControllerName: registry.OptionsAs(ic, NewFlags).ControllerName,
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

// newFromRegistry is Registration.New for the controller named name.
func newFromRegistry(ctx context.Context, ic registry.InitContext, name string) (registry.Controller, error) {
	return New(ctx, ic.Client, ic.InformerFactory, Options{ControllerName: name, Common: ic.Common()})
}
