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

package podsource

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

	"github.com/slicekit/slicekit/pkg/controllers/delegation"
	"github.com/slicekit/slicekit/pkg/controllers/selectorless"
	"github.com/slicekit/slicekit/pkg/source"
)

// Event reasons recorded on Services besides the Problems' reasons.
const (
	// ReasonFailedToUpdateEndpointSlices (Warning, KCM's): a write failed.
	ReasonFailedToUpdateEndpointSlices = "FailedToUpdateEndpointSlices"
	// ReasonFailedToListPods (Warning, KCM's): the Pod lister failed.
	ReasonFailedToListPods = "FailedToListPods"
	// ReasonFailedToListEndpointSlices (Warning, KCM's): the EndpointSlice
	// lister failed.
	ReasonFailedToListEndpointSlices = "FailedToListEndpointSlices"
	// ReasonEndpointSlicesReleased (Normal): the Service no longer carries
	// this controller's name in its endpoint-controller-name label, and
	// this controller deleted its slices of it.
	ReasonEndpointSlicesReleased = "EndpointSlicesReleased"
	// ReasonInvalidSelector (Warning, a Service-level Problem): the Service
	// has no spec.selector and its slicekit.dev/selector annotation is not
	// a valid label selector; the slices are kept as they are until it is
	// fixed. Counted in <subsystem>_pod_problems{reason="InvalidSelector"}.
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

// StaleInformerCacheError is returned by SyncService when the
// EndpointSlice informer cache is older than this controller's own writes
// (KCM behaviour C13): the sync is retried later and counted as
// syncs{result="stale"}.
type StaleInformerCacheError struct {
	// Service is the namespace/name key of the Service.
	Service string
}

func (e *StaleInformerCacheError) Error() string {
	return fmt.Sprintf("EndpointSlice informer cache is out of date for Service %s", e.Service)
}

// IsStaleInformerCache reports whether err is, or wraps, a
// *StaleInformerCacheError.
func IsStaleInformerCache(err error) bool {
	var stale *StaleInformerCacheError
	return errors.As(err, &stale)
}

// handles reports whether svc is labelled for this controller.
func (c *Controller) handles(svc *corev1.Service) bool {
	if svc == nil {
		return false
	}
	v, ok := svc.Labels[delegation.LabelEndpointControllerName]
	return ok && v == c.opts.ControllerName
}

// SyncService brings the EndpointSlices of the Service with the given
// namespace/name key to the state its Pods and the Source call for. It
// reads only informer caches (the factory given to New must have synced,
// or its indexers be filled, as `slicekit render` does) and writes through
// the client. Steps:
//
//  1. Service not in the cache: forget its trigger times, metrics,
//     problems and tracked slices; delete nothing (the garbage collector
//     removes the slices through their owner reference). Returns nil.
//  2. Service not labelled service.kubernetes.io/endpoint-controller-name=
//     <ControllerName> (never was, or the label was removed or changed):
//     delete this controller's slices of it, if any (managed-by ManagedBy
//     and kubernetes.io/service-name; UID preconditions; slices of other
//     controllers are never listed), with a Normal EndpointSlicesReleased
//     event, and forget its state.
//  3. The Pod selector (PodSelector): spec.selector, or for a Service
//     without one the annotation slicekit.dev/selector (the selectorless
//     form, which kube-controller-manager's controllers leave alone). An
//     invalid annotation: a Warning InvalidSelector event and problem
//     metric, slices kept as they are, nil returned. type ExternalName, or
//     neither selector nor annotation: with Options.SelectorRemovalCleanup
//     (default) this controller's slices are deleted as in step 2 with a
//     Normal EndpointSlicesRemoved event naming the reason; without it they
//     are left as they are (KCM C11).
//  4. List the selected Pods and this controller's slices, dropping slices
//     pending deletion; a *StaleInformerCacheError when the cache is older
//     than this controller's writes (C12, C13).
//  5. Desired endpoints from the Source (Desired), Problems reported as
//     Warning events on the Service (each once, when it appears) and in the
//     metrics, trigger time (C25), reconcile. Pods on a missing Node are
//     skipped and reported in the returned error after the others were
//     written (E14).
//
// Errors are wrapped with the Service's key. SyncService must not run
// concurrently for the same key; Run's queue guarantees that.
func (c *Controller) SyncService(ctx context.Context, key string) error {
	logger := klog.FromContext(ctx)
	startTime := time.Now()
	defer func() {
		logger.V(4).Info("Finished syncing service endpoint slices", "controller", c.opts.ControllerName, "key", key, "elapsedTime", time.Since(startTime))
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
		return nil
	}
	if !c.handles(service) {
		return c.release(ctx, service)
	}
	selector, selects, selErr := PodSelector(service)
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
		// There are no Pods, hence no problems. With SelectorRemovalCleanup
		// the slices go (kubernetes#118376); without it they are left as
		// they are (KCM C11).
		c.problems.forget(namespace, name)
		// PodSelector found neither spec.selector nor a valid annotation,
		// or the Service is ExternalName: SelectsNoPods says which.
		if none, _, why := selectorless.SelectsNoPods(service); none && c.opts.cleanupEnabled() {
			return c.removeForSelector(ctx, service, why)
		}
		return nil
	}

	pods, err := c.podLister.Pods(namespace).List(selector)
	if err != nil {
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToListPods,
			"Error listing Pods for Service %s/%s: %v", service.Namespace, service.Name, err)
		return fmt.Errorf("listing Pods for Service %s: %w", key, err)
	}
	slices, err := c.listOwnSlices(service)
	if err != nil {
		return err
	}
	if c.tracker.StaleSlices(namespace, name, slices) {
		return &StaleInformerCacheError{Service: key}
	}

	desired, problems, srcErr := source.Desired(ctx, service, pods, c.nodeLister, c.opts.Source)
	c.problems.report(ctx, service, problems)
	if desired == nil {
		return fmt.Errorf("computing endpoints of Service %s: %w", key, srcErr)
	}
	triggerTime := c.triggerTimes.ComputeEndpointLastChangeTriggerTime(namespace, service, pods)
	if err := c.reconciler.Reconcile(ctx, service, desired, slices, triggerTime); err != nil {
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToUpdateEndpointSlices,
			"Error updating Endpoint Slices for Service %s/%s: %v", service.Namespace, service.Name, err)
		return errors.Join(err, srcErr)
	}
	if srcErr != nil {
		return fmt.Errorf("syncing Service %s: %w", key, srcErr)
	}
	return nil
}

