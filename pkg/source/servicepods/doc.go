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
//	desired, srcErr := servicepods.Desired(ctx, svc, pods, nodeLister, servicepods.Options{})
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
// PodItem is the per-Pod step of Desired that both use.
//
// The building blocks (ShouldPodBeInEndpoints, FindPort, EndpointPorts,
// EndpointAddresses, PodToEndpoint, Hints) are exported for other sources
// that derive endpoints from Pods with other rules or other addresses, such
// as secondary networks.
//
// Rules and the KCM code they come from (behaviours C15-C21, C25, C34 and C35
// of docs/kep4770.md):
//   - address types: utils.go getAddressTypesForService (AddressTypes);
//   - pod inclusion: util/controller_utils.go ShouldPodBeInEndpoints with
//     terminating pods included (ShouldPodBeInEndpoints);
//   - ports: utils.go getEndpointPorts and FindPort (EndpointPorts, FindPort);
//   - addresses: utils.go getEndpointAddresses (EndpointAddresses);
//   - endpoint fields: utils.go podToEndpoint and util/controller_utils.go
//     ShouldSetHostname and IsPodReady (PodToEndpoint);
//   - grouping, node lookup and error handling: reconciler.go
//     reconcileByAddressType (Desired);
//   - hints: utils.go hintsEnabled and reconciler.go validTrafficDistribution
//     (Hints);
//   - trigger time: util/trigger_time_tracker.go (ServiceTriggerTimes,
//     TriggerTimeTracker).
//
// Nothing in this package modifies its inputs, which may come straight from
// informer caches, and no returned value aliases them, except that
// PodToEndpoint keeps the address slice it is given.
package servicepods
