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

package endpoints

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	netutils "k8s.io/utils/net"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Event reasons recorded on Endpoints objects (KCM's) and Services.
const (
	// ReasonFailedToCreateEndpoint (Warning): creating the Endpoints object
	// failed.
	ReasonFailedToCreateEndpoint = "FailedToCreateEndpoint"
	// ReasonFailedToUpdateEndpoint (Warning): updating the Endpoints object
	// failed.
	ReasonFailedToUpdateEndpoint = "FailedToUpdateEndpoint"
	// ReasonHandedOver (Normal, on the Service, slicekit): this controller
	// deleted the Endpoints object it wrote for a Service delegated to
	// another controller by the KEP-4770 label.
	ReasonHandedOver = "EndpointsHandedOver"
	// ReasonEndpointsRemoved (Normal, on the Service, slicekit): with the
	// SelectorRemovalCleanup gate on, this controller deleted the Endpoints
	// object it wrote for a Service that has no selector or is of type
	// ExternalName; the message names the reason (kubernetes#118376).
	ReasonEndpointsRemoved = selectorless.ReasonEndpointsRemoved
)

// SelectorRemovalMetricName is the name, after the subsystem
// endpoint_controller and without _total, of the counter of Endpoints
// objects deleted because their Service selects no Pods (label reason:
// no-selector, external-name).
const SelectorRemovalMetricName = "selector_removal_deleted_endpoints"

// ErrStaleInformerCache is wrapped by the error SyncService returns when
// the Endpoints informer cache still holds a version this controller
// already replaced; the sync is retried. The message is KCM's ("endpoints
// informer cache is out of date, resource version ... already processed for
// endpoints ...", pkg/controller/endpoint syncService). Test with errors.Is.
var ErrStaleInformerCache = errors.New("endpoints informer cache is out of date")

// SyncService brings the Endpoints object of the Service with the given
// namespace/name key to the state the Service's Pods call for. It reads only
// informer caches and writes through the client. Steps, after KCM
// syncService (pkg/controller/endpoint/endpoints_controller.go; behaviour
// C37 of the KEP-4770 spec):
//
//  1. Service not in the cache: the Endpoints object of that name is
//     deleted only if it carries this controller's managed-by label (KCM
//     deletes it whoever wrote it; spec O3, E9), with a UID precondition.
//  2. Delegated Service (KEP-4770, gate on, label present with a value
//     other than ControllerName): the same deletion, plus a Normal
//     EndpointsHandedOver event on the Service; nothing is written. Checked
//     before the type and selector (rule (a)2).
//  3. type ExternalName or nil selector: with the SelectorRemovalCleanup
//     gate on (the default), the deletion of step 1 (only an object that
//     carries this controller's managed-by label; hand-written Endpoints of
//     a selectorless Service are never touched) with a Normal
//     EndpointsRemoved event naming the reason and the removal metric
//     (kubernetes#118376, case 34); with the gate off, nothing (KCM).
//  4. Every selected Pod that should be in endpoints (not terminal, has an
//     IP; terminating only with publishNotReadyAddresses) gives one address
//     of the Service's first IP family (spec.ipFamilies[0], else the
//     ClusterIP's, else the Pod IP's) per Service port it resolves (a
//     headless Service without ports gets port-less addresses), ready when
//     the Pod is Ready or the Service publishes not-ready addresses; the
//     subsets are re-packed (KCM's layout, pkg/source/endpointsmirroring
//     RepackSubsets).
//  5. When the cache holds a version this controller replaced, a
//     an error wrapping ErrStaleInformerCache is returned. When subsets, labels and the
//     over-capacity annotation are already right, nothing is written.
//  6. Otherwise the object is created or updated with the Service's labels,
//     service.kubernetes.io/headless when the Service has no cluster IP,
//     endpoints.kubernetes.io/managed-by=endpoint-controller, the
//     last-change-trigger-time annotation (removed when there is no new
//     trigger time) and, beyond MaxCapacity addresses, truncation (ready
//     addresses first, in proportion per subset) with
//     endpoints.kubernetes.io/over-capacity=truncated. After an update that
//     returned a new resourceVersion the replaced version is remembered as
//     stale; a no-op update (same resourceVersion, as for an
//     over-capacity object whose truncation did not change) is not, so the
//     controller does not wedge (E5).
//
// SyncService must not run concurrently for the same key; Run's queue
// guarantees that.
func (c *Controller) SyncService(ctx context.Context, key string) error {
	logger := klog.FromContext(ctx)
	startTime := time.Now()
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	defer func() {
		logger.V(4).Info("Finished syncing service endpoints", "service", klog.KRef(namespace, name), "startTime", time.Since(startTime))
	}()

	service, err := c.serviceLister.Services(namespace).Get(name)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("getting Service %s: %w", key, err)
		}
		if _, err := c.deleteOwnEndpoints(ctx, namespace, name); err != nil {
			return err
		}
		c.triggerTimes.DeleteService(namespace, name)
		c.services.Forget(namespace, name)
		c.staleEndpoints.Delete(namespace, name)
		return nil
	}

	if c.delegated(service) {
		return c.handOver(ctx, service)
	}
	if none, reason, why := selectorless.SelectsNoPods(service); none {
		// Services of type ExternalName receive no endpoints from this
		// controller (https://issues.k8s.io/105986); Services without a
		// selector receive the endpoints created out of band through the
		// API. KCM leaves the object it wrote before (kubernetes#118376);
		// with SelectorRemovalCleanup it is deleted, if it is ours.
		if !c.cleanup {
			return nil
		}
		return c.removeForSelector(ctx, service, reason, why)
	}

	logger.V(5).Info("About to update endpoints for service", "service", klog.KObj(service))
	pods, err := c.podLister.Pods(service.Namespace).List(labels.Set(service.Spec.Selector).AsSelectorPreValidated())
	if err != nil {
		return fmt.Errorf("listing Pods of Service %s: %w", key, err)
	}

	// Computed even when the sync turns out to be a no-op, so that the
	// tracker's state follows the Pods (KCM).
	triggerTime := c.triggerTimes.ComputeEndpointLastChangeTriggerTime(namespace, service, pods)

	subsets, totalReady, totalNotReady := DesiredSubsets(ctx, service, pods)

	current, err := c.endpointsLister.Endpoints(service.Namespace).Get(service.Name)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("getting Endpoints %s: %w", key, err)
		}
		current = &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: service.Name, Namespace: service.Namespace}}
	} else if c.staleEndpoints.IsStale(current) {
		return fmt.Errorf("%w, resource version %s already processed for endpoints %s", ErrStaleInformerCache, current.ResourceVersion, key)
	}

	create := current.ResourceVersion == ""
	// Compare the sorted subsets and labels, ignoring the resourceVersion of
	// targetRefs (Pod updates that do not matter); retry the comparison on
	// the re-packed current subsets, which may come from another hash
	// (https://issues.k8s.io/129652).
	if !create &&
		(subsetsEqualIgnoreResourceVersion(current.Subsets, subsets) ||
			subsetsEqualIgnoreResourceVersion(endpointsmirroring.RepackSubsets(current.Subsets), subsets)) &&
		labelsCorrectForEndpoints(current.Labels, service.Labels) &&
		capacityAnnotationSetCorrectly(current.Annotations, current.Subsets) {
		logger.V(5).Info("endpoints are equal, skipping update", "service", klog.KObj(service))
		return nil
	}

	desired := current.DeepCopy()
	desired.Subsets = subsets
	desired.Labels = map[string]string{}
	for k, v := range service.Labels {
		desired.Labels[k] = v
	}
	if desired.Annotations == nil {
		desired.Annotations = map[string]string{}
	}
	if !triggerTime.IsZero() {
		desired.Annotations[corev1.EndpointsLastChangeTriggerTime] = triggerTime.UTC().Format(time.RFC3339Nano)
	} else {
		delete(desired.Annotations, corev1.EndpointsLastChangeTriggerTime)
	}
	if TruncateEndpoints(desired) {
		desired.Annotations[corev1.EndpointsOverCapacity] = OverCapacityTruncated
	} else {
		delete(desired.Annotations, corev1.EndpointsOverCapacity)
	}
	if !isServiceIPSet(service) {
		desired.Labels[corev1.IsHeadlessService] = ""
	} else {
		delete(desired.Labels, corev1.IsHeadlessService)
	}
	desired.Labels[wellknown.LabelEndpointsManagedBy] = wellknown.EndpointsControllerName

	logger.V(4).Info("Update endpoints", "service", klog.KObj(service), "readyEndpoints", totalReady, "notreadyEndpoints", totalNotReady)
	var updated *corev1.Endpoints
	if create {
		_, err = c.client.CoreV1().Endpoints(service.Namespace).Create(ctx, desired, metav1.CreateOptions{})
	} else {
		updated, err = c.client.CoreV1().Endpoints(service.Namespace).Update(ctx, desired, metav1.UpdateOptions{})
	}
	if err != nil {
		if create && apierrors.IsForbidden(err) {
			logger.V(5).Info("Forbidden from creating endpoints", "error", err)
			// If the namespace is terminating, creates will keep failing:
			// drop the item.
			if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
				return nil
			}
		}
		if create {
			c.events.Eventf(desired, corev1.EventTypeWarning, ReasonFailedToCreateEndpoint, "Failed to create endpoint for service %v/%v: %v", service.Namespace, service.Name, err)
		} else {
			c.events.Eventf(desired, corev1.EventTypeWarning, ReasonFailedToUpdateEndpoint, "Failed to update endpoint %v/%v: %v", service.Namespace, service.Name, err)
		}
		return err
	}
	// Remember the replaced version as stale only when the update produced
	// a new one: a no-op update returns the same resourceVersion, and
	// recording it would make every later sync fail (E5,
	// https://issues.k8s.io/127370).
	if updated != nil && updated.ResourceVersion != current.ResourceVersion {
		c.staleEndpoints.Stale(current)
	}
	return nil
}

