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

package slicecontroller

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/internal/serviceindex"
	"github.com/slicekit/slicekit/pkg/policy/delegation"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Event reasons recorded on Services. The Warning reasons are KCM's
// (behaviour C14).
const (
	// ReasonFailedToUpdateEndpointSlices (Warning): a write failed, while
	// reconciling or while deleting slices on release.
	ReasonFailedToUpdateEndpointSlices = "FailedToUpdateEndpointSlices"
	// ReasonFailedToListPods (Warning): the Pod lister failed.
	ReasonFailedToListPods = "FailedToListPods"
	// ReasonFailedToListEndpointSlices (Warning): the EndpointSlice
	// lister failed.
	ReasonFailedToListEndpointSlices = "FailedToListEndpointSlices"
	// ReasonHandedOver (Normal, slicekit, DropIn ownership): this
	// controller deleted its EndpointSlices of a Service delegated to
	// another controller by the KEP-4770 label; the message names that
	// controller and the number of slices deleted. KEP-4770 itself defines
	// no event (rule (a)14).
	ReasonHandedOver = "EndpointSlicesHandedOver"
	// ReasonEndpointSlicesReleased (Normal, Labelled ownership): the
	// Service no longer carries this controller's name in its
	// endpoint-controller-name label, and this controller deleted its
	// slices of it.
	ReasonEndpointSlicesReleased = "EndpointSlicesReleased"
	// ReasonEndpointSlicesRemoved (Normal, slicekit): with the
	// SelectorRemovalCleanup gate on, this controller deleted its
	// EndpointSlices of a Service that selects no Pods; the message names
	// the reason (kubernetes#118376).
	ReasonEndpointSlicesRemoved = selectorless.ReasonEndpointSlicesRemoved
	// ReasonInvalidSelector (Warning, a Service-level Problem, with
	// Options.SelectorlessAnnotation): the Service has no spec.selector and
	// its slicekit.dev/selector annotation is not a valid label selector;
	// the slices are kept as they are until it is fixed. Counted in
	// <subsystem>_pod_problems{reason="InvalidSelector"}.
	ReasonInvalidSelector = "InvalidSelector"
)

// PodSelector returns the Pod selector of svc for a pod-source controller:
// spec.selector when set (the annotation is then ignored); for a Service of
// type ExternalName none; for a Service without spec.selector the
// selectorless form, the annotation slicekit.dev/selector
// (selectorless.ParseSelector: kubectl label-selector syntax, set-based
// included). ok is false when svc selects no Pods; err is the annotation's
// parse error (then ok is false too).
func PodSelector(svc *corev1.Service) (sel labels.Selector, ok bool, err error) {
	if svc == nil || svc.Spec.Type == corev1.ServiceTypeExternalName {
		return nil, false, nil
	}
	if svc.Spec.Selector != nil {
		return labels.Set(svc.Spec.Selector).AsSelectorPreValidated(), true, nil
	}
	sel, present, err := selectorless.ParseSelector(svc)
	if err != nil || !present {
		return nil, false, err
	}
	return sel, true, nil
}

// podSelector returns the Pod selector of svc for this controller: KCM's
// (spec.selector, nothing for type ExternalName or a nil selector) without
// Options.SelectorlessAnnotation, PodSelector with it.
func (c *Controller) podSelector(svc *corev1.Service) (sel labels.Selector, ok bool, err error) {
	if c.selectorless {
		return PodSelector(svc)
	}
	if none, _, _ := selectorless.SelectsNoPods(svc); none {
		return nil, false, nil
	}
	return labels.Set(svc.Spec.Selector).AsSelectorPreValidated(), true, nil
}

