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

package mirroring

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/policy/delegation"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Event reasons. The Warning reasons are KCM's
// (pkg/controller/endpointslicemirroring events.go).
const (
	// ReasonInvalidIPAddress (Warning, on the Endpoints): addresses whose IP
	// does not parse were not mirrored; the message gives their number
	// (rule b5).
	ReasonInvalidIPAddress = "InvalidIPAddress"
	// ReasonTooManyAddressesToMirror (Warning, on the Endpoints): a
	// re-packed subset held more addresses than
	// MirroringMaxEndpointsPerSubset; the message gives the limit and the
	// number of addresses skipped (rule b4).
	ReasonTooManyAddressesToMirror = "TooManyAddressesToMirror"
	// ReasonFailedToUpdateEndpointSlices (Warning, on the Endpoints): a
	// write failed. KCM defines this reason for the mirroring controller
	// but records no event.
	ReasonFailedToUpdateEndpointSlices = "FailedToUpdateEndpointSlices"
	// ReasonHandedOver (Normal, on the Service, slicekit): the slices
	// mirrored for a Service delegated to another controller by the
	// KEP-4770 label were deleted; the message names that controller and
	// the number of slices. The same reason as the EndpointSlice
	// controller's.
	ReasonHandedOver = "EndpointSlicesHandedOver"
	// ReasonEndpointSlicesRemoved (Normal, on the Service, slicekit): with
	// the SelectorRemovalCleanup gate on, the slices mirrored for an
	// Endpoints object that is the Endpoints controller's leftover on a
	// Service without a selector were deleted (kubernetes#118376).
	ReasonEndpointSlicesRemoved = selectorless.ReasonEndpointSlicesRemoved
)

// SelectorRemovalMetricName is the name, after the subsystem
// endpoint_slice_mirroring_controller and without _total, of the counter
// of mirrored slices deleted because their Endpoints object is a selector
// removal's leftover (label reason: no-selector).
const SelectorRemovalMetricName = "selector_removal_deleted_slices"

// SyncEndpoints brings the mirrored EndpointSlices of the Endpoints object
// with the given namespace/name key to the state it calls for. It reads only
// informer caches (the factory passed to New must have synced) and writes
// through the client. Steps, after KCM syncEndpoints (rules b1 to b14):
//
//  1. The mirrored slices are deleted (and nothing else happens) when the
//     Endpoints object does not exist, is not mirrorable (ShouldMirror: the
//     skip-mirror label, the leader-election annotation), its Service does
//     not exist, the Service is delegated to another controller by the
//     KEP-4770 label (rule (a)8; a Normal EndpointSlicesHandedOver event on
//     the Service), or the Service has a selector (case 01).
//  2. With the SelectorRemovalCleanup gate on, an Endpoints object
//     written by KCM's Endpoints controller (IsSelectorRemovalLeftover: the
//     endpoints.kubernetes.io/managed-by=endpoint-controller label or KCM's
//     managedFields entry; the Endpoints controller's leftover from before the selector was removed,
//     kubernetes#118376, case 34) is not mirrored: its mirrored slices are
//     deleted, with a Normal EndpointSlicesRemoved event on the Service.
//     KCM mirrors it (its shouldMirror ignores that label).
//  3. Otherwise this controller's slices for the name are listed
//     (managed-by and kubernetes.io/service-name labels), slices pending
//     deletion are dropped, and a *reconciler.StaleInformerCacheError
//     (OwnerKind "Endpoints") is returned when the cache is older than this
//     controller's writes (reconciler OwnerSlices; KCM syncEndpoints,
//     StaleSlices): the sync is retried later and counted as
//     syncs{result="stale"}.
//  4. The desired endpoints are computed (endpointsmirroring.Desired: re-packing,
//     per-subset limit with ready addresses first, invalid IPs skipped;
//     Warning events InvalidIPAddress and TooManyAddressesToMirror on the
//     Endpoints) and reconciled into one slice per address type and port
//     list (the reconciler's Config.OneSlicePerGroup): when several slices
//     share an address type and port list, the fullest is kept and the
//     others are deleted, their names recycled for slices to create (rule
//     b3, KCM reconcileByPortMapping and recycleSlices).
//
// Slices carrying another controller's managed-by value are never listed,
// written or deleted. Deletions carry a UID precondition. Errors are
// wrapped with the key. SyncEndpoints must not run concurrently for the same
// key; Run's queue guarantees that.
func (c *Controller) SyncEndpoints(ctx context.Context, key string) error {
	logger := klog.FromContext(ctx)
	startTime := time.Now()
	defer func() {
		c.mirroringMetrics.observeSyncDuration(time.Since(startTime))
		logger.V(4).Info("Finished syncing EndpointSlices for Endpoints", "key", key, "elapsedTime", time.Since(startTime))
	}()

	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	// cleanUp deletes the slices mirrored for namespace/name, logging why
	// (msg, with the object the reason is about).
	cleanUp := func(msg, kind string, obj klog.ObjectRef) error {
		logger.V(4).Info(msg+", cleaning up any mirrored EndpointSlices", kind, obj)
		_, err := c.deleteMirroredSlices(ctx, namespace, name)
		return err
	}
	ep, err := c.endpointsLister.Endpoints(namespace).Get(name)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("getting Endpoints %s: %w", key, err)
		}
		return cleanUp("Endpoints not found", "endpoints", klog.KRef(namespace, name))
	}
	if !ShouldMirror(ep) {
		return cleanUp("Endpoints should not be mirrored", "endpoints", klog.KObj(ep))
	}
	svc, err := c.serviceLister.Services(namespace).Get(name)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("getting Service %s: %w", key, err)
		}
		return cleanUp("Service not found", "service", klog.KRef(namespace, name))
	}
	if c.delegated(svc) {
		return c.handOver(ctx, svc)
	}
	if svc.Spec.Selector != nil {
		return cleanUp("Service now has selector", "service", klog.KObj(svc))
	}

	if c.cleanup && IsSelectorRemovalLeftover(ep) {
		return c.dropLeftover(ctx, svc, ep)
	}

	slices, err := c.reconciler.OwnerSlices(c.sliceLister, namespace, name)
	if err != nil {
		return err
	}

	res, err := endpointsmirroring.Desired(ep, endpointsmirroring.Options{MaxEndpointsPerSubset: c.opts.MirroringMaxEndpointsPerSubset})
	if err != nil {
		return fmt.Errorf("computing endpoints of Endpoints %s: %w", key, err)
	}
	c.reportSkipped(ctx, ep, res)

	plan, err := c.reconciler.Plan(ctx, ep, res.Desired, slices)
	if err != nil {
		return fmt.Errorf("planning EndpointSlices of Endpoints %s: %w", key, err)
	}
	c.mirroringMetrics.observeUpdated(plan.Updated())

	if err := c.reconciler.Apply(ctx, ep, plan, res.Desired, time.Time{}); err != nil {
		c.events.Eventf(ep, corev1.EventTypeWarning, ReasonFailedToUpdateEndpointSlices,
			"Error updating EndpointSlices for Endpoints %s/%s: %v", namespace, name, err)
		return fmt.Errorf("mirroring Endpoints %s: %w", key, err)
	}
	return nil
}

