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

// Package remoteclusters is an example external EndpointSlice controller
// built on github.com/slicekit/slicekit/pkg/reconciler, in the shape of a
// multi-cluster service mesh: the endpoints of a Service in each remote
// cluster are published in the local cluster as EndpointSlices of the local
// Service, one slice set per remote cluster, told apart by the label
// multicluster.kubernetes.io/source-cluster. Each set is planned, tracked
// and released on its own; a cluster that goes away takes its slices with
// it, other clusters' slices are never written.
package remoteclusters

import (
	"context"
	"errors"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/client-go/kubernetes"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

const (
	// ControllerName is the managed-by value of the slices.
	ControllerName = "remote-clusters.example.com"
	// ClusterLabel tells the slices of each remote cluster apart (KEP-1645).
	ClusterLabel = "multicluster.kubernetes.io/source-cluster"
)

// RemoteEndpoints are a Service's endpoints in one remote cluster, as its
// connection to that cluster reports them (addresses routable from here).
// Their writer is the remote cluster: trust only clusters of the mesh.
type RemoteEndpoints struct {
	AddressType discovery.AddressType
	Ports       []discovery.EndpointPort
	Endpoints   []discovery.Endpoint
	// Changed is when they last changed in the remote cluster (its slices'
	// endpoints.kubernetes.io/last-change-trigger-time), zero if unknown.
	Changed time.Time
}

// Controller reconciles the remote clusters' slices of local Services.
type Controller struct{ r *reconciler.Reconciler }

// New returns a Controller writing through client.
func New(client kubernetes.Interface, opts ...reconciler.Option) (*Controller, error) {
	r, err := reconciler.New(client, reconciler.Config{
		ControllerName:   ControllerName,
		OwnerGVK:         reconciler.ServiceGVK,
		EnforceOwnership: true,
		SetLabel:         ClusterLabel,
		SliceNamePrefix: reconciler.SliceNamePrefixFunc(func(o reconciler.Owner, cluster string) string {
			return o.GetName() + "-" + cluster + "-"
		}),
	}, opts...)
	if err != nil {
		return nil, err
	}
	return &Controller{r: r}, nil
}

// OnStartedLeading forgets what an earlier leadership term recorded.
func (c *Controller) OnStartedLeading() { c.r.Tracker().Reset() }

// Sync brings the slices of svc to remote, the Service's endpoints by
// remote cluster name, and releases the slices of every cluster not in
// remote. It returns the errors of all clusters, joined; a stale cache of
// one cluster does not hold up the others (reconciler.IsStaleInformerCache:
// requeue).
func (c *Controller) Sync(ctx context.Context, lister discoverylisters.EndpointSliceLister, svc *corev1.Service, remote map[string][]RemoteEndpoints) error {
	var errs []error
	for cluster, eps := range remote {
		errs = append(errs, c.syncCluster(ctx, lister, svc, cluster, eps))
	}
	sets, err := c.r.OwnerSets(lister, svc.Namespace, svc.Name)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, cluster := range sets {
		if _, ok := remote[cluster]; ok || cluster == "" {
			continue
		}
		set, err := c.r.ForSet(cluster)
		if err == nil {
			_, err = set.Release(ctx, lister, svc.Namespace, svc.Name)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (c *Controller) syncCluster(ctx context.Context, lister discoverylisters.EndpointSliceLister, svc *corev1.Service, cluster string, eps []RemoteEndpoints) error {
	set, err := c.r.ForSet(cluster)
	if err != nil {
		return err
	}
	existing, err := set.OwnerSlices(lister, svc.Namespace, svc.Name)
	if err != nil {
		return err
	}
	desired, changed := &reconciler.Desired{}, time.Time{}
	for _, at := range svc.Spec.IPFamilies {
		desired.AddressTypes = append(desired.AddressTypes, discovery.AddressType(at))
	}
	for _, e := range eps {
		if slices.Contains(desired.AddressTypes, e.AddressType) {
			desired.Groups = append(desired.Groups, reconciler.EndpointGroup{AddressType: e.AddressType, Ports: e.Ports, Endpoints: e.Endpoints})
		}
		if e.Changed.After(changed) {
			changed = e.Changed
		}
	}
	return set.Reconcile(ctx, svc, desired, existing, changed)
}

// Forget releases nothing and forgets every cluster's record of svc: call
// it once the Service is gone (the garbage collector deletes its slices).
func (c *Controller) Forget(namespace, name string) { c.r.DeleteOwner(namespace, name) }
