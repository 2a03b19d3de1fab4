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
	"maps"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/reconciler/topology"
	"github.com/slicekit/slicekit/pkg/reconciler/trafficdist"
)

// Plan is the outcome of planning one owner: the writes that bring its
// EndpointSlices to the desired state, in the order Apply performs them.
// Slices in a Plan are new objects or deep copies; none aliases an input.
type Plan struct {
	// AddressTypes holds one plan per supported address type, in the order
	// of Desired.AddressTypes.
	AddressTypes []AddressTypePlan
	// DeleteUnsupported are existing slices whose address type the owner no
	// longer supports; Apply deletes them after everything else (KCM C15).
	DeleteUnsupported []*discovery.EndpointSlice
	// Events are the events to record on the owner once the plan is applied
	// (topology hints enabled/disabled, KCM C34).
	Events []Event
	// Ignored are existing slices that were handed to the reconciler but
	// carry another controller's managed-by label; they are never written.
	Ignored []*discovery.EndpointSlice
}

// AddressTypePlan is the plan for one address type (KCM
// reconcileByAddressType followed by the recycling half of finalize).
type AddressTypePlan struct {
	AddressType discovery.AddressType
	// Create are new slices (generateName set, no name). Update are full
	// replacements of existing slices (name set; a recycled slice is a new
	// object carrying the name of a slice that was going to be deleted, C32).
	// Delete are existing slices to delete.
	Create, Update, Delete []*discovery.EndpointSlice
	// Added and Removed count endpoints added to and removed from slices.
	Added, Removed int
	// Updated counts, with Config.OneSlicePerGroup, the endpoints of the
	// kept existing slices that are still desired but in another version
	// (EndpointsEqualBeyondIdentity false; KCM endpointslicemirroring
	// totalChanges, totals.updated). It is 0 otherwise.
	Updated int
	// Unchanged are, with Config.OneSlicePerGroup, the kept existing slices
	// that the plan neither updates nor deletes; Apply makes sure the
	// tracker knows them. nil otherwise.
	Unchanged []*discovery.EndpointSlice
	// PortGroups describes each desired port group for metrics: its key,
	// its number of endpoints and how many slices it will have.
	PortGroups []PortGroupInfo
}

// PortGroupInfo describes one port group after planning.
type PortGroupInfo struct {
	Key       string
	Endpoints int
	Slices    int
}

// Event is an event to record on the owner.
type Event struct {
	// Type is corev1.EventTypeNormal or corev1.EventTypeWarning.
	Type    string
	Reason  string
	Message string
}

// Updated returns the sum of the address types' Updated counts: with
// Config.OneSlicePerGroup, the number of endpoints of kept slices still
// desired in another version (the mirroring controller's
// endpoints_updated_per_sync); 0 otherwise.
func (p *Plan) Updated() int {
	n := 0
	for i := range p.AddressTypes {
		n += p.AddressTypes[i].Updated
	}
	return n
}

// Writes returns the number of API writes the plan needs (creates, updates
// and deletes; creates count even though Apply skips them for an owner that
// is being deleted).
func (p *Plan) Writes() int {
	n := len(p.DeleteUnsupported)
	for i := range p.AddressTypes {
		at := &p.AddressTypes[i]
		n += len(at.Create) + len(at.Update) + len(at.Delete)
	}
	return n
}