// SyncService brings the EndpointSlices of the Service with the given
// namespace/name key to the state its Pods and the Source call for, or
// releases the Service when it is not this controller's. It reads only
// informer caches (the factory passed to New must have synced, or its
// indexers be filled, as `slicekit render` does) and writes through the
// client. Steps, after KCM syncService (behaviours C10 to C14):
//
//  1. Service not in the cache: forget its trigger times, metrics,
//     problems and tracked slices; delete nothing (the garbage collector
//     removes slices through their owner reference). Returns nil.
//  2. Service not this controller's (Ownership.Owns): delete this
//     controller's slices of it (managed-by ManagedBy and
//     kubernetes.io/service-name; UID preconditions; slices of other
//     controllers are never listed) and forget its state, with a Normal
//     event when slices were deleted: EndpointSlicesHandedOver (DropIn:
//     delegated by KEP-4770, checked before the type and selector, rule
//     (a)2) or EndpointSlicesReleased (Labelled: the label was removed or
//     changed).
//  3. The Pod selector: spec.selector, or with
//     Options.SelectorlessAnnotation for a Service without one the
//     annotation slicekit.dev/selector (an invalid annotation: a Warning
//     InvalidSelector problem, slices kept as they are, nil returned).
//     type ExternalName or no selector: with SelectorRemovalCleanup (the
//     default) this controller's slices are deleted as in step 2 with a
//     Normal EndpointSlicesRemoved event naming the reason
//     (kubernetes#118376, case 33); without it they are left as they are
//     (KCM C11, E1).
//  4. List the selected Pods and this controller's slices of the Service
//     (reconciler.OwnerSlices: pending deletions dropped), returning a
//     *reconciler.StaleInformerCacheError when the cache is older than
//     this controller's writes (C12, C13).
//  5. Desired endpoints from the Source, Problems reported as Warning
//     events on the Service (each once, when it appears) and in the
//     metrics, trigger time (C25), reconcile. Pods on a missing Node are
//     skipped and reported in the returned error after the others were
//     written (E14).
//
// Failures record KCM's Warning events on the Service (C14). Errors are
// wrapped with the Service's key. SyncService must not run concurrently
// for the same key; Run's queue guarantees that.
func (c *Controller) SyncService(ctx context.Context, key string) error {
	logger := klog.FromContext(ctx)
	startTime := time.Now()
	defer func() {
		logger.V(4).Info("Finished syncing service endpoint slices", c.logKV("key", key, "elapsedTime", time.Since(startTime))...)
	}()

	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	service, err := c.serviceLister.Services(namespace).Get(name)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("getting Service %s: %w", key, err)
		}
		c.forget(namespace, name)
		// The Service has been deleted: nothing to retry.
		return nil
	}
	if !c.own.Owns(service) {
		return c.release(ctx, service)
	}

	selector, selects, selErr := c.podSelector(service)
	if selErr != nil {
		// An invalid slicekit.dev/selector: a Warning InvalidSelector event
		// (once, while it stands) and the problem metric; the existing
		// slices are kept as they are, so a typo never empties a Service.
		c.problems.report(ctx, service, []source.Problem{{
			Reason:  ReasonInvalidSelector,
			Message: fmt.Sprintf("Service %s/%s: %v; its EndpointSlices are kept as they are until the annotation is fixed", namespace, name, selErr),
		}})
		return nil
	}
	if !selects {
		// Services of type ExternalName receive no endpoints
		// (https://issues.k8s.io/105986); Services without a selector
		// receive EndpointSlices written out of band through the API. KCM
		// leaves the slices it wrote before (C11, E1, kubernetes#118376);
		// with SelectorRemovalCleanup they are deleted. There are no Pods,
		// hence no problems.
		c.problems.forget(namespace, name)
		if none, reason, why := selectorless.SelectsNoPods(service); none && c.cleanup {
			return c.removeForSelector(ctx, service, reason, why)
		}
		return nil
	}

	logger.V(5).Info("About to update endpoint slices for service", c.logKV("key", key)...)

	if c.indexes != nil {
		return c.syncIndexed(ctx, key, service, selector)
	}

	pods, err := c.podLister.Pods(namespace).List(selector)
	if err != nil {
		// The cache is local: this is nearly impossible.
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToListPods,
			"Error listing Pods for Service %s/%s: %v", service.Namespace, service.Name, err)
		return fmt.Errorf("listing Pods for Service %s: %w", key, err)
	}
	slices, err := c.ownSlices(service)
	if err != nil {
		return err
	}

	desired, problems, srcErr := c.opts.Source.Desired(ctx, service, pods, c.nodeLister)
	c.problems.report(ctx, service, problems)
	if desired == nil {
		// A Node lookup failed: write nothing, retry.
		return fmt.Errorf("computing endpoints of Service %s: %w", key, srcErr)
	}
	// Compute the trigger time even if the sync turns out to be a no-op,
	// so that the tracker's state follows the Pods (KCM).
	triggerTime := c.triggerTimes.ComputeEndpointLastChangeTriggerTime(namespace, service, pods)

	if err := c.reconciler.Reconcile(ctx, service, desired, slices, triggerTime); err != nil {
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToUpdateEndpointSlices,
			"Error updating Endpoint Slices for Service %s/%s: %v", service.Namespace, service.Name, err)
		return errors.Join(err, srcErr)
	}
	if srcErr != nil {
		// Pods skipped because their Node is missing: retry later.
		return fmt.Errorf("syncing Service %s: %w", key, srcErr)
	}
	return nil
}