// listOwnSlices lists this controller's slices of service from the cache,
// without slices pending deletion (KCM C12), as shallow copies without
// managedFields (which a transform may have trimmed and which must not be
// echoed back). The cached objects are not modified.
func (c *Controller) listOwnSlices(service *corev1.Service) ([]*discovery.EndpointSlice, error) {
	selector := labels.Set{
		discovery.LabelServiceName: service.Name,
		discovery.LabelManagedBy:   c.opts.ManagedBy,
	}.AsSelectorPreValidated()
	cached, err := c.sliceLister.EndpointSlices(service.Namespace).List(selector)
	if err != nil {
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToListEndpointSlices,
			"Error listing Endpoint Slices for Service %s/%s: %v", service.Namespace, service.Name, err)
		return nil, fmt.Errorf("listing EndpointSlices of Service %s/%s: %w", service.Namespace, service.Name, err)
	}
	out := make([]*discovery.EndpointSlice, 0, len(cached))
	for _, s := range cached {
		if s.DeletionTimestamp != nil {
			continue
		}
		if len(s.ManagedFields) > 0 {
			cp := *s // shallow: maps and slices stay shared and are never modified
			cp.ManagedFields = nil
			s = &cp
		}
		out = append(out, s)
	}
	return out, nil
}

// forget drops what the controller remembers about a Service it no longer
// writes for: trigger times, metrics, problems, topology hints and tracked
// generations.
func (c *Controller) forget(namespace, name string) {
	c.triggerTimes.DeleteService(namespace, name)
	c.reconciler.DeleteOwner(namespace, name)
	c.problems.forget(namespace, name)
	key := namespace + "/" + name
	c.topologyCache.RemoveHints(key, discovery.AddressTypeIPv4)
	c.topologyCache.RemoveHints(key, discovery.AddressTypeIPv6)
}

