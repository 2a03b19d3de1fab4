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
	"k8s.io/client-go/tools/cache"
)

// The EndpointSlice informer handlers of KCM's EndpointSlice and mirroring
// controllers decide the same way whether an event needs a sync of the
// slice's owner (k8s.io/kubernetes pkg/controller/endpointslice
// endpointslice_controller.go and endpointslicemirroring
// endpointslicemirroring_controller.go onEndpointSliceAdd, Update, Delete;
// behaviour C7 of docs/kep4770.md). These methods are those decisions, on
// this reconciler's managed-by value and tracker; the caller maps the slice
// to its owner (kubernetes.io/service-name label) and queues it.

// SliceOf returns the EndpointSlice of an informer event's object: obj
// itself, or the last known state a delete event's tombstone
// (cache.DeletedFinalStateUnknown) carries; nil for anything else. Hand
// its result to SliceAdded, SliceUpdated, SliceDeleted and SliceOwner,
// which take nil as no slice.
func SliceOf(obj any) *discovery.EndpointSlice {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	s, _ := obj.(*discovery.EndpointSlice)
	return s
}

// SliceAdded reports whether an added slice needs a sync of its owner: it
// carries this reconciler's managed-by value and is not the echo of a write
// of this reconciler (Tracker.ShouldSync).
func (r *Reconciler) SliceAdded(slice *discovery.EndpointSlice) bool {
	return r.ManagedByController(slice) && r.trk().ShouldSync(slice)
}

// SliceUpdated reports whether an updated slice needs a sync of its owner
// (cur's owner; a change of the kubernetes.io/service-name label, which
// concerns both owners, is the caller's to check first): its managed-by
// value changed to or from this reconciler's, or it carries this
// reconciler's and is not the echo of a write of this reconciler.
func (r *Reconciler) SliceUpdated(prev, cur *discovery.EndpointSlice) bool {
	return r.ManagedByController(prev) != r.ManagedByController(cur) ||
		(r.ManagedByController(cur) && r.trk().ShouldSync(cur))
}

// SliceDeleted reports whether a deleted slice needs a sync of its owner: it
// carries this reconciler's managed-by value, is tracked, and its deletion
// was not expected (this reconciler did not delete it). It records the
// deletion in the tracker (Tracker.HandleDeletion), so call it once per
// delete event.
func (r *Reconciler) SliceDeleted(slice *discovery.EndpointSlice) bool {
	return r.ManagedByController(slice) && r.trk().Has(slice) && !r.trk().HandleDeletion(slice)
}
