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

package check

import (
	"context"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// inventoryNodes is the podendpoint.NodeGetter over the inventory's Nodes.
// Without Nodes in the input every Node is taken to exist (without zone):
// the check cannot tell which Pods the controller skips for a missing Node.
type inventoryNodes struct{ c *checker }

func (n inventoryNodes) Get(name string) (*corev1.Node, error) {
	if !n.c.inv.Have.Nodes {
		return nil, nil
	}
	if node := n.c.nodes[name]; node != nil {
		return node, nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("nodes"), name)
}

// oracleInput is the registry.OracleInput over the inventory.
func (c *checker) oracleInput() registry.OracleInput {
	return registry.OracleInput{Objects: func(kind string) ([]runtime.Object, bool) {
		if kind != "ResourceClaim" {
			return nil, false
		}
		objs := make([]runtime.Object, 0, len(c.inv.ResourceClaims))
		for _, rc := range c.inv.ResourceClaims {
			objs = append(objs, rc)
		}
		return objs, c.inv.Have.ResourceClaims
	}}
}

// oracle returns the managed-by value of the controller responsible for
// svc's selector-derived slices and that controller's desired endpoints,
// computed by the controller's own source: servicepods.Desired for the
// default controller (KCM's rules), the source of the controller's
// registry.Oracle (Config.Oracles) for a delegated Service. ok is false
// when the check has no oracle of the controller (its registration
// provides none: noted in the report by checkDelegatedWithoutOracle), the
// oracle's source cannot run on the input (a dra-network Service without
// ResourceClaims in the input), or the Service gets no selector-derived
// slices (no selector, ExternalName) or is being deleted (KCM creates
// nothing then; the garbage collector removes the slices).
//
// left maps each selected Pod ("namespace/name") to the reason the
// oracle's source gives for leaving it out (a Problem reason; "" when it
// reports none, for example a terminal Pod); nil for the default
// controller.
func (c *checker) oracle(ctx context.Context, svc *corev1.Service) (managedBy string, desired *reconciler.Desired, left map[string]string, ok bool) {
	if svc.Spec.Selector == nil || svc.Spec.Type == corev1.ServiceTypeExternalName || svc.DeletionTimestamp != nil {
		return "", nil, nil, false
	}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	var pods []*corev1.Pod
	for _, p := range c.inv.Pods {
		if p.Namespace == svc.Namespace && sel.Matches(labels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	target, delegated := c.delegatedTo(svc)
	if !delegated {
		// A *SkippedPodError (Pod on a missing Node) leaves the Pod out, as
		// KCM does; desired is nil only for other Node lookup errors,
		// which inventoryNodes never returns.
		d, _ := servicepods.Desired(ctx, svc, pods, inventoryNodes{c}, podendpoint.Options{})
		return c.cfg.DefaultControllerName, d, nil, d != nil
	}
	o := c.cfg.oracle(target)
	if o == nil {
		return "", nil, nil, false
	}
	src := o.Source(c.oracleInput())
	if src == nil {
		return "", nil, nil, false
	}
	// As above: Pods on a missing Node are left out (joined
	// *SkippedPodError), the rest is desired.
	d, problems, _ := src.Desired(ctx, svc, pods, inventoryNodes{c})
	return target, d, leftOut(pods, d, problems), d != nil
}

// leftOut maps each of pods that has no endpoint in d to the reason of its
// Problem ("" without one).
func leftOut(pods []*corev1.Pod, d *reconciler.Desired, problems []source.Problem) map[string]string {
	if d == nil {
		return nil
	}
	published := map[string]bool{}
	for _, g := range d.Groups {
		for i := range g.Endpoints {
			if r := g.Endpoints[i].TargetRef; r != nil {
				published[r.Namespace+"/"+r.Name] = true
			}
		}
	}
	out := map[string]string{}
	for _, p := range pods {
		if k := p.Namespace + "/" + p.Name; !published[k] {
			out[k] = ""
		}
	}
	for _, p := range problems {
		if k := p.Pod.String(); p.Pod.Name != "" {
			if _, ok := out[k]; ok && out[k] == "" {
				out[k] = p.Reason
			}
		}
	}
	return out
}

// checkCompleteness applies endpoint-missing to one Service: every
// endpoint the responsible controller publishes (oracle) must be in the
// Service's slices of that controller, with every one of its addresses, in
// a slice of its address type. It also checks, for the secondary-network
// controller, that each address of a Pod's endpoint is one of the Pod's
// addresses on the selected networks (endpoint-address-not-pod-ip; the
// per-slice rule does so for the default controller against
// status.podIPs). The conditions, nodeName, zone, hostname and ports of the
// published endpoints are judged per slice (endpoint-conditions, ...).
//
// A Service without any slice of the responsible controller is not judged:
// before the controller ran, the state is incomplete but not wrong.
func (c *checker) checkCompleteness(k types.NamespacedName, ss []*discovery.EndpointSlice) {
	if !c.inv.Have.Services || !c.inv.Have.Pods {
		return
	}
	svc := c.services[k]
	if svc == nil {
		return
	}
	mgr, desired, left, ok := c.oracle(c.ctx, svc)
	if !ok {
		return
	}
	type pubEndpoint struct {
		slice string
		ep    *discovery.Endpoint
	}
	// published[address type][namespace/name of the Pod]
	published := map[discovery.AddressType]map[string][]pubEndpoint{}
	var own []*discovery.EndpointSlice
	for _, s := range ss {
		if s.Labels[discovery.LabelManagedBy] != mgr {
			continue
		}
		own = append(own, s)
		m := published[s.AddressType]
		if m == nil {
			m = map[string][]pubEndpoint{}
			published[s.AddressType] = m
		}
		for i := range s.Endpoints {
			e := &s.Endpoints[i]
			if e.TargetRef == nil || e.TargetRef.Kind != "Pod" {
				continue
			}
			ns := e.TargetRef.Namespace
			if ns == "" {
				ns = s.Namespace
			}
			key := ns + "/" + e.TargetRef.Name
			m[key] = append(m[key], pubEndpoint{sliceRef(s).Name, e})
		}
	}
	if len(own) == 0 {
		return
	}
	if mgr == c.cfg.DefaultControllerName {
		c.checkEmptySlices(own, desired)
	}
	ref := serviceRef(svc.Namespace, svc.Name)
	secondary := mgr != c.cfg.DefaultControllerName
	// wantAddrs[address type][Pod]: every address the controller publishes
	// for the Pod (a source may split a Pod's addresses into several
	// endpoints).
	wantAddrs := map[discovery.AddressType]map[string]map[string]bool{}
	for _, g := range desired.Groups {
		m := wantAddrs[g.AddressType]
		if m == nil {
			m = map[string]map[string]bool{}
			wantAddrs[g.AddressType] = m
		}
		for i := range g.Endpoints {
			want := &g.Endpoints[i]
			pod := want.TargetRef.Namespace + "/" + want.TargetRef.Name
			if m[pod] == nil {
				m[pod] = map[string]bool{}
			}
			for _, a := range want.Addresses {
				m[pod][canonicalIP(a)] = true
			}
		}
	}
	for _, g := range desired.Groups {
		for i := range g.Endpoints {
			want := &g.Endpoints[i]
			pod := want.TargetRef.Namespace + "/" + want.TargetRef.Name
			got := published[g.AddressType][pod]
			if len(got) == 0 {
				c.add(SeverityError, RuleEndpointMissing, ref,
					"Pod %s (%s %s, ready=%t) is selected and published by %s, but no %s slice of it lists the Pod",
					want.TargetRef.Name, g.AddressType, strings.Join(want.Addresses, ","), deref(want.Conditions.Ready), mgr, g.AddressType)
				continue
			}
			have := map[string]bool{}
			for _, p := range got {
				for _, a := range p.ep.Addresses {
					have[canonicalIP(a)] = true
				}
			}
			for _, a := range want.Addresses {
				if a = canonicalIP(a); !have[a] {
					c.add(SeverityError, RuleEndpointMissing, ref,
						"Pod %s: address %s is missing from its %s endpoint in slice %s (published: %s)",
						want.TargetRef.Name, a, g.AddressType, got[0].slice, strings.Join(got[0].ep.Addresses, ","))
				}
			}
		}
	}
	if !secondary {
		return
	}
	for _, at := range slices.Sorted(maps.Keys(published)) {
		m := published[at]
		for _, pod := range slices.Sorted(maps.Keys(m)) {
			got := m[pod]
			want := wantAddrs[at][pod]
			if reason, ok := left[pod]; ok && want == nil {
				// A selected Pod the controller's source leaves out (no
				// networkData yet, a shared claim, a network not
				// attached, ...): no address of it may be published.
				if reason == "" {
					reason = "left out"
				}
				for _, p := range got {
					for _, a := range p.ep.Addresses {
						c.add(SeverityError, RuleEndpointAddress, ref,
							"Pod %s: address %s in slice %s, but %s publishes no endpoint of this Pod (%s)", pod, a, p.slice, mgr, reason)
					}
				}
				continue
			}
			if want == nil {
				continue // not desired at all: the per-slice rules judge it
			}
			for _, p := range got {
				for _, a := range p.ep.Addresses {
					if !want[canonicalIP(a)] {
						c.add(SeverityError, RuleEndpointAddress, ref,
							"Pod %s: address %s in slice %s is not one of its %s addresses on the Service's network(s) (%s)",
							pod, a, p.slice, at, strings.Join(slices.Sorted(maps.Keys(want)), ","))
					}
				}
			}
		}
	}
}