// awaitBurstPause waits, with Options.BurstQuietPeriod, while a burst of
// Pod events of the Service goes on (several Pods pending, the latest less
// than the quiet period ago; serviceindex.Index.BurstWait), so that
// the burst is planned once it pauses; a single event is planned at once.
// It returns the context's error, wrapped, if the context ends first; the
// pending events then stay for the next sync.
func (c *Controller) awaitBurstPause(ctx context.Context, key string, idx *serviceindex.Index) error {
	for {
		d := idx.BurstWait(time.Now(), c.opts.BurstQuietPeriod)
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("syncing Service %s: %w", key, ctx.Err())
		case <-t.C:
		}
	}
}

// syncIndexed is step 5 of SyncService for an incremental source
// (source.IncrementalSource): the Service's index reads only the
// Pods marked changed since its last sync (serviceindex.Index.Update;
// every selected Pod when the index is new, the Service changed, a lookup
// failed or the index was invalidated), and reconciler.PlanIndexed plans
// only the slices those Pods' endpoints live in, or falls back to the full
// planner with a reason. The writes, events, trigger time and errors are
// those of the full path; the path taken is counted in
// <subsystem>_syncs_by_path_total.
func (c *Controller) syncIndexed(ctx context.Context, key string, service *corev1.Service, selector labels.Selector) error {
	idx := c.indexes.get(key)
	if err := c.awaitBurstPause(ctx, key, idx); err != nil {
		return err
	}
	// Plan as late as the client's rate limiter allows: wait until the
	// first write can go out at once, so that the events of that wait
	// are in the plan instead of left to a later write of the same slice.
	// Nothing is read or changed yet: on an error (the context ended) the
	// pending events stay for the next sync.
	if c.opts.Pacer != nil {
		if err := c.opts.Pacer.WaitAvailable(ctx); err != nil {
			return fmt.Errorf("syncing Service %s: waiting for the client's rate limiter: %w", key, err)
		}
	}
	// The slices are listed before the index reads the Pods, as the full
	// path does: a stale cache returns before the trigger-time tracker
	// is updated.
	slices, err := c.ownSlices(service)
	if err != nil {
		return err
	}
	u, srcErr := idx.Update(ctx, service, selector, c.podLister.Pods(service.Namespace), c.nodeLister)
	// The Pod source reports no Problems; clear any standing ones as
	// Desired's empty list would.
	c.problems.report(ctx, service, nil)
	if !u.Ready {
		if srcErr == nil {
			srcErr = errors.New("the endpoint index is not ready")
		}
		if errors.As(srcErr, new(*serviceindex.PodListError)) {
			c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToListPods,
				"Error listing Pods for Service %s/%s: %v", service.Namespace, service.Name, srcErr)
		}
		return fmt.Errorf("computing endpoints of Service %s: %w", key, srcErr)
	}
	plan, desired, reason, err := c.reconciler.PlanIndexed(ctx, service, idx.Endpoints(), slices)
	if err == nil {
		path := reason
		if path == "" {
			path = SyncPathIncremental
		}
		c.indexes.countPath(path)
		err = c.reconciler.ApplyUntil(ctx, service, plan, desired, u.TriggerTime, idx.HasPending)
	}
	if reconciler.IsSuperseded(err) {
		// Events arrived while the writes waited for the client's rate
		// limiter: the rest of the plan is planned again with them. The
		// events queued the Service again; the index learns the slices
		// written from the informer, and the unwritten ones stay to be
		// evaluated, so nothing is rebuilt.
		idx.CarryTriggerTime(u.TriggerTime)
		c.indexes.countSuperseded()
		klog.FromContext(ctx).V(4).Info("Plan superseded by new events, planning again", c.logKV("key", key, "err", err)...)
		return nil
	}
	if err != nil {
		// The index learnt the slices it was given; the failed writes
		// make the next sync rebuild, as the full path would re-plan.
		idx.Invalidate(rebuildAfterError)
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToUpdateEndpointSlices,
			"Error updating Endpoint Slices for Service %s/%s: %v", service.Namespace, service.Name, err)
		return errors.Join(err, srcErr)
	}
	if srcErr != nil {
		// Pods skipped because their Node is missing: retry later.
		return fmt.Errorf("syncing Service %s: %w", key, srcErr)
	}
	return nil
}

