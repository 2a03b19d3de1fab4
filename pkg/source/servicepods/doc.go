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

// Package servicepods computes the desired endpoints of a Service from the
// Pods its selector matches, exactly as kube-controller-manager's
// EndpointSlice controller does (k8s.io/endpointslice v0.37.2). It is the
// "source" half of that controller; the reconciler in pkg/reconciler is the
// other half and turns the result into EndpointSlices.
//
// A controller typically does, for each Service with a selector that is not
// of type ExternalName (KCM endpointslice_controller.go syncService, C11):
//
//	pods := matching pods from a Pod lister
//	desired, srcErr := servicepods.Desired(ctx, svc, pods, nodeLister, podendpoint.Options{})
//	if desired == nil {
//		return srcErr // a Node lookup failed: retry, write nothing
//	}
//	trigger := triggerTimes.ComputeEndpointLastChangeTriggerTime(svc.Namespace, svc, pods)
//	if err := r.Reconcile(ctx, svc, desired, existingSlices, trigger); err != nil {
//		return errors.Join(err, srcErr)
//	}
//	return srcErr // Pods skipped because their Node is missing: retry later
//
// The incremental path (the Service controller's per-Service index in
// pkg/slicecontroller, through source.IncrementalSource) replaces Desired
// and the trigger-time computation over every Pod by work proportional to
// the Pods that changed: it keeps the scheduling state (what changed since
// the last sync) and applies this package's rules Pod by Pod (PodItem,
// ServiceTriggerTimes.UpdatePods).
//
// PodItem is the per-Pod step of Desired that both use. Source wraps
// Desired and PodItem as a source.IncrementalSource, the drop-in
// EndpointSlice controller's source.
//
// The rules a Pod's endpoint shares with every other source of Pod
// endpoints (inclusion, ports, endpoint fields, address types, hints, the
// Node lookup) are in pkg/source/podendpoint; this package adds KCM's
// addresses, status.podIPs (EndpointAddresses: utils.go
// getEndpointAddresses), the grouping, Node lookup and error handling of
// reconciler.go reconcileByAddressType (Desired, PodItem), the Pod event
// rules (PodUpdateProjectionKey, ServicesToUpdate: util/controller_utils.go)
// and the trigger time (ServiceTriggerTimes, TriggerTimeTracker:
// util/trigger_time_tracker.go), behaviours C6, C15-C21, C25 of
// docs/kep4770.md.
//
// Nothing in this package modifies its inputs, which may come straight from
// informer caches, and no returned value aliases them.
package servicepods