// DesiredSubsets returns the re-packed subsets KCM's Endpoints controller
// writes for service and pods (the selected Pods), and the number of ready
// and not-ready addresses before re-packing (KCM syncService,
// podToEndpointAddressForService, addEndpointSubset). Pods are taken in
// namespace/name order; the result does not depend on their order. Neither
// input is modified.
func DesiredSubsets(ctx context.Context, service *corev1.Service, pods []*corev1.Pod) (subsets []corev1.EndpointSubset, totalReady, totalNotReady int) {
	logger := klog.FromContext(ctx)
	sorted := append([]*corev1.Pod(nil), pods...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Namespace != sorted[j].Namespace {
			return sorted[i].Namespace < sorted[j].Namespace
		}
		return sorted[i].Name < sorted[j].Name
	})
	subsets = []corev1.EndpointSubset{}
	pnra := service.Spec.PublishNotReadyAddresses
	for _, pod := range sorted {
		if pod == nil || !podendpoint.ShouldPodBeInEndpoints(pod, pnra) {
			continue
		}
		epa, err := podToEndpointAddressForService(service, pod)
		if err != nil {
			// Happens when some nodes are dual-stack and some not, e.g.
			// during an upgrade.
			logger.V(2).Info("Failed to find endpoint for service with ClusterIP on pod with error", "service", klog.KObj(service), "clusterIP", service.Spec.ClusterIP, "pod", klog.KObj(pod), "error", err)
			continue
		}
		if podendpoint.ShouldSetHostname(pod, service) {
			epa.Hostname = pod.Spec.Hostname
		}
		ready := pnra || podendpoint.IsPodReady(pod)
		// Allow a headless Service not to have ports.
		if len(service.Spec.Ports) == 0 {
			if service.Spec.ClusterIP == corev1.ClusterIPNone {
				subsets = append(subsets, newSubset(*epa, nil, ready))
				if ready {
					totalReady++
				} else {
					totalNotReady++
				}
			}
			continue
		}
		for i := range service.Spec.Ports {
			sp := &service.Spec.Ports[i]
			portNum, err := podendpoint.FindPort(pod, sp)
			if err != nil {
				logger.V(4).Info("Failed to find port for service", "service", klog.KObj(service), "error", err)
				continue
			}
			epp := &corev1.EndpointPort{Name: sp.Name, Port: portNum, Protocol: sp.Protocol, AppProtocol: sp.AppProtocol}
			subsets = append(subsets, newSubset(*epa, epp, ready))
			if ready {
				totalReady++
			} else {
				totalNotReady++
			}
		}
	}
	return endpointsmirroring.RepackSubsets(subsets), totalReady, totalNotReady
}

