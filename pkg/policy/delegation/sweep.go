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
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// DelegatedExcept is Delegated for a controller that also answers to the
// names in accepted (a drop-in controller's AcceptedControllerNames): a
// Service labelled with one of them is not delegated away from it.
func DelegatedExcept(svc *corev1.Service, selfName string, gateEnabled bool, accepted []string) bool {
	if !Delegated(svc, selfName, gateEnabled) {
		return false
	}
	return !slices.Contains(accepted, svc.Labels[wellknown.LabelEndpointControllerName])
}

// SweepDelegated is the start-up sweep of a controller that writes
// EndpointSlices (rule (a)11, edge case E8 of docs/kep4770.md): it lists,
// from the caches, the slices carrying managed-by value managedBy, and calls
// enqueue once with the namespace/name key of each Service named by their
// kubernetes.io/service-name label that exists and is delegated (the
// caller's predicate), so that slices left behind while the controller was
// not running (or while the gate was off) are deleted. It logs the number
// queued; a listing error is logged and ends the sweep (the informers'
// initial events queue most of these Services anyway). The objects read are
// not modified.
func SweepDelegated(ctx context.Context, sliceLister discoverylisters.EndpointSliceLister, serviceLister corelisters.ServiceLister,
	managedBy string, delegated func(*corev1.Service) bool, enqueue func(key string)) {
	logger := klog.FromContext(ctx)
	slices, err := sliceLister.List(labels.Set{discovery.LabelManagedBy: managedBy}.AsSelectorPreValidated())
	if err != nil {
		logger.Error(err, "Listing EndpointSlices for the start-up sweep")
		return
	}
	seen := map[types.NamespacedName]bool{}
	queued := 0
	for _, s := range slices {
		nn := types.NamespacedName{Namespace: s.Namespace, Name: s.Labels[discovery.LabelServiceName]}
		if nn.Name == "" || seen[nn] {
			continue
		}
		seen[nn] = true
		svc, err := serviceLister.Services(nn.Namespace).Get(nn.Name)
		if err != nil || !delegated(svc) {
			continue
		}
		enqueue(nn.String())
		queued++
	}
	logger.Info("Start-up sweep of delegated Services done", "servicesQueued", queued)
}
