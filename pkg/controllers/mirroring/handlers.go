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
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/policy/delegation"
)

// Event handlers only compute keys and queue them; syncs re-read the
// listers (level-based). None of them modifies the objects it is given.
// They are KCM's (endpointslicemirroring_controller.go, rule b11) plus the
// KEP-4770 label on Services.

// ShouldMirror reports whether an Endpoints object may be mirrored at all:
// it is not nil, its label endpointslice.kubernetes.io/skip-mirror is not
// "true", and it has no leader-election annotation
// control-plane.alpha.kubernetes.io/leader (rule b1; KCM shouldMirror,
// utils.go skipMirror and hasLeaderElection). Whether its Service exists,
// has no selector and is not delegated is checked by the sync.
func ShouldMirror(ep *corev1.Endpoints) bool {
	if ep == nil || ep.Labels[discovery.LabelSkipMirror] == "true" {
		return false
	}
	_, leader := ep.Annotations[resourcelock.LeaderElectionRecordAnnotationKey]
	return !leader
}

// queueKey queues the namespace/name key of obj (also of a tombstone) at
// once.
func (c *Controller) queueKey(obj any) { controllerkit.QueueKey(c.queue, obj, true) }

// onEndpointsAdd queues a mirrorable Endpoints object (KCM onEndpointsAdd).
func (c *Controller) onEndpointsAdd(logger klog.Logger, obj any) {
	ep, ok := obj.(*corev1.Endpoints)
	if !ok || ep == nil {
		utilruntime.HandleError(fmt.Errorf("onEndpointsAdd() expected type v1.Endpoints, got %T", obj))
		return
	}
	if !ShouldMirror(ep) {
		logger.V(5).Info("Skipping mirroring", "endpoints", klog.KObj(ep))
		return
	}
	c.queueKey(ep)
}

// onEndpointsUpdate queues the Endpoints object when its old or its new
// version is mirrorable, so that a skip-mirror label or leader annotation
// being added deletes the mirrored slices (KCM onEndpointsUpdate).
func (c *Controller) onEndpointsUpdate(logger klog.Logger, oldObj, curObj any) {
	prev, ok1 := oldObj.(*corev1.Endpoints)
	cur, ok2 := curObj.(*corev1.Endpoints)
	if !ok1 || !ok2 || prev == nil || cur == nil {
		utilruntime.HandleError(fmt.Errorf("onEndpointsUpdate() expected type v1.Endpoints, got %T, %T", oldObj, curObj))
		return
	}
	if !ShouldMirror(cur) && !ShouldMirror(prev) {
		logger.V(5).Info("Skipping mirroring", "endpoints", klog.KObj(cur))
		return
	}
	c.queueKey(cur)
}

// onEndpointsDelete queues a mirrorable Endpoints object that was deleted,
// so that its mirrored slices are deleted (KCM onEndpointsDelete).
func (c *Controller) onEndpointsDelete(logger klog.Logger, obj any) {
	ep, ok := controllerkit.FromDeleteAction[*corev1.Endpoints](obj, "an Endpoints resource")
	if !ok || ep == nil {
		return
	}
	if !ShouldMirror(ep) {
		logger.V(5).Info("Skipping mirroring", "endpoints", klog.KObj(ep))
		return
	}
	c.queueKey(obj)
}

// onServiceAdd queues the same-named Endpoints of a selectorless Service
// (KCM onServiceAdd), which also covers Endpoints written before their
// Service (case 17) and, for a delegated Service, the deletion of slices
// mirrored before the label came.
func (c *Controller) onServiceAdd(obj any) {
	svc, ok := obj.(*corev1.Service)
	if !ok || svc == nil {
		utilruntime.HandleError(fmt.Errorf("onServiceAdd() expected type v1.Service, got %T", obj))
		return
	}
	if svc.Spec.Selector == nil {
		c.queueKey(svc)
	}
}

// onServiceUpdate queues the same-named Endpoints when the Service's
// selector changed between nil and non-nil (KCM onServiceUpdate; case 01)
// or when the Service became or stopped being delegated by the KEP-4770
// label (rules (a)4, (a)5, (a)8).
func (c *Controller) onServiceUpdate(oldObj, curObj any) {
	prev, ok1 := oldObj.(*corev1.Service)
	cur, ok2 := curObj.(*corev1.Service)
	if !ok1 || !ok2 || prev == nil || cur == nil {
		utilruntime.HandleError(fmt.Errorf("onServiceUpdate() expected type v1.Service, got %T, %T", oldObj, curObj))
		return
	}
	if (cur.Spec.Selector == nil) != (prev.Spec.Selector == nil) || c.delegated(cur) != c.delegated(prev) {
		c.queueKey(cur)
	}
}

