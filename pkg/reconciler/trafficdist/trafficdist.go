// Copyright 2024 The Kubernetes Authors.
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
//
// Modified for slicekit: ported from k8s.io/endpointslice@v0.37.2
// trafficdist/trafficdist.go; documentation added; ReconcileHints no longer
// writes into the caller's arrays (same results).

package trafficdist

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// TrafficDistribution values supported by preferCloseHeuristic
var closeTrafficDistribution = sets.New(
	corev1.ServiceTrafficDistributionPreferClose,
	corev1.ServiceTrafficDistributionPreferSameZone,
	corev1.ServiceTrafficDistributionPreferSameNode,
)

// ReconcileHints sets the hints of the endpoints of one owner's EndpointSlices
// for the given trafficDistribution, and returns the updated lists of slices
// to create, to update and left unchanged.
//
// trafficDistribution is the Service's spec.trafficDistribution:
//   - "PreferClose" or "PreferSameZone": each ready endpoint gets the hints
//     forZones=[its zone] if it has a zone, and no hints otherwise.
//   - "PreferSameNode": each ready endpoint gets forZones=[its zone] if it has
//     a zone and forNodes=[its nodeName] if it has one, and no hints if it has
//     neither.
//   - nil or any other value: the hints of all endpoints, ready or not, are
//     removed.
//
// With the first two, endpoints that are not ready are ignored: their hints
// are left as they are and never make an unchanged slice need an update.
//
// The endpoints of the slices in slicesToCreate and slicesToUpdate are
// modified in place: those slices must be owned by the caller. The slices in
// slicesUnchanged may come from an informer cache and are never modified:
// each one whose hints are missing or wrong is deep-copied, the copy is
// appended to the returned slicesToUpdate and the slice is left out of the
// returned slicesUnchanged. The returned slicesToCreate is slicesToCreate.
// The caller's arrays are not written to (KCM filters slicesUnchanged in
// place); the order of the slices is KCM's.
//
// Source: k8s.io/endpointslice trafficdist/trafficdist.go.
func ReconcileHints(trafficDistribution *string, slicesToCreate, slicesToUpdate, slicesUnchanged []*discovery.EndpointSlice) ([]*discovery.EndpointSlice, []*discovery.EndpointSlice, []*discovery.EndpointSlice) {
	var h heuristic = &defaultHeuristic{}

	if trafficDistribution != nil && closeTrafficDistribution.Has(*trafficDistribution) {
		h = &preferCloseHeuristic{*trafficDistribution == corev1.ServiceTrafficDistributionPreferSameNode}
	}

	// Identify the Unchanged slices that need an update because of missing or
	// incorrect hints. They are moved to slicesToUpdate.
	//
	// KCM filters slicesUnchanged in place and appends to slicesToUpdate,
	// which write into the caller's arrays. Build new arrays instead: [:0:0]
	// keeps the nil-ness of the result identical to KCM's
	// slicesUnchanged[:j], and Clip makes the first append allocate.
	unchanged := slicesUnchanged[:0:0]
	slicesToUpdate = slices.Clip(slicesToUpdate)
	for _, slice := range slicesUnchanged {
		if h.needsUpdate(slice) {
			// Unchanged slices are direct copies from informer cache. We need to deep
			// copy an unchanged slice before making any modifications to it so that we do
			// not modify the slice within the informer cache.
			slicesToUpdate = append(slicesToUpdate, slice.DeepCopy())
		} else {
			unchanged = append(unchanged, slice)
		}
	}

	// Add zone hints to all slices that need to be created or updated.
	for _, slice := range slicesToCreate {
		h.update(slice)
	}
	for _, slice := range slicesToUpdate {
		h.update(slice)
	}

	return slicesToCreate, slicesToUpdate, unchanged
}

type heuristic interface {
	needsUpdate(*discovery.EndpointSlice) bool
	update(*discovery.EndpointSlice)
}

// endpointReady returns true if an Endpoint has the Ready condition set to
// true.
func endpointReady(endpoint discovery.Endpoint) bool {
	return endpoint.Conditions.Ready != nil && *endpoint.Conditions.Ready
}

// defaultHeuristic means cluster wide routing, hence it will remove any hints
// present in the EndpointSlice.
type defaultHeuristic struct {
}

// needsUpdate returns true if any endpoint in the slice has a zone hint.
func (defaultHeuristic) needsUpdate(slice *discovery.EndpointSlice) bool {
	if slice == nil {
		return false
	}
	for _, endpoint := range slice.Endpoints {
		if endpoint.Hints != nil {
			return true
		}
	}
	return false
}

// update removes zone hints from all endpoints.
func (defaultHeuristic) update(slice *discovery.EndpointSlice) {
	for i := range slice.Endpoints {
		slice.Endpoints[i].Hints = nil
	}
}

// preferCloseHeuristic implements PreferSameZone/PreferClose and PreferSameNode
type preferCloseHeuristic struct {
	generateNodeHints bool
}

// needsUpdate returns true if any ready endpoint in the slice has a
// missing or incorrect hint.
func (h preferCloseHeuristic) needsUpdate(slice *discovery.EndpointSlice) bool {
	if slice == nil {
		return false
	}
	for _, endpoint := range slice.Endpoints {
		if !endpointReady(endpoint) {
			continue
		}

		if endpoint.Zone != nil {
			// We want a zone hint.
			if endpoint.Hints == nil || len(endpoint.Hints.ForZones) != 1 || endpoint.Hints.ForZones[0].Name != *endpoint.Zone {
				// ...but either it's missing or it's incorrect
				return true
			}
		} else {
			// We don't want a zone hint.
			if endpoint.Hints != nil && len(endpoint.Hints.ForZones) > 0 {
				// ...but we have a stale hint.
				return true
			}
		}

		if endpoint.NodeName != nil && h.generateNodeHints {
			// We want a node hint.
			if endpoint.Hints == nil || len(endpoint.Hints.ForNodes) != 1 || endpoint.Hints.ForNodes[0].Name != *endpoint.NodeName {
				// ...but it's either missing or incorrect
				return true
			}
		} else {
			// We don't want a node hint.
			if endpoint.Hints != nil && len(endpoint.Hints.ForNodes) > 0 {
				// ... but we have a stale hint.
				return true
			}
		}
	}
	return false
}

// update adds a same zone topology hint for all ready endpoints
func (h preferCloseHeuristic) update(slice *discovery.EndpointSlice) {
	for i, endpoint := range slice.Endpoints {
		if !endpointReady(endpoint) {
			continue
		}

		var forZones []discovery.ForZone
		var forNodes []discovery.ForNode
		if endpoint.Zone != nil {
			forZones = []discovery.ForZone{{Name: *endpoint.Zone}}
		}
		if endpoint.NodeName != nil && h.generateNodeHints {
			forNodes = []discovery.ForNode{{Name: *endpoint.NodeName}}
		}

		if forZones != nil || forNodes != nil {
			slice.Endpoints[i].Hints = &discovery.EndpointHints{
				ForZones: forZones,
				ForNodes: forNodes,
			}
		} else {
			slice.Endpoints[i].Hints = nil
		}
	}
}
