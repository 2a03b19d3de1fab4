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

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
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
})

// newFromRegistry is Registration.New for the controller named name.
func newFromRegistry(ctx context.Context, ic registry.InitContext, name string) (registry.Controller, error) {
	return New(ctx, ic.Client, ic.InformerFactory, Options{ControllerName: name, Common: ic.Common()})
}
