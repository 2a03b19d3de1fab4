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
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/endpoints"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/controllers/selectorlesscleanup"
)

// The --controllers names of the registered controllers.
const (
	// EndpointSliceControllerName is the EndpointSlice controller (KCM:
	// endpointslice-controller).
	EndpointSliceControllerName = endpointslice.RegistrationName
	// MirroringControllerName is the EndpointSlice mirroring controller
	// (KCM: endpointslice-mirroring-controller).
	MirroringControllerName = mirroring.RegistrationName
	// EndpointsControllerName is the Endpoints controller (KCM:
	// endpoints-controller), not enabled by default.
	EndpointsControllerName = endpoints.RegistrationName
	// SecondaryNetworkControllerName is the secondary-network (Multus
	// network-status) controller.
	SecondaryNetworkControllerName = secondarynetwork.RegistrationName
	// CELControllerName is the CEL profile controllers (one per profile of
	// --cel-config).
	CELControllerName = celprofiles.RegistrationName
	// DRANetworkControllerName is the dra-network controller (addresses
	// from the Pods' ResourceClaims' networkData), opt-in.
	DRANetworkControllerName = dranetwork.RegistrationName
	// SelectorlessCleanupControllerName is the selectorless-cleanup
	// controller, opt-in (README "On managed clusters").
	SelectorlessCleanupControllerName = selectorlesscleanup.RegistrationName
)
