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

package differential

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/endpointslice"
	"k8s.io/endpointslice/topologycache"
	endpointsliceutil "k8s.io/endpointslice/util"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/reconciler/topology"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// harness runs KCM's reconciler (the oracle) and slicekit's (reconciler +
// servicepods source) side by side, each with its own client, node lister,
// topology cache, trigger-time tracker and event recorder, for the steps of
// one scenario. State that KCM's controller keeps between syncs (topology
// cache, trigger-time tracker, EndpointSlice tracker, metrics cache) lives
// as long as the harness, on both sides.
type harness struct {
	ctx    context.Context
	logger klog.Logger
	maxPer int32

	kcmStore, ourStore *sliceStore
	kcm                *endpointslice.Reconciler
	ours               *reconciler.Reconciler
	kcmTopo            *topologycache.TopologyCache
	ourTopo            *topology.TopologyCache
	kcmTT              *endpointsliceutil.TriggerTimeTracker
	ourTT              *servicepods.TriggerTimeTracker
	kcmRec, ourRec     *record.FakeRecorder
	kcmNodes, ourNodes cache.Indexer

	// fixedTT, when set, replaces both trigger-time trackers (replaying one
	// step in isolation while shrinking a reproduction).
	fixedTT *[2]time.Time

	// inc runs slicekit's full planner beside its incremental path.
	inc *incCheck
}

func newHarness(maxPer int32) *harness {
	h := &harness{
		logger:   logr.Discard(),
		maxPer:   maxPer,
		kcmStore: newSliceStore("k", true, true),
		ourStore: newSliceStore("o", true, true),
		kcmTopo:  topologycache.NewTopologyCache(),
		ourTopo:  topology.NewTopologyCache(),
		kcmTT:    endpointsliceutil.NewTriggerTimeTracker(),
		ourTT:    servicepods.NewTriggerTimeTracker(),
		kcmRec:   record.NewFakeRecorder(1000),
		ourRec:   record.NewFakeRecorder(1000),
		kcmNodes: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		ourNodes: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
	}
	h.ctx = klog.NewContext(context.Background(), h.logger)
	h.inc = newIncCheck(h.ctx, maxPer)
	h.kcm = endpointslice.NewReconciler(h.kcmStore.newClient(), corelisters.NewNodeLister(h.kcmNodes), maxPer,
		endpointsliceutil.NewEndpointSliceTracker(), h.kcmTopo, h.kcmRec, controllerName,
		endpointslice.WithPreferSameTrafficDistributionEnabled(true))
	var err error
	h.ours, err = reconciler.New(h.ourStore.newClient(), reconciler.Config{
		ControllerName:       controllerName,
		OwnerGVK:             reconciler.ServiceGVK,
		MaxEndpointsPerSlice: maxPer,
		Placeholder:          true,
		EnforceOwnership:     true,
		Metadata:             reconciler.ServiceMetadata{},
	}, reconciler.WithTopologyCache(h.ourTopo), reconciler.WithEventRecorder(h.ourRec))
	if err != nil {
		panic(err)
	}
	return h
}

// stepInput is everything one sync sees. slices is the whole cluster state
// in the order the controller's lister hands it over; both sides get the
// same order (KCM's result depends on it when an endpoint is duplicated
// across slices).
type stepInput struct {
	svc    *corev1.Service
	pods   []*corev1.Pod
	nodes  []*corev1.Node
	slices []*discovery.EndpointSlice
}

func (in stepInput) deepCopy() stepInput {
	out := stepInput{svc: in.svc.DeepCopy()}
	for _, p := range in.pods {
		out.pods = append(out.pods, p.DeepCopy())
	}
	for _, n := range in.nodes {
		out.nodes = append(out.nodes, n.DeepCopy())
	}
	out.slices = copySlices(in.slices)
	return out
}

