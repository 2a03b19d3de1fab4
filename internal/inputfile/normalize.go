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

package inputfile

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// normalize makes obj what the API server would store for it, where that
// changes what EndpointSlice production reads: an empty Service selector
// (`selector: {}`) is dropped, as the API server's serialization drops an
// empty map, so that the Service is selectorless (KCM's controllers test
// spec.selector == nil; the mirroring controller then mirrors its
// Endpoints).
func normalize(obj runtime.Object) {
	if svc, ok := obj.(*corev1.Service); ok && svc.Spec.Selector != nil && len(svc.Spec.Selector) == 0 {
		svc.Spec.Selector = nil
	}
}
