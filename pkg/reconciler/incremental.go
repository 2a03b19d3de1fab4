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
	"fmt"
	"sort"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Reasons PlanIndexed gives for planning with the full planner instead of
// incrementally. Callers count them (a metric label); the set may grow.
const (
	// FullReasonReset: the index was reset (first sync, owner changed,
	// resync) and has not planned since.
	FullReasonReset = "reset"
	// FullReasonSlicesUnknown: the existing slices do not match what the
	// index knows (a slice of an unsupported address type, one not owned,
	// two slices with the same name, an endpoint in two slices).
	FullReasonSlicesUnknown = "slices-unknown"
	// FullReasonPortGroups: an address type has no port group, several, or
	// slices of another port group (a placeholder among them).
	FullReasonPortGroups = "port-groups"
	// FullReasonNoEndpoints: an address type has no desired endpoint (the
	// placeholder rule, C27, may apply).
	FullReasonNoEndpoints = "no-endpoints"
	// FullReasonDuplicateEndpoint: two items give endpoints of the same
	// identity (the full planner collapses them; the last one wins).
	FullReasonDuplicateEndpoint = "duplicate-endpoint"
	// FullReasonPortOrder: two items of one port group list their ports in
	// different orders (the group's slices take the first item's order).
	FullReasonPortOrder = "port-order"
	// FullReasonTopology: the owner asks for topology-aware hints (C34),
	// which the topology cache allocates over all endpoints.
	FullReasonTopology = "topology-hints"
	// FullReasonPacking: the reconciler packs one slice per group
	// (Config.OneSlicePerGroup, mirroring), which the incremental planner
	// does not implement.
	FullReasonPacking = "one-slice-per-group"
	// FullReasonOwner: the owner changed (another resourceVersion) since
	// the last plan; its labels and annotations may reach every slice.
	FullReasonOwner = "owner-changed"
)

// Item is what one item of an owner (for a Service: one Pod) contributes to
// the owner's desired endpoints. An item that is present is a member of the
// port group (address type, Ports) of every address type of the owner, even
// when it has no endpoint of that address type: the group then exists
// with fewer endpoints, as in servicepods.Desired (KCM creates the group
// before the Node lookup).
type Item struct {
	// Ports is the port list of the item's endpoints.
	Ports []discovery.EndpointPort
	// Endpoints holds at most one endpoint per address type. Endpoints with
	// no addresses are ignored.
	Endpoints []ItemEndpoint
}

// ItemEndpoint is an item's endpoint of one address type.
type ItemEndpoint struct {
	AddressType discovery.AddressType
	Endpoint    discovery.Endpoint
}

// Index is the incremental state of one owner: its desired endpoints by
// item (for a Service: by Pod namespace/name), kept current by SetItem, and
// which existing slice each endpoint lives in, learnt from the slices
// PlanIndexed is given. It lets PlanIndexed plan only the slices whose
// endpoints changed. An Index is not safe for concurrent use;
// the owner's sync (one worker at a time) owns it. Make one with NewIndex
// (or use the zero value) and Reset it before the first PlanIndexed, which
// returns an error wrapping ErrInvalidInput for an index never Reset.
type Index struct {
	addressTypes []discovery.AddressType
	hints        Hints
	fullReason   string
	// ownerStamp is the owner's UID and resourceVersion at the last plan.
	ownerStamp string
	// wasReset: Reset was called at least once (a never-Reset index has no
	// address types, and PlanIndexed refuses it). resetErr: Reset was given
	// an unsupported address type. invalid: the items whose endpoints the
	// API server would refuse (ValidateEndpoint), left out of the index;
	// PlanIndexed refuses to plan while there are any.
	wasReset bool
	resetErr error
	invalid  map[string]error

	items map[string]*indexedItem
	// portKeys counts the present items per port key; portsByKey is the
	// port list of the first item set with that key.
	portKeys   map[string]int
	portsByKey map[string][]discovery.EndpointPort
	portOrder  int // items whose ports differ in order from portsByKey
	ats        map[discovery.AddressType]*atIndex

	slices  map[string]*sliceEntry
	unclean map[string]*sliceEntry
	gen     int
	// byPtr finds the entry of a slice object already seen: informer
	// objects are immutable (Plan and Apply never modify them), so the
	// same pointer is the same content.
	byPtr map[*discovery.EndpointSlice]*sliceEntry
	// atPos is the entry of each position of the slices handed to the
	// previous PlanIndexed (nil: not one of ours), for the common case of
	// the same slices in the same order (OwnerSlices sorts them by name).
	atPos, atPosSpare []*sliceEntry
	// okScratch is a spare sliceEntry.ok buffer for refreshSlice.
	okScratch []bool
}

