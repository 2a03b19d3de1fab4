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
	"maps"
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
// Slices are grouped by namespace and their kubernetes.io/service-name label
// (or the key given to NewTrackerForLabels), which the reconciler sets on
// every slice it writes, and, for a tracker with a set label
// (NewTrackerForLabels; Config.SetLabel), by the value of that label: each
// slice set of an owner is tracked on its own.
//
// No-op writes are safe (edge case E5 of KEP-4770 spec): an update that
// changes nothing returns the same generation, which is recorded as it is; a
// cache holding that generation is not stale, because the comparison is
// strictly "cache older than tracked".
//
// A Tracker is safe for concurrent use. The zero value is an empty Tracker
// as NewTracker returns. Its methods take a nil slice as no slice: Has and
// ShouldSync report false, Update and ExpectDeletion do nothing,
// HandleDeletion reports true.
type Tracker struct {
	serviceNameLabel string
	setLabel         string

	mu sync.Mutex
	// byOwner holds, per owner, the tracked generations of each set
	// ("" without a set label) by slice UID.
	byOwner map[types.NamespacedName]map[string]map[types.UID]int64
}

// NewTracker returns an empty Tracker that groups slices by their
// kubernetes.io/service-name label, for a reconciler with the default
// Config.ServiceNameLabel and no Config.SetLabel.
func NewTracker() *Tracker {
	return NewTrackerForLabels("", "")
}

// NewTrackerForLabels returns an empty Tracker that groups slices by the
// label serviceNameLabel ("" means kubernetes.io/service-name) and, when
// setLabel is not empty, by the value of the label setLabel: the tracker of
// a reconciler whose Config has these ServiceNameLabel and SetLabel (New
// refuses a tracker whose labels differ from its Config's).
func NewTrackerForLabels(serviceNameLabel, setLabel string) *Tracker {
	if serviceNameLabel == "" {
		serviceNameLabel = discovery.LabelServiceName
	}
	return &Tracker{
		serviceNameLabel: serviceNameLabel,
		setLabel:         setLabel,
		byOwner:          map[types.NamespacedName]map[string]map[types.UID]int64{},
	}
}

// Labels returns the labels the tracker groups slices by: the service-name
// label key and the set label key ("" for none).
func (t *Tracker) Labels() (serviceNameLabel, setLabel string) {
	return t.nameLabel(), t.setLabel
}

// nameLabel is the service-name label key (the zero Tracker's is
// kubernetes.io/service-name).
func (t *Tracker) nameLabel() string {
	if t.serviceNameLabel == "" {
		return discovery.LabelServiceName
	}
	return t.serviceNameLabel
}

// Reset forgets everything tracked, as a new Tracker would. Call it when
// this process starts (again) to write, for instance on every leader
// election won: generations recorded during an earlier term may be older
// than what another leader wrote since, and would report a stale cache
// until the owner's slices were written again.
func (t *Tracker) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byOwner = map[types.NamespacedName]map[string]map[types.UID]int64{}
}

// sliceKey returns the owner and the set of slice.
func (t *Tracker) sliceKey(s *discovery.EndpointSlice) (types.NamespacedName, string) {
	set := ""
	if t.setLabel != "" {
		set = s.Labels[t.setLabel]
	}
	return types.NamespacedName{Namespace: s.Namespace, Name: s.Labels[t.nameLabel()]}, set
}

// gens returns the generations tracked for slice's owner and set (nil when
// none). t.mu must be held.
func (t *Tracker) gens(s *discovery.EndpointSlice) map[types.UID]int64 {
	owner, set := t.sliceKey(s)
	return t.byOwner[owner][set]
}

// Has reports whether slice is tracked (written or deleted by us and not yet
// seen deleted).
func (t *Tracker) Has(slice *discovery.EndpointSlice) bool {
	if slice == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.gens(slice)[slice.UID]
	return ok
}