// release deletes this controller's slices of a Service it no longer
// handles: every slice with its managed-by value and the Service's
// kubernetes.io/service-name, not pending deletion, with a UID
// precondition; NotFound counts as deleted. A stale cache returns a
// *StaleInformerCacheError so that a slice just created is not missed.
// A Normal EndpointSlicesReleased event is recorded when slices were
// deleted, a Warning FailedToUpdateEndpointSlices one when a deletion
// failed.
func (c *Controller) release(ctx context.Context, service *corev1.Service) error {
	now, labelled := service.Labels[delegation.LabelEndpointControllerName]
	why := fmt.Sprintf("label %s was removed", delegation.LabelEndpointControllerName)
	if labelled {
		why = fmt.Sprintf("label %s is now %q", delegation.LabelEndpointControllerName, now)
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

// deleteOwnSlices deletes this controller's slices of service
// (reconciler.DeleteAll: managed-by ManagedBy and the Service's name label,
// UID preconditions) and forgets the Service. A stale cache returns a
// *StaleInformerCacheError so that a slice just created is not missed; a
// failed deletion records a Warning FailedToUpdateEndpointSlices event
// naming why. It returns the number of slices deleted.
func (c *Controller) deleteOwnSlices(ctx context.Context, service *corev1.Service, why string) (int, error) {
	key := service.Namespace + "/" + service.Name
	slices, err := c.listOwnSlices(service)
	if err != nil {
		return 0, err
	}
	if c.tracker.StaleSlices(service.Namespace, service.Name, slices) {
		return 0, &StaleInformerCacheError{Service: key}
	}
	c.forget(service.Namespace, service.Name)
	deleted, err := c.reconciler.DeleteAll(ctx, service.Namespace, service.Name, slices)
	if err != nil {
		c.eventRecorder.Eventf(service, corev1.EventTypeWarning, ReasonFailedToUpdateEndpointSlices,
			"Error deleting Endpoint Slices of Service %s/%s (%s): %v", service.Namespace, service.Name, why, err)
		return deleted, fmt.Errorf("deleting EndpointSlices of Service %s (%s): %w", key, why, err)
	}
	return deleted, nil
}

// removeForSelector deletes this controller's slices of a labelled Service
// that selects no Pods any more (deleteOwnSlices) and records a Normal
// EndpointSlicesRemoved event naming why.
func (c *Controller) removeForSelector(ctx context.Context, service *corev1.Service, why string) error {
	deleted, err := c.deleteOwnSlices(ctx, service, why)
	if deleted > 0 {
		klog.FromContext(ctx).Info("Deleted EndpointSlices of a Service that selects no Pods",
			"controller", c.opts.ControllerName, "service", klog.KObj(service), "deleted", deleted)
		c.eventRecorder.Eventf(service, corev1.EventTypeNormal, selectorless.ReasonEndpointSlicesRemoved,
			"Deleted %d EndpointSlice(s) managed by %s: %s (%s)", deleted, c.opts.ManagedBy, why, selectorless.UpstreamIssue)
	}
	return err
}

// sweepReleased queues every Service that still has a slice of this
// controller but no longer carries its label, so that slices left behind
// while the controller was not running are deleted.
func (c *Controller) sweepReleased(ctx context.Context) {
	logger := klog.FromContext(ctx)
	slices, err := c.sliceLister.List(labels.Set{discovery.LabelManagedBy: c.opts.ManagedBy}.AsSelectorPreValidated())
	if err != nil {
		logger.Error(err, "Listing EndpointSlices for the start-up sweep")
		return
	}
	seen := map[types.NamespacedName]bool{}
	queued := 0
	for _, s := range slices {
		nn := types.NamespacedName{Namespace: s.Namespace, Name: s.Labels[discovery.LabelServiceName]}
		if nn.Name == "" || seen[nn] {
			continue
		}
		seen[nn] = true
		svc, err := c.serviceLister.Services(nn.Namespace).Get(nn.Name)
		if err != nil || c.handles(svc) {
			continue
		}
		c.serviceQueue.Add(nn.String())
		queued++
	}
	logger.V(2).Info("Start-up sweep of released Services done", "servicesQueued", queued)
}

// SyncAll syncs, once, every Service in the Service informer's cache, in
// namespace/name order (Services not labelled for this controller cost a
// cache lookup, and release the slices this controller still has for
// them). It reads only the informer caches, never waits for them and
// starts no goroutine; it syncs every Service even when some fail and
// returns the failures joined. It is the hook `slicekit render` drives to a
// fixed point (the manager's Controller interface).
func (c *Controller) SyncAll(ctx context.Context) error {
	services, err := c.serviceLister.List(labels.Everything())
	if err != nil {
		return err
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
	var errs []error
	for _, nn := range names {
		if err := c.SyncService(ctx, nn.String()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
