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

package reconciler

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
)

// EndpointsEqualBeyondIdentity reports whether two endpoints with the same
// identity (addresses, hostname, targetRef namespace/name) are also equal in
// the fields that do not make up the identity: nodeName, zone, the three
// conditions and the whole targetRef except its resourceVersion. Hints are not
// compared; they are owned by the hints step. Same rule as KCM's
// util.EndpointsEqualBeyondHash (k8s.io/endpointslice util/controller_utils.go).
func EndpointsEqualBeyondIdentity(a, b *discovery.Endpoint) bool {
	return strPtrEqual(a.NodeName, b.NodeName) &&
		strPtrEqual(a.Zone, b.Zone) &&
		boolPtrEqual(a.Conditions.Ready, b.Conditions.Ready) &&
		boolPtrEqual(a.Conditions.Serving, b.Conditions.Serving) &&
		boolPtrEqual(a.Conditions.Terminating, b.Conditions.Terminating) &&
		targetRefEqual(a.TargetRef, b.TargetRef)
}

func strPtrEqual(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func boolPtrEqual(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func targetRefEqual(a, b *corev1.ObjectReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Kind == b.Kind && a.Namespace == b.Namespace && a.Name == b.Name &&
		a.UID == b.UID && a.APIVersion == b.APIVersion && a.FieldPath == b.FieldPath
}