// Plan computes the writes that turn existing, the owner's current slices
// (as listed from an informer: read-only, never modified), into the slices
// desired describes. It performs no API call. Its only side effect is the
// topology cache's record of the hints it allocated, which KCM also updates
// while planning (topologycache AddHints/RemoveHints).
//
// Rules, all from k8s.io/endpointslice v0.37.2 reconciler.go (behaviours
// C27-C32 of the KEP-4770 spec):
//  1. Existing slices of unsupported address types go to DeleteUnsupported.
//     Slices not owned by owner (with Config.EnforceOwnership) are deleted.
//  2. Per address type and port group, each existing slice keeps the
//     endpoints still desired (in their desired version); it becomes an
//     update when an endpoint changed or went, a delete when none is left,
//     an update when its labels or annotations drifted, else unchanged.
//  3. New endpoints first fill the slices already being updated, fullest
//     first, up to MaxEndpointsPerSlice.
//  4. What remains goes, when fewer than MaxEndpointsPerSlice, into the
//     unchanged slice that ends closest to full; else into new slices.
//  5. Slices of port groups no longer desired are deleted.
//  6. With placeholders, an address type left with no slice gets one empty
//     slice; an existing identical placeholder is kept.
//  7. Hints are set or removed (topology Auto or trafficDistribution).
//     Updates that leave a slice exactly as it is are dropped (KCM writes
//     them in some topology Auto cases; see dropNoOpUpdates).
//  8. Each delete is paired with a pending create of the same address type
//     (for slices owned by owner) and becomes an update reusing its name.
//
// With Config.OneSlicePerGroup, before step 1 the existing slices (in the
// order given) are reduced to one per address type and port list (the
// fullest, then the first); the others are deleted after step 8's
// recycling, each first offered to a remaining create of its address type
// (KCM endpointslicemirroring reconcileByPortMapping and recycleSlices, rule
// b3); those of unsupported address types go to DeleteUnsupported after the
// kept ones.
//
// Planning is deterministic: the same inputs give the same plan. Plan
// writes nothing; it returns an error wrapping ErrInvalidInput, and no
// plan, for an input the API server would refuse or that would delete
// slices by mistake (see ErrInvalidInput).
func (r *Reconciler) Plan(ctx context.Context, owner Owner, desired *Desired, existing []*discovery.EndpointSlice) (*Plan, error) {
	if err := checkOwner("plan", owner); err != nil {
		return nil, err
	}
	if err := r.needsSet("Plan"); err != nil {
		return nil, err
	}
	if err := r.checkNamePrefix(owner); err != nil {
		return nil, err
	}
	if err := validateDesired(desired); err != nil {
		return nil, fmt.Errorf("plan %s/%s: %w", owner.GetNamespace(), owner.GetName(), err)
	}
	if err := checkExisting(owner, existing); err != nil {
		return nil, err
	}
	return r.plan(ctx, owner, desired, existing)
}

// plan is Plan after its checks of owner and desired (PlanIndexed's
// desired comes from an Index whose items were checked as they were set).
func (r *Reconciler) plan(ctx context.Context, owner Owner, desired *Desired, existing []*discovery.EndpointSlice) (*Plan, error) {
	logger := klog.FromContext(ctx)
	plan := &Plan{}

	supported := make([]discovery.AddressType, 0, len(desired.AddressTypes))
	for _, at := range desired.AddressTypes {
		if !containsAddressType(supported, at) {
			supported = append(supported, at)
		}
	}

	own := make([]*discovery.EndpointSlice, 0, len(existing))
	for _, s := range existing {
		if s == nil {
			continue
		}
		if mb := s.Labels[discovery.LabelManagedBy]; mb != r.cfg.ControllerName {
			logger.V(2).Info("Ignoring EndpointSlice managed by another controller", "endpointSlice", klog.KObj(s), "managedBy", mb)
			plan.Ignored = append(plan.Ignored, s)
			continue
		}
		if !r.inSet(s) {
			logger.V(2).Info("Ignoring EndpointSlice of another slice set", "endpointSlice", klog.KObj(s), "setLabel", r.cfg.SetLabel, "set", s.Labels[r.cfg.SetLabel])
			plan.Ignored = append(plan.Ignored, s)
			continue
		}
		own = append(own, s)
	}
	var extras []*discovery.EndpointSlice
	if r.cfg.OneSlicePerGroup {
		own, extras = oneSlicePerGroup(own)
	}

	byType := map[discovery.AddressType][]*discovery.EndpointSlice{}
	for _, s := range own {
		if !containsAddressType(supported, s.AddressType) {
			if r.topologyCache != nil {
				r.topologyCache.RemoveHints(r.ownerKey(owner), s.AddressType)
			}
			plan.DeleteUnsupported = append(plan.DeleteUnsupported, s)
			continue
		}
		byType[s.AddressType] = append(byType[s.AddressType], s)
	}

	groupsByType := map[discovery.AddressType][]*EndpointGroup{}
	for i := range desired.Groups {
		g := &desired.Groups[i]
		if containsAddressType(supported, g.AddressType) {
			groupsByType[g.AddressType] = append(groupsByType[g.AddressType], g)
		}
	}

	extrasByType := map[discovery.AddressType][]*discovery.EndpointSlice{}
	for _, s := range extras {
		if containsAddressType(supported, s.AddressType) {
			extrasByType[s.AddressType] = append(extrasByType[s.AddressType], s)
		}
	}

	for _, at := range supported {
		atp, events := r.planAddressType(ctx, owner, desired.Hints, at, groupsByType[at], byType[at], extrasByType[at])
		plan.AddressTypes = append(plan.AddressTypes, atp)
		plan.Events = append(plan.Events, events...)
	}
	for _, s := range extras {
		if !containsAddressType(supported, s.AddressType) {
			plan.DeleteUnsupported = append(plan.DeleteUnsupported, s)
		}
	}
	return plan, nil
}

