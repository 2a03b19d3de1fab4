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

package controllerkit

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// QueueKey adds the namespace/name key of obj, also of a tombstone
// (cache.DeletionHandlingMetaNamespaceKeyFunc), to q at once. When the key
// cannot be computed it reports the error through utilruntime.HandleError,
// as KCM's controllers do: "couldn't get key for object %+v: ..." (KCM
// endpoints_controller.go), or with withType "couldn't get key for object
// %+v (type %T): ..." (KCM endpointslicemirroring_controller.go queueEndpoints).
func QueueKey(q workqueue.TypedInterface[string], obj any, withType bool) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		if withType {
			utilruntime.HandleError(fmt.Errorf("couldn't get key for object %+v (type %T): %w", obj, obj, err))
		} else {
			utilruntime.HandleError(fmt.Errorf("couldn't get key for object %+v: %w", obj, err))
		}
		return
	}
	q.Add(key)
}

// FromDeleteAction returns the object of an informer delete event: obj
// itself when it is a T, else the object of a cache.DeletedFinalStateUnknown
// tombstone. It returns false, after reporting through
// utilruntime.HandleError as KCM's controllers do, when obj is neither or
// the tombstone holds something else; what names T in that message ("an
// EndpointSlice", "a Service resource"...). The object is the informer's:
// read-only.
func FromDeleteAction[T any](obj any, what string) (T, bool) {
	if o, ok := obj.(T); ok {
		return o, true
	}
	var zero T
	tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
	if !ok {
		utilruntime.HandleError(fmt.Errorf("couldn't get object from tombstone %#v", obj))
		return zero, false
	}
	o, ok := tombstone.Obj.(T)
	if !ok {
		utilruntime.HandleError(fmt.Errorf("tombstone contained object that is not %s: %#v", what, obj))
		return zero, false
	}
	return o, true
}