// onServiceDelete queues the same-named Endpoints of a deleted selectorless
// Service (KCM onServiceDelete), whose mirrored slices are then deleted.
func (c *Controller) onServiceDelete(obj any) {
	svc, ok := controllerkit.FromDeleteAction[*corev1.Service](obj, "a Service resource")
	if !ok || svc == nil {
		return
	}
	if svc.Spec.Selector == nil {
		c.queueKey(obj)
	}
}

// delegated reports whether svc is left to another controller (KEP-4770):
// labelled, with the gate on, with a value that is neither this
// controller's name nor one of Options.AcceptedControllerNames.
func (c *Controller) delegated(svc *corev1.Service) bool {
	return delegation.DelegatedExcept(svc, c.opts.ControllerName, c.gate, c.opts.AcceptedControllerNames)
}

// onEndpointSliceAdd queues the slice's Endpoints when the slice carries
// this controller's managed-by value and is not the echo of its own write
// (KCM onEndpointSliceAdd).
func (c *Controller) onEndpointSliceAdd(obj any) {
	slice, ok := obj.(*discovery.EndpointSlice)
	if !ok || slice == nil {
		utilruntime.HandleError(fmt.Errorf("onEndpointSliceAdd() expected type discovery.EndpointSlice, got %T", obj))
		return
	}
	if c.reconciler.SliceAdded(slice) {
		c.queueEndpointsForEndpointSlice(slice)
	}
}

// onEndpointSliceUpdate queues the slice's Endpoints when its
// kubernetes.io/service-name label changed (both names), when its
// managed-by value changed to or from this controller, or when it carries
// this controller's managed-by value and is not the echo of its own write
// (KCM onEndpointSliceUpdate).
func (c *Controller) onEndpointSliceUpdate(logger klog.Logger, oldObj, curObj any) {
	prev, ok1 := oldObj.(*discovery.EndpointSlice)
	cur, ok2 := curObj.(*discovery.EndpointSlice)
	if !ok1 || !ok2 || prev == nil || cur == nil {
		utilruntime.HandleError(fmt.Errorf("onEndpointSliceUpdate() expected type discovery.EndpointSlice, got %T, %T", oldObj, curObj))
		return
	}
	// The generation does not change when labels change; the controller
	// never changes the service-name label, but users might.
	svcName := cur.Labels[discovery.LabelServiceName]
	prevSvcName := prev.Labels[discovery.LabelServiceName]
	if svcName != prevSvcName {
		logger.Info("LabelServiceName changed", "labelServiceName", discovery.LabelServiceName, "oldName", prevSvcName, "newName", svcName, "endpointSlice", klog.KObj(cur))
		c.queueEndpointsForEndpointSlice(cur)
		c.queueEndpointsForEndpointSlice(prev)
		return
	}
	if c.reconciler.SliceUpdated(prev, cur) {
		c.queueEndpointsForEndpointSlice(cur)
	}
}

// onEndpointSliceDelete queues the slice's Endpoints when a slice of this
// controller that it wrote, or found matching and tracked, and did not
// delete itself disappears (KCM onEndpointSliceDelete).
func (c *Controller) onEndpointSliceDelete(obj any) {
	slice, ok := controllerkit.FromDeleteAction[*discovery.EndpointSlice](obj, "an EndpointSlice resource")
	if !ok || slice == nil {
		return
	}
	if c.reconciler.SliceDeleted(slice) {
		c.queueEndpointsForEndpointSlice(slice)
	}
}

// queueEndpointsForEndpointSlice queues the Endpoints named by the slice's
// kubernetes.io/service-name label after
// Options.MirroringEndpointSliceUpdatesBatchPeriod (KCM
// queueEndpointsForEndpointSlice).
func (c *Controller) queueEndpointsForEndpointSlice(slice *discovery.EndpointSlice) {
	name := slice.Labels[discovery.LabelServiceName]
	if name == "" {
		utilruntime.HandleError(fmt.Errorf("EndpointSlice %s/%s is missing the %s label", slice.Namespace, slice.Name, discovery.LabelServiceName))
		return
	}
	c.queue.AddAfter(slice.Namespace+"/"+name, c.opts.MirroringEndpointSliceUpdatesBatchPeriod)
}
