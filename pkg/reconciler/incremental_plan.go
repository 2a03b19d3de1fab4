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
	"context"
	"fmt"
	"sort"

	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler/trafficdist"
)

// Planning from an Index: PlanIndexed, what it learns from the existing
// slices (observe, refresh, rebuild) and the per-address-type planner. The
// Index itself, its items and its desired state are in incremental.go.

// PlanIndexed plans the owner's writes like Plan, from the index instead of
// a full Desired, and returns the plan, the Desired to hand to Apply (only
// AddressTypes and Hints when incremental; the full one otherwise), and
// the reason it used the full planner ("" when it planned incrementally;
// one of the FullReason constants, or the reason given to Invalidate).
//
// existing are the owner's current slices (read-only), as for Plan. The
// incremental plan is the plan Plan would return for Desired() and
// existing, write for write (the same creates, updates and deletes in the
// same order, the same counts and port groups): it evaluates only the
// slices that hold an endpoint whose item changed since they were last
// evaluated, or whose resourceVersion changed, and applies the packing
// rules C27-C32 (k8s.io/endpointslice reconciler.go reconcileByPortMapping)
// to the endpoints not in any slice. When the index cannot tell that
// result (see the FullReason constants), it plans with Plan(Desired()).
// Either way it learns the existing slices for the next call. Errors are
// those of Plan.
func (r *Reconciler) PlanIndexed(ctx context.Context, owner Owner, x *Index, existing []*discovery.EndpointSlice) (*Plan, *Desired, string, error) {
	if err := checkOwner("plan", owner); err != nil {
		return nil, nil, "", err
	}
	if x == nil {
		return nil, nil, "", invalid("plan: index is nil")
	}
	if err := checkExisting(owner, existing); err != nil {
		return nil, nil, "", err
	}
	if !x.wasReset {
		// A never-Reset index has no address types: planning from it would
		// delete every slice of the owner.
		return nil, nil, "", invalid("plan %s/%s: the index was never Reset (call Index.Reset with the owner's address types, then SetItem)", owner.GetNamespace(), owner.GetName())
	}
	if err := x.invalidItem(); err != nil {
		return nil, nil, "", fmt.Errorf("plan %s/%s: %w", owner.GetNamespace(), owner.GetName(), err)
	}
	if err := r.needsSet("PlanIndexed"); err != nil {
		return nil, nil, "", err
	}
	if err := r.checkNamePrefix(owner); err != nil {
		return nil, nil, "", err
	}
	var otherSets []*discovery.EndpointSlice
	if r.bound {
		mine := make([]*discovery.EndpointSlice, 0, len(existing))
		for _, s := range existing {
			if s != nil && !r.inSet(s) {
				otherSets = append(otherSets, s)
				continue
			}
			mine = append(mine, s)
		}
		existing = mine
	}
	reason := x.fullReason
	// The owner's labels and annotations reach its slices through the
	// metadata policy: a changed owner (another resourceVersion) is
	// planned in full, so that they do at this sync even when no endpoint
	// changed and the caller did not Reset the index.
	stamp := string(owner.GetUID()) + "/" + owner.GetResourceVersion()
	if reason == "" && owner.GetResourceVersion() != "" && x.ownerStamp != "" && x.ownerStamp != stamp {
		reason = FullReasonOwner
	}
	x.ownerStamp = stamp
	var ignored []*discovery.EndpointSlice
	if reason == "" {
		ignored, reason = x.observe(r, owner, existing)
	}
	if reason == "" {
		reason = x.structuralReason(r)
	}
	if reason != "" {
		desired := x.Desired()
		plan, err := r.plan(ctx, owner, desired, existing)
		if err != nil {
			return nil, nil, reason, err
		}
		plan.Ignored = append(plan.Ignored, otherSets...)
		x.rebuildSlices(ctx, r, owner, existing)
		return plan, desired, reason, nil
	}
	plan := &Plan{Ignored: append(ignored, otherSets...)}
	for _, at := range x.addressTypes {
		atp, events := r.planAddressTypeIndexed(ctx, owner, x, at)
		plan.AddressTypes = append(plan.AddressTypes, atp)
		plan.Events = append(plan.Events, events...)
	}
	return plan, &Desired{AddressTypes: append([]discovery.AddressType(nil), x.addressTypes...), Hints: x.hints}, "", nil
}