// oneSlicePerGroup splits slices into those planned, at most one per
// address type and port list, and the extra ones, which are deleted (rule
// b3: KCM's mirroring reconciler keeps one existing slice of a key and
// deletes the others). The kept slice is the one with the most endpoints
// (then the first in slices), so that the fewest endpoints move. Both
// results keep the order of slices.
func oneSlicePerGroup(slices []*discovery.EndpointSlice) (keep, extras []*discovery.EndpointSlice) {
	best := map[string]*discovery.EndpointSlice{}
	var order []string
	for _, s := range slices {
		k := string(s.AddressType) + "\x00" + PortMapKey(s.Ports)
		cur, ok := best[k]
		if !ok {
			order = append(order, k)
			best[k] = s
			continue
		}
		if len(s.Endpoints) > len(cur.Endpoints) {
			best[k] = s
		}
	}
	kept := make(map[*discovery.EndpointSlice]bool, len(order))
	for _, k := range order {
		keep = append(keep, best[k])
		kept[best[k]] = true
	}
	for _, s := range slices {
		if !kept[s] {
			extras = append(extras, s)
		}
	}
	return keep, extras
}

func containsAddressType(list []discovery.AddressType, at discovery.AddressType) bool {
	for _, x := range list {
		if x == at {
			return true
		}
	}
	return false
}

// ownerKey is the key of the owner's slice set in the topology cache:
// "namespace/name", and "/set" for a set (ForSet).
func (r *Reconciler) ownerKey(owner Owner) string {
	if r.bound {
		return owner.GetNamespace() + "/" + owner.GetName() + "/" + r.set
	}
	return owner.GetNamespace() + "/" + owner.GetName()
}

// inSet reports whether s belongs to r's slice set: always without
// Config.SetLabel; for a set (ForSet), when it carries SetLabel=set.
func (r *Reconciler) inSet(s *discovery.EndpointSlice) bool {
	if r.cfg.SetLabel == "" || !r.bound {
		return true
	}
	v, ok := s.Labels[r.cfg.SetLabel]
	return ok && v == r.set
}

// portGroup is the desired state of one port group while planning.
type portGroup struct {
	key   string
	ports []discovery.EndpointPort
	set   *endpointSet
	total int
}

