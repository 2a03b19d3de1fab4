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

package reconciler

import (
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Owner is the object whose EndpointSlices are reconciled: a Service, an
// Endpoints object, or any custom resource. The reconciler reads its namespace,
// name, UID and deletionTimestamp, and records events on it. It never mutates it.
type Owner interface {
	metav1.Object
	runtime.Object
}

// EndpointGroup is a set of desired endpoints that share one address type and
// one port list; each group is packed into its own EndpointSlices (KCM groups
// by the same pair: endpointslice reconciler.go reconcileByAddressType and
// util.NewPortMapKey).
type EndpointGroup struct {
	// AddressType of every endpoint in the group: IPv4, IPv6 or FQDN.
	AddressType discovery.AddressType
	// Ports is the port list of the slices of this group. nil and empty are
	// the same group.
	Ports []discovery.EndpointPort
	// Endpoints are the desired endpoints. Endpoints with the same identity
	// (sorted addresses, hostname, targetRef namespace/name; KCM
	// util/endpointset.go) are collapsed, the last one wins. An endpoint with
	// no addresses is ignored. May be empty: the group then exists (it counts
	// for metrics) but produces no slice.
	Endpoints []discovery.Endpoint
}

// Hints says which hints the slices of an owner carry (KCM behaviours C34,
// C35). The zero value removes all hints.
type Hints struct {
	// TopologyAuto is true when the owner asks for topology-aware hints
	// (Service annotation service.kubernetes.io/topology-mode or the
	// deprecated topology-aware-hints set to Auto/auto). It takes precedence
	// over TrafficDistribution. Needs a topology cache (WithTopologyCache).
	TopologyAuto bool
	// TrafficDistribution is the owner's spec.trafficDistribution when it is
	// a value this reconciler honours (PreferClose, PreferSameZone,
	// PreferSameNode); nil otherwise.
	TrafficDistribution *string
}

// Desired is everything a source of desired endpoints wants for one owner.
type Desired struct {
	// AddressTypes the owner supports. Existing slices of any other address
	// type are deleted (KCM C15). With placeholders enabled, each of these
	// address types that ends up with no slice gets one placeholder (C27).
	AddressTypes []discovery.AddressType
	// Groups of desired endpoints. A group whose AddressType (IPv4, IPv6
	// or FQDN) is not in AddressTypes is ignored; one whose AddressType is
	// none of the three (empty, misspelt) is refused (ErrInvalidInput). Two
	// groups with the same address type and port list are merged.
	Groups []EndpointGroup
	// Hints to apply to the endpoints.
	Hints Hints
}

// ownerGVK is carried in the Config, because typed objects read from a
// client or an informer have an empty TypeMeta.
var _ = schema.GroupVersionKind{}