// rebuildAfterError is the Invalidate reason after a failed plan or write.
const rebuildAfterError = "write-failed"

// ownSlices lists this controller's slices of service from the cache
// (reconciler.OwnerSlices: without slices pending deletion, KCM C12, as
// shallow copies without managedFields, a
// *reconciler.StaleInformerCacheError when the cache is older than this
// controller's writes). A list failure records a FailedToListEndpointSlices
// event.
func (c *Controller) ownSlices(service *corev1.Service) ([]*discovery.EndpointSlice, error) {
	slices, err := c.reconciler.OwnerSlices(c.sliceLister, service.Namespace, service.Name)
	if err != nil && !reconciler.IsStaleInformerCache(err) {
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToListEndpointSlices,
			"Error listing Endpoint Slices for Service %s/%s: %v", service.Namespace, service.Name, err)
	}
	return slices, err
}

// forget drops what the controller remembers about a Service it no longer
// writes for: trigger times, metrics, problems, topology hints and the
// generations of its slices in the tracker (KCM:
// triggerTimeTracker.DeleteService, reconciler.DeleteService,
// endpointSliceTracker.DeleteService).
func (c *Controller) forget(namespace, name string) {
	c.indexes.drop(namespace + "/" + name)
	c.services.Forget(namespace, name)
	c.triggerTimes.DeleteService(namespace, name)
	c.reconciler.DeleteOwner(namespace, name)
	c.problems.forget(namespace, name)
	if c.topologyCache != nil {
		key := namespace + "/" + name
		c.topologyCache.RemoveHints(key, discovery.AddressTypeIPv4)
		c.topologyCache.RemoveHints(key, discovery.AddressTypeIPv6)
	}
}