// structuralReason returns why the owner's shape needs the full planner,
// or "".
func (x *Index) structuralReason(r *Reconciler) string {
	if r.cfg.OneSlicePerGroup {
		return FullReasonPacking
	}
	if r.topologyCache != nil && x.hints.TopologyAuto {
		return FullReasonTopology
	}
	if x.portOrder > 0 {
		return FullReasonPortOrder
	}
	if len(x.portKeys) != 1 {
		return FullReasonPortGroups
	}
	var pk string
	for k := range x.portKeys {
		pk = k
	}
	for _, at := range x.addressTypes {
		ai := x.ats[at]
		if ai.dupes > 0 {
			return FullReasonDuplicateEndpoint
		}
		if ai.placeDup > 0 {
			return FullReasonSlicesUnknown
		}
		if len(ai.desired) == 0 {
			return FullReasonNoEndpoints
		}
		if ai.nslices != ai.slicesBy[pk] {
			return FullReasonPortGroups
		}
	}
	return ""
}

// observe brings the index's knowledge of slices up to date with existing:
// slices it does not know or whose UID or resourceVersion changed are read
// again (and become unclean), slices gone are forgotten. It returns the
// slices of other controllers (Plan.Ignored) and a reason when existing
// cannot be planned incrementally.
func (x *Index) observe(r *Reconciler, owner Owner, existing []*discovery.EndpointSlice) ([]*discovery.EndpointSlice, string) {
	x.gen++
	var ignored, reread []*discovery.EndpointSlice
	var rereadPos []int
	var rereadNames map[string]bool
	reason := ""
	seen := 0
	prevPos := x.atPos
	x.atPos = resizeEntries(x.atPosSpare, len(existing))
	defer func() { x.atPosSpare = prevPos }()
	for i, s := range existing {
		if s == nil {
			continue
		}
		// Fast paths: the slice at this position last time, or the very
		// object seen before, unchanged (its checks below passed then, for
		// the same owner). The same name, UID and resourceVersion is the
		// same content (e.g. a shallow copy made by OwnerSlices).
		e := (*sliceEntry)(nil)
		if i < len(prevPos) {
			if p := prevPos[i]; p != nil && !p.gone && (p.obj == s ||
				(p.rv == s.ResourceVersion && s.ResourceVersion != "" && p.uid == s.UID && p.obj.Name == s.Name)) {
				e = p
			}
		}
		if e == nil {
			e = x.byPtr[s]
		}
		if e != nil {
			if e.seen == x.gen {
				reason = FullReasonSlicesUnknown // handed twice
				continue
			}
			e.seen, e.pos = x.gen, i
			x.atPos[i] = e
			seen++
			continue
		}
		if s.Labels[discovery.LabelManagedBy] != r.cfg.ControllerName {
			ignored = append(ignored, s)
			continue
		}
		if x.ats[s.AddressType] == nil || !r.ownedBy(s, owner) {
			reason = FullReasonSlicesUnknown
			continue
		}
		e = x.slices[s.Name]
		if (e != nil && e.seen == x.gen) || rereadNames[s.Name] {
			reason = FullReasonSlicesUnknown // two slices with one name
			continue
		}
		if e != nil && e.uid == s.UID && e.rv == s.ResourceVersion && s.ResourceVersion != "" {
			// Same version, another object (e.g. a shallow copy made by
			// OwnerSlices): the same content, so e keeps the object it has.
		} else if e == nil || e.uid != s.UID || s.ResourceVersion == "" || !x.refreshSlice(e, s) {
			if rereadNames == nil {
				rereadNames = map[string]bool{}
			}
			rereadNames[s.Name] = true
			if e != nil {
				x.forgetSlice(e)
			}
			reread = append(reread, s)
			rereadPos = append(rereadPos, i)
			continue
		}
		e.seen, e.pos = x.gen, i
		x.atPos[i] = e
		seen++
	}
	if seen != len(x.slices) {
		for name, e := range x.slices {
			if e.seen != x.gen {
				x.forgetSlice(e)
				delete(x.slices, name)
			}
		}
	}
	for i, s := range reread {
		e := x.readSlice(s)
		e.seen = x.gen
		e.pos = rereadPos[i]
		x.atPos[e.pos] = e
	}
	return ignored, reason
}

