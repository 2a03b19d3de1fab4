// Copyright 2022 The Kubernetes Authors.
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
//
// Modified for slicekit: ported from k8s.io/endpointslice@v0.37.2
// topologycache/event.go into package topology; documentation added.

package topology

// Messages of the events returned by AddHints, and of the event KCM's
// reconciler records when a service stops asking for hints
// (TopologyAwareHintsDisabled). Events carry them through
// FormatWithAddressType; InsufficientNumberOfEndpoints and
// MinAllocationExceedsOverloadThreshold are also followed by
// " (<n> endpoints, <m> zones)" before the address type.
//
// Source: k8s.io/endpointslice topologycache/event.go.
const (
	// NoZoneSpecified is used when a ready endpoint has no zone.
	NoZoneSpecified = "One or more endpoints do not have a zone specified"
	// NoAllocatedHintsForZones is used when no zone got any hinted endpoint.
	NoAllocatedHintsForZones = "No hints allocated for zones"
	// TopologyAwareHintsEnabled is used when hints are set for a service
	// that had none.
	TopologyAwareHintsEnabled = "Topology Aware Hints has been enabled"
	// TopologyAwareHintsDisabled is used when a service that had hints no
	// longer asks for them.
	TopologyAwareHintsDisabled = "Topology Aware Hints has been disabled"
	// InsufficientNodeInfo is used when the last SetNodes found a usable
	// Node without zone or allocatable CPU, or usable Nodes in fewer than
	// two zones.
	InsufficientNodeInfo = "Insufficient Node information: allocatable CPU or zone not specified on one or more nodes"
	// NodesReadyInOneZoneOnly is used when the cache knows fewer than two
	// zones without knowing that Node information is insufficient, which in
	// practice means before the first SetNodes.
	NodesReadyInOneZoneOnly = "Nodes only ready in one zone"
	// InsufficientNumberOfEndpoints is used when there are fewer ready
	// endpoints than zones.
	InsufficientNumberOfEndpoints = "Insufficient number of endpoints"
	// MinAllocationExceedsOverloadThreshold is used when the zones' minimum
	// allocations add up to more than the number of ready endpoints.
	MinAllocationExceedsOverloadThreshold = "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold"
)

// EventBuilder describes an event to record on the service; functions return
// it instead of recording the event themselves. Its fields have the meaning of
// the corev1.Event fields of the same names: EventType is "Normal" or
// "Warning" (corev1.EventTypeNormal, corev1.EventTypeWarning), Reason is
// "TopologyAwareHintsEnabled" or "TopologyAwareHintsDisabled", Message is a
// human-readable message built from the constants above.
//
// Source: k8s.io/endpointslice topologycache/event.go.
type EventBuilder struct {
	// EventType is corev1.EventTypeNormal or corev1.EventTypeWarning.
	EventType string
	// Reason is "TopologyAwareHintsEnabled" or "TopologyAwareHintsDisabled".
	Reason string
	// Message is one of the message constants of this package, formatted
	// with FormatWithAddressType.
	Message string
}
