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

// Package networkmirror is an example external EndpointSlice controller
// built on github.com/slicekit/slicekit/pkg/reconciler, in the shape of a
// secondary-network mirror: every EndpointSlice the cluster's EndpointSlice
// controller writes for a Service is mirrored 1:1 into a slice of the same
// endpoints' addresses on a second network. The mirrored slices carry their
// own service-name label key, so that kube-proxy, CoreDNS and the other
// consumers of the Service's slices never take them for the Service's
// default-network endpoints; each mirrors one source slice, named by a
// label (a slice set per source slice); blockOwnerDeletion is off.
package networkmirror

import (
	"context"
	"errors"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/client-go/kubernetes"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

const (
	// ControllerName is the managed-by value of the mirrored slices.
	ControllerName = "network-mirror.example.com"
	// SourceController is the managed-by value of the slices mirrored.
	SourceController = "endpointslice-controller.k8s.io"
	// ServiceNameLabel names the Service on a mirrored slice.
	ServiceNameLabel = "network-mirror.example.com/service-name"
	// SourceLabel names the source slice of a mirrored slice.
	SourceLabel = "network-mirror.example.com/source-endpointslice"
	// NetworkLabel names the network of a mirrored slice.
	NetworkLabel = "network-mirror.example.com/network"
)

// Addresser returns the address of a Pod on the network, and false when the
// Pod has none. Its writer must be the network plugin (a Pod annotation
// that only the plugin may set, say), not the Pod's author: the address
// receives the Service's traffic on that network.
type Addresser func(pod *corev1.ObjectReference) (string, bool)

// Controller mirrors slices into one network.
type Controller struct {
	r       *reconciler.Reconciler
	address Addresser
}

// networkMetadata is the Service's labels plus the network's name.
type networkMetadata struct {
	reconciler.ServiceMetadata
	network string
}

func (m networkMetadata) Labels(ctx context.Context, o reconciler.Owner, cur map[string]string) (map[string]string, bool) {
	l, changed := m.ServiceMetadata.Labels(ctx, o, cur)
	l[NetworkLabel] = m.network
	return l, changed || cur[NetworkLabel] != m.network
}

// New returns a Controller writing the mirrors on network through client.
func New(client kubernetes.Interface, network string, address Addresser, opts ...reconciler.Option) (*Controller, error) {
	r, err := reconciler.New(client, reconciler.Config{
		ControllerName:            ControllerName,
		OwnerGVK:                  reconciler.ServiceGVK,
		EnforceOwnership:          true,
		OneSlicePerGroup:          true, // with 1000 per slice: one mirror per source
		MaxEndpointsPerSlice:      reconciler.MaxEndpointsPerSliceLimit,
		ServiceNameLabel:          ServiceNameLabel,
		SetLabel:                  SourceLabel,
		DisableBlockOwnerDeletion: true,
		Metadata:                  networkMetadata{network: network},
		SliceNamePrefix:           reconciler.SliceNamePrefixFunc(func(o reconciler.Owner, _ string) string { return o.GetName() + "-" + network + "-" }),
	}, opts...)
	if err != nil {
		return nil, err
	}
	return &Controller{r: r, address: address}, nil
}

// OnStartedLeading forgets what an earlier leadership term recorded.
func (c *Controller) OnStartedLeading() { c.r.Tracker().Reset() }

// Sync mirrors sources, the Service's slices as listed from the informer
// (slices of other controllers are skipped), and deletes the mirrors of
// source slices gone. lister lists the mirrored slices. Errors of all
// source slices are joined.
func (c *Controller) Sync(ctx context.Context, lister discoverylisters.EndpointSliceLister, svc *corev1.Service, sources []*discovery.EndpointSlice) error {
	var errs []error
	mirrored := map[string]bool{}
	for _, src := range sources {
		if src.Labels[discovery.LabelManagedBy] != SourceController || src.Labels[discovery.LabelServiceName] != svc.Name {
			continue
		}
		mirrored[src.Name] = true
		errs = append(errs, c.mirror(ctx, lister, svc, src))
	}
	sets, err := c.r.OwnerSets(lister, svc.Namespace, svc.Name)
	errs = append(errs, err)
	for _, name := range sets {
		if mirrored[name] {
			continue
		}
		set, err := c.r.ForSet(name)
		if err == nil {
			_, err = set.Release(ctx, lister, svc.Namespace, svc.Name)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// mirror reconciles the mirror of src: its endpoints with their addresses
// on the network (endpoints without one are left out).
func (c *Controller) mirror(ctx context.Context, lister discoverylisters.EndpointSliceLister, svc *corev1.Service, src *discovery.EndpointSlice) error {
	set, err := c.r.ForSet(src.Name) // generated names fit a label value
	if err != nil {
		return err
	}
	existing, err := set.OwnerSlices(lister, svc.Namespace, svc.Name)
	if err != nil {
		return err
	}
	desired := &reconciler.Desired{AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}}
	groups := map[discovery.AddressType]*reconciler.EndpointGroup{}
	for _, e := range src.Endpoints {
		addr, ok := c.address(e.TargetRef)
		if !ok || e.TargetRef == nil {
			continue
		}
		at := discovery.AddressTypeIPv4
		if strings.Contains(addr, ":") {
			at = discovery.AddressTypeIPv6
		}
		if groups[at] == nil {
			groups[at] = &reconciler.EndpointGroup{AddressType: at, Ports: src.Ports}
		}
		e = *e.DeepCopy()
		e.Addresses = []string{addr}
		groups[at].Endpoints = append(groups[at].Endpoints, e)
	}
	for _, g := range groups {
		desired.Groups = append(desired.Groups, *g)
	}
	// The source's trigger time is the mirror's (zero when it has none).
	changed, _ := time.Parse(time.RFC3339Nano, src.Annotations[corev1.EndpointsLastChangeTriggerTime])
	return set.Reconcile(ctx, svc, desired, existing, changed)
}
