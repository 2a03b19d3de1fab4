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
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/policy/delegation"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Event handlers only compute keys and queue them; syncs re-read the
// listers (level-based). None of them modifies the objects it is given.

// queueKey queues the namespace/name key of obj (also of a tombstone) at
// once: Service add, update and delete, and Endpoints delete (KCM
// onServiceUpdate, onServiceDelete, onEndpointsDelete). The KEP-4770 label
// being added to or removed from a Service arrives here as an update.
func (c *Controller) queueKey(obj any) { controllerkit.QueueKey(c.queue, obj, false) }

// onEndpointsAdd queues an Endpoints object (added, or updated) that
// carries this controller's managed-by label while its Service is missing,
// delegated, or (with SelectorRemovalCleanup) selects no Pods, so that it
// is deleted. This replaces KCM's start-up
// checkLeftoverEndpoints, which queues every Endpoints object and deletes
// every one without a Service, whoever wrote it (spec O3, E9): here an
// Endpoints object without the label is never queued for deletion.
func (c *Controller) onEndpointsAdd(obj any) {
	ep, ok := obj.(*corev1.Endpoints)
	if !ok || ep == nil || !ownedByUs(ep) {
		return
	}
	svc, err := c.serviceLister.Services(ep.Namespace).Get(ep.Name)
	if (err != nil && apierrors.IsNotFound(err)) || (err == nil && c.delegated(svc)) {
		c.queueKey(ep)
		return
	}
	if none, _, _ := selectorless.SelectsNoPods(svc); err == nil && none && c.cleanup {
		// The leftover of a selector removal (kubernetes#118376).
		c.queueKey(ep)
	}
}

// onPodUpdate queues the Pod's projection key on add, update and delete;
// updates that change nothing an endpoint depends on are ignored (KCM
// onPodUpdate with util.GetPodUpdateProjectionKey).
func (c *Controller) onPodUpdate(old, cur any) {
	if key := servicepods.PodUpdateProjectionKey(old, cur); key != nil {
		c.podQueue.Add(key)
	}
}

// syncPod queues, after the batch period, every non-delegated Service whose
// selector matches the Pod's labels (old and new ones on a label change)
// (KCM syncPod with util.GetServicesToUpdate; KEP-4770 rule (a)7), looked
// up in the selector index of the Service informer (podSelectorOf), whose
// cost follows the Services filed under the Pod's labels, not the
// namespace's Services.
func (c *Controller) syncPod(key *servicepods.PodProjectionKey) error {
	services, err := servicepods.ServicesToUpdateByLookup(key, c.services.Match)
	if err != nil {
		return err
	}
	for svc := range services {
		c.queue.AddAfter(svc, c.opts.EndpointUpdatesBatchPeriod)
	}
	return nil
}

// podSelectorOf is the Pod selector of svc for the Pod → Services lookup
// (selectorindex.SelectorFunc): spec.selector, or nil when svc has none
// (a nil selector selects nothing, KCM util.GetServicesToUpdate) or is
// delegated.
func (c *Controller) podSelectorOf(svc *corev1.Service) labels.Selector {
	if svc.Spec.Selector == nil || c.delegated(svc) {
		return nil
	}
	return labels.ValidatedSetSelector(svc.Spec.Selector)
}

// delegated reports whether svc is left to another controller (KEP-4770):
// labelled, with the gate on, with a value that is neither this
// controller's name nor one of Options.AcceptedControllerNames.
func (c *Controller) delegated(svc *corev1.Service) bool {
	return delegation.DelegatedExcept(svc, wellknown.EndpointsControllerName, c.gate, c.opts.AcceptedControllerNames)
}

// ownedByUs reports whether ep carries this controller's managed-by label.
func ownedByUs(ep *corev1.Endpoints) bool {
	return ep.Labels[wellknown.LabelEndpointsManagedBy] == wellknown.EndpointsControllerName
}