// stepResult is what both sides did in one step.
type stepResult struct {
	kcmTT, ourTT         time.Time
	kcmErr, ourErr       error
	kcmSlices, ourSlices []*discovery.EndpointSlice // the stores after the step
	kcmWrites, ourWrites []write
	kcmEvents, ourEvents []string
	// idemWrites are the writes of slicekit's second run on its own result.
	idemWrites []write
	// fullSlices and fullCreates are set when the Service is being deleted:
	// the outcome of KCM on the same step with the deletionTimestamp
	// cleared, i.e. with the creates that the real run skips.
	fullSlices  []*discovery.EndpointSlice
	fullCreates int
	// kcmPopulated and ourPopulated tell whether each topology cache has
	// hints populated for the Service after the step.
	kcmPopulated, ourPopulated bool
	// kcmIdemWrites, set only when idemWrites is not empty, are the writes
	// of KCM run on slicekit's result (see kcmSecondRun).
	kcmIdemWrites []write
	// mutated names the inputs slicekit modified (it must modify none).
	mutated []string
	// incDiff describes a difference between slicekit's full planner and
	// its incremental path at this step ("" when none; see incCheck).
	incDiff string
}

func copySlices(in []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	out := make([]*discovery.EndpointSlice, len(in))
	for i, s := range in {
		out[i] = s.DeepCopy()
	}
	return out
}

func copyPods(in []*corev1.Pod) []*corev1.Pod {
	out := make([]*corev1.Pod, len(in))
	for i, p := range in {
		out[i] = p.DeepCopy()
	}
	return out
}

// listed reports whether the EndpointSlice controller's lister would hand s
// to the reconciler for the Service: KCM lists by the selector
// kubernetes.io/service-name=<svc>,endpointslice.kubernetes.io/managed-by=<controller>.
func listed(s *discovery.EndpointSlice, svcName string) bool {
	return s.Labels[discovery.LabelServiceName] == svcName && s.Labels[discovery.LabelManagedBy] == controllerName
}

func (h *harness) setNodes(nodes []*corev1.Node) {
	for _, side := range []struct {
		idx  cache.Indexer
		topo interface {
			SetNodes(klog.Logger, []*corev1.Node)
		}
	}{{h.kcmNodes, h.kcmTopo}, {h.ourNodes, h.ourTopo}} {
		objs := make([]any, 0, len(nodes))
		copies := make([]*corev1.Node, 0, len(nodes))
		for _, n := range nodes {
			c := n.DeepCopy()
			objs = append(objs, c)
			copies = append(copies, c)
		}
		if err := side.idx.Replace(objs, ""); err != nil {
			panic(err)
		}
		side.topo.SetNodes(h.logger, copies)
	}
}

// runStep performs one sync on both sides: KCM's Reconcile, then
// slicekit's servicepods.Desired and Reconcile, each on its own deep copies
// and its own client seeded with the same cluster state; then slicekit
// once more on its own result (idempotence), with every slice of the
// Service, foreign ones included, handed over.
func (h *harness) runStep(in stepInput) *stepResult {
	res := &stepResult{}
	h.setNodes(in.nodes)
	var handed []*discovery.EndpointSlice
	for _, s := range in.slices {
		if listed(s, in.svc.Name) {
			handed = append(handed, s)
		}
	}
	h.kcmStore.reset(in.slices)
	h.ourStore.reset(in.slices)

	// KCM.
	kSvc, kPods := in.svc.DeepCopy(), copyPods(in.pods)
	if h.fixedTT != nil {
		res.kcmTT = h.fixedTT[0]
	} else {
		res.kcmTT = h.kcmTT.ComputeEndpointLastChangeTriggerTime(kSvc.Namespace, kSvc, kPods)
	}
	res.kcmErr = h.kcm.Reconcile(h.logger, kSvc, kPods, copySlices(handed), res.kcmTT)
	res.kcmSlices = h.kcmStore.list()
	res.kcmWrites = slices.Clone(h.kcmStore.writes)
	res.kcmEvents = drain(h.kcmRec)

	// slicekit.
	oSvc, oPods, oSlices := in.svc.DeepCopy(), copyPods(in.pods), copySlices(handed)
	if h.fixedTT != nil {
		res.ourTT = h.fixedTT[1]
	} else {
		res.ourTT = h.ourTT.ComputeEndpointLastChangeTriggerTime(oSvc.Namespace, oSvc, oPods)
	}
	res.incDiff = h.inc.check(in, handed)
	res.ourErr = h.reconcileOurs(oSvc, oPods, oSlices, res.ourTT)
	res.ourSlices = h.ourStore.list()
	res.ourWrites = slices.Clone(h.ourStore.writes)
	res.ourEvents = drain(h.ourRec)
	// Inputs are deep copies of in, so reflect.DeepEqual is exact here.
	if !reflect.DeepEqual(oSvc, in.svc) {
		res.mutated = append(res.mutated, "the Service")
	}
	for i := range oPods {
		if !reflect.DeepEqual(oPods[i], in.pods[i]) {
			res.mutated = append(res.mutated, "Pod "+in.pods[i].Name)
		}
	}
	for i := range oSlices {
		if !reflect.DeepEqual(oSlices[i], handed[i]) {
			res.mutated = append(res.mutated, "EndpointSlice "+handed[i].Name)
		}
	}

	key := in.svc.Namespace + "/" + in.svc.Name
	res.kcmPopulated, res.ourPopulated = h.kcmTopo.HasPopulatedHints(key), h.ourTopo.HasPopulatedHints(key)

	if in.svc.DeletionTimestamp != nil {
		res.fullSlices, res.fullCreates = h.kcmWithoutDeletion(in, handed, res.kcmTT)
	}

	// Idempotence: slicekit again, on its own result.
	var again []*discovery.EndpointSlice
	for _, s := range res.ourSlices {
		if s.Labels[discovery.LabelServiceName] == in.svc.Name {
			again = append(again, s.DeepCopy())
		}
	}
	// slicekit was just shown not to modify its inputs, so it gets the
	// scenario's objects themselves this time.
	n := len(h.ourStore.writes)
	tt := res.ourTT
	if h.fixedTT == nil {
		tt = h.ourTT.ComputeEndpointLastChangeTriggerTime(in.svc.Namespace, in.svc, in.pods)
	}
	_ = h.reconcileOurs(in.svc, in.pods, again, tt)
	res.idemWrites = slices.Clone(h.ourStore.writes[n:])
	drain(h.ourRec)
	if len(res.idemWrites) > 0 {
		res.kcmIdemWrites = h.kcmSecondRun(in, res)
	}
	return res
}