// reportSkipped records KCM's Warning events and the
// addresses_skipped_per_sync metric for the addresses Desired skipped
// (reconciler.go reconcile).
func (c *Controller) reportSkipped(ctx context.Context, ep *corev1.Endpoints, res *endpointsmirroring.Result) {
	logger := klog.FromContext(ctx)
	for _, ip := range res.InvalidIPs {
		logger.Info("Address in Endpoints is not a valid IP, it will not be mirrored to an EndpointSlice", "endpoints", klog.KObj(ep), "IP", ip)
	}
	c.mirroringMetrics.observeSkipped(res.AddressesSkipped)
	if res.InvalidAddresses > 0 {
		c.events.Eventf(ep, corev1.EventTypeWarning, ReasonInvalidIPAddress,
			"Skipped %d invalid IP addresses when mirroring to EndpointSlices", res.InvalidAddresses)
	}
	if res.TooManyAddresses() {
		logger.Info("Addresses in Endpoints were skipped due to exceeding MaxEndpointsPerSubset", "skippedAddresses", res.AddressesSkipped, "endpoints", klog.KObj(ep))
		c.events.Eventf(ep, corev1.EventTypeWarning, ReasonTooManyAddressesToMirror,
			"A max of %d addresses can be mirrored to EndpointSlices per Endpoints subset. %d addresses were skipped", c.opts.MirroringMaxEndpointsPerSubset, res.AddressesSkipped)
	}
	if res.Truncated > 0 {
		logger.Info("Endpoints of subsets with the same ports exceed MaxEndpointsPerSubset, some were not mirrored", "endpoints", klog.KObj(ep), "truncated", res.Truncated)
	}
}

// deleteMirroredSlices deletes every slice this controller mirrored for
// namespace/name (KCM deleteMirroredSlices) through the reconciler's
// Release: it forgets what the reconciler tracked for the name, deletes each
// slice with a UID precondition (NotFound counts as deleted) and records the
// deletions as expected. When the cache is older than this controller's
// writes it returns a *reconciler.StaleInformerCacheError first, so that a
// slice just created is not missed. It returns the number of slices deleted.
func (c *Controller) deleteMirroredSlices(ctx context.Context, namespace, name string) (int, error) {
	deleted, err := c.reconciler.Release(ctx, c.sliceLister, namespace, name)
	if err != nil {
		if reconciler.IsStaleInformerCache(err) {
			return deleted, err
		}
		return deleted, fmt.Errorf("deleting EndpointSlices mirrored for Endpoints %s/%s: %w", namespace, name, err)
	}
	if deleted > 0 {
		klog.FromContext(ctx).V(2).Info("Deleted mirrored EndpointSlices", "endpoints", klog.KRef(namespace, name), "deleted", deleted)
	}
	return deleted, nil
}