// refreshSlice takes s, a new version of the slice of e (same UID), when
// it holds the same endpoint identities in the same order: e becomes
// unclean, keeps its placement and records which endpoints of s are
// identical to their desired endpoint (sliceEntry.ok). It reports false,
// changing nothing, otherwise (the caller then reads s anew).
//
// s typically is what this controller just wrote from the slice's previous
// version. An endpoint identical to its verified predecessor is verified
// at once (the write just read that predecessor, so this is cheap, and it
// also proves the identity); any other has its identity checked and is
// compared with the desired endpoint e last resolved for it
// (sliceEntry.des), which the evaluation before the write read. The next
// evaluation of the slice then reads only the endpoints that changed since.
func (x *Index) refreshSlice(e *sliceEntry, s *discovery.EndpointSlice) bool {
	if len(s.Endpoints) != len(e.keys) || s.AddressType != e.at || PortMapKey(s.Ports) != e.portKey {
		return false
	}
	prev := e.obj.Endpoints
	prevOK := e.ok
	if len(prevOK) != len(prev) {
		prevOK = nil // nothing of prev was verified
	}
	ok := x.okScratch
	if cap(ok) < len(s.Endpoints) {
		ok = make([]bool, len(s.Endpoints))
	}
	ok = ok[:len(s.Endpoints)]
	for i := range s.Endpoints {
		ep := &s.Endpoints[i]
		if i < len(prevOK) && prevOK[i] && endpointsIdentical(&prev[i], ep) {
			ok[i] = true
			continue
		}
		if (i >= len(prev) || !sameIdentity(&prev[i], ep)) && EndpointIdentity(ep) != e.keys[i] {
			return false
		}
		got := (*desiredEndpoint)(nil)
		if i < len(e.des) {
			got = e.des[i]
		}
		ok[i] = got != nil && !got.dead && endpointsIdentical(&got.ep, ep)
	}
	x.okScratch = e.ok
	e.ok = ok
	delete(x.byPtr, e.obj)
	e.obj, e.rv = s, s.ResourceVersion
	x.byPtr[s] = e
	x.markUnclean(e)
	return true
}

// sameIdentity reports whether a and b have the same identity fields
// (addresses in the same order, hostname, targetRef namespace and name),
// hence the same EndpointIdentity.
func sameIdentity(a, b *discovery.Endpoint) bool {
	if len(a.Addresses) != len(b.Addresses) || !strPtrEqual(a.Hostname, b.Hostname) {
		return false
	}
	// Shared memory (a kept endpoint copied from the previous version of
	// its slice) is equal without being read.
	if len(a.Addresses) > 0 && &a.Addresses[0] != &b.Addresses[0] {
		for i := range a.Addresses {
			if a.Addresses[i] != b.Addresses[i] {
				return false
			}
		}
	}
	if a.TargetRef == b.TargetRef {
		return true
	}
	if a.TargetRef == nil || b.TargetRef == nil {
		return false
	}
	return a.TargetRef.Namespace == b.TargetRef.Namespace && a.TargetRef.Name == b.TargetRef.Name
}

// readSlice records s as an unclean slice and places its endpoints.
func (x *Index) readSlice(s *discovery.EndpointSlice) *sliceEntry {
	e := &sliceEntry{obj: s, uid: s.UID, rv: s.ResourceVersion, at: s.AddressType, portKey: PortMapKey(s.Ports), keys: make([]string, len(s.Endpoints))}
	ai := x.ats[s.AddressType]
	for i := range s.Endpoints {
		k := EndpointIdentity(&s.Endpoints[i])
		e.keys[i] = k
		if _, placed := ai.placement[k]; placed {
			ai.placeDup++
			continue
		}
		ai.placement[k] = slot{e: e, i: i}
		delete(ai.unplaced, k)
	}
	ai.slicesBy[e.portKey]++
	ai.nslices++
	x.slices[s.Name] = e
	x.byPtr[s] = e
	x.markUnclean(e)
	return e
}

