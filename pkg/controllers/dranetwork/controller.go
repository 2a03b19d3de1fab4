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

package dranetwork

import (
	"context"

	rbacv1 "k8s.io/api/rbac/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	resourcelisters "k8s.io/client-go/listers/resource/v1"

	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/networkdata"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// MetricsSubsystem is the Prometheus subsystem of this controller's
// metrics (endpoint_slice_dra_network_controller_syncs, ...,
// _pod_problems{reason}), all labelled controller=<ControllerName>.
const MetricsSubsystem = "endpoint_slice_dra_network_controller"

// Options configures New. The zero value is valid.
type Options struct {
	// ControllerName is the endpoint-controller-name label value this
	// controller answers to. Default: wellknown.DRANetworkControllerName.
	// A valid label value.
	ControllerName string
	// ManagedBy is the managed-by value of its slices. Default:
	// ControllerName.
	ManagedBy string
	// Common are the settings shared with the other Service controllers
	// (slicecontroller.Common); BatchPeriod also delays the syncs that
	// ResourceClaim changes trigger, the address guard refuses the
	// addresses a driver reports inside the Service CIDRs, a Node's
	// addresses and, with an allow-list, those outside it, and the metrics
	// are under MetricsSubsystem.
	slicecontroller.Common
}

// New returns the dra-network controller: a slicecontroller.Controller
// with Labelled(ControllerName) ownership whose Source is
// networkdata.Source over the factory's ResourceClaim informer
// (ResourceClaimKind), which it also watches (slicecontroller.Input with
// networkdata.ClaimPods), so that a driver's write
// of networkData syncs the Pod's Services with no change to the Pod or the
// Service. Errors are slicecontroller.New's.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*slicecontroller.Controller, error) {
	if opts.ControllerName == "" {
		opts.ControllerName = wellknown.DRANetworkControllerName
	}
	claims := ResourceClaimKind.Informer(factory)
	lister := resourcelisters.NewResourceClaimLister(claims.GetIndexer())
	get := func(namespace, name string) (*resourceapi.ResourceClaim, error) {
		return lister.ResourceClaims(namespace).Get(name)
	}
	return slicecontroller.New(ctx, client, factory, slicecontroller.Options{
		Name:           RegistrationName,
		ControllerName: opts.ControllerName,
		ManagedBy:      opts.ManagedBy,
		Ownership:      slicecontroller.Labelled(opts.ControllerName),
		Source:         networkdata.Source(get),
		Inputs: []slicecontroller.Input{{
			Kind:     ResourceClaimKind.GVK.Kind,
			Informer: claims,
			Pods:     networkdata.ClaimPods,
		}},
		MetricsSubsystem: MetricsSubsystem,
		Common:           opts.Common,
	})
}

// RBACRules returns the RBAC rules the dra-network controller needs: the
// Service controller's (slicecontroller.RBACRules), its address guard's
// (slicecontroller.GuardRBACRules) and get, list and watch of
// resourceclaims (resource.k8s.io). It lists no admission policies: its
// input is written by the device drivers, not by Pod editors. Each call
// returns a new slice.
func RBACRules() []rbacv1.PolicyRule {
	return append(append(slicecontroller.RBACRules(), slicecontroller.GuardRBACRules()...), rbacv1.PolicyRule{
		APIGroups: []string{resourceapi.GroupName},
		Resources: []string{resourceClaimsPlural},
		Verbs:     []string{"get", "list", "watch"},
	})
}