// indexedItem is an item as stored: its port key and endpoints.
type indexedItem struct {
	portKey   string
	portOrder bool // ports differ in order from portsByKey[portKey]
	eps       []*desiredEndpoint
}

// desiredEndpoint is one desired endpoint of one item.
type desiredEndpoint struct {
	item string // item key, the order of the full Desired
	key  string // EndpointIdentity
	at   discovery.AddressType
	ep   discovery.Endpoint
	// dead is set once the endpoint is no longer the desired one of its
	// identity (sliceEntry.des then looks the identity up again).
	dead bool
}

// atIndex is the state of one address type.
type atIndex struct {
	desired   map[string]*desiredEndpoint // by EndpointIdentity
	dupes     int                         // extra items per identity, summed
	counts    map[string]int              // items per identity
	placement map[string]slot             // identity -> slice and position holding it
	placeDup  int                         // endpoints found in a second slice
	unplaced  map[string]*desiredEndpoint // desired and in no slice
	slicesBy  map[string]int              // slices per port key
	nslices   int
}

// slot is where an endpoint lives: a slice and the endpoint's position in it.
type slot struct {
	e *sliceEntry
	i int
}

// sliceEntry is what the index knows of one existing slice.
type sliceEntry struct {
	obj     *discovery.EndpointSlice
	uid     types.UID
	rv      string
	at      discovery.AddressType
	portKey string
	keys    []string // EndpointIdentity of each endpoint, in order
	// des caches the desired endpoint of each key (nil: look it up).
	des []*desiredEndpoint
	// ok[i] records that obj.Endpoints[i] is identical (endpointsIdentical)
	// to the current desired endpoint of keys[i]: evaluateSlice then takes
	// obj.Endpoints[i] as it is, without reading the desired endpoint (which
	// for a large owner is scattered over the heap). Every change of the
	// desired endpoint of a key clears its ok (slot.unverify); a new obj
	// clears them all. nil: nothing verified yet.
	ok    []bool
	gone  bool // forgotten (no longer in Index.slices)
	clean bool
	seen  int
	pos   int // position in the existing list of the current plan
}

// NewIndex returns an empty Index that needs a Reset before its first use.
func NewIndex() *Index {
	x := &Index{}
	x.clear()
	x.fullReason = FullReasonReset
	return x
}

func (x *Index) clear() {
	x.items = map[string]*indexedItem{}
	x.portKeys = map[string]int{}
	x.portsByKey = map[string][]discovery.EndpointPort{}
	x.portOrder = 0
	x.ats = map[discovery.AddressType]*atIndex{}
	for _, at := range x.addressTypes {
		x.ats[at] = newATIndex()
	}
	x.slices = map[string]*sliceEntry{}
	x.invalid = map[string]error{}
	x.unclean = map[string]*sliceEntry{}
	x.byPtr = map[*discovery.EndpointSlice]*sliceEntry{}
	x.atPos = nil
}