// forgetSlice removes e's endpoints from the placement.
func (x *Index) forgetSlice(e *sliceEntry) {
	ai := x.ats[e.at]
	e.gone = true
	for _, k := range e.keys {
		if sl, placed := ai.placement[k]; !placed || sl.e != e {
			ai.placeDup--
			continue
		}
		delete(ai.placement, k)
		if de := ai.desired[k]; de != nil {
			ai.unplaced[k] = de
		}
	}
	ai.slicesBy[e.portKey]--
	if ai.slicesBy[e.portKey] == 0 {
		delete(ai.slicesBy, e.portKey)
	}
	ai.nslices--
	delete(x.unclean, e.obj.Name)
	delete(x.slices, e.obj.Name)
	delete(x.byPtr, e.obj)
}

// rebuildSlices forgets every slice and learns existing from scratch after
// a full plan: each slice is evaluated against the desired endpoints and
// is clean when the full planner leaves it as it is (step 1 of
// planPortGroup keeps it unchanged and its hints are right). Slices the
// plan writes get a new resourceVersion and are read again next time.
func (x *Index) rebuildSlices(ctx context.Context, r *Reconciler, owner Owner, existing []*discovery.EndpointSlice) {
	x.slices = map[string]*sliceEntry{}
	x.unclean = map[string]*sliceEntry{}
	x.byPtr = map[*discovery.EndpointSlice]*sliceEntry{}
	for _, ai := range x.ats {
		ai.placement = map[string]slot{}
		ai.placeDup = 0
		ai.slicesBy = map[string]int{}
		ai.nslices = 0
		ai.unplaced = make(map[string]*desiredEndpoint, len(ai.desired))
		for k, de := range ai.desired {
			ai.unplaced[k] = de
		}
	}
	x.fullReason = ""
	x.gen++
	x.atPos = resizeEntries(nil, len(existing))
	for i, s := range existing {
		if s == nil || s.Labels[discovery.LabelManagedBy] != r.cfg.ControllerName {
			continue
		}
		if x.ats[s.AddressType] == nil || !r.ownedBy(s, owner) {
			continue // observe falls back while such a slice exists
		}
		if x.slices[s.Name] != nil {
			x.fullReason = FullReasonSlicesUnknown
			continue
		}
		e := x.readSlice(s)
		e.seen = x.gen
		e.pos = i
		x.atPos[i] = e
	}
	for _, e := range x.slices {
		ai := x.ats[e.at]
		if ai.placeDup > 0 {
			break
		}
		if _, status, _, _, _, _ := r.evaluateSlice(ctx, owner, ai, e, nil); status == sliceUnchanged && r.hintsOK(x.hints, e.obj) {
			e.clean = true
			delete(x.unclean, e.obj.Name)
		}
	}
}

type sliceStatus int

const (
	sliceUnchanged sliceStatus = iota
	sliceUpdate
	sliceDelete
)

// evaluateSlice is step 1 of planPortGroup for one existing slice: the
// endpoints it keeps (in their desired version), whether it is unchanged,
// updated or deleted, and its labels and annotations. consumed, when not
// nil, records the identities kept, so that a later slice does not keep
// them again (the full planner deletes them from the desired set).
func (r *Reconciler) evaluateSlice(ctx context.Context, owner Owner, ai *atIndex, e *sliceEntry, consumed map[string]bool) ([]discovery.Endpoint, sliceStatus, map[string]string, map[string]string, int, bool) {
	s := e.obj
	kept := make([]discovery.Endpoint, 0, len(s.Endpoints))
	endpointUpdated := false
	if len(e.des) != len(e.keys) {
		e.des = make([]*desiredEndpoint, len(e.keys))
	}
	if len(e.ok) != len(s.Endpoints) {
		e.ok = make([]bool, len(s.Endpoints))
	}
	for i := range s.Endpoints {
		if e.ok[i] && consumed == nil {
			// Identical to its desired endpoint (verified since and not
			// changed): kept as it is.
			kept = append(kept, s.Endpoints[i])
			continue
		}
		k := e.keys[i]
		got := e.des[i]
		if got == nil || got.dead {
			got = ai.desired[k]
			e.des[i] = got
		}
		if got == nil || consumed[k] {
			continue
		}
		kept = append(kept, got.ep)
		if !EndpointsEqualBeyondIdentity(&got.ep, &s.Endpoints[i]) {
			endpointUpdated = true
		} else if endpointsIdentical(&got.ep, &s.Endpoints[i]) {
			e.ok[i] = true
		}
		if consumed != nil {
			consumed[k] = true
		}
	}
	labels, labelsChanged := r.sliceLabels(ctx, owner, s.Labels)
	annotations, annotationsChanged := r.cfg.Metadata.Annotations(ctx, owner, s.Annotations)
	if !r.cfg.EnforceOwnership && r.ownerRefStale(s, owner) {
		annotationsChanged = true
	}
	removed := 0
	switch {
	case endpointUpdated || len(s.Endpoints) != len(kept):
		if len(s.Endpoints) > len(kept) {
			removed = len(s.Endpoints) - len(kept)
		}
		if len(kept) == 0 {
			return nil, sliceDelete, nil, nil, removed, true
		}
		return kept, sliceUpdate, labels, annotations, removed, true
	case labelsChanged || annotationsChanged:
		return kept, sliceUpdate, labels, annotations, 0, false
	}
	return kept, sliceUnchanged, nil, nil, 0, false
}

