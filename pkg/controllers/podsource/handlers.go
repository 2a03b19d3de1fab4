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
	"fmt"

	"github.com/slicekit/slicekit/pkg/source/servicepods"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// Event handlers only compute keys and queue them; syncs re-read the
// listers. None of them modifies the objects it is given.

// onServiceEvent queues the Service at once when it is labelled for this
// controller now or was before an update (so that removing or changing the
// label releases the slices). old is nil for add and delete events.
func (c *Controller) onServiceEvent(old, cur any) {
	if !c.handles(serviceFromObject(cur)) && !c.handles(serviceFromObject(old)) {
		return
	}
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(cur)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("couldn't get key for object %+v: %w", cur, err))
		return
	}
	c.serviceQueue.Add(key)
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

// podFromObject returns the Pod of an event, also from a tombstone, or nil.
func podFromObject(obj any) *corev1.Pod {
	switch o := obj.(type) {
	case *corev1.Pod:
		return o
	case cache.DeletedFinalStateUnknown:
		pod, _ := o.Obj.(*corev1.Pod)
		return pod
	}
	return nil
}

// onPodUpdate queues the Pod's projection key on add, update and delete
// when something an endpoint depends on changed: KCM's fields
// (servicepods.PodUpdateProjectionKey, C6), or what the Source's
// PodChanged watches (for instance the network-status annotation).
func (c *Controller) onPodUpdate(old, cur any) {
	if key := servicepods.PodUpdateProjectionKey(old, cur); key != nil {
		c.podQueue.Add(key)
		return
	}
	if c.opts.Source.PodChanged == nil || old == nil || cur == nil {
		return
	}
	oldPod, curPod := podFromObject(old), podFromObject(cur)
	if oldPod == nil || curPod == nil || oldPod.ResourceVersion == curPod.ResourceVersion {
		return
	}
	if c.opts.Source.PodChanged(oldPod, curPod) {
		c.podQueue.Add(&servicepods.PodProjectionKey{Namespace: curPod.Namespace, Labels: labels.Set(curPod.Labels)})
	}
}

// servicesToUpdate returns the keys of this controller's Services to sync
// for a Pod projection key (servicepods.ServicesToUpdate, KCM
// util.GetServicesToUpdate), restricted to the Services labelled for this
// controller.
//
// Services in the selectorless form match through their slicekit.dev/selector
// annotation (PodSelector); a Service whose annotation does not parse
// matches no Pod (its sync reports the problem).
func (c *Controller) servicesToUpdate(key *servicepods.PodProjectionKey) (sets.Set[string], error) {
	return servicepods.ServicesToUpdateBySelector(c.serviceLister, key, func(svc *corev1.Service) labels.Selector {
		if !c.handles(svc) {
			return nil
		}
		sel, ok, _ := PodSelector(svc)
		if !ok {
			return nil
		}
		return sel
	})
}

// managedByUs reports whether slice carries this controller's managed-by
// value.
func (c *Controller) managedByUs(slice *discovery.EndpointSlice) bool {
	return slice.Labels[discovery.LabelManagedBy] == c.opts.ManagedBy
}

// onEndpointSliceAdd queues the slice's Service when the slice is this
// controller's and not the echo of its own write (KCM C7).
func (c *Controller) onEndpointSliceAdd(obj any) {
	slice, ok := obj.(*discovery.EndpointSlice)
	if !ok || slice == nil {
		utilruntime.HandleError(fmt.Errorf("invalid EndpointSlice provided to onEndpointSliceAdd(): %T", obj))
		return
	}
	if c.managedByUs(slice) && c.tracker.ShouldSync(slice) {
		c.queueServiceForEndpointSlice(slice)
	}
}

// onEndpointSliceUpdate queues the Service(s) of the slice when its
// service-name label changed, when its managed-by value changed to or from
// this controller's, or when it is this controller's and not the echo of
// its own write (KCM C7).
func (c *Controller) onEndpointSliceUpdate(logger klog.Logger, oldObj, curObj any) {
	prev, ok1 := oldObj.(*discovery.EndpointSlice)
	cur, ok2 := curObj.(*discovery.EndpointSlice)
	if !ok1 || !ok2 || prev == nil || cur == nil {
		utilruntime.HandleError(fmt.Errorf("invalid EndpointSlice provided to onEndpointSliceUpdate(): %T, %T", oldObj, curObj))
		return
	}
	svcName := cur.Labels[discovery.LabelServiceName]
	prevSvcName := prev.Labels[discovery.LabelServiceName]
	managedByChanged := c.managedByUs(prev) != c.managedByUs(cur)
	if c.managedByUs(prev) && (svcName != prevSvcName || managedByChanged) {
		// The slice left the slices tracked for its former Service.
		c.tracker.HandleDeletion(prev)
	}
	if svcName != prevSvcName {
		if c.managedByUs(prev) || c.managedByUs(cur) {
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
// that it wrote and did not delete disappears (KCM C7, E17).
func (c *Controller) onEndpointSliceDelete(obj any) {
	slice, ok := obj.(*discovery.EndpointSlice)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("couldn't get object from tombstone %#v", obj))
			return
		}
		if slice, ok = tombstone.Obj.(*discovery.EndpointSlice); !ok {
			utilruntime.HandleError(fmt.Errorf("tombstone contained object that is not an EndpointSlice: %#v", obj))
			return
		}
	}
	if c.managedByUs(slice) && c.tracker.Has(slice) && !c.tracker.HandleDeletion(slice) {
		c.queueServiceForEndpointSlice(slice)
	}
}

// queueServiceForEndpointSlice queues the slice's Service after
// max(1s, BatchPeriod) (KCM queueServiceForEndpointSlice).
func (c *Controller) queueServiceForEndpointSlice(slice *discovery.EndpointSlice) {
	name := slice.Labels[discovery.LabelServiceName]
	if name == "" {
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
	if isNodeReady(oldNode) != isNodeReady(curNode) ||
		oldNode.Labels[corev1.LabelTopologyZone] != curNode.Labels[corev1.LabelTopologyZone] {
		c.topologyQueue.Add(topologyQueueItemKey)
	}
}

// checkNodeTopologyDistribution feeds the Nodes to the topology cache and
// queues the Services whose hints are now overloaded (KCM, C8).
func (c *Controller) checkNodeTopologyDistribution(ctx context.Context) {
	logger := klog.FromContext(ctx)
	nodes, err := c.nodeLister.List(labels.Everything())
	if err != nil {
		logger.Error(err, "Error listing Nodes")
		return
	}
	c.topologyCache.SetNodes(logger, nodes)
	for _, key := range c.topologyCache.GetOverloadedServices() {
		c.serviceQueue.Add(key)
	}
}

func isNodeReady(node *corev1.Node) bool {
	for _, cond := range node.Status.Conditions {
		if cond.Type == corev1.NodeReady {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}