// deleteOwnSlices deletes this controller's slices of service, for a
// Service it stops writing for: each slice with this controller's
// managed-by value and the Service's name label, not already pending
// deletion, with a UID precondition (reconciler.DeleteAll). Slices of other
// controllers are never listed. When the cache is older than this
// controller's writes it returns a *reconciler.StaleInformerCacheError, so
// that a slice just created is not missed. It forgets the Service's state
// and returns the number of slices deleted; a failed deletion records a
// Warning FailedToUpdateEndpointSlices event naming why (the caller's
// words).
func (c *Controller) deleteOwnSlices(ctx context.Context, service *corev1.Service, why string) (int, error) {
	key := service.Namespace + "/" + service.Name
	slices, err := c.ownSlices(service)
	if err != nil {
		return 0, err
	}
	// Forget trigger times, metrics, hints and tracked generations; the
	// deletions are tracked again as expected ones.
	c.forget(service.Namespace, service.Name)
	deleted, err := c.reconciler.DeleteAll(ctx, service.Namespace, service.Name, slices)
	if err != nil {
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToUpdateEndpointSlices,
			"Error deleting Endpoint Slices of Service %s/%s (%s): %v", service.Namespace, service.Name, why, err)
		return deleted, fmt.Errorf("deleting EndpointSlices of Service %s (%s): %w", key, why, err)
	}
	return deleted, nil
}

// release deletes this controller's slices of a Service that is not its
// own (deleteOwnSlices) and records, when at least one slice was deleted,
// a Normal EndpointSlicesHandedOver event (DropIn: delegated to another
// controller) or EndpointSlicesReleased event (Labelled: the label was
// removed or changed).
func (c *Controller) release(ctx context.Context, service *corev1.Service) error {
	if c.own.dropIn {
		target := service.Labels[wellknown.LabelEndpointControllerName]
		deleted, err := c.deleteOwnSlices(ctx, service, fmt.Sprintf("delegated to %q", target))
		if deleted > 0 {
			klog.FromContext(ctx).Info("Deleted EndpointSlices of a Service delegated to another endpoint controller",
				"service", klog.KObj(service), "delegatedTo", target, "deleted", deleted)
			c.eventRecorder.Eventf(service, corev1.EventTypeNormal, ReasonHandedOver,
				"Deleted %d EndpointSlice(s) managed by %s: the Service is delegated to endpoint controller %q by label %s",
				deleted, c.opts.ManagedBy, target, wellknown.LabelEndpointControllerName)
		}
		return err
	}
	now, labelled := service.Labels[wellknown.LabelEndpointControllerName]
	why := fmt.Sprintf("label %s was removed", wellknown.LabelEndpointControllerName)
	if labelled {
		why = fmt.Sprintf("label %s is now %q", wellknown.LabelEndpointControllerName, now)
	}
	deleted, err := c.deleteOwnSlices(ctx, service, why)
	if deleted > 0 {
		klog.FromContext(ctx).Info("Deleted EndpointSlices of a Service this controller no longer handles",
			"controller", c.opts.ControllerName, "service", klog.KObj(service), "deleted", deleted, "endpointControllerName", now)
		c.eventRecorder.Eventf(service, corev1.EventTypeNormal, ReasonEndpointSlicesReleased,
			"Deleted %d EndpointSlice(s) managed by %s: %s", deleted, c.opts.ManagedBy, why)
	}
	return err
}

// removeForSelector deletes this controller's slices of a Service that
// selects no Pods any more (deleteOwnSlices; reason and why from
// selectorless.SelectsNoPods), counts them in the removal metric (when
// configured) and records a Normal EndpointSlicesRemoved event naming why
// when at least one slice was deleted (kubernetes#118376, regression case
// 33).
func (c *Controller) removeForSelector(ctx context.Context, service *corev1.Service, reason, why string) error {
	deleted, err := c.deleteOwnSlices(ctx, service, why)
	if deleted > 0 {
		c.removals.Add(reason, deleted)
		kv := []any{"service", klog.KObj(service), "reason", reason, "deleted", deleted}
		if !c.own.dropIn {
			kv = []any{"controller", c.opts.ControllerName, "service", klog.KObj(service), "deleted", deleted}
		}
		klog.FromContext(ctx).Info("Deleted EndpointSlices of a Service that selects no Pods", kv...)
		c.eventRecorder.Eventf(service, corev1.EventTypeNormal, ReasonEndpointSlicesRemoved,
			"Deleted %d EndpointSlice(s) managed by %s: %s (%s)", deleted, c.opts.ManagedBy, why, selectorless.UpstreamIssue)
	}
	return err
}