// resizeEntries returns buf with length n and every element nil,
// reallocated when too small.
func resizeEntries(buf []*sliceEntry, n int) []*sliceEntry {
	if cap(buf) < n {
		return make([]*sliceEntry, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

func newATIndex() *atIndex {
	return &atIndex{
		desired:   map[string]*desiredEndpoint{},
		counts:    map[string]int{},
		placement: map[string]slot{},
		unplaced:  map[string]*desiredEndpoint{},
		slicesBy:  map[string]int{},
	}
}

// Reset empties the index for an owner whose slices have the address types
// addressTypes (Desired.AddressTypes) and hints (Desired.Hints); the caller
// then sets every item of the owner with SetItem. The next PlanIndexed
// plans with the full planner and reports reason (FullReasonReset when
// empty). Call it on the first sync of an owner, whenever the owner
// changed, and on a resync.
func (x *Index) Reset(addressTypes []discovery.AddressType, hints Hints, reason string) {
	x.addressTypes = x.addressTypes[:0]
	x.wasReset, x.resetErr = true, nil
	for _, at := range addressTypes {
		if !supportedAddressType(at) {
			x.resetErr = invalid("Index.Reset: address type %q is not IPv4, IPv6 or FQDN", at)
			continue
		}
		if !containsAddressType(x.addressTypes, at) {
			x.addressTypes = append(x.addressTypes, at)
		}
	}
	x.hints = hints
	x.clear()
	if reason == "" {
		reason = FullReasonReset
	}
	x.fullReason = reason
}

// Invalidate makes the next PlanIndexed plan with the full planner and give
// reason (e.g. a Node changed while hints depend on zones). The items are
// kept: the caller updates those that changed.
func (x *Index) Invalidate(reason string) {
	if x.fullReason == "" {
		x.fullReason = reason
	}
}

// invalidItem returns the error of Reset's unsupported address type, or of
// the first (by key) item with an endpoint the API server would refuse, or
// nil.
func (x *Index) invalidItem() error {
	if x.resetErr != nil {
		return x.resetErr
	}
	if len(x.invalid) == 0 {
		return nil
	}
	keys := make([]string, 0, len(x.invalid))
	for k := range x.invalid {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 1 {
		return fmt.Errorf("item %q: %w", keys[0], x.invalid[keys[0]])
	}
	return fmt.Errorf("item %q: %w (and %d more items)", keys[0], x.invalid[keys[0]], len(keys)-1)
}

// Len returns the number of present items.
func (x *Index) Len() int { return len(x.items) }

// SetItem records item as the current contribution of the item key (for a
// Service, the Pod's namespace/name), replacing the previous one; nil
// removes it (the Pod is gone, or no longer selected, or not to be in the
// endpoints). Keys order the endpoints as the full Desired orders its
// items (servicepods.Desired: by Pod namespace/name). The endpoints are
// copied (their addresses sorted); item is not kept. An endpoint the API
// server would refuse (ValidateEndpoint) is left out and makes PlanIndexed
// return an error until the item is set again without it.
func (x *Index) SetItem(key string, item *Item) {
	if x.items == nil {
		x.clear() // the zero Index: PlanIndexed refuses it until Reset
	}
	old := x.items[key]
	delete(x.invalid, key)
	var next *indexedItem
	if item != nil {
		next = &indexedItem{portKey: PortMapKey(item.Ports)}
		if err := validatePorts(item.Ports); err != nil {
			x.invalid[key] = err
		}
		for i := range item.Endpoints {
			ie := &item.Endpoints[i]
			if len(ie.Endpoint.Addresses) == 0 || x.ats[ie.AddressType] == nil {
				continue
			}
			if err := ValidateEndpoint(ie.AddressType, &ie.Endpoint); err != nil {
				x.invalid[key] = err
				continue
			}
			de := &desiredEndpoint{item: key, at: ie.AddressType, ep: ie.Endpoint}
			if !sort.StringsAreSorted(de.ep.Addresses) {
				addrs := append([]string(nil), de.ep.Addresses...)
				sort.Strings(addrs)
				de.ep.Addresses = addrs
			}
			de.key = EndpointIdentity(&de.ep)
			next.eps = append(next.eps, de)
		}
	}
	if old != nil {
		x.portKeys[old.portKey]--
		if x.portKeys[old.portKey] == 0 {
			delete(x.portKeys, old.portKey)
			delete(x.portsByKey, old.portKey)
		}
		if old.portOrder {
			x.portOrder--
		}
		for _, de := range old.eps {
			if next != nil && next.sameKey(de) != nil {
				continue
			}
			x.removeDesired(de)
		}
		delete(x.items, key)
	}
	if next == nil {
		return
	}
	if ports, ok := x.portsByKey[next.portKey]; !ok {
		x.portsByKey[next.portKey] = CopyPorts(item.Ports)
	} else if !endpointPortsEqual(ports, item.Ports) {
		next.portOrder = true
		x.portOrder++
	}
	x.portKeys[next.portKey]++
	for i, de := range next.eps {
		if old != nil {
			if prev := old.sameKey(de); prev != nil {
				// Same identity: the desired endpoint is updated in place
				// (slices keep pointers to it). The slice holding it is
				// evaluated again when a field beyond identity changed;
				// otherwise it stays as it is, but a kept copy takes the
				// new version (e.g. the targetRef's resourceVersion), as
				// in Plan.
				changed := !EndpointsEqualBeyondIdentity(&prev.ep, &de.ep)
				sl, placed := x.ats[de.at].placement[de.key]
				if placed && !endpointsIdentical(&prev.ep, &de.ep) {
					sl.unverify()
				}
				prev.ep = de.ep
				prev.item = key
				next.eps[i] = prev
				if changed && placed {
					x.markUnclean(sl.e)
				}
				continue
			}
		}
		x.addDesired(de)
	}
	x.items[key] = next
}

// sameKey returns its endpoint of de's address type and identity, or nil.
func (it *indexedItem) sameKey(de *desiredEndpoint) *desiredEndpoint {
	for _, e := range it.eps {
		if e.at == de.at && e.key == de.key {
			return e
		}
	}
	return nil
}

func (x *Index) addDesired(de *desiredEndpoint) {
	ai := x.ats[de.at]
	ai.counts[de.key]++
	if ai.counts[de.key] > 1 {
		ai.dupes++
	}
	if prev := ai.desired[de.key]; prev != nil {
		prev.dead = true
	}
	ai.desired[de.key] = de
	if sl, placed := ai.placement[de.key]; placed {
		sl.unverify()
		x.markUnclean(sl.e)
	} else {
		ai.unplaced[de.key] = de
	}
}

func (x *Index) removeDesired(de *desiredEndpoint) {
	ai := x.ats[de.at]
	de.dead = true
	if ai.counts[de.key] > 1 {
		ai.dupes--
	}
	ai.counts[de.key]--
	if ai.counts[de.key] > 0 {
		// Another item still gives this identity (we fall back while
		// dupes > 0); keep the entry pointing at a live endpoint.
		if ai.desired[de.key] == de {
			for _, it := range x.items {
				for _, e := range it.eps {
					if e != de && e.at == de.at && e.key == de.key {
						ai.desired[de.key] = e
						e.dead = false
					}
				}
			}
			// An identity in no slice is added in its surviving version.
			if _, ok := ai.unplaced[de.key]; ok {
				ai.unplaced[de.key] = ai.desired[de.key]
			}
		}
	} else {
		delete(ai.counts, de.key)
		delete(ai.desired, de.key)
		delete(ai.unplaced, de.key)
	}
	if sl, placed := ai.placement[de.key]; placed {
		sl.unverify()
		x.markUnclean(sl.e)
	}
}

// unverify clears the verification of the endpoint at sl (sliceEntry.ok),
// after its desired endpoint changed.
func (sl slot) unverify() {
	if sl.i < len(sl.e.ok) {
		sl.e.ok[sl.i] = false
	}
}

func (x *Index) markUnclean(s *sliceEntry) {
	s.clean = false
	x.unclean[s.obj.Name] = s
}

// Desired returns the owner's full desired state built from the items: the
// address types and hints given to Reset, and per address type the port
// groups in order of first appearance over the items in key order, each
// with its endpoints in key order (the shape of servicepods.Desired).
// It costs O(items); PlanIndexed uses it when it falls back.
func (x *Index) Desired() *Desired {
	d := &Desired{AddressTypes: append([]discovery.AddressType(nil), x.addressTypes...), Hints: x.hints}
	keys := make([]string, 0, len(x.items))
	for k := range x.items {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, at := range x.addressTypes {
		groupIndex := map[string]int{}
		for _, k := range keys {
			it := x.items[k]
			gi, ok := groupIndex[it.portKey]
			if !ok {
				gi = len(d.Groups)
				groupIndex[it.portKey] = gi
				d.Groups = append(d.Groups, EndpointGroup{AddressType: at, Ports: x.itemPorts(it)})
			}
			for _, de := range it.eps {
				if de.at == at {
					d.Groups[gi].Endpoints = append(d.Groups[gi].Endpoints, de.ep)
				}
			}
		}
	}
	return d
}

// itemPorts returns the port list of it's group: the ports of the first
// item set with that key. Items listing the same ports in another order
// make PlanIndexed fall back (FullReasonPortOrder); servicepods gives every
// Pod the Service's port order, so this does not happen with PodItem.
func (x *Index) itemPorts(it *indexedItem) []discovery.EndpointPort {
	return x.portsByKey[it.portKey]
}