// kcmWithoutDeletion runs a throwaway KCM reconciler on the step with the
// Service's deletionTimestamp cleared. While a Service is being deleted KCM
// plans as usual, recycles some deletes into updates that carry the content
// of planned creates, then skips the remaining creates; which endpoints a
// planned create holds is random (EndpointSet.PopAny over a map), so which
// endpoints survive is random too. This run gives the full desired content,
// of which both sides must write a subset.
func (h *harness) kcmWithoutDeletion(in stepInput, handed []*discovery.EndpointSlice, tt time.Time) ([]*discovery.EndpointSlice, int) {
	r, store := h.throwawayKCM(in.nodes)
	svc := in.svc.DeepCopy()
	svc.DeletionTimestamp = nil
	store.reset(in.slices)
	_ = r.Reconcile(h.logger, svc, copyPods(in.pods), copySlices(handed), tt)
	return store.list(), store.creates
}

// kcmSecondRun runs a throwaway KCM reconciler on slicekit's result of the
// step (trigger time zero, as KCM's tracker would give), to tell whether a
// non-idempotence of slicekit is inherited from KCM: KCM, handed the very
// slices slicekit wrote, writes as much.
func (h *harness) kcmSecondRun(in stepInput, res *stepResult) []write {
	r, store := h.throwawayKCM(in.nodes)
	store.reset(res.ourSlices)
	var handed []*discovery.EndpointSlice
	for _, s := range res.ourSlices {
		if listed(s, in.svc.Name) {
			handed = append(handed, s.DeepCopy())
		}
	}
	_ = r.Reconcile(h.logger, in.svc.DeepCopy(), copyPods(in.pods), handed, time.Time{})
	return slices.Clone(store.writes)
}

// throwawayKCM returns a KCM reconciler with fresh state, its nodes set.
func (h *harness) throwawayKCM(nodes []*corev1.Node) (*endpointslice.Reconciler, *sliceStore) {
	store := newSliceStore("x", true, true)
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	topo := topologycache.NewTopologyCache()
	var copies []*corev1.Node
	for _, n := range nodes {
		c := n.DeepCopy()
		copies = append(copies, c)
		_ = idx.Add(c)
	}
	topo.SetNodes(h.logger, copies)
	r := endpointslice.NewReconciler(store.newClient(), corelisters.NewNodeLister(idx), h.maxPer,
		endpointsliceutil.NewEndpointSliceTracker(), topo, record.NewFakeRecorder(1000), controllerName,
		endpointslice.WithPreferSameTrafficDistributionEnabled(true))
	return r, store
}