// newSubset is KCM's addEndpointSubset for one address and port.
func newSubset(epa corev1.EndpointAddress, epp *corev1.EndpointPort, ready bool) corev1.EndpointSubset {
	ports := []corev1.EndpointPort{}
	if epp != nil {
		ports = append(ports, *epp)
	}
	if ready {
		return corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{epa}, Ports: ports}
	}
	return corev1.EndpointSubset{NotReadyAddresses: []corev1.EndpointAddress{epa}, Ports: ports}
}

// podToEndpointAddressForService is KCM's: the Pod IP of the Service's
// first IP family (spec.ipFamilies[0]; without families, the ClusterIP's,
// else the Pod IP's), re-stringified, with nodeName and a targetRef to the
// Pod.
func podToEndpointAddressForService(svc *corev1.Service, pod *corev1.Pod) (*corev1.EndpointAddress, error) {
	ipFamily := corev1.IPv4Protocol
	switch {
	case len(svc.Spec.IPFamilies) > 0:
		ipFamily = svc.Spec.IPFamilies[0]
	case len(svc.Spec.ClusterIP) > 0 && svc.Spec.ClusterIP != corev1.ClusterIPNone:
		if netutils.IsIPv6String(svc.Spec.ClusterIP) {
			ipFamily = corev1.IPv6Protocol
		}
	case netutils.IsIPv6String(pod.Status.PodIP):
		ipFamily = corev1.IPv6Protocol
	}
	wantIPv6 := ipFamily == corev1.IPv6Protocol
	endpointIP := ""
	for _, podIP := range pod.Status.PodIPs {
		ip := netutils.ParseIPSloppy(podIP.IP)
		if wantIPv6 == netutils.IsIPv6(ip) {
			endpointIP = ip.String()
			break
		}
	}
	if endpointIP == "" {
		return nil, fmt.Errorf("failed to find a matching endpoint for service %v", svc.Name)
	}
	nodeName := pod.Spec.NodeName
	return &corev1.EndpointAddress{
		IP:       endpointIP,
		NodeName: &nodeName,
		TargetRef: &corev1.ObjectReference{
			Kind:      "Pod",
			Namespace: pod.Namespace,
			Name:      pod.Name,
			UID:       pod.UID,
		},
	}, nil
}