// planAddressType plans one address type. extras are existing slices of
// the address type beyond one per port group (Config.OneSlicePerGroup):
// deleted, or recycled after existing's own deletes.
func (r *Reconciler) planAddressType(ctx context.Context, owner Owner, hints Hints, at discovery.AddressType, groups []*EndpointGroup, existing, extras []*discovery.EndpointSlice) (AddressTypePlan, []Event) {
	atp := AddressTypePlan{AddressType: at}
	var toCreate, toUpdate, toDelete []*discovery.EndpointSlice
	var events []Event

	existingByKey := map[string][]*discovery.EndpointSlice{}
	for _, s := range existing {
		if r.ownedBy(s, owner) {
			k := PortMapKey(s.Ports)
			existingByKey[k] = append(existingByKey[k], s)
		} else {
			toDelete = append(toDelete, s)
		}
	}

	// Desired endpoints by port group, in order of first appearance.
	var order []*portGroup
	byKey := map[string]*portGroup{}
	for _, g := range groups {
		k := PortMapKey(g.Ports)
		pg, ok := byKey[k]
		if !ok {
			ports := g.Ports
			if ports == nil {
				ports = []discovery.EndpointPort{}
			}
			pg = &portGroup{key: k, ports: ports, set: newEndpointSet(len(g.Endpoints))}
			byKey[k] = pg
			order = append(order, pg)
		}
		for j := range g.Endpoints {
			if len(g.Endpoints[j].Addresses) == 0 {
				continue
			}
			ep := g.Endpoints[j] // shallow copy: we may replace its Addresses
			pg.set.insert(&ep)
		}
	}

	for _, pg := range order {
		pg.total = pg.set.len()
		if r.cfg.OneSlicePerGroup {
			atp.Updated += countUpdated(pg.set, existingByKey[pg.key])
		}
		c, u, d, added, removed := r.planPortGroup(ctx, owner, at, pg, existingByKey[pg.key])
		atp.Added += added
		atp.Removed += removed
		atp.PortGroups = append(atp.PortGroups, PortGroupInfo{
			Key: pg.key, Endpoints: pg.total,
			Slices: len(existingByKey[pg.key]) + len(c) - len(d),
		})
		toCreate = append(toCreate, c...)
		toUpdate = append(toUpdate, u...)
		toDelete = append(toDelete, d...)
	}
	// Port groups no longer desired: delete their slices, in a stable order.
	var goneKeys []string
	for k := range existingByKey {
		if _, ok := byKey[k]; !ok {
			goneKeys = append(goneKeys, k)
		}
	}
	sort.Strings(goneKeys)
	for _, k := range goneKeys {
		toDelete = append(toDelete, existingByKey[k]...)
	}

	if r.cfg.Placeholder && len(existing) == len(toDelete) && len(toCreate) == 0 {
		ph := r.newSlice(ctx, owner, at, []discovery.EndpointPort{})
		if len(toDelete) == 1 && placeholderEqual(toDelete[0], ph) {
			toDelete = toDelete[:0]
		} else {
			toCreate = append(toCreate, ph)
		}
		atp.PortGroups = append(atp.PortGroups, PortGroupInfo{Key: PortMapKey(ph.Ports), Endpoints: 0, Slices: 1})
	}

	events = r.finishAddressType(ctx, owner, hints, &atp, toCreate, toUpdate, toDelete, extras, existing, unchanged(existing, toUpdate, toDelete))
	return atp, events
}

