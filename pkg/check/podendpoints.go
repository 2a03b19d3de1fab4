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

// Rules of each endpoint of a selector-derived slice against its Pod: addresses, conditions, topology, hostname, ports.

import (
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// checkPodEndpoints checks every endpoint of a selector-derived slice
// against its Pod.
func (c *checker) checkPodEndpoints(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, r role) {
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	// The controllers whose source the check runs skip Pods on a missing
	// Node: the default one, and those whose oracle is a pod-address
	// source (secondary-network, dra-network) for the Services delegated
	// to them (pkg/source Desired).
	target, delegated := c.delegatedTo(svc)
	mgr := s.Labels[discovery.LabelManagedBy]
	skipsMissingNodes := r == roleDefault || delegated && c.cfg.podAddressController(target) && mgr == target
	slicePorts := map[string]*discovery.EndpointPort{}
	for i := range s.Ports {
		slicePorts[deref(s.Ports[i].Name)] = &s.Ports[i]
	}
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		name := epName(i, e)
		tr := e.TargetRef
		if tr == nil || tr.Kind != "Pod" {
			if r == roleDefault {
				c.add(SeverityError, RuleEndpointPodMissing, ref, "endpoint %s has no Pod targetRef: the EndpointSlice controller only publishes Pods", name)
			}
			continue
		}
		ns := tr.Namespace
		if ns == "" {
			ns = s.Namespace
		}
		pod := c.pods[nn(ns, tr.Name)]
		switch {
		case pod == nil:
			c.add(SeverityError, RuleEndpointPodMissing, ref, "endpoint %s: Pod %s/%s does not exist", name, ns, tr.Name)
			continue
		case tr.UID != "" && pod.UID != "" && tr.UID != pod.UID:
			c.add(SeverityError, RuleEndpointPodMissing, ref, "endpoint %s: Pod %s was replaced (targetRef uid %s, Pod uid %s)", name, tr.Name, tr.UID, pod.UID)
			continue
		case pod.Namespace != svc.Namespace || !sel.Matches(labels.Set(pod.Labels)):
			c.add(SeverityError, RuleEndpointNotSelect, ref, "endpoint %s: Pod %s/%s does not match the selector of Service %s (%s)", name, pod.Namespace, pod.Name, svc.Name, sel)
			continue
		case pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed:
			c.add(SeverityError, RuleEndpointTerminal, ref, "endpoint %s: Pod %s has ended (phase %s); its IP may belong to another Pod", name, pod.Name, pod.Status.Phase)
			continue
		}
		if pod.Status.Phase == "" {
			// No status in the dump: nothing to compare addresses and
			// conditions with (Report.Skipped says so).
			if c.statusless == nil {
				c.statusless = map[types.NamespacedName]bool{}
			}
			c.statusless[nn(pod.Namespace, pod.Name)] = true
		} else {
			if r == roleDefault {
				c.checkPodIPs(ref, e, name, pod)
			}
			c.checkConditions(ref, e, name, pod, svc, r, mgr)
		}
		c.checkTopology(ref, e, name, pod, svc, skipsMissingNodes)
		c.checkHostname(ref, e, name, pod, svc)
		c.checkPodPorts(ref, slicePorts, pod, svc, r)
	}
}

func (c *checker) checkPodIPs(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod) {
	ips := map[string]bool{}
	for _, ip := range pod.Status.PodIPs {
		ips[canonicalIP(ip.IP)] = true
	}
	if pod.Status.PodIP != "" {
		ips[canonicalIP(pod.Status.PodIP)] = true
	}
	for _, a := range e.Addresses {
		if !ips[canonicalIP(a)] {
			c.add(SeverityError, RuleEndpointAddress, ref, "endpoint %s: %s is not an IP of Pod %s (podIPs %v)", name, a, pod.Name, slices.Sorted(maps.Keys(ips)))
		}
	}
}

func boolWord(p *bool) string {
	if p == nil {
		return "unset"
	}
	return fmt.Sprint(*p)
}