// isServiceIPSet reports whether the Service has a cluster IP (KCM
// pkg/apis/core/v1/helper IsServiceIPSet).
func isServiceIPSet(svc *corev1.Service) bool {
	return svc.Spec.ClusterIP != corev1.ClusterIPNone && svc.Spec.ClusterIP != ""
}

// capacityAnnotationSetCorrectly reports whether the over-capacity
// annotation is right: false when subsets exceed MaxCapacity (they must be
// truncated), else whether the annotation is absent (KCM).
func capacityAnnotationSetCorrectly(annotations map[string]string, subsets []corev1.EndpointSubset) bool {
	n := 0
	for _, s := range subsets {
		n += len(s.Addresses) + len(s.NotReadyAddresses)
	}
	if n > MaxCapacity {
		return false
	}
	_, ok := annotations[corev1.EndpointsOverCapacity]
	return !ok
}

// TruncateEndpoints truncates ep.Subsets to MaxCapacity addresses, best
// effort in proportion to each subset's share and ready addresses first:
// when there are more than MaxCapacity ready addresses, every not-ready
// address goes and the ready ones are cut per subset; otherwise only
// not-ready ones are cut. It reports whether it truncated. ep must be a
// copy the caller owns (KCM truncateEndpoints).
func TruncateEndpoints(ep *corev1.Endpoints) bool {
	totalReady, totalNotReady := 0, 0
	for _, s := range ep.Subsets {
		totalReady += len(s.Addresses)
		totalNotReady += len(s.NotReadyAddresses)
	}
	if totalReady+totalNotReady <= MaxCapacity {
		return false
	}
	truncateReady := false
	maxN := MaxCapacity - totalReady
	numTotal := totalNotReady
	if totalReady > MaxCapacity {
		truncateReady = true
		maxN = MaxCapacity
		numTotal = totalReady
	}
	canBeAdded := maxN
	for i := range ep.Subsets {
		s := ep.Subsets[i]
		numInSubset := len(s.Addresses)
		if !truncateReady {
			numInSubset = len(s.NotReadyAddresses)
		}
		// Proportional share, rounded up; the last subsets may get less.
		toBeAdded := int(math.Ceil((float64(numInSubset) / float64(numTotal)) * float64(maxN)))
		if toBeAdded > canBeAdded {
			toBeAdded = canBeAdded
		}
		if truncateReady {
			s.Addresses = addressSubset(s.Addresses, toBeAdded)
			s.NotReadyAddresses = []corev1.EndpointAddress{}
			canBeAdded -= len(s.Addresses)
		} else {
			s.NotReadyAddresses = addressSubset(s.NotReadyAddresses, toBeAdded)
			canBeAdded -= len(s.NotReadyAddresses)
		}
		ep.Subsets[i] = s
	}
	return true
}

