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

// Package topology assigns topology-aware (zone) hints to EndpointSlice
// endpoints in proportion to the allocatable CPU of the ready Nodes of each
// zone ("topology mode Auto").
//
// It is a port of k8s.io/endpointslice@v0.37.2/topologycache (files
// topologycache.go, sliceinfo.go, utils.go and event.go), the code used by
// kube-controller-manager's EndpointSlice controller. The exported API has the
// same shape and the same behaviour, including the order of the returned
// slices and events, the event reasons and messages, and the randomness that
// comes from Go map iteration when several zones can give or receive
// endpoints.
//
// # Ownership of the EndpointSlices
//
// As in KCM, the EndpointSlices in SliceInfo.ToCreate and SliceInfo.ToUpdate
// must be owned by the caller (new objects, or deep copies of cached ones):
// their endpoints' hints are rewritten in place. The EndpointSlices in
// SliceInfo.Unchanged may be shared with an informer cache: they are never
// written to; when one needs new hints it is deep-copied (where KCM calls
// DeepCopy) and the copy is appended to ToUpdate.
//
// Unlike KCM, this package never writes into the backing arrays of the
// []*EndpointSlice values it is given: results are built in new arrays (same
// order, same nil-ness), so the caller may keep using its own lists. Node
// objects passed to SetNodes are not modified either (KCM could modify a
// Node's allocatable CPU quantity through a shared pointer; see SetNodes).
//
// The two cluster-wide inputs (Node CPU per zone and the hints already
// allocated per service) live in a TopologyCache, which is safe for
// concurrent use.
package topology
