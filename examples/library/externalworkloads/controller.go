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

// Package externalworkloads is an example external EndpointSlice controller
// built on github.com/slicekit/slicekit/pkg/reconciler: Services select
// workloads that are not Pods (virtual machines, described by a custom
// resource, ExternalWorkload), and the controller publishes their addresses
// as the Services' EndpointSlices, under its own managed-by value and slice
// name prefix. The informers, the queue and the custom resource's client
// are the caller's; Sync is what a worker calls for one Service.
package externalworkloads

import (
	"context"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// ControllerName is the managed-by value of the slices.
const ControllerName = "external-workloads.example.com"

// ExternalWorkload is the custom resource's content the controller reads.
// Its writers (whoever may create ExternalWorkloads in the Service's
// namespace) choose the addresses a Service sends traffic to: only
// workloads of the Service's own namespace are selected.
type ExternalWorkload struct {
	Namespace, Name string
	UID             types.UID
	Labels          map[string]string
	// Addresses are IPv4 or IPv6 addresses.
	Addresses []string
	// Ports are the workload's named ports, for Services whose targetPort
	// is a name.
	Ports map[string]int32
	Ready bool
	// Changed is when the workload last changed (zero if unknown): the
	// newest of the selected workloads' is the slices' trigger time.
	Changed time.Time
}

// Controller reconciles the slices of Services that select workloads.
type Controller struct{ r *reconciler.Reconciler }

// New returns a Controller writing through client.
func New(client kubernetes.Interface, opts ...reconciler.Option) (*Controller, error) {
	r, err := reconciler.New(client, reconciler.Config{
		ControllerName:   ControllerName,
		OwnerGVK:         reconciler.ServiceGVK,
		EnforceOwnership: true,
		SliceNamePrefix:  reconciler.SliceNamePrefixFunc(func(o reconciler.Owner, _ string) string { return "external-" + o.GetName() + "-" }),
	}, opts...)
	if err != nil {
		return nil, err
	}
	return &Controller{r: r}, nil
}

// OnStartedLeading forgets what an earlier leadership term recorded.
func (c *Controller) OnStartedLeading() { c.r.Tracker().Reset() }

// Sync brings the slices of svc to the workloads it selects. slices is the
// EndpointSlice informer's lister. A stale cache is returned as
// reconciler.IsStaleInformerCache: requeue.
func (c *Controller) Sync(ctx context.Context, slices discoverylisters.EndpointSliceLister, svc *corev1.Service, workloads []ExternalWorkload) error {
	existing, err := c.r.OwnerSlices(slices, svc.Namespace, svc.Name)
	if err != nil {
		return err
	}
	if svc.Spec.Selector == nil || svc.DeletionTimestamp != nil {
		_, err := c.r.DeleteAll(ctx, svc.Namespace, svc.Name, existing)
		return err
	}
	d, changed := Desired(svc, workloads)
	return c.r.Reconcile(ctx, svc, d, existing, changed)
}

// Desired returns the endpoints of the workloads svc selects (one group per
// address type and resolved port list, as KCM groups Pods) and the newest
// change of those workloads, the trigger time.
func Desired(svc *corev1.Service, workloads []ExternalWorkload) (*reconciler.Desired, time.Time) {
	d, changed := &reconciler.Desired{AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}}, time.Time{}
	groups := map[string]int{}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	for _, w := range workloads {
		if w.Namespace != svc.Namespace || !sel.Matches(labels.Set(w.Labels)) {
			continue
		}
		if w.Changed.After(changed) {
			changed = w.Changed
		}
		ports := servicePorts(svc, w)
		for _, addr := range w.Addresses {
			at := discovery.AddressTypeIPv4
			if strings.Contains(addr, ":") {
				at = discovery.AddressTypeIPv6
			}
			key := string(at) + reconciler.PortMapKey(ports)
			i, ok := groups[key]
			if !ok {
				i = len(d.Groups)
				groups[key] = i
				d.Groups = append(d.Groups, reconciler.EndpointGroup{AddressType: at, Ports: ports})
			}
			ready := w.Ready
			d.Groups[i].Endpoints = append(d.Groups[i].Endpoints, discovery.Endpoint{
				Addresses:  []string{addr},
				Conditions: discovery.EndpointConditions{Ready: &ready, Serving: &ready, Terminating: new(bool)},
				TargetRef:  &corev1.ObjectReference{Kind: "ExternalWorkload", Namespace: w.Namespace, Name: w.Name, UID: w.UID},
			})
		}
	}
	return d, changed
}

// servicePorts resolves the Service's ports on w; a named targetPort w
// does not have is left out (as KCM leaves out a Pod's).
func servicePorts(svc *corev1.Service, w ExternalWorkload) []discovery.EndpointPort {
	var out []discovery.EndpointPort
	for _, sp := range svc.Spec.Ports {
		port := sp.TargetPort.IntVal
		if sp.TargetPort.Type == intstr.String {
			p, ok := w.Ports[sp.TargetPort.StrVal]
			if !ok {
				continue
			}
			port = p
		} else if port == 0 {
			port = sp.Port
		}
		out = append(out, discovery.EndpointPort{Name: &sp.Name, Port: &port, Protocol: &sp.Protocol, AppProtocol: sp.AppProtocol})
	}
	return out
}