func addressSubset(addresses []corev1.EndpointAddress, maxNum int) []corev1.EndpointAddress {
	if len(addresses) <= maxNum {
		return addresses
	}
	return addresses[0:maxNum]
}

// semanticIgnoreResourceVersion is semantic equality that ignores the
// resourceVersion of object references (KCM).
var semanticIgnoreResourceVersion = conversion.EqualitiesOrDie(
	func(a, b corev1.ObjectReference) bool {
		a.ResourceVersion = ""
		b.ResourceVersion = ""
		return a == b
	},
)

func subsetsEqualIgnoreResourceVersion(a, b []corev1.EndpointSubset) bool {
	return semanticIgnoreResourceVersion.DeepEqual(a, b)
}

// labelsCorrectForEndpoints reports whether epLabels carry this
// controller's managed-by label and otherwise equal svcLabels, ignoring
// service.kubernetes.io/headless (KCM).
func labelsCorrectForEndpoints(epLabels, svcLabels map[string]string) bool {
	if epLabels[wellknown.LabelEndpointsManagedBy] != wellknown.EndpointsControllerName {
		return false
	}
	skipped := 0
	for k, v := range epLabels {
		if k == corev1.IsHeadlessService || k == wellknown.LabelEndpointsManagedBy {
			skipped++
		} else if sv, exists := svcLabels[k]; !exists || sv != v {
			return false
		}
	}
	return len(svcLabels) == len(epLabels)-skipped
}

