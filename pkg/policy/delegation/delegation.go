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

package delegation

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Delegated reports whether svc is left to another endpoint controller, so
// that the controller called selfName must not write Endpoints or
// EndpointSlices for it and should remove the ones it wrote.
//
// It returns true when gateEnabled is true, svc carries
// wellknown.LabelEndpointControllerName (with any value, even "": rule (a)1,
// presence-only) and that value is not selfName. A change of the value from
// one foreign controller to another keeps the Service delegated (rule (a)6).
// A Service labelled with selfName is handled like an unlabelled one. With
// gateEnabled false the label is ignored and Delegated is always false (rule
// (a)9). A nil svc is not delegated.
//
// selfName is the caller's controller name, e.g. the managed-by value
// endpointslice-controller.k8s.io of the EndpointSlice controller. An empty
// selfName names no controller and never matches, so a Service labelled ""
// is always delegated (rule (a)1).
func Delegated(svc *corev1.Service, selfName string, gateEnabled bool) bool {
	if !gateEnabled || svc == nil {
		return false
	}
	v, ok := svc.Labels[wellknown.LabelEndpointControllerName]
	if !ok {
		return false
	}
	return selfName == "" || v != selfName
}