// finishAddressType is the end of planAddressType, shared with the
// incremental planner (incremental.go): hints (KCM reconcileByAddressType,
// after packing), dropping no-op updates and recycling (KCM finalize). It
// sets atp's Create, Update and Delete. extras are planAddressType's.
// existing must hold at least the existing slices named in toUpdate (and
// all of them with Config.OneSlicePerGroup); unchangedSlices are the
// existing slices neither updated nor deleted whose hints the hints step
// may correct.
func (r *Reconciler) finishAddressType(ctx context.Context, owner Owner, hints Hints, atp *AddressTypePlan, toCreate, toUpdate, toDelete, extras, existing, unchangedSlices []*discovery.EndpointSlice) []Event {
	logger := klog.FromContext(ctx)
	at := atp.AddressType
	var events []Event
	// Hints (KCM reconcileByAddressType, after packing).
	key := r.ownerKey(owner)
	useTD := hints.TrafficDistribution != nil && !hints.TopologyAuto
	si := &topology.SliceInfo{
		ServiceKey:  key,
		AddressType: at,
		ToCreate:    toCreate,
		ToUpdate:    toUpdate,
		Unchanged:   unchangedSlices,
	}
	if r.topologyCache != nil && hints.TopologyAuto {
		var evs []*topology.EventBuilder
		toCreate, toUpdate, evs = r.topologyCache.AddHints(logger, si)
		for _, e := range evs {
			events = append(events, Event{Type: e.EventType, Reason: e.Reason, Message: e.Message})
		}
	} else {
		if r.topologyCache != nil {
			if r.topologyCache.HasPopulatedHints(key) {
				logger.Info("TopologyAwareHints annotation has changed, removing hints", "serviceKey", key, "addressType", at)
				events = append(events, Event{
					Type:    corev1.EventTypeWarning,
					Reason:  "TopologyAwareHintsDisabled",
					Message: topology.FormatWithAddressType(topology.TopologyAwareHintsDisabled, at),
				})
			}
			r.topologyCache.RemoveHints(key, at)
		}
		if !useTD {
			toCreate, toUpdate = topology.RemoveHintsFromSlices(si)
		}
	}
	if useTD {
		toCreate, toUpdate, _ = trafficdist.ReconcileHints(hints.TrafficDistribution, toCreate, toUpdate, unchangedSlices)
	}

	toUpdate = dropNoOpUpdates(toUpdate, existing)
	for _, u := range toUpdate {
		// Every update is a copy (ours, or the hints steps' DeepCopy).
		// managedFields are the apiserver's; an informer transform may have
		// reduced them, and sending them back would be rejected.
		u.ManagedFields = nil
	}

	if r.cfg.OneSlicePerGroup {
		atp.Unchanged = unchanged(existing, toUpdate, toDelete)
	}

	// Recycle: a delete plus a create of the same address type is one
	// update that reuses the deleted slice's name (KCM finalize); then
	// (OneSlicePerGroup) the extra slices, each recycled while creates
	// remain (KCM endpointslicemirroring recycleSlices), else deleted.
	toDelete = append(toDelete, extras...)
	for i := 0; i < len(toDelete); {
		if len(toCreate) == 0 {
			break
		}
		del := toDelete[i]
		last := toCreate[len(toCreate)-1]
		if del.AddressType == last.AddressType && r.ownedBy(del, owner) {
			last.Name = del.Name
			toCreate = toCreate[:len(toCreate)-1]
			toUpdate = append(toUpdate, last)
			toDelete = append(toDelete[:i], toDelete[i+1:]...)
		} else {
			i++
		}
	}

	atp.Create, atp.Update, atp.Delete = toCreate, toUpdate, toDelete
	return events
}

// countUpdated returns how many endpoints of existing are in desired in
// another version (KCM endpointslicemirroring totalChanges, totals.updated;
// an endpoint listed twice counts twice, as in KCM). desired is not changed.
func countUpdated(desired *endpointSet, existing []*discovery.EndpointSlice) int {
	n := 0
	for _, s := range existing {
		for i := range s.Endpoints {
			if want := desired.getKey(EndpointIdentity(&s.Endpoints[i])); want != nil && !EndpointsEqualBeyondIdentity(want, &s.Endpoints[i]) {
				n++
			}
		}
	}
	return n
}

