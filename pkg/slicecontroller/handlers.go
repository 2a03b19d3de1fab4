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
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// Event handlers only compute keys and queue them; syncs re-read the
// listers. None of them modifies the objects it is given.

// onServiceEvent queues the Service at once, on add, update and delete
// (KCM onServiceUpdate and onServiceDelete, C5). The drop-in queues every
// Service (label changes, including the KEP-4770 label being added or
// removed, arrive as updates); a custom controller only a Service labelled
// for it now or before an update (so that removing or changing the label
// releases the slices). old is nil for add and delete events.
//
// With an incremental source, an update with an unchanged resourceVersion
// (a periodic resync) makes the Service's next sync use the full planner
// (InvalidateResync), as every sync does without the index.
func (c *Controller) onServiceEvent(old, cur any) {
	if !c.own.dropIn && !c.own.Owns(serviceFromObject(cur)) && !c.own.Owns(serviceFromObject(old)) {
		return
	}
	if c.indexes != nil && old != nil {
		if o, n := serviceFromObject(old), serviceFromObject(cur); o != nil && n != nil && o.ResourceVersion == n.ResourceVersion {
			c.indexes.invalidate(n.Namespace+"/"+n.Name, InvalidateResync)
		}
	}
	controllerkit.QueueKey(c.serviceQueue, cur, false)
}

// serviceFromObject returns the Service of an event, also from a
// tombstone, or nil.
func serviceFromObject(obj any) *corev1.Service {
	switch o := obj.(type) {
	case *corev1.Service:
		return o
	case cache.DeletedFinalStateUnknown:
		svc, _ := o.Obj.(*corev1.Service)
		return svc
	}
	return nil
}

// podFromObject returns the Pod of an event, also from a tombstone and from
// the Pod transform's compact record (podcache.FromObject), or nil.
func podFromObject(obj any) *corev1.Pod {
	pod, _ := podcache.FromObject(obj)
	return pod
}

// onPodUpdate queues the Pod's projection key on add, update and delete
// when something an endpoint depends on changed: KCM's fields
// (servicepods.PodUpdateProjectionKey, C6), or what the Source's
// PodUpdateMatters watches (for instance the network-status annotation).
// With an incremental source, every other update that changes the
// resourceVersion is queued markOnly: the Pod is marked changed in its
// Services' indexes without syncing them, so that a field KCM does not
// sync for (the phase, for instance) is read again at the next sync, as
// the full path reads every Pod.
func (c *Controller) onPodUpdate(old, cur any) {
	name := ""
	if p := podFromObject(cur); p != nil {
		name = p.Name
	} else if p := podFromObject(old); p != nil {
		name = p.Name
	}
	if key := servicepods.PodUpdateProjectionKey(old, cur); key != nil {
		c.podQueue.Add(&podKey{PodProjectionKey: key, pod: name})
		return
	}
	if old == nil || cur == nil {
		return
	}
	oldPod, curPod := podFromObject(old), podFromObject(cur)
	if oldPod == nil || curPod == nil || oldPod.ResourceVersion == curPod.ResourceVersion {
		return
	}
	key := &servicepods.PodProjectionKey{Namespace: curPod.Namespace, Labels: labels.Set(curPod.Labels)}
	if c.opts.Source.PodUpdateMatters(oldPod, curPod) {
		c.podQueue.Add(&podKey{PodProjectionKey: key, pod: name})
		return
	}
	if c.indexes != nil {
		c.podQueue.Add(&podKey{PodProjectionKey: key, pod: name, markOnly: true})
	}
}

