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

package check

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Kinds records which kinds of object an Inventory holds a complete set
// of. Rules that need a kind that is missing are skipped (and listed in
// Report.Skipped) instead of reporting everything as missing.
type Kinds struct {
	// Services: the Services are complete (orphans, owners, delegation,
	// ports and labels can be judged).
	Services bool
	// Pods: the Pods are complete (the per-endpoint rules can run).
	Pods bool
	// Nodes: the Nodes are complete (zones can be judged).
	Nodes bool
	// Endpoints: the Endpoints objects are complete (mirrored slices can
	// be judged).
	Endpoints bool
	// ResourceClaims: the ResourceClaims are complete (the dra-network
	// controller's slices can be judged for completeness).
	ResourceClaims bool
	// EndpointSlices: the EndpointSlices are complete (a Service without
	// any can be told apart from a dump without slices).
	EndpointSlices bool
}

// set marks kind ("Service", "Pod", "Node", "Endpoints", "ResourceClaim")
// as given, with or without objects; other kinds need no mark.
func (k *Kinds) set(kind string) {
	switch kind {
	case "Service":
		k.Services = true
	case "Pod":
		k.Pods = true
	case "Node":
		k.Nodes = true
	case "Endpoints":
		k.Endpoints = true
	case "ResourceClaim":
		k.ResourceClaims = true
	case "EndpointSlice":
		k.EndpointSlices = true
	}
}

// Inventory is the set of objects Check reads. Check never modifies
// them.
type Inventory struct {
	// Services, Pods, Nodes and Endpoints are what the slices are judged
	// against.
	Services  []*corev1.Service
	Pods      []*corev1.Pod
	Nodes     []*corev1.Node
	Endpoints []*corev1.Endpoints
	// ResourceClaims are the Pods' claims (resource.k8s.io/v1), the
	// dra-network controller's source.
	ResourceClaims []*resourceapi.ResourceClaim
	// EndpointSlices are the slices judged.
	EndpointSlices []*discovery.EndpointSlice
	// Have says which kinds are complete. NewInventory sets a kind when at
	// least one object of it is given; LoadCluster sets every kind it could
	// list.
	Have Kinds
	// Ignored counts objects of other kinds that were given and not used.
	Ignored int
}

// NewInventory sorts objs into an Inventory. Services, Pods, Nodes,
// Endpoints and EndpointSlices are kept (as they are, not copied); other
// objects are counted in Ignored. A kind is marked as present (Have) when
// objs holds at least one object of it.
func NewInventory(objs []runtime.Object) *Inventory {
	inv := &Inventory{}
	for _, o := range objs {
		inv.Add(o)
	}
	return inv
}

// Add adds one object and marks its kind as present; objects of other
// kinds are counted in Ignored.
func (inv *Inventory) Add(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.Service:
		inv.Services, inv.Have.Services = append(inv.Services, o), true
	case *corev1.Pod:
		inv.Pods, inv.Have.Pods = append(inv.Pods, o), true
	case *corev1.Node:
		inv.Nodes, inv.Have.Nodes = append(inv.Nodes, o), true
	case *corev1.Endpoints:
		inv.Endpoints, inv.Have.Endpoints = append(inv.Endpoints, o), true
	case *discovery.EndpointSlice:
		inv.EndpointSlices, inv.Have.EndpointSlices = append(inv.EndpointSlices, o), true
	case *resourceapi.ResourceClaim:
		inv.ResourceClaims, inv.Have.ResourceClaims = append(inv.ResourceClaims, o), true
	case *corev1.Namespace:
		// Read (render's inputs carry them) but judged by no rule.
	default:
		inv.Ignored++
	}
}

// InNamespace returns an Inventory with the namespaced objects of
// namespace only (Nodes are kept); "" returns inv itself. Have is copied.
func (inv *Inventory) InNamespace(namespace string) *Inventory {
	if namespace == "" {
		return inv
	}
	out := &Inventory{Nodes: inv.Nodes, Have: inv.Have, Ignored: inv.Ignored}
	for _, o := range inv.Services {
		if o.Namespace == namespace {
			out.Services = append(out.Services, o)
		}
	}
	for _, o := range inv.Pods {
		if o.Namespace == namespace {
			out.Pods = append(out.Pods, o)
		}
	}
	for _, o := range inv.Endpoints {
		if o.Namespace == namespace {
			out.Endpoints = append(out.Endpoints, o)
		}
	}
	for _, o := range inv.ResourceClaims {
		if o.Namespace == namespace {
			out.ResourceClaims = append(out.ResourceClaims, o)
		}
	}
	for _, o := range inv.EndpointSlices {
		if o.Namespace == namespace {
			out.EndpointSlices = append(out.EndpointSlices, o)
		}
	}
	return out
}

// counts returns the number of objects of each kind.
func (inv *Inventory) counts() Counts {
	return Counts{
		Services:       len(inv.Services),
		Pods:           len(inv.Pods),
		Nodes:          len(inv.Nodes),
		Endpoints:      len(inv.Endpoints),
		EndpointSlices: len(inv.EndpointSlices),
	}
}