// deleteOwnEndpoints deletes the Endpoints object namespace/name if the
// cache shows it carrying this controller's managed-by label, with a UID
// precondition so that an object recreated in the meantime (by anyone) is
// never removed; NotFound counts as deleted. An Endpoints object without the
// label is left alone (spec O3, E9). It reports whether it deleted one.
func (c *Controller) deleteOwnEndpoints(ctx context.Context, namespace, name string) (bool, error) {
	ep, err := c.endpointsLister.Endpoints(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("getting Endpoints %s/%s: %w", namespace, name, err)
	}
	if !ownedByUs(ep) {
		klog.FromContext(ctx).V(4).Info("Leaving Endpoints not managed by this controller", "endpoints", klog.KObj(ep), "managedBy", ep.Labels[wellknown.LabelEndpointsManagedBy])
		return false, nil
	}
	uid := ep.UID
	err = c.client.CoreV1().Endpoints(namespace).Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) {
		return false, fmt.Errorf("deleting Endpoints %s/%s: %w", namespace, name, err)
	}
	klog.FromContext(ctx).V(2).Info("Deleted Endpoints", "endpoints", klog.KObj(ep))
	return err == nil, nil
}

// handOver deletes the Endpoints object this controller wrote for a Service
// delegated to another controller (KEP-4770 rules (a)3, (a)4), forgets the
// Service, and records a Normal EndpointsHandedOver event when it deleted
// one.
func (c *Controller) handOver(ctx context.Context, svc *corev1.Service) error {
	deleted, err := c.deleteOwnEndpoints(ctx, svc.Namespace, svc.Name)
	if err != nil {
		return err
	}
	c.triggerTimes.DeleteService(svc.Namespace, svc.Name)
	c.staleEndpoints.Delete(svc.Namespace, svc.Name)
	if deleted {
		target := svc.Labels[wellknown.LabelEndpointControllerName]
		klog.FromContext(ctx).Info("Deleted Endpoints of a Service delegated to another endpoint controller", "service", klog.KObj(svc), "delegatedTo", target)
		c.events.Eventf(svc, corev1.EventTypeNormal, ReasonHandedOver,
			"Deleted Endpoints managed by %s: the Service is delegated to endpoint controller %q by label %s",
			wellknown.EndpointsControllerName, target, wellknown.LabelEndpointControllerName)
	}
	return nil
}

// removeForSelector deletes the Endpoints object this controller wrote for
// a Service that selects no Pods any more (deleteOwnEndpoints: only with
// this controller's managed-by label, UID precondition), forgets the
// Service, counts the deletion in the removal metric and records a Normal
// EndpointsRemoved event naming why (reason and why from
// selectorless.SelectsNoPods).
func (c *Controller) removeForSelector(ctx context.Context, svc *corev1.Service, reason, why string) error {
	deleted, err := c.deleteOwnEndpoints(ctx, svc.Namespace, svc.Name)
	if err != nil {
		return err
	}
	c.triggerTimes.DeleteService(svc.Namespace, svc.Name)
	c.staleEndpoints.Delete(svc.Namespace, svc.Name)
	if deleted {
		c.removals.Add(reason, 1)
		klog.FromContext(ctx).Info("Deleted Endpoints of a Service that selects no Pods", "service", klog.KObj(svc), "reason", reason)
		c.events.Eventf(svc, corev1.EventTypeNormal, ReasonEndpointsRemoved,
			"Deleted Endpoints managed by %s: %s (%s)", wellknown.EndpointsControllerName, why, selectorless.UpstreamIssue)
	}
	return nil
}

// Keys returns, sorted, the namespace/name keys SyncAll syncs: every
// Service in the cache and every Endpoints object carrying this
// controller's managed-by label.
func (c *Controller) Keys() ([]string, error) {
	services, err := c.serviceLister.List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("listing Services: %w", err)
	}
	eps, err := c.endpointsLister.List(labels.Set{wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}.AsSelectorPreValidated())
	if err != nil {
		return nil, fmt.Errorf("listing Endpoints: %w", err)
	}
	return controllerkit.SortedKeys(controllerkit.ObjectKeys(services), controllerkit.ObjectKeys(eps)), nil
}

// SyncAll is the offline renderer's hook: it calls SyncService once for
// every key of Keys, in order, reading only the informer caches; it never
// waits for them and starts no goroutine. It syncs every key even when some
// fail and returns the failures joined.
func (c *Controller) SyncAll(ctx context.Context) error {
	return controllerkit.SyncAll(ctx, c.Keys, c.SyncService)
}