// planPortGroup is KCM's reconcileByPortMapping (behaviours C28-C30) with
// deterministic choices where KCM picks at random. It returns slices to
// create, update and delete, and the number of endpoints added and removed.
func (r *Reconciler) planPortGroup(ctx context.Context, owner Owner, at discovery.AddressType, pg *portGroup, existing []*discovery.EndpointSlice) (toCreate, toUpdate, toDelete []*discovery.EndpointSlice, added, removed int) {
	maxPer := int(r.cfg.MaxEndpointsPerSlice)
	desired := pg.set
	var updates, unchangedList []*discovery.EndpointSlice

	// Step 1: keep still-desired endpoints in existing slices.
	for _, s := range existing {
		kept := make([]discovery.Endpoint, 0, len(s.Endpoints))
		endpointUpdated := false
		for i := range s.Endpoints {
			k := EndpointIdentity(&s.Endpoints[i])
			if got := desired.getKey(k); got != nil {
				kept = append(kept, *got)
				if !EndpointsEqualBeyondIdentity(got, &s.Endpoints[i]) {
					endpointUpdated = true
				}
				desired.deleteKey(k)
			}
		}
		labels, labelsChanged := r.sliceLabels(ctx, owner, s.Labels)
		annotations, annotationsChanged := r.cfg.Metadata.Annotations(ctx, owner, s.Annotations)
		// Without enforced ownership, a slice still pointing at an earlier
		// owner of the same kind and name is adopted: rewritten with the
		// current owner reference (mirroring: needRebuildExistingSlices).
		if !r.cfg.EnforceOwnership && r.ownerRefStale(s, owner) {
			annotationsChanged = true
		}
		switch {
		case endpointUpdated || len(s.Endpoints) != len(kept):
			if len(s.Endpoints) > len(kept) {
				removed += len(s.Endpoints) - len(kept)
			}
			if len(kept) == 0 {
				toDelete = append(toDelete, s)
				continue
			}
			u := s.DeepCopy()
			u.Endpoints = kept
			r.setMetadata(u, owner, labels, annotations)
			updates = append(updates, u)
		case labelsChanged || annotationsChanged:
			u := s.DeepCopy()
			r.setMetadata(u, owner, labels, annotations)
			updates = append(updates, u)
		default:
			unchangedList = append(unchangedList, s)
		}
	}

	added = desired.len()

	// Step 2: fill slices already being updated, fullest first.
	if desired.len() > 0 && len(updates) > 0 {
		sort.SliceStable(updates, func(i, j int) bool { return len(updates[i].Endpoints) > len(updates[j].Endpoints) })
		for _, u := range updates {
			for desired.len() > 0 && len(u.Endpoints) < maxPer {
				u.Endpoints = append(u.Endpoints, *desired.pop())
			}
		}
	}

	// Step 3: the rest into the best unchanged slice, or new slices.
	sort.SliceStable(unchangedList, func(i, j int) bool { return unchangedList[i].Name < unchangedList[j].Name })
	for desired.len() > 0 {
		var fill *discovery.EndpointSlice
		fromUnchanged := -1
		if desired.len() < maxPer && len(unchangedList) > 0 {
			fromUnchanged = sliceToFill(unchangedList, desired.len(), maxPer)
		}
		if fromUnchanged >= 0 {
			fill = unchangedList[fromUnchanged].DeepCopy()
			unchangedList = append(unchangedList[:fromUnchanged], unchangedList[fromUnchanged+1:]...)
		} else {
			fill = r.newSlice(ctx, owner, at, pg.ports)
		}
		for desired.len() > 0 && len(fill.Endpoints) < maxPer {
			fill.Endpoints = append(fill.Endpoints, *desired.pop())
		}
		if fill.Name != "" {
			updates = append(updates, fill)
		} else {
			toCreate = append(toCreate, fill)
		}
	}
	return toCreate, updates, toDelete, added, removed
}

// sliceToFill returns the index of the slice that ends closest to full
// without exceeding maxPer when numEndpoints are added, or -1 (KCM
// utils.go getSliceToFill; ties go to the first, slices are sorted by name).
func sliceToFill(slices []*discovery.EndpointSlice, numEndpoints, maxPer int) int {
	closestDiff := maxPer
	best := -1
	for i, s := range slices {
		diff := maxPer - (numEndpoints + len(s.Endpoints))
		if diff >= 0 && diff < closestDiff {
			closestDiff = diff
			best = i
			if diff == 0 {
				return i
			}
		}
	}
	return best
}

// setMetadata applies policy labels and annotations plus managed-by to s,
// which must be a copy the reconciler owns.
func (r *Reconciler) setMetadata(s *discovery.EndpointSlice, owner Owner, labels, annotations map[string]string) {
	labels[discovery.LabelManagedBy] = r.cfg.ControllerName
	s.Labels = labels
	s.Annotations = annotations
	if s.Name != "" && !r.cfg.EnforceOwnership && r.ownerRefStale(s, owner) {
		s.OwnerReferences = []metav1.OwnerReference{r.controllerRef(owner)}
	}
}

// controllerRef is the controller owner reference of the owner's slices
// (blockOwnerDeletion unless Config.DisableBlockOwnerDeletion).
func (r *Reconciler) controllerRef(owner Owner) metav1.OwnerReference {
	ref := *metav1.NewControllerRef(owner, r.cfg.OwnerGVK)
	if r.cfg.DisableBlockOwnerDeletion {
		ref.BlockOwnerDeletion = nil
	}
	return ref
}