// ShouldSync reports whether an informer event for slice needs a sync: true
// unless the slice is tracked and its generation is not newer than the one
// we wrote (then the event is our own write coming back).
func (t *Tracker) ShouldSync(slice *discovery.EndpointSlice) bool {
	if slice == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.gens(slice)[slice.UID]
	return !ok || slice.Generation > g
}

// StaleSlices reports whether slices, the owner's slices as listed from the
// informer cache, are older than what this controller has written: a listed
// slice has a lower generation than tracked or was deleted by us, or a slice
// we wrote (and did not delete) is missing. The caller should then retry
// later instead of acting on old data (KCM returns a StaleInformerCache
// error and counts syncs{result="stale"}). With a set label, slices are
// those of every set of the owner (StaleSetSlices checks one set).
func (t *Tracker) StaleSlices(namespace, name string, slices []*discovery.EndpointSlice) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	sets, ok := t.byOwner[types.NamespacedName{Namespace: namespace, Name: name}]
	if !ok {
		return false
	}
	if len(sets) == 1 {
		for _, gens := range sets {
			return stale(gens, slices)
		}
	}
	all := map[types.UID]int64{}
	for _, gens := range sets {
		maps.Copy(all, gens)
	}
	return stale(all, slices)
}

// StaleSetSlices is StaleSlices for one set of the owner: slices are the
// owner's slices whose set label has the value set, as listed from the
// informer cache. Without a set label, set must be "".
func (t *Tracker) StaleSetSlices(namespace, name, set string, slices []*discovery.EndpointSlice) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	gens, ok := t.byOwner[types.NamespacedName{Namespace: namespace, Name: name}][set]
	if !ok {
		return false
	}
	return stale(gens, slices)
}

// stale is StaleSlices' rule over the tracked generations gens.
func stale(gens map[types.UID]int64, slices []*discovery.EndpointSlice) bool {
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
	if slice == nil {
		return
	}
	t.set(slice, slice.Generation)
}

// ExpectDeletion records that slice was deleted by this controller.
func (t *Tracker) ExpectDeletion(slice *discovery.EndpointSlice) {
	t.set(slice, deletionExpected)
}

func (t *Tracker) set(slice *discovery.EndpointSlice, g int64) {
	if slice == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byOwner == nil {
		t.byOwner = map[types.NamespacedName]map[string]map[types.UID]int64{}
	}
	owner, set := t.sliceKey(slice)
	sets, ok := t.byOwner[owner]
	if !ok {
		sets = map[string]map[types.UID]int64{}
		t.byOwner[owner] = sets
	}
	gens, ok := sets[set]
	if !ok {
		gens = map[types.UID]int64{}
		sets[set] = gens
	}
	gens[slice.UID] = g
}

// HandleDeletion forgets slice after the informer reports its deletion. It
// returns true when the deletion was expected (we deleted it) or the slice
// was not tracked, and false when we wrote the slice and did not delete it:
// somebody else did, and the owner needs a sync to recreate it (KCM
// endpointslice_controller.go onEndpointSliceDelete).
func (t *Tracker) HandleDeletion(slice *discovery.EndpointSlice) bool {
	if slice == nil {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	gens := t.gens(slice)
	if gens != nil {
		g, tracked := gens[slice.UID]
		delete(gens, slice.UID)
		if tracked && g != deletionExpected {
			return false
		}
	}
	return true
}

// DeleteOwner forgets everything tracked for the owner namespace/name (every
// set of it).
func (t *Tracker) DeleteOwner(namespace, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.byOwner, types.NamespacedName{Namespace: namespace, Name: name})
}

// DeleteOwnerSet forgets everything tracked for one set of the owner
// namespace/name.
func (t *Tracker) DeleteOwnerSet(namespace, name, set string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := types.NamespacedName{Namespace: namespace, Name: name}
	sets := t.byOwner[key]
	delete(sets, set)
	if len(sets) == 0 {
		delete(t.byOwner, key)
	}
}