// syncTopologyState makes slicekit's topology cache agree with KCM's on
// whether the Service has hints populated, after a step of a Service with
// two address types. KCM handles the address types in random order (it
// ranges over a set) and the populated flag is per Service, not per
// address type, so when hints succeed for one address type and fail for
// the other, KCM's flag after the step is random. Synchronising keeps the
// next steps comparable; it reports whether it had to.
func (h *harness) syncTopologyState(svc *corev1.Service, res *stepResult) bool {
	if res.kcmPopulated == res.ourPopulated || len(kcmAddressTypes(svc)) < 2 {
		return false
	}
	key := svc.Namespace + "/" + svc.Name
	if res.kcmPopulated {
		h.ourTopo.SetHints(key, discovery.AddressTypeIPv4, topology.EndpointZoneInfo{})
	} else {
		h.ourTopo.RemoveHints(key, discovery.AddressTypeIPv4)
	}
	return true
}

// kcmAddressTypes is KCM utils.go getAddressTypesForService, sorted.
func kcmAddressTypes(svc *corev1.Service) []discovery.AddressType {
	var out []discovery.AddressType
	for _, f := range svc.Spec.IPFamilies {
		switch f {
		case corev1.IPv4Protocol:
			out = append(out, discovery.AddressTypeIPv4)
		case corev1.IPv6Protocol:
			out = append(out, discovery.AddressTypeIPv6)
		}
	}
	if len(out) == 0 {
		switch ip := svc.Spec.ClusterIP; {
		case ip != "" && ip != corev1.ClusterIPNone && strings.Contains(ip, ":"):
			out = []discovery.AddressType{discovery.AddressTypeIPv6}
		case ip != "" && ip != corev1.ClusterIPNone:
			out = []discovery.AddressType{discovery.AddressTypeIPv4}
		default:
			out = []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// stateEvents are the topology events whose emission depends on the
// topology cache's per-Service populated flag, and so, for a Service with
// two address types, on the random order in which KCM handles them.
func isStateEvent(e string) bool {
	return strings.HasPrefix(e, "Normal TopologyAwareHintsEnabled "+topologycache.TopologyAwareHintsEnabled) ||
		strings.HasPrefix(e, "Warning TopologyAwareHintsDisabled "+topologycache.TopologyAwareHintsDisabled)
}

// normalizeEvents drops the address type from state-dependent events of a
// Service with two address types: which address type KCM handles first,
// and so names in the event, is random.
func normalizeEvents(in stepInput, events []string) []string {
	if len(kcmAddressTypes(in.svc)) < 2 {
		return events
	}
	out := make([]string, len(events))
	for i, e := range events {
		if isStateEvent(e) {
			if j := strings.LastIndex(e, ", addressType: "); j >= 0 {
				e = e[:j]
			}
		}
		out[i] = e
	}
	sort.Strings(out)
	return out
}

func withoutEnabled(events []string) []string {
	var out []string
	for _, e := range events {
		if !strings.HasPrefix(e, "Normal TopologyAwareHintsEnabled ") {
			out = append(out, e)
		}
	}
	return out
}

// mixedTopologyOutcome reports whether, in a step of a Service with two
// address types under topology mode Auto, adding hints failed for exactly
// one address type (KCM emits one failure warning naming it): whether KCM
// then emits "enabled" depends on which address type it handled first.
func mixedTopologyOutcome(in stepInput, kcmEvents []string) bool {
	if !topologyAuto(in.svc.Annotations) || len(kcmAddressTypes(in.svc)) < 2 {
		return false
	}
	failed := map[string]bool{}
	for _, e := range kcmEvents {
		if strings.HasPrefix(e, "Warning TopologyAwareHintsDisabled ") && !isStateEvent(e) {
			if j := strings.LastIndex(e, ", addressType: "); j >= 0 {
				failed[e[j+len(", addressType: "):]] = true
			}
		}
	}
	return len(failed) == 1
}

// reconcileOurs is what a slicekit Service controller does for one sync
// (see the servicepods package documentation).
func (h *harness) reconcileOurs(svc *corev1.Service, pods []*corev1.Pod, existing []*discovery.EndpointSlice, tt time.Time) error {
	desired, srcErr := servicepods.Desired(h.ctx, svc, pods, corelisters.NewNodeLister(h.ourNodes), podendpoint.Options{})
	if desired == nil {
		return srcErr
	}
	return errors.Join(h.ours.Reconcile(h.ctx, svc, desired, existing, tt), srcErr)
}

func drain(r *record.FakeRecorder) []string {
	var out []string
	for {
		select {
		case e := <-r.Events:
			out = append(out, e)
		default:
			sort.Strings(out)
			return out
		}
	}
}

// ---- Comparison ----------------------------------------------------------

// diff is one difference between KCM's and slicekit's outcome.
type diff struct {
	kind string
	msg  string
}

// groupView is the deterministic content of one (address type, port set)
// group of slices: everything KCM's outcome is a function of, whatever its
// map iteration order. See the package documentation for why each field is
// compared at this level.
type groupView struct {
	slices    int
	counts    []int    // endpoints per slice, sorted
	endpoints []string // every endpoint, all fields, sorted
	labels    []string // per slice, sorted
	annots    []string // per slice, without the trigger-time annotation, sorted
	owners    []string // per slice, sorted
	portOrder []string // per slice, ports in slice order, sorted
}

// compare returns the differences between KCM's and slicekit's outcome of
// one step (nil when they agree).
func compare(in stepInput, res *stepResult) []diff {
	var diffs []diff
	add := func(kind, format string, args ...any) {
		diffs = append(diffs, diff{kind, fmt.Sprintf(format, args...)})
	}
	if !res.kcmTT.Equal(res.ourTT) {
		add("triggerTime", "trigger time: kcm %s, slicekit %s", fmtTime(res.kcmTT), fmtTime(res.ourTT))
	}
	if (res.kcmErr != nil) != (res.ourErr != nil) {
		add("error", "error: kcm %v, slicekit %v", res.kcmErr, res.ourErr)
	}

	inByName := map[string]*discovery.EndpointSlice{}
	for _, s := range in.slices {
		inByName[s.Name] = s
	}
	notHanded := func(name string) bool {
		s, ok := inByName[name]
		return ok && !listed(s, in.svc.Name)
	}
	for _, side := range []struct {
		name   string
		tt     time.Time
		writes []write
		final  []*discovery.EndpointSlice
	}{{"kcm", res.kcmTT, res.kcmWrites, res.kcmSlices}, {"slicekit", res.ourTT, res.ourWrites, res.ourSlices}} {
		for _, w := range side.writes {
			if notHanded(w.name) {
				add("foreignWrite", "%s wrote (%s) slice %s, which it was not handed (labels %v)", side.name, w.verb, w.name, inByName[w.name].Labels)
			}
			if w.obj == nil {
				continue
			}
			// Behaviour C25: every written slice carries the trigger time,
			// or none when it is zero.
			v, ok := w.obj.Annotations[corev1.EndpointsLastChangeTriggerTime]
			if want := !side.tt.IsZero(); ok != want || (ok && v != side.tt.UTC().Format(time.RFC3339Nano)) {
				add("triggerTimeAnnotation", "%s %s slice %s with trigger-time annotation %q (present %v), trigger time %s", side.name, w.verb, w.name, v, ok, fmtTime(side.tt))
			}
		}
		for _, s := range side.final {
			if notHanded(s.Name) && !apiequality.Semantic.DeepEqual(s, inByName[s.Name]) {
				add("foreignWrite", "%s changed slice %s, which it was not handed", side.name, s.Name)
			}
		}
	}

	auto := topologyAuto(in.svc.Annotations)
	zones := hintZones(in.nodes)
	if in.svc.DeletionTimestamp != nil && res.fullCreates > 0 {
		compareDeleting(in, res, notHanded, auto, zones, add)
	} else {
		kv := groupViews(res.kcmSlices, notHanded, auto, zones, byGroup)
		ov := groupViews(res.ourSlices, notHanded, auto, zones, byGroup)
		for _, k := range unionKeys(kv, ov) {
			a, b := kv[k], ov[k]
			if a == nil || b == nil {
				add("slices", "group %s: kcm has %d slices, slicekit %d", k, a.size(), b.size())
				continue
			}
			if a.slices != b.slices || !slices.Equal(a.counts, b.counts) {
				add("packing", "group %s: endpoints per slice: kcm %v, slicekit %v", k, a.counts, b.counts)
			}
			cmpLists(add, "endpoints", k, "endpoints", a.endpoints, b.endpoints)
			cmpLists(add, "labels", k, "slice labels", a.labels, b.labels)
			cmpLists(add, "annotations", k, "slice annotations (trigger time excluded)", a.annots, b.annots)
			cmpLists(add, "ownerReferences", k, "owner references", a.owners, b.owners)
			cmpLists(add, "portOrder", k, "port order within slices", a.portOrder, b.portOrder)
		}
	}

	if ke, oe := normalizeEvents(in, res.kcmEvents), normalizeEvents(in, res.ourEvents); !slices.Equal(ke, oe) {
		kind := "events"
		if mixedTopologyOutcome(in, res.kcmEvents) && slices.Equal(withoutEnabled(ke), withoutEnabled(oe)) {
			kind = "topologyAddressTypeOrder"
		}
		add(kind, "events differ:\n%s", listDiff(ke, oe))
	}
	if res.kcmPopulated != res.ourPopulated && len(kcmAddressTypes(in.svc)) == 1 {
		add("topologyState", "after the step the topology cache has hints populated for the Service: kcm %v, slicekit %v", res.kcmPopulated, res.ourPopulated)
	}
	if len(res.ourWrites) > len(res.kcmWrites) {
		add("writes", "slicekit made %d writes, kcm %d", len(res.ourWrites), len(res.kcmWrites))
	}
	if len(res.idemWrites) > 0 {
		add("idempotence", "slicekit's second run on its own result wrote: %s (KCM run on the same slices wrote %d: %s)",
			fmtWrites(res.idemWrites), len(res.kcmIdemWrites), fmtWrites(res.kcmIdemWrites))
	}
	for _, m := range res.mutated {
		add("mutation", "slicekit modified its input: %s", m)
	}
	return diffs
}

// compareDeleting compares a step in which the Service is being deleted
// and KCM planned creates: KCM then skips the creates, after recycling some
// of them into updates of slices it would otherwise delete, and which
// endpoints a planned create holds is random (see kcmWithoutDeletion). The
// deterministic level is: no creates; per address type the number of
// slices and the multisets of labels, annotations and owner references;
// per group, every written endpoint is one KCM desires (a subset of the
// outcome without the deletionTimestamp).
func compareDeleting(in stepInput, res *stepResult, notHanded func(string) bool, auto bool, zones map[string]bool, add func(kind, format string, args ...any)) {
	for _, side := range []struct {
		name   string
		writes []write
		final  []*discovery.EndpointSlice
	}{{"kcm", res.kcmWrites, res.kcmSlices}, {"slicekit", res.ourWrites, res.ourSlices}} {
		for _, w := range side.writes {
			if w.verb == "create" {
				add("deletingCreate", "%s created slice %s while the Service is being deleted", side.name, w.name)
			}
		}
		full := groupViews(res.fullSlices, notHanded, auto, zones, byGroup)
		for k, g := range groupViews(side.final, notHanded, auto, zones, byGroup) {
			var extra []string
			have := map[string]int{}
			if f := full[k]; f != nil {
				for _, e := range f.endpoints {
					have[e]++
				}
			}
			for _, e := range g.endpoints {
				if have[e] == 0 {
					extra = append(extra, e)
					continue
				}
				have[e]--
			}
			if len(extra) > 0 {
				add("endpoints", "group %s: %s wrote endpoints KCM does not desire: %q", k, side.name, extra)
			}
		}
	}
	kv := groupViews(res.kcmSlices, notHanded, auto, zones, byAddressType)
	ov := groupViews(res.ourSlices, notHanded, auto, zones, byAddressType)
	for _, k := range unionKeys(kv, ov) {
		a, b := kv[k], ov[k]
		if a.size() != b.size() {
			add("slices", "address type %s: kcm has %d slices, slicekit %d", k, a.size(), b.size())
			continue
		}
		if a == nil {
			continue
		}
		cmpLists(add, "labels", k, "slice labels", a.labels, b.labels)
		cmpLists(add, "annotations", k, "slice annotations (trigger time excluded)", a.annots, b.annots)
		cmpLists(add, "ownerReferences", k, "owner references", a.owners, b.owners)
	}
}

func cmpLists(add func(kind, format string, args ...any), kind, group, what string, x, y []string) {
	if !slices.Equal(x, y) {
		add(kind, "group %s: %s differ:\n%s", group, what, listDiff(x, y))
	}
}

func unionKeys(a, b map[string]*groupView) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// byGroup keys a slice by address type and port set (KCM's grouping);
// byAddressType by address type alone.
func byGroup(s *discovery.EndpointSlice) string {
	return string(s.AddressType) + " " + portSet(s.Ports)
}

func byAddressType(s *discovery.EndpointSlice) string { return string(s.AddressType) }

func (g *groupView) size() int {
	if g == nil {
		return 0
	}
	return g.slices
}

// groupViews groups the slices the reconciler was responsible for (all but
// those it was not handed) by address type and port set.
func groupViews(all []*discovery.EndpointSlice, notHanded func(string) bool, auto bool, zones map[string]bool, key func(*discovery.EndpointSlice) string) map[string]*groupView {
	out := map[string]*groupView{}
	for _, s := range all {
		if notHanded(s.Name) {
			continue
		}
		k := key(s)
		g := out[k]
		if g == nil {
			g = &groupView{}
			out[k] = g
		}
		g.slices++
		g.counts = append(g.counts, len(s.Endpoints))
		for i := range s.Endpoints {
			g.endpoints = append(g.endpoints, fmtEndpoint(normalizeEndpoint(s.Endpoints[i], auto, zones)))
		}
		g.labels = append(g.labels, fmtMap(s.Labels, ""))
		if *flagExact {
			g.annots = append(g.annots, fmtMap(s.Annotations, "")+strconv.Itoa(len(s.Endpoints)))
		} else {
			g.annots = append(g.annots, fmtMap(s.Annotations, corev1.EndpointsLastChangeTriggerTime))
		}
		g.owners = append(g.owners, fmtOwners(s.OwnerReferences))
		g.portOrder = append(g.portOrder, fmtPorts(s.Ports))
	}
	for _, g := range out {
		sort.Ints(g.counts)
		sort.Strings(g.endpoints)
		sort.Strings(g.labels)
		sort.Strings(g.annots)
		sort.Strings(g.owners)
		sort.Strings(g.portOrder)
	}
	return out
}

// normalizeEndpoint returns ep as compared: addresses as a sorted set, and,
// under topology mode Auto, a valid single-zone hint replaced by a marker.
func normalizeEndpoint(ep discovery.Endpoint, auto bool, zones map[string]bool) discovery.Endpoint {
	if *flagExact {
		return ep
	}
	if !sort.StringsAreSorted(ep.Addresses) {
		ep.Addresses = slices.Clone(ep.Addresses)
		sort.Strings(ep.Addresses)
	}
	if auto && ep.Hints != nil && len(ep.Hints.ForNodes) == 0 && len(ep.Hints.ForZones) == 1 && zones[ep.Hints.ForZones[0].Name] {
		ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "<a zone of a ready node>"}}}
	}
	return ep
}