// sweep queues every Service that still has an EndpointSlice of this
// controller but is not its own (delegation.SweepDelegated), so that
// slices left behind while the controller was not running (or, for the
// drop-in, while the gate was off) are deleted (spec edge case E8, rule
// (a)11). The informers' initial Service events queue the Services anyway;
// the sweep makes the clean-up explicit and logged. The drop-in sweeps only
// with the gate on.
func (c *Controller) sweep(ctx context.Context) {
	if c.own.dropIn && !c.own.gate {
		return
	}
	delegation.SweepDelegated(ctx, c.sliceLister, c.serviceLister, c.opts.ManagedBy,
		func(svc *corev1.Service) bool { return !c.own.Owns(svc) }, c.serviceQueue.Add)
}

// SyncAll syncs, once, every Service in the Service informer's cache, in
// namespace/name order (controllerkit.SyncAll; Services that are not this
// controller's cost a cache lookup, and release the slices this controller
// still has for them). It reads only the informer caches, never waits for
// them and starts no goroutine; it syncs every Service even when some fail
// and returns the failures joined. It is the hook `slicekit render` drives
// to a fixed point (the manager's Controller interface).
//
// With an incremental source every Service is synced with the full planner
// (InvalidateSyncAll): render fills the indexers without events. With
// topology hints, the cached Nodes are fed to the topology cache first, as
// Node events feed it live, so that render computes the hints (regression
// case 39).
func (c *Controller) SyncAll(ctx context.Context) error {
	c.indexes.invalidateAll(InvalidateSyncAll)
	if c.topologyCache != nil && c.anyTopologyAuto() {
		// Live, Node events feed the topology cache
		// (checkNodeTopologyDistribution); offline there are none, so the
		// cached Nodes are fed before the Services are synced, and
		// topology-aware hints are computed as a running controller that
		// has seen these Nodes computes them.
		nodes, err := c.nodeLister.List(labels.Everything())
		if err != nil {
			return fmt.Errorf("%s: listing Nodes for topology hints: %w", c.opts.Name, err)
		}
		c.topologyCache.SetNodes(klog.FromContext(ctx), nodes)
	}
	return controllerkit.SyncAll(ctx, c.serviceKeys, c.SyncService)
}

// anyTopologyAuto reports whether a cached Service asks for
// topology-aware hints (podendpoint.TopologyAuto), so that SyncAll feeds
// the topology cache (which logs about Nodes without CPU or zone) only
// when hints are wanted.
func (c *Controller) anyTopologyAuto() bool {
	services, err := c.serviceLister.List(labels.Everything())
	if err != nil {
		return true
	}
	for _, svc := range services {
		if podendpoint.TopologyAuto(svc.Annotations) {
			return true
		}
	}
	return false
}

// serviceKeys returns the namespace/name keys of the Services in the cache,
// sorted by namespace then name.
func (c *Controller) serviceKeys() ([]string, error) {
	services, err := c.serviceLister.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	names := make([]types.NamespacedName, 0, len(services))
	for _, svc := range services {
		names = append(names, types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name})
	}
	sort.Slice(names, func(i, j int) bool {
		if names[i].Namespace != names[j].Namespace {
			return names[i].Namespace < names[j].Namespace
		}
		return names[i].Name < names[j].Name
	})
	keys := make([]string, len(names))
	for i, nn := range names {
		keys[i] = nn.String()
	}
	return keys, nil
}