// deepCopyWithoutEndpoints is s.DeepCopy() with Endpoints nil, for an update
// whose endpoints are replaced anyway (Plan deep-copies them and drops them).
func deepCopyWithoutEndpoints(s *discovery.EndpointSlice) *discovery.EndpointSlice {
	shallow := *s
	shallow.Endpoints = nil
	return shallow.DeepCopy()
}

// hintsOK reports whether the hints step leaves s, an unchanged slice, as
// it is (topology.RemoveHintsFromSlices: no endpoint has hints;
// trafficdist.ReconcileHints: the heuristic needs no update).
func (r *Reconciler) hintsOK(hints Hints, s *discovery.EndpointSlice) bool {
	if r.topologyCache != nil && hints.TopologyAuto {
		return false
	}
	if hints.TrafficDistribution != nil && !hints.TopologyAuto {
		_, updated, _ := trafficdist.ReconcileHints(hints.TrafficDistribution, nil, nil, []*discovery.EndpointSlice{s})
		return len(updated) == 0
	}
	for i := range s.Endpoints {
		if s.Endpoints[i].Hints != nil {
			return false
		}
	}
	return true
}

// planAddressTypeIndexed is planAddressType and planPortGroup for an
// address type with one port group, all slices in it and at least one
// desired endpoint (structuralReason), evaluating only the unclean slices.
func (r *Reconciler) planAddressTypeIndexed(ctx context.Context, owner Owner, x *Index, at discovery.AddressType) (AddressTypePlan, []Event) {
	ai := x.ats[at]
	var pk string
	for k := range x.portKeys {
		pk = k
	}
	ports := x.portsByKey[pk]
	if ports == nil {
		ports = []discovery.EndpointPort{}
	}
	maxPer := int(r.cfg.MaxEndpointsPerSlice)
	atp := AddressTypePlan{AddressType: at}

	// Step 1 over the unclean slices, in existing order.
	var evaluated []*sliceEntry
	for _, e := range x.unclean {
		if e.at == at {
			evaluated = append(evaluated, e)
		}
	}
	sort.Slice(evaluated, func(i, j int) bool { return evaluated[i].pos < evaluated[j].pos })
	// No identity is in two slices (structuralReason: placeDup is 0), so
	// no slice can keep an endpoint another one kept: evaluateSlice needs
	// no record of the identities consumed.
	var updates, toDelete, unchangedEval, mayBeNoOp []*discovery.EndpointSlice
	var unchangedEntries []*sliceEntry
	for _, e := range evaluated {
		kept, status, labels, annotations, removed, endpointsChanged := r.evaluateSlice(ctx, owner, ai, e, nil)
		atp.Removed += removed
		switch status {
		case sliceDelete:
			toDelete = append(toDelete, e.obj)
		case sliceUpdate:
			var u *discovery.EndpointSlice
			if endpointsChanged {
				u = deepCopyWithoutEndpoints(e.obj)
				u.Endpoints = kept
			} else {
				// Only metadata changed: the slice keeps its own endpoints
				// (hints included), as in planPortGroup, and the update may
				// be a no-op (dropNoOpUpdates compares it with the
				// existing slice).
				u = e.obj.DeepCopy()
				mayBeNoOp = append(mayBeNoOp, e.obj)
			}
			r.setMetadata(u, owner, labels, annotations)
			updates = append(updates, u)
		default:
			unchangedEval = append(unchangedEval, e.obj)
			unchangedEntries = append(unchangedEntries, e)
		}
	}

	// The endpoints in no slice, in item order (the desired set's order).
	newEPs := make([]*desiredEndpoint, 0, len(ai.unplaced))
	for _, de := range ai.unplaced {
		newEPs = append(newEPs, de)
	}
	sort.Slice(newEPs, func(i, j int) bool { return newEPs[i].item < newEPs[j].item })
	atp.Added = len(newEPs)
	next := 0

	// Step 2: fill slices already being updated, fullest first.
	if next < len(newEPs) && len(updates) > 0 {
		sort.SliceStable(updates, func(i, j int) bool { return len(updates[i].Endpoints) > len(updates[j].Endpoints) })
		for _, u := range updates {
			for next < len(newEPs) && len(u.Endpoints) < maxPer {
				u.Endpoints = append(u.Endpoints, newEPs[next].ep)
				next++
			}
		}
	}

	// Step 3: the rest into the best unchanged slice, or new slices.
	var toCreate []*discovery.EndpointSlice
	filled := ""
	for next < len(newEPs) {
		remaining := len(newEPs) - next
		var fill *discovery.EndpointSlice
		if remaining < maxPer && filled == "" {
			if best := x.sliceToFillIndexed(at, unchangedEntries, remaining, maxPer); best != nil {
				fill = best.DeepCopy()
				filled = best.Name
			}
		}
		if fill == nil {
			fill = r.newSlice(ctx, owner, at, ports)
		}
		for next < len(newEPs) && len(fill.Endpoints) < maxPer {
			fill.Endpoints = append(fill.Endpoints, newEPs[next].ep)
			next++
		}
		if fill.Name != "" {
			updates = append(updates, fill)
		} else {
			toCreate = append(toCreate, fill)
		}
	}
	atp.PortGroups = []PortGroupInfo{{Key: pk, Endpoints: len(ai.desired), Slices: ai.nslices + len(toCreate) - len(toDelete)}}

	unchangedForHints := unchangedEval
	if filled != "" {
		unchangedForHints = make([]*discovery.EndpointSlice, 0, len(unchangedEval))
		for _, s := range unchangedEval {
			if s.Name != filled {
				unchangedForHints = append(unchangedForHints, s)
			}
		}
	}
	// dropNoOpUpdates only needs the existing slices whose update may leave
	// them as they are: those updated for metadata only, and the unchanged
	// ones the hints step may promote. An update whose endpoints changed
	// (one kept endpoint differs beyond identity, or one went) or that
	// received new endpoints always differs.
	mayBeNoOp = append(mayBeNoOp, unchangedForHints...)
	events := r.finishAddressType(ctx, owner, x.hints, &atp, toCreate, updates, toDelete, nil, mayBeNoOp, unchangedForHints)

	// Slices evaluated unchanged, not filled and with right hints are clean
	// until an item of theirs changes or they change. The others stay
	// unclean: written, they come back with a new resourceVersion;
	// not written (a failed Apply), they are evaluated again.
	for _, e := range unchangedEntries {
		if e.obj.Name != filled && r.hintsOK(x.hints, e.obj) {
			e.clean = true
			delete(x.unclean, e.obj.Name)
		}
	}
	return atp, events
}

// sliceToFillIndexed is sliceToFill over the unchanged slices of at: the
// clean ones and those evaluated unchanged in this plan, sorted by name.
func (x *Index) sliceToFillIndexed(at discovery.AddressType, unchangedEval []*sliceEntry, numEndpoints, maxPer int) *discovery.EndpointSlice {
	cands := make([]*discovery.EndpointSlice, 0, len(x.slices))
	for _, e := range x.slices {
		if e.at == at && e.clean {
			cands = append(cands, e.obj)
		}
	}
	for _, e := range unchangedEval {
		cands = append(cands, e.obj)
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].Name < cands[j].Name })
	if i := sliceToFill(cands, numEndpoints, maxPer); i >= 0 {
		return cands[i]
	}
	return nil
}
