// Copyright 2021 The Kubernetes Authors.
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
// topologycache/sliceinfo.go into package topology; documentation added;
// getAllocatedHintsByZone no longer writes into the caller's arrays (same
// results).

package topology

import (
	"slices"

	discovery "k8s.io/api/discovery/v1"
)

// SliceInfo is the input and output of AddHints and RemoveHintsFromSlices:
// the EndpointSlices of one service and one address type, split by what the
// reconciler is going to do with them.
//
// Source: k8s.io/endpointslice topologycache/sliceinfo.go.
type SliceInfo struct {
	// ServiceKey identifies the service in the TopologyCache; KCM uses
	// "namespace/name" (cache.MetaNamespaceKeyFunc).
	ServiceKey string
	// AddressType of all the slices; it is appended to event messages and
	// keys the hints recorded in the TopologyCache.
	AddressType discovery.AddressType
	// ToCreate are the new slices. They must be owned by the caller: their
	// endpoints' hints are rewritten in place.
	ToCreate []*discovery.EndpointSlice
	// ToUpdate are the slices that will be updated. They must be owned by the
	// caller (deep copies of cached slices): their endpoints' hints are
	// rewritten in place. Unchanged slices that need new hints are appended.
	ToUpdate []*discovery.EndpointSlice
	// Unchanged are existing slices that need no change so far. They may be
	// shared with an informer cache and are never modified; those whose hints
	// must change are removed from this list and deep copies are appended to
	// ToUpdate.
	Unchanged []*discovery.EndpointSlice
}

func (si *SliceInfo) getTotalReadyEndpoints() int {
	totalEndpoints := 0
	for _, slice := range si.ToCreate {
		totalEndpoints += numReadyEndpoints(slice.Endpoints)
	}
	for _, slice := range si.ToUpdate {
		totalEndpoints += numReadyEndpoints(slice.Endpoints)
	}
	for _, slice := range si.Unchanged {
		totalEndpoints += numReadyEndpoints(slice.Endpoints)
	}
	return totalEndpoints
}

// getAllocatedHintsByZone sums up the allocated hints we currently have in
// unchanged slices and marks slices for update as necessary. A slice needs to
// be updated if any of the following are true:
//   - It has an endpoint without zone hints
//   - It has an endpoint hint for a zone that no longer needs any
//   - It has endpoint hints that would make the minimum allocations necessary
//     impossible with changes to slices that are already being updated or
//     created.
func (si *SliceInfo) getAllocatedHintsByZone(allocations map[string]allocation) EndpointZoneInfo {
	allocatedHintsByZone := EndpointZoneInfo{}

	// KCM filters si.Unchanged in place and appends to si.ToUpdate, which
	// write into the caller's arrays. Build new arrays instead: [:0:0] keeps
	// the nil-ness of the result identical to KCM's si.Unchanged[:j], and
	// Clip makes the first append allocate.
	unchanged := si.Unchanged[:0:0]
	toUpdate := slices.Clip(si.ToUpdate)
	for _, slice := range si.Unchanged {
		hintsByZone := getHintsByZone(slice, allocatedHintsByZone, allocations)
		if hintsByZone == nil {
			// Unchanged slices may come from an informer cache: deep copy
			// before anything modifies them (as KCM does).
			toUpdate = append(toUpdate, slice.DeepCopy())
		} else {
			unchanged = append(unchanged, slice)
			for zone, numHints := range hintsByZone {
				allocatedHintsByZone[zone] += numHints
			}
		}
	}

	si.Unchanged = unchanged
	si.ToUpdate = toUpdate
	return allocatedHintsByZone
}
