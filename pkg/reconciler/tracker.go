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
	"sync"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
)

// deletionExpected marks a slice this controller deleted and expects to
// disappear from the informer cache.
const deletionExpected = -1

// Tracker remembers, per owner, the metadata.generation of every
// EndpointSlice this controller wrote, and the slices it deleted. It answers
// two questions: is the informer cache older than our own writes
// (StaleSlices), and is an informer event caused by our own write
// (ShouldSync). It is KCM's EndpointSliceTracker
// (k8s.io/endpointslice util/endpointslice_tracker.go, behaviour C33).
//
// Slices are grouped by namespace and their kubernetes.io/service-name label,
// which the reconciler sets on every slice it writes.
//
// No-op writes are safe (edge case E5 of KEP-4770 spec): an update that
// changes nothing returns the same generation, which is recorded as it is; a
// cache holding that generation is not stale, because the comparison is
// strictly "cache older than tracked".
//
// A Tracker is safe for concurrent use. The zero value is not usable; call
// NewTracker.
type Tracker struct {
	mu    sync.Mutex
	byKey map[types.NamespacedName]map[types.UID]int64
}

// NewTracker returns an empty Tracker.
func NewTracker() *Tracker {
	return &Tracker{byKey: map[types.NamespacedName]map[types.UID]int64{}}
}

func sliceOwnerKey(s *discovery.EndpointSlice) types.NamespacedName {
	return types.NamespacedName{Namespace: s.Namespace, Name: s.Labels[discovery.LabelServiceName]}
}

// Has reports whether slice is tracked (written or deleted by us and not yet
// seen deleted).
func (t *Tracker) Has(slice *discovery.EndpointSlice) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.byKey[sliceOwnerKey(slice)][slice.UID]
	return ok
}

// ShouldSync reports whether an informer event for slice needs a sync: true
// unless the slice is tracked and its generation is not newer than the one
// we wrote (then the event is our own write coming back).
func (t *Tracker) ShouldSync(slice *discovery.EndpointSlice) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.byKey[sliceOwnerKey(slice)][slice.UID]
	return !ok || slice.Generation > g
}

// StaleSlices reports whether slices, the owner's slices as listed from the
// informer cache, are older than what this controller has written: a listed
// slice has a lower generation than tracked or was deleted by us, or a slice
// we wrote (and did not delete) is missing. The caller should then retry
// later instead of acting on old data (KCM returns a StaleInformerCache
// error and counts syncs{result="stale"}).
func (t *Tracker) StaleSlices(namespace, name string, slices []*discovery.EndpointSlice) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	gens, ok := t.byKey[types.NamespacedName{Namespace: namespace, Name: name}]
	if !ok {
		return false
	}
	listed := make(map[types.UID]struct{}, len(slices))
	for _, s := range slices {
		listed[s.UID] = struct{}{}
		if g, ok := gens[s.UID]; ok && (g == deletionExpected || g > s.Generation) {
			return true
		}
	}
	for uid, g := range gens {
		if g == deletionExpected {
			continue
		}
		if _, ok := listed[uid]; !ok {
			return true
		}
	}
	return false
}

// Update records the generation of slice as returned by a create or update.
func (t *Tracker) Update(slice *discovery.EndpointSlice) {
	t.set(slice, slice.Generation)
}

// ExpectDeletion records that slice was deleted by this controller.
func (t *Tracker) ExpectDeletion(slice *discovery.EndpointSlice) {
	t.set(slice, deletionExpected)
}

func (t *Tracker) set(slice *discovery.EndpointSlice, g int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := sliceOwnerKey(slice)
	gens, ok := t.byKey[key]
	if !ok {
		gens = map[types.UID]int64{}
		t.byKey[key] = gens
	}
	gens[slice.UID] = g
}

// HandleDeletion forgets slice after the informer reports its deletion. It
// returns true when the deletion was expected (we deleted it) or the slice
// was not tracked, and false when we wrote the slice and did not delete it:
// somebody else did, and the owner needs a sync to recreate it (KCM
// endpointslice_controller.go onEndpointSliceDelete).
func (t *Tracker) HandleDeletion(slice *discovery.EndpointSlice) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	gens, ok := t.byKey[sliceOwnerKey(slice)]
	if ok {
		g, tracked := gens[slice.UID]
		delete(gens, slice.UID)
		if tracked && g != deletionExpected {
			return false
		}
	}
	return true
}

// DeleteOwner forgets everything tracked for the owner namespace/name.
func (t *Tracker) DeleteOwner(namespace, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.byKey, types.NamespacedName{Namespace: namespace, Name: name})
}