// podSelectorOf is the Pod selector of svc for the Pod → Services lookup
// (selectorindex.SelectorFunc), nil when svc is not this controller's
// (Ownership.Owns; Pod churn of a Service handed to another controller
// queues nothing, KEP-4770 rule (a)7) or selects no Pod: KCM's
// spec.selector (a nil selector selects nothing, KCM
// util.GetServicesToUpdate) or, with Options.SelectorlessAnnotation,
// PodSelector, so that Services in the selectorless form match through
// their slicekit.dev/selector annotation (one that does not parse matches
// no Pod; the Service's sync reports the problem).
func (c *Controller) podSelectorOf(svc *corev1.Service) labels.Selector {
	if !c.own.Owns(svc) {
		return nil
	}
	if !c.selectorless {
		if svc.Spec.Selector == nil {
			return nil
		}
		return labels.ValidatedSetSelector(svc.Spec.Selector)
	}
	sel, ok, _ := PodSelector(svc)
	if !ok {
		return nil
	}
	return sel
}

// matchServices returns the keys of this controller's Services in
// namespace whose Pod selector (podSelectorOf) matches set, from the
// selector index of the Service informer (selectorindex.Services): the
// cost follows the Services filed under the labels, not the namespace's
// Services.
func (c *Controller) matchServices(namespace string, set labels.Set) (sets.Set[string], error) {
	return c.services.Match(namespace, set)
}

// managedByUs reports whether slice carries this controller's managed-by
// value.
func (c *Controller) managedByUs(slice *discovery.EndpointSlice) bool {
	return slice.Labels[discovery.LabelManagedBy] == c.opts.ManagedBy
}

// onEndpointSliceAdd queues the slice's Service when the slice carries this
// controller's managed-by value and is not the echo of its own write
// (tracker ShouldSync; KCM onEndpointSliceAdd, C7), and checks it for
// writes by other field managers (Options.DetectConflicts).
func (c *Controller) onEndpointSliceAdd(logger klog.Logger, obj any) {
	slice, ok := obj.(*discovery.EndpointSlice)
	if !ok || slice == nil {
		utilruntime.HandleError(fmt.Errorf("invalid EndpointSlice provided to onEndpointSliceAdd(): %T", obj))
		return
	}
	c.conflicts.observe(logger, nil, slice)
	if c.managedByUs(slice) && c.tracker.ShouldSync(slice) {
		c.queueServiceForEndpointSlice(slice)
	}
}

// onEndpointSliceUpdate queues the Service(s) of the slice when its
// service-name label changed, when its managed-by value changed to or from
// this controller's, or when it is this controller's and not the echo of
// its own write (KCM C7); it also checks for foreign writes. The drop-in
// queues both Services on a service-name change whoever manages the slice,
// as KCM does; a custom controller only for its own slices.
func (c *Controller) onEndpointSliceUpdate(logger klog.Logger, oldObj, curObj any) {
	prev, ok1 := oldObj.(*discovery.EndpointSlice)
	cur, ok2 := curObj.(*discovery.EndpointSlice)
	if !ok1 || !ok2 || prev == nil || cur == nil {
		utilruntime.HandleError(fmt.Errorf("invalid EndpointSlice provided to onEndpointSliceUpdate(): %T, %T", oldObj, curObj))
		return
	}
	c.conflicts.observe(logger, prev, cur)
	// The generation does not change when labels change; the controller
	// never changes the service-name label, but users might.
	svcName := cur.Labels[discovery.LabelServiceName]
	prevSvcName := prev.Labels[discovery.LabelServiceName]
	managedByChanged := c.managedByUs(prev) != c.managedByUs(cur)
	if c.managedByUs(prev) && (svcName != prevSvcName || managedByChanged) {
		// The slice left this controller's slices of the Service it was
		// tracked under. Forget it there, or every later sync of that
		// Service would find a tracked slice missing from its list and
		// fail as stale (KCM does not do this and stays stuck until
		// restarted).
		c.tracker.HandleDeletion(prev)
	}
	if svcName != prevSvcName {
		if c.own.dropIn {
			logger.Info("label changed", "label", discovery.LabelServiceName, "oldService", prevSvcName, "newService", svcName, "endpointSlice", klog.KObj(cur))
			c.queueServiceForEndpointSlice(cur)
			c.queueServiceForEndpointSlice(prev)
		} else if c.managedByUs(prev) || c.managedByUs(cur) {
			logger.V(2).Info("label changed", "label", discovery.LabelServiceName, "oldService", prevSvcName, "newService", svcName, "endpointSlice", klog.KObj(cur))
			c.queueServiceForEndpointSlice(cur)
			c.queueServiceForEndpointSlice(prev)
		}
		return
	}
	if managedByChanged || (c.managedByUs(cur) && c.tracker.ShouldSync(cur)) {
		c.queueServiceForEndpointSlice(cur)
	}
}