// handOver deletes the slices mirrored for a Service delegated to another
// controller by the KEP-4770 label (rule (a)8, which the KEP's informer
// filter achieved only through a synthetic delete event), and records a
// Normal EndpointSlicesHandedOver event on the Service when it deleted any.
func (c *Controller) handOver(ctx context.Context, svc *corev1.Service) error {
	target := svc.Labels[wellknown.LabelEndpointControllerName]
	deleted, err := c.deleteMirroredSlices(ctx, svc.Namespace, svc.Name)
	if deleted > 0 {
		klog.FromContext(ctx).Info("Deleted mirrored EndpointSlices of a Service delegated to another endpoint controller",
			"service", klog.KObj(svc), "delegatedTo", target, "deleted", deleted)
		c.events.Eventf(svc, corev1.EventTypeNormal, ReasonHandedOver,
			"Deleted %d EndpointSlice(s) managed by %s: the Service is delegated to endpoint controller %q by label %s",
			deleted, c.opts.ControllerName, target, wellknown.LabelEndpointControllerName)
	}
	return err
}

// IsSelectorRemovalLeftover reports whether ep was written by
// kube-controller-manager's Endpoints controller (selectorless.KCMEndpoints:
// the managed-by label endpoints.kubernetes.io/managed-by=endpoint-controller,
// or, on objects of KCM 1.32 and older, KCM's managedFields entry). On a
// Service without a selector such an object was written while the Service
// still had one: the Endpoints controller's leftover, not hand-written
// endpoints (kubernetes#118376, case 34).
func IsSelectorRemovalLeftover(ep *corev1.Endpoints) bool {
	ok, _ := selectorless.KCMEndpoints(ep)
	return ok
}

// dropLeftover deletes the slices mirrored for a selector removal's
// leftover Endpoints object (see IsSelectorRemovalLeftover), counts them in
// the removal metric and records a Normal EndpointSlicesRemoved event on
// the Service when it deleted any.
func (c *Controller) dropLeftover(ctx context.Context, svc *corev1.Service, ep *corev1.Endpoints) error {
	_, by := selectorless.KCMEndpoints(ep)
	klog.FromContext(ctx).V(4).Info("Endpoints is the Endpoints controller's leftover on a Service without a selector, not mirroring it", "endpoints", klog.KObj(ep))
	deleted, err := c.deleteMirroredSlices(ctx, ep.Namespace, ep.Name)
	if deleted > 0 {
		c.removals.Add(selectorless.ReasonNoSelector, deleted)
		klog.FromContext(ctx).Info("Deleted EndpointSlices mirrored from the Endpoints controller's leftover", "service", klog.KObj(svc), "deleted", deleted)
		c.events.Eventf(svc, corev1.EventTypeNormal, ReasonEndpointSlicesRemoved,
			"Deleted %d EndpointSlice(s) managed by %s: Endpoints %s/%s was written by %s (recognised by its %s), it is the Endpoints controller's leftover from before the selector was removed (%s)",
			deleted, c.opts.ControllerName, ep.Namespace, ep.Name, wellknown.EndpointsControllerName, by, selectorless.UpstreamIssue)
	}
	return err
}

// Keys returns, sorted, the namespace/name keys SyncAll syncs: every
// Endpoints object in the cache and every name that has a slice of this
// controller (so that slices whose Endpoints object is gone are deleted).
func (c *Controller) Keys() ([]string, error) {
	eps, err := c.endpointsLister.List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("listing Endpoints: %w", err)
	}
	own, err := c.sliceLister.List(labels.Set{discovery.LabelManagedBy: c.opts.ControllerName}.AsSelectorPreValidated())
	if err != nil {
		return nil, fmt.Errorf("listing EndpointSlices: %w", err)
	}
	var owners []string
	for _, s := range own {
		if n := s.Labels[discovery.LabelServiceName]; n != "" {
			owners = append(owners, s.Namespace+"/"+n)
		}
	}
	return controllerkit.SortedKeys(controllerkit.ObjectKeys(eps), owners), nil
}

// SyncAll is the offline renderer's hook: it calls SyncEndpoints once for
// every key of Keys, in order, reading only the informer caches; it never
// waits for them and starts no goroutine. It syncs every key even when some
// fail and returns the failures joined.
func (c *Controller) SyncAll(ctx context.Context) error {
	return controllerkit.SyncAll(ctx, c.Keys, c.SyncEndpoints)
}

// sweepDelegated queues every delegated Service that still has a slice
// mirrored by this controller, so that slices left behind while the
// controller was not running (or while the gate was off) are deleted (rule
// (a)11, edge case E8). The informers' initial events queue most of them
// anyway; the sweep makes the clean-up explicit and logged.
func (c *Controller) sweepDelegated(ctx context.Context) {
	if !c.gate {
		return
	}
	delegation.SweepDelegated(ctx, c.sliceLister, c.serviceLister, c.opts.ControllerName, c.delegated,
		func(key string) { c.queue.Add(key) })
}
