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
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// Input is an informer of a kind other than Pods, Services, EndpointSlices
// and Nodes whose objects the controller's Source reads (for example the
// ResourceClaims of pkg/controllers/dranetwork), and which Pods an event
// on one of its objects concerns. New registers a handler on the informer
// and Run waits for it to sync; an add, an update that changes the
// resourceVersion, or a delete queues, after the batch period, every
// Service of this controller that selects one of those Pods, as a Pod
// change would (the Pod itself did not change).
type Input struct {
	// Kind names the objects in logs and errors ("ResourceClaim").
	// Required.
	Kind string
	// Informer is the kind's shared informer, from the factory New is
	// given (inputkinds.Kind.Informer). Required.
	Informer cache.SharedIndexInformer
	// Pods returns the Pods whose endpoints obj may change: a cached
	// object (as the informer's transform keeps it), never a tombstone
	// (New unwraps them). It must not modify obj. Required.
	Pods func(obj any) []types.NamespacedName
}

// validate returns an error naming each missing field.
func (in Input) validate() error {
	var errs []error
	if in.Kind == "" {
		errs = append(errs, errors.New("Input.Kind is required"))
	}
	if in.Informer == nil {
		errs = append(errs, fmt.Errorf("Input %q: Informer is required", in.Kind))
	}
	if in.Pods == nil {
		errs = append(errs, fmt.Errorf("Input %q: Pods is required", in.Kind))
	}
	return errors.Join(errs...)
}

// inputHandler returns the event handler of in: it maps each event to the
// Pods in.Pods names and queues their Services (onInputPods).
func (c *Controller) inputHandler(in Input) cache.ResourceEventHandler {
	pods := func(obj any) []types.NamespacedName {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if obj == nil {
			return nil
		}
		return in.Pods(obj)
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { c.onInputPods(pods(obj)) },
		UpdateFunc: func(old, cur any) {
			if o, err := meta.Accessor(old); err == nil {
				if n, err := meta.Accessor(cur); err == nil && o.GetResourceVersion() == n.GetResourceVersion() {
					return // a resync: nothing changed
				}
			}
			c.onInputPods(append(pods(old), pods(cur)...))
		},
		DeleteFunc: func(obj any) { c.onInputPods(pods(obj)) },
	}
}

// onInputPods queues, through the Pod queue, the Services of each Pod that
// exists in the Pod cache, as for a Pod whose endpoint may have changed
// (PodChanged), so that an incremental index reads the Pod again too. A
// Pod not (yet) in the cache is skipped: its own add event queues its
// Services.
func (c *Controller) onInputPods(pods []types.NamespacedName) {
	seen := make(map[types.NamespacedName]bool, len(pods))
	for _, p := range pods {
		if seen[p] || p.Name == "" {
			continue
		}
		seen[p] = true
		pod, err := c.podLister.Pods(p.Namespace).Get(p.Name)
		if err != nil {
			continue
		}
		c.podQueue.Add(&podKey{
			PodProjectionKey: &servicepods.PodProjectionKey{Namespace: pod.Namespace, Labels: labels.Set(pod.Labels), PodChanged: true},
			pod:              pod.Name,
		})
	}
}