// onEndpointSliceDelete queues the Service when a slice of this controller
// that it wrote and did not delete itself disappears (KCM
// onEndpointSliceDelete with tracker HandleDeletion, C7, E17).
func (c *Controller) onEndpointSliceDelete(obj any) {
	slice, ok := controllerkit.FromDeleteAction[*discovery.EndpointSlice](obj, "an EndpointSlice")
	if !ok {
		return
	}
	c.conflicts.forget(slice.UID)
	if c.managedByUs(slice) && c.tracker.Has(slice) && !c.tracker.HandleDeletion(slice) {
		c.queueServiceForEndpointSlice(slice)
	}
}

// queueServiceForEndpointSlice queues the slice's Service after
// max(endpointSliceChangeMinSyncDelay, BatchPeriod) (KCM
// queueServiceForEndpointSlice).
func (c *Controller) queueServiceForEndpointSlice(slice *discovery.EndpointSlice) {
	name, ok := slice.Labels[discovery.LabelServiceName]
	if !ok || name == "" {
		// KCM's ServiceControllerKey fails the same way.
		utilruntime.HandleError(fmt.Errorf("EndpointSlice %s/%s is missing the %s label", slice.Namespace, slice.Name, discovery.LabelServiceName))
		return
	}
	c.serviceQueue.AddAfter(slice.Namespace+"/"+name, max(endpointSliceChangeMinSyncDelay, c.opts.BatchPeriod))
}

// onNodeUpdate queues a topology refresh when a Node's readiness or zone
// label changed (KCM updateNode, C8).
func (c *Controller) onNodeUpdate(oldObj, curObj any) {
	oldNode, ok1 := oldObj.(*corev1.Node)
	curNode, ok2 := curObj.(*corev1.Node)
	if !ok1 || !ok2 {
		return
	}
	// The zone label may be added by a cloud provider after the Node is
	// created.
	if isNodeReady(oldNode) != isNodeReady(curNode) ||
		oldNode.Labels[corev1.LabelTopologyZone] != curNode.Labels[corev1.LabelTopologyZone] {
		c.topologyQueue.Add(topologyQueueItemKey)
	}
}

// checkNodeTopologyDistribution feeds the Nodes to the topology cache and
// queues the Services whose hints are now overloaded (KCM
// checkNodeTopologyDistribution, C8). Services that are not this
// controller's have no hints in the cache (removed on release), so they are
// not queued.
func (c *Controller) checkNodeTopologyDistribution(ctx context.Context) {
	if c.topologyCache == nil {
		return
	}
	logger := klog.FromContext(ctx)
	nodes, err := c.nodeLister.List(labels.Everything())
	if err != nil {
		logger.Error(err, "Error listing Nodes")
		return
	}
	c.topologyCache.SetNodes(logger, nodes)
	for _, key := range c.topologyCache.GetOverloadedServices() {
		logger.V(2).Info("Queuing Service after Node change due to overloading", c.logKV("key", key)...)
		c.serviceQueue.Add(key)
	}
}

// isNodeReady reports whether node's Ready condition is True.
func isNodeReady(node *corev1.Node) bool {
	for _, cond := range node.Status.Conditions {
		if cond.Type == corev1.NodeReady {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}
