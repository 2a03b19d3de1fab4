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

package slicecontroller

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/addressguard"
)

// guardSource returns opts.Source with the address guard of this
// controller installed (its changes re-sync every Service this controller
// owns, resync) when the Source is a pod-address source
// (source.AddressGuarded): addressguard.New(ctx, client, factory,
// opts.ManagedBy, opts.AddressGuard), plus its HasSynced. A Source that
// is not one (servicepods.Source: status.podIPs, which only the kubelet writes)
// is returned as it is, with a nil HasSynced. Every pod-address source
// gets the guard: there is no option to run one unguarded
// (docs/security.md).
func guardSource(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options, resync func()) (source.Source, cache.InformerSynced, error) {
	guarded, ok := opts.Source.(source.AddressGuarded)
	if !ok {
		return opts.Source, nil, nil
	}
	g, err := addressguard.New(ctx, client, factory, opts.ManagedBy, opts.AddressGuard)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	g.OnChange(resync)
	return guarded.WithAddressGuard(g), g.HasSynced, nil
}

// queueOwnedServices queues every Service this controller owns, after the
// batch period: what the address guard refuses changed (a Node address,
// a ServiceCIDR), so that an address published before is taken away.
func (c *Controller) queueOwnedServices() {
	svcs, err := c.serviceLister.List(labels.Everything())
	if err != nil {
		return // a cache lister does not fail
	}
	for _, svc := range svcs {
		if c.own.Owns(svc) {
			c.serviceQueue.AddAfter(svc.Namespace+"/"+svc.Name, c.opts.BatchPeriod)
		}
	}
}

// GuardRBACRules returns the RBAC rules a Service controller with a
// pod-address Source needs besides RBACRules: those of its address guard
// (addressguard.RBACRules: list and watch ServiceCIDRs). Each call returns
// a new slice.
func GuardRBACRules() []rbacv1.PolicyRule { return addressguard.RBACRules() }
