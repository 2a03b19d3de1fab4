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

package endpointslice

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// Event reasons recorded on Services. The Warning reasons are KCM's
// (behaviour C14).
const (
	// ReasonFailedToUpdateEndpointSlices (Warning): a write failed, while
	// reconciling or while deleting slices on hand-over.
	ReasonFailedToUpdateEndpointSlices = "FailedToUpdateEndpointSlices"
	// ReasonFailedToListPods (Warning): the Pod lister failed.
	ReasonFailedToListPods = "FailedToListPods"
	// ReasonFailedToListEndpointSlices (Warning): the EndpointSlice lister
	// failed.
	ReasonFailedToListEndpointSlices = "FailedToListEndpointSlices"
	// ReasonHandedOver (Normal, slicekit): this controller deleted its
	// EndpointSlices of a Service delegated to another controller by the
	// KEP-4770 label; the message names that controller and the number of
	// slices deleted. KEP-4770 itself defines no event (rule (a)14).
	ReasonHandedOver = "EndpointSlicesHandedOver"
	// ReasonEndpointSlicesRemoved (Normal, slicekit): with the
	// SelectorRemovalCleanup gate on, this controller deleted its
	// EndpointSlices of a Service that has no selector or is of type
	// ExternalName; the message names the reason (kubernetes#118376).
	ReasonEndpointSlicesRemoved = selectorless.ReasonEndpointSlicesRemoved
)

// SelectorRemovalMetricName is the name, after the subsystem
// endpoint_slice_controller and without _total, of the counter of slices
// deleted because their Service selects no Pods (label reason: no-selector,
// external-name).
const SelectorRemovalMetricName = "selector_removal_deleted_slices"

// StaleInformerCacheError is returned by SyncService when the EndpointSlice
// informer cache is older than this controller's own writes (behaviour C13,
// KCM pkg/controller/util/endpointslice StaleInformerCache): the sync is
// retried later and counted as syncs{result="stale"}.
type StaleInformerCacheError struct {
	// Service is the namespace/name key of the Service.
	Service string
}

// Error implements error.
func (e *StaleInformerCacheError) Error() string {
	return fmt.Sprintf("EndpointSlice informer cache is out of date for Service %s", e.Service)
}

// IsStaleInformerCache reports whether err is, or wraps, a
// *StaleInformerCacheError.
func IsStaleInformerCache(err error) bool {
	var stale *StaleInformerCacheError
	return errors.As(err, &stale)
}

