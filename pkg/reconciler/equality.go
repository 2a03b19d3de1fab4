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
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func boolPtrEqual(a, b *bool) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func targetRefEqual(a, b *corev1.ObjectReference) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return a == b
	}
	return a.Kind == b.Kind && a.Namespace == b.Namespace && a.Name == b.Name &&
		a.UID == b.UID && a.APIVersion == b.APIVersion && a.FieldPath == b.FieldPath
}

// endpointsIdentical reports whether a and b are equal in every field,
// including those EndpointsEqualBeyondIdentity leaves out (addresses in
// order, hostname, the targetRef's resourceVersion, hints, the deprecated
// topology), so that one may stand for the other in a slice that is
// written. It is strict where the wire form is not: a nil and an empty
// list or map differ. TestEndpointsIdenticalCoversEveryField fails when the
// API gains a field this does not compare.
func endpointsIdentical(a, b *discovery.Endpoint) bool {
	if !EndpointsEqualBeyondIdentity(a, b) || !sameIdentity(a, b) ||
		(a.Addresses == nil) != (b.Addresses == nil) {
		return false
	}
	if a.TargetRef != b.TargetRef && a.TargetRef.ResourceVersion != b.TargetRef.ResourceVersion {
		return false
	}
	if a.DeprecatedTopology != nil || b.DeprecatedTopology != nil {
		if (a.DeprecatedTopology == nil) != (b.DeprecatedTopology == nil) || len(a.DeprecatedTopology) != len(b.DeprecatedTopology) {
			return false
		}
		for k, v := range a.DeprecatedTopology {
			if w, ok := b.DeprecatedTopology[k]; !ok || w != v {
				return false
			}
		}
	}
	return hintsIdentical(a.Hints, b.Hints)
}

func hintsIdentical(a, b *discovery.EndpointHints) bool {
	if a == nil || b == nil {
		return a == b
	}
	if (a.ForZones == nil) != (b.ForZones == nil) || len(a.ForZones) != len(b.ForZones) ||
		(a.ForNodes == nil) != (b.ForNodes == nil) || len(a.ForNodes) != len(b.ForNodes) {
		return false
	}
	for i := range a.ForZones {
		if a.ForZones[i] != b.ForZones[i] {
			return false
		}
	}
	for i := range a.ForNodes {
		if a.ForNodes[i] != b.ForNodes[i] {
			return false
		}
	}
	return true
}

// endpointPortsEqual reports whether two port lists are equal field by
// field (a nil and an empty list are equal, as in apiequality.Semantic).
func endpointPortsEqual(a, b []discovery.EndpointPort) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strPtrEqual(a[i].Name, b[i].Name) || !strPtrEqual(a[i].AppProtocol, b[i].AppProtocol) ||
			(a[i].Protocol == nil) != (b[i].Protocol == nil) || (a[i].Protocol != nil && *a[i].Protocol != *b[i].Protocol) ||
			(a[i].Port == nil) != (b[i].Port == nil) || (a[i].Port != nil && *a[i].Port != *b[i].Port) {
			return false
		}
	}
	return true
}