// checkConditions compares ready/serving/terminating with the conditions
// the default controller derives from the Pod (podendpoint.PodToEndpoint,
// k8s.io/endpointslice podToEndpoint). Unset conditions are accepted from
// controllers other than the default one.
//
// A custom controller (managed-by mgr) whose oracle does not hold it to
// the Pod Ready condition (registry.Oracle.PodReadyServing, the
// secondary-network controller's) may decide serving itself (a CEL profile's ready expression,
// KEP-4770 leaves the endpoints to the controller): for its endpoints only
// what every writer must keep is checked, when set: terminating follows the
// Pod's deletion, and ready is serving and not terminating, or true with
// publishNotReadyAddresses (KEP-1672).
func (c *checker) checkConditions(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod, svc *corev1.Service, r role, mgr string) {
	want := podendpoint.PodToEndpoint(pod, nil, svc, nil).Conditions
	ready, serving, terminating := *want.Ready, *want.Serving, *want.Terminating
	if r == roleOther && !c.cfg.podReadyServing(mgr) && e.Conditions.Serving != nil {
		serving = *e.Conditions.Serving
		ready = svc.Spec.PublishNotReadyAddresses || serving && !terminating
	}
	strict := r == roleDefault
	bad := func(got *bool, want bool) bool {
		if got == nil {
			return strict
		}
		return *got != want
	}
	cond := e.Conditions
	if bad(cond.Ready, ready) || bad(cond.Serving, serving) || bad(cond.Terminating, terminating) {
		c.add(SeverityError, RuleEndpointConditions, ref,
			"endpoint %s (Pod %s): ready=%s serving=%s terminating=%s, want ready=%t serving=%t terminating=%t",
			name, pod.Name, boolWord(cond.Ready), boolWord(cond.Serving), boolWord(cond.Terminating), ready, serving, terminating)
	}
}

// checkTopology compares nodeName and zone with the Pod and its Node. When
// the input has Nodes and skipsMissingNodes (the slice's controller is the
// default one, or the secondary-network one for its Service), an endpoint
// for a Pod whose Node does not exist is an error unless the Service has
// publishNotReadyAddresses: KCM skips such Pods (k8s.io/endpointslice
// reconciler.go reconcileByAddressType, nodeLister.Get NotFound; behaviour
// C18, edge case E14), and so do servicepods.Desired and source.Desired.
func (c *checker) checkTopology(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod, svc *corev1.Service, skipsMissingNodes bool) {
	node := pod.Spec.NodeName
	if c.inv.Have.Nodes && skipsMissingNodes && !svc.Spec.PublishNotReadyAddresses && c.nodes[node] == nil {
		what := fmt.Sprintf("the Pod's Node %s does not exist", node)
		if node == "" {
			what = "the Pod names no Node (a Node lookup of \"\" finds none)"
		}
		c.add(SeverityError, RuleEndpointNodeName, ref,
			"endpoint %s (Pod %s): %s; the slice's controller, like KCM, skips such Pods (Service %s has no publishNotReadyAddresses)",
			name, pod.Name, what, svc.Name)
	}
	if node == "" {
		if e.NodeName != nil {
			c.add(SeverityError, RuleEndpointNodeName, ref, "endpoint %s (Pod %s): nodeName is %s, the Pod is not scheduled to a Node", name, pod.Name, *e.NodeName)
		}
		if e.Zone != nil {
			c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is %q, the Pod is not scheduled to a Node", name, pod.Name, *e.Zone)
		}
		return
	}
	switch {
	case e.NodeName == nil:
		c.add(SeverityWarning, RuleEndpointNodeName, ref, "endpoint %s (Pod %s): nodeName is not set, the Pod runs on %s", name, pod.Name, node)
	case *e.NodeName != node:
		c.add(SeverityError, RuleEndpointNodeName, ref, "endpoint %s (Pod %s): nodeName is %s, the Pod runs on %s", name, pod.Name, *e.NodeName, node)
	}
	if !c.inv.Have.Nodes {
		return
	}
	n := c.nodes[node]
	if n == nil {
		if e.Zone != nil {
			c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is %q, but Node %s does not exist", name, pod.Name, *e.Zone, node)
		}
		return
	}
	zone := n.Labels[corev1.LabelTopologyZone]
	switch {
	case zone != "" && e.Zone == nil:
		c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is not set, Node %s is in zone %s", name, pod.Name, node, zone)
	case e.Zone != nil && *e.Zone != zone:
		c.add(SeverityWarning, RuleEndpointZone, ref, "endpoint %s (Pod %s): zone is %q, Node %s is in zone %q", name, pod.Name, *e.Zone, node, zone)
	}
}