// sliceLabels returns the labels of a slice of owner whose labels are
// current (nil: a new slice) and whether they need an update: the
// MetadataPolicy's labels, with the labels the reconciler owns set over
// them (managed-by, the service-name label, the set label; without
// kubernetes.io/service-name when Config.ServiceNameLabel is another key).
// The policy's verdict stands, except that a change it reports is none
// when current already equals the result (the policy compared labels the
// reconciler owns, such as an owner label with the set label's key), and
// that a wrong label of the reconciler's is always a change.
func (r *Reconciler) sliceLabels(ctx context.Context, owner Owner, current map[string]string) (map[string]string, bool) {
	labels, changed := r.cfg.Metadata.Labels(ctx, owner, current)
	custom := r.cfg.ServiceNameLabel != discovery.LabelServiceName
	if !custom && r.cfg.SetLabel == "" {
		return labels, changed // KCM's labels, as the policy says
	}
	if labels == nil {
		labels = map[string]string{}
	}
	labels[discovery.LabelManagedBy] = r.cfg.ControllerName
	labels[r.cfg.ServiceNameLabel] = owner.GetName()
	if custom {
		delete(labels, discovery.LabelServiceName)
	}
	if r.cfg.SetLabel != "" {
		if r.bound {
			labels[r.cfg.SetLabel] = r.set
		} else {
			delete(labels, r.cfg.SetLabel)
		}
	}
	if current == nil {
		return labels, changed
	}
	if changed && maps.Equal(current, labels) {
		changed = false
	}
	if current[r.cfg.ServiceNameLabel] != owner.GetName() {
		changed = true
	}
	if _, ok := current[discovery.LabelServiceName]; ok && custom {
		changed = true
	}
	if r.cfg.SetLabel != "" && current[r.cfg.SetLabel] != labels[r.cfg.SetLabel] {
		changed = true
	}
	return labels, changed
}

// checkNamePrefix returns an error when Config.SliceNamePrefix gives owner
// an invalid generateName prefix.
func (r *Reconciler) checkNamePrefix(owner Owner) error {
	if r.cfg.SliceNamePrefix == nil {
		return nil
	}
	p := r.cfg.SliceNamePrefix.SliceNamePrefix(owner, r.set)
	if errs := apimachineryvalidation.NameIsDNSSubdomain(p, true); p == "" || len(errs) > 0 {
		return fmt.Errorf("reconciler: SliceNamePrefix gives %s %s the invalid prefix %q: %s", r.cfg.OwnerGVK.Kind, klog.KObj(owner), p, strings.Join(errs, "; "))
	}
	return nil
}

// generateName is the generateName of a new slice of owner.
func (r *Reconciler) generateName(owner Owner) string {
	if r.cfg.SliceNamePrefix != nil {
		return r.cfg.SliceNamePrefix.SliceNamePrefix(owner, r.set)
	}
	return generateNamePrefix(owner.GetName())
}

// newSlice returns a new, empty slice of owner (KCM utils.go
// newEndpointSlice): generateName "<owner>-" (or "<owner>" when that is not a
// valid prefix), the owner's namespace, a controller owner reference, the
// policy's labels and annotations, and endpoints [] (never nil).
func (r *Reconciler) newSlice(ctx context.Context, owner Owner, at discovery.AddressType, ports []discovery.EndpointPort) *discovery.EndpointSlice {
	labels, _ := r.sliceLabels(ctx, owner, nil)
	annotations, _ := r.cfg.Metadata.Annotations(ctx, owner, nil)
	s := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:    r.generateName(owner),
			Namespace:       owner.GetNamespace(),
			OwnerReferences: []metav1.OwnerReference{r.controllerRef(owner)},
		},
		AddressType: at,
		Ports:       ports,
		Endpoints:   []discovery.Endpoint{},
	}
	r.setMetadata(s, owner, labels, annotations)
	return s
}

// ownedBy reports whether s has an owner reference to owner (UID, kind and
// apiVersion; KCM utils.go ownedBy). Without Config.EnforceOwnership every
// slice counts as owned.
func (r *Reconciler) ownedBy(s *discovery.EndpointSlice, owner Owner) bool {
	if !r.cfg.EnforceOwnership {
		return true
	}
	apiVersion := r.cfg.OwnerGVK.GroupVersion().String()
	for _, o := range s.OwnerReferences {
		if o.UID == owner.GetUID() && o.Kind == r.cfg.OwnerGVK.Kind && o.APIVersion == apiVersion {
			return true
		}
	}
	return false
}