// topologyAuto is KCM utils.go hintsEnabled.
func topologyAuto(annotations map[string]string) bool {
	val, ok := annotations[corev1.DeprecatedAnnotationTopologyAwareHints]
	if !ok {
		val, ok = annotations[corev1.AnnotationTopologyMode]
		if !ok {
			return false
		}
	}
	return val == "Auto" || val == "auto"
}

// hintZones are the zones topology hints may name: those of ready Nodes
// that are not control-plane Nodes (KCM topologycache SetNodes).
func hintZones(nodes []*corev1.Node) map[string]bool {
	out := map[string]bool{}
	for _, n := range nodes {
		if _, ok := n.Labels["node-role.kubernetes.io/control-plane"]; ok {
			continue
		}
		ready := false
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady {
				ready = c.Status == corev1.ConditionTrue
				break
			}
		}
		if z := n.Labels[corev1.LabelTopologyZone]; ready && z != "" {
			out[z] = true
		}
	}
	return out
}

// listDiff shows the lines only in x (kcm, "-") and only in y (slicekit,
// "+"), both sorted.
func listDiff(x, y []string) string {
	cx := map[string]int{}
	for _, s := range x {
		cx[s]++
	}
	for _, s := range y {
		cx[s]--
	}
	var b strings.Builder
	for _, s := range x {
		if cx[s] > 0 {
			fmt.Fprintf(&b, "    - kcm      %s\n", s)
			cx[s]--
		}
	}
	for _, s := range y {
		if cx[s] < 0 {
			fmt.Fprintf(&b, "    + slicekit %s\n", s)
			cx[s]++
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