// checkHostname applies the subdomain rule (ShouldSetHostname).
func (c *checker) checkHostname(ref ObjectRef, e *discovery.Endpoint, name string, pod *corev1.Pod, svc *corev1.Service) {
	want := ""
	if pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && pod.Namespace == svc.Namespace {
		want = pod.Spec.Hostname
	}
	switch {
	case e.Hostname == nil && want != "":
		c.add(SeverityWarning, RuleEndpointHostname, ref, "endpoint %s (Pod %s): hostname is not set, want %q (the Pod's subdomain names this Service)", name, pod.Name, want)
	case e.Hostname != nil && want == "":
		c.add(SeverityError, RuleEndpointHostname, ref, "endpoint %s (Pod %s): hostname %q is set, but the Pod's subdomain %q does not name Service %s", name, pod.Name, *e.Hostname, pod.Spec.Subdomain, svc.Name)
	case e.Hostname != nil && *e.Hostname != want:
		c.add(SeverityError, RuleEndpointHostname, ref, "endpoint %s (Pod %s): hostname is %q, want %q", name, pod.Name, *e.Hostname, want)
	}
}

// checkPodPorts resolves every Service port on the Pod (FindPort) and
// compares with the slice's ports.
func (c *checker) checkPodPorts(ref ObjectRef, slicePorts map[string]*discovery.EndpointPort, pod *corev1.Pod, svc *corev1.Service, r role) {
	for i := range svc.Spec.Ports {
		sp := svc.Spec.Ports[i]
		sp.Protocol = svcProtocol(sp.Protocol)
		unset := sp.TargetPort.Type == 0 && sp.TargetPort.IntVal == 0
		if unset {
			sp.TargetPort.IntVal = sp.Port
		}
		want, ok := findPort(pod, &sp)
		got := slicePorts[sp.Name]
		switch {
		case ok && got != nil && got.Port != nil && *got.Port != want && (!unset || *got.Port != 0):
			c.add(SeverityError, RulePortMismatch, ref, "port %q is %d, but targetPort %s resolves to %d on Pod %s", sp.Name, *got.Port, sp.TargetPort.String(), want, pod.Name)
		case ok && got == nil && r == roleDefault:
			c.add(SeverityError, RulePortMismatch, ref, "port %q is missing, but targetPort %s resolves to %d on Pod %s", sp.Name, sp.TargetPort.String(), want, pod.Name)
		case !ok && got != nil:
			c.add(SeverityError, RulePortMismatch, ref, "port %q is published, but Pod %s has no %s container port named %q", sp.Name, pod.Name, sp.Protocol, sp.TargetPort.StrVal)
		}
	}
}

// findPort is k8s.io/endpointslice FindPort (v0.37.2): a numeric
// targetPort is taken as it is; a named one is looked up, with the same
// protocol, in the containers and then in the restartable (sidecar) init
// containers. Container ports without protocol count as TCP.
func findPort(pod *corev1.Pod, sp *corev1.ServicePort) (int32, bool) {
	if sp.TargetPort.Type == 0 {
		return sp.TargetPort.IntVal, true
	}
	name := sp.TargetPort.StrVal
	lookup := func(cs []corev1.Container, sidecarsOnly bool) (int32, bool) {
		for _, ct := range cs {
			if sidecarsOnly && (ct.RestartPolicy == nil || *ct.RestartPolicy != corev1.ContainerRestartPolicyAlways) {
				continue
			}
			for _, p := range ct.Ports {
				if p.Name == name && svcProtocol(p.Protocol) == sp.Protocol {
					return p.ContainerPort, true
				}
			}
		}
		return 0, false
	}
	if p, ok := lookup(pod.Spec.Containers, false); ok {
		return p, true
	}
	return lookup(pod.Spec.InitContainers, true)
}