// ownerRefStale reports whether s has an owner reference to an object of
// the owner's kind and name but another UID: an earlier object of the same
// name (mirroring reconciler.go needRebuildExistingSlices).
func (r *Reconciler) ownerRefStale(s *discovery.EndpointSlice, owner Owner) bool {
	for _, o := range s.OwnerReferences {
		if o.Kind == r.cfg.OwnerGVK.Kind && o.Name == owner.GetName() && o.UID != owner.GetUID() {
			return true
		}
	}
	return false
}

// unchanged returns the existing slices that are neither updated nor
// deleted (KCM utils.go unchangedSlices).
func unchanged(existing, toUpdate, toDelete []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	changed := make(map[string]struct{}, len(toUpdate)+len(toDelete))
	for _, s := range toUpdate {
		changed[s.Name] = struct{}{}
	}
	for _, s := range toDelete {
		changed[s.Name] = struct{}{}
	}
	out := make([]*discovery.EndpointSlice, 0, len(existing))
	for _, s := range existing {
		if _, ok := changed[s.Name]; !ok {
			out = append(out, s)
		}
	}
	return out
}

// placeholderEqual reports whether existing equals the placeholder ph in
// the fields KCM compares (reconciler.go placeholderSliceCompare): namespace,
// owner references' UIDs, labels, address type, ports and endpoints (nil
// equals empty). Labels are looked up in both directions, so a missing
// label equals an empty one, as in KCM (a placeholder without
// service.kubernetes.io/headless="" is kept for a headless Service).
//
// Owner references are compared by number and UID, in order, as upstream
// does after kubernetes PR #141593; KCM v1.37.2 compares labels only, so it
// keeps the placeholder of a deleted Service for the Service recreated
// under the same name, and once the garbage collector deletes that
// placeholder the Service has no slice until some later event. With the
// comparison, the stale placeholder is deleted and a new one created in
// the same sync (docs/kep4770.md, "Differences from KCM v1.37.2").
func placeholderEqual(existing, ph *discovery.EndpointSlice) bool {
	if existing.Namespace != ph.Namespace || existing.AddressType != ph.AddressType {
		return false
	}
	if len(existing.OwnerReferences) != len(ph.OwnerReferences) {
		return false
	}
	for i := range existing.OwnerReferences {
		if existing.OwnerReferences[i].UID != ph.OwnerReferences[i].UID {
			return false
		}
	}
	if len(existing.Endpoints) != 0 || len(existing.Ports) != 0 || len(ph.Endpoints) != 0 || len(ph.Ports) != 0 {
		return false
	}
	for k, v := range existing.Labels {
		if ph.Labels[k] != v {
			return false
		}
	}
	for k, v := range ph.Labels {
		if existing.Labels[k] != v {
			return false
		}
	}
	return true
}

// dropNoOpUpdates removes from updates every slice whose content equals the
// existing slice of the same name: labels, annotations, owner references,
// address type, ports and endpoints (hints included). KCM writes such
// slices when the hints step promotes a slice and then leaves it as it was
// (topology Auto with a ready endpoint without zone, or an endpoint whose
// zone has no eligible Node: the hints fail KCM's own check on every sync);
// the write changes nothing, so slicekit skips it.
func dropNoOpUpdates(updates, existing []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	if len(updates) == 0 {
		return updates
	}
	byName := make(map[string]*discovery.EndpointSlice, len(existing))
	for _, s := range existing {
		byName[s.Name] = s
	}
	out := updates[:0:0]
	for _, u := range updates {
		if e, ok := byName[u.Name]; ok && sliceContentEqual(u, e) {
			continue
		}
		out = append(out, u)
	}
	return out
}

func sliceContentEqual(a, b *discovery.EndpointSlice) bool {
	return a.AddressType == b.AddressType &&
		apiequality.Semantic.DeepEqual(a.Labels, b.Labels) &&
		apiequality.Semantic.DeepEqual(a.Annotations, b.Annotations) &&
		apiequality.Semantic.DeepEqual(a.OwnerReferences, b.OwnerReferences) &&
		apiequality.Semantic.DeepEqual(a.Ports, b.Ports) &&
		apiequality.Semantic.DeepEqual(a.Endpoints, b.Endpoints)
}