// SyncService brings the EndpointSlices of the Service with the given
// namespace/name key to the state its Pods call for, or hands the Service
// over when it is delegated. It reads only informer caches (the factory
// passed to New must have synced) and writes through the client. Steps,
// after KCM syncService (behaviours C10 to C14):
//
//  1. Service not in the cache: forget its trigger times, metrics and
//     tracked slices; delete nothing (the garbage collector removes slices
//     through their owner reference). Returns nil.
//  2. Delegated Service (KEP-4770, gate on, label present with another
//     value): delete this controller's slices of the Service (see package
//     doc) and forget its state; a Normal EndpointSlicesHandedOver event when
//     slices were deleted. Checked before the type and selector, because the
//     KEP applies "no matter the service specs" (rule (a)2).
//  3. type ExternalName or nil selector: with the SelectorRemovalCleanup
//     gate on (Options.SelectorRemovalCleanup, the default), delete this
//     controller's slices of the Service as in step 2, with a Normal
//     EndpointSlicesRemoved event naming the reason and the removal metric
//     (kubernetes#118376, case 33); with the gate off return nil, leaving
//     slices as they are (KCM: C11, edge case E1).
//  4. List the selected Pods and this controller's slices of the Service
//     (managed-by and kubernetes.io/service-name labels), drop slices
//     pending deletion, and return a *StaleInformerCacheError when the cache
//     is older than this controller's writes (C12, C13).
//  5. Compute the desired endpoints (servicepods.Desired) and the trigger
//     time, and reconcile. Pods on a missing Node are skipped and reported
//     in the returned error after the others were written (E14).
//
// Failures record KCM's Warning events on the Service (C14). Errors are
// wrapped with the Service's key. SyncService must not run concurrently for
// the same key; Run's queue guarantees that.
func (c *Controller) SyncService(ctx context.Context, key string) error {
	logger := klog.FromContext(ctx)
	startTime := time.Now()
	defer func() {
		logger.V(4).Info("Finished syncing service endpoint slices", "key", key, "elapsedTime", time.Since(startTime))
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

	if c.delegated(service) {
		return c.handOver(ctx, service)
	}

	if none, reason, why := selectorless.SelectsNoPods(service); none {
		// Services of type ExternalName receive no endpoints from this
		// controller (https://issues.k8s.io/105986); Services without a
		// selector receive EndpointSlices written out of band through the
		// API. KCM leaves the slices it wrote before (C11, E1,
		// kubernetes#118376); with SelectorRemovalCleanup they are deleted.
		if !c.cleanup {
			return nil
		}
		return c.removeForSelector(ctx, service, reason, why)
	}

	logger.V(5).Info("About to update endpoint slices for service", "key", key)

	pods, err := c.podLister.Pods(namespace).List(labels.Set(service.Spec.Selector).AsSelectorPreValidated())
	if err != nil {
		// The cache is local: this is nearly impossible.
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

	desired, srcErr := servicepods.Desired(ctx, service, pods, c.nodeLister, servicepods.Options{})
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

// listOwnSlices lists this controller's slices of service from the cache,
// without slices pending deletion (KCM dropEndpointSlicesPendingDeletion,
// C12), as shallow copies without managedFields: the reconciler deep-copies
// the slices it updates and sends them back, and the managedFields kept by
// TransformEndpointSlice must not be echoed. The cached objects are not
// modified. A list failure records a FailedToListEndpointSlices event.
func (c *Controller) listOwnSlices(service *corev1.Service) ([]*discovery.EndpointSlice, error) {
	selector := labels.Set{
		discovery.LabelServiceName: service.Name,
		discovery.LabelManagedBy:   c.opts.ControllerName,
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
// writes for: trigger times, metrics, topology hints and the generations of
// its slices in the tracker (KCM: triggerTimeTracker.DeleteService,
// reconciler.DeleteService, endpointSliceTracker.DeleteService).
func (c *Controller) forget(namespace, name string) {
	c.triggerTimes.DeleteService(namespace, name)
	c.reconciler.DeleteOwner(namespace, name)
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
// controller's writes it returns a *StaleInformerCacheError, so that a
// slice just created is not missed. It forgets the Service's state and
// returns the number of slices deleted; a failed deletion records a Warning
// FailedToUpdateEndpointSlices event naming why (the caller's words).
func (c *Controller) deleteOwnSlices(ctx context.Context, service *corev1.Service, why string) (int, error) {
	key := service.Namespace + "/" + service.Name
	slices, err := c.listOwnSlices(service)
	if err != nil {
		return 0, err
	}
	if c.tracker.StaleSlices(service.Namespace, service.Name, slices) {
		return 0, &StaleInformerCacheError{Service: key}
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

// handOver deletes this controller's slices of a delegated Service
// (deleteOwnSlices) and records a Normal EndpointSlicesHandedOver event when
// at least one slice was deleted.
func (c *Controller) handOver(ctx context.Context, service *corev1.Service) error {
	target := service.Labels[delegation.LabelEndpointControllerName]
	deleted, err := c.deleteOwnSlices(ctx, service, fmt.Sprintf("delegated to %q", target))
	if deleted > 0 {
		klog.FromContext(ctx).Info("Deleted EndpointSlices of a Service delegated to another endpoint controller",
			"service", klog.KObj(service), "delegatedTo", target, "deleted", deleted)
		c.eventRecorder.Eventf(service, corev1.EventTypeNormal, ReasonHandedOver,
			"Deleted %d EndpointSlice(s) managed by %s: the Service is delegated to endpoint controller %q by label %s",
			deleted, c.opts.ControllerName, target, delegation.LabelEndpointControllerName)
	}
	return err
}

// removeForSelector deletes this controller's slices of a Service that
// selects no Pods any more (deleteOwnSlices; reason and why from
// selectorless.SelectsNoPods), counts them in the removal metric and
// records a Normal EndpointSlicesRemoved event naming why when at least one
// slice was deleted (kubernetes#118376, regression case 33).
func (c *Controller) removeForSelector(ctx context.Context, service *corev1.Service, reason, why string) error {
	deleted, err := c.deleteOwnSlices(ctx, service, why)
	if deleted > 0 {
		c.removals.Add(reason, deleted)
		klog.FromContext(ctx).Info("Deleted EndpointSlices of a Service that selects no Pods",
			"service", klog.KObj(service), "reason", reason, "deleted", deleted)
		c.eventRecorder.Eventf(service, corev1.EventTypeNormal, ReasonEndpointSlicesRemoved,
			"Deleted %d EndpointSlice(s) managed by %s: %s (%s)", deleted, c.opts.ControllerName, why, selectorless.UpstreamIssue)
	}
	return err
}

// sweepDelegated queues every delegated Service that still has an
// EndpointSlice of this controller, so that slices left behind while the
// controller was not running (or while the gate was off) are deleted (spec
// edge case E8, rule (a)11). The informers' initial Service events queue
// every Service anyway; the sweep makes the clean-up explicit and logged.
func (c *Controller) sweepDelegated(ctx context.Context) {
	if !c.gate {
		return
	}
	logger := klog.FromContext(ctx)
	slices, err := c.sliceLister.List(labels.Set{discovery.LabelManagedBy: c.opts.ControllerName}.AsSelectorPreValidated())
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
		if err != nil || !c.delegated(svc) {
			continue
		}
		c.serviceQueue.Add(nn.String())
		queued++
	}
	logger.Info("Start-up sweep of delegated Services done", "servicesQueued", queued)
}
