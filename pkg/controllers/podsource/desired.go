/*
Copyright 2026 The slicekit Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package podsource

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	utilnet "k8s.io/utils/net"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// AddressFunc returns the IP addresses under which pod backs svc: the
// addresses of the pod's endpoints, instead of status.podIPs. It is called
// only for pods that may back a Service at all (servicepods
// ShouldPodBeInEndpoints with terminating pods included). It must not
// modify svc or pod, which come from informer caches.
//
// Every returned string must be an IP address (surrounding spaces are
// ignored); see ParseEndpointIP. An empty result leaves the pod out without
// a Problem. A non-nil error leaves the pod out and becomes a Problem: the
// reason of a *SkipError, else ReasonAddressesFailed.
type AddressFunc func(ctx context.Context, svc *corev1.Service, pod *corev1.Pod) ([]string, error)

// ServingFunc returns whether pod is ready to serve for svc. It replaces
// the Pod Ready condition (servicepods.IsPodReady) as the endpoint's
// serving condition; ready is then derived as in KCM. A non-nil error
// leaves the pod out, as for AddressFunc.
type ServingFunc func(ctx context.Context, svc *corev1.Service, pod *corev1.Pod) (bool, error)

// Source is where a pod-source controller takes its endpoints from. Only
// Addresses is required.
type Source struct {
	// Addresses returns a pod's addresses. Required.
	Addresses AddressFunc
	// Serving, when not nil, replaces the Pod Ready rule for the serving
	// condition.
	Serving ServingFunc
	// CheckService, when not nil, validates a Service before its pods are
	// looked at. An error is a Service-level Problem (the reason of a
	// *SkipError, else ReasonInvalidService): the Service then gets no
	// endpoints (only placeholders), so that no address of a misconfigured
	// Service is ever published.
	CheckService func(ctx context.Context, svc *corev1.Service) error
	// AddressTypes, when not nil, replaces servicepods.AddressTypes (the
	// Service's spec.ipFamilies, KCM behaviour C15) as the address types
	// of the Service's slices. It must return IPv4 and/or IPv6 only.
	AddressTypes func(svc *corev1.Service) []discovery.AddressType
	// PodChanged, when not nil, reports whether a Pod update may change
	// what Addresses or Serving return, beyond the fields KCM watches
	// (labels, hostname, subdomain, deletionTimestamp, Ready condition,
	// Pod IPs; k8s.io/endpointslice util.GetPodUpdateProjectionKey). The
	// controller then syncs the Pod's Services. It is called only for
	// updates that change the resourceVersion and must not modify its
	// arguments.
	PodChanged func(oldPod, curPod *corev1.Pod) bool
}

// Validate reports whether s can be used.
func (s Source) Validate() error {
	if s.Addresses == nil {
		return errors.New("podsource: Source.Addresses is nil")
	}
	return nil
}

// Reasons of Problems found by Desired itself. Sources add their own
// (for example networkstatus.ReasonAmbiguousAttachment). Reasons are
// UpperCamelCase, as Kubernetes event reasons are, and are the values of
// the reason label of the skipped-pods metrics.
const (
	// ReasonAddressesFailed: the source's AddressFunc or ServingFunc failed
	// with an error that is not a *SkipError.
	ReasonAddressesFailed = "AddressesFailed"
	// ReasonInvalidService: the source's CheckService failed with an error
	// that is not a *SkipError.
	ReasonInvalidService = "InvalidService"
	// ReasonInvalidAddress: the source returned a string that is not an
	// IP address an EndpointSlice accepts (see ParseEndpointIP). The pod is
	// left out entirely, so that a half-understood result never becomes a
	// partial endpoint.
	ReasonInvalidAddress = "InvalidAddress"
	// ReasonDuplicateAddress: another selected pod has the same address
	// and keeps it (see Desired for the winner); this pod loses that
	// address and keeps its others.
	ReasonDuplicateAddress = "DuplicateAddress"
	// ReasonAddressFamilyMismatch: the pod has addresses, but none of an
	// address type of the Service's slices (for example only IPv6
	// addresses for a single-stack IPv4 Service).
	ReasonAddressFamilyMismatch = "AddressFamilyMismatch"
)

// SkipError is an error of a source that leaves a pod (or, from
// CheckService, a Service) out for a known reason. Sources return it to
// name the reason of the resulting Problem.
type SkipError struct {
	// Reason is the Problem's reason, UpperCamelCase.
	Reason string
	// Err says why; its message is the Problem's message.
	Err error
}

// Skip returns a *SkipError with reason and a message formatted from format
// and args (fmt.Errorf rules, so %w wraps).
func Skip(reason, format string, args ...any) error {
	return &SkipError{Reason: reason, Err: fmt.Errorf(format, args...)}
}

func (e *SkipError) Error() string {
	if e.Err == nil {
		return e.Reason
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error.
func (e *SkipError) Unwrap() error { return e.Err }

// Problem is a pod left out of, or an address taken away from, a Service's
// endpoints, or a Service-level configuration problem. The controller turns
// each new Problem into a Warning event on the Service and counts it in its
// metrics.
type Problem struct {
	// Pod is the pod's namespace and name; empty for a Service-level
	// problem.
	Pod types.NamespacedName
	// Reason is UpperCamelCase (the Reason* constants of this package and
	// of the sources).
	Reason string
	// Message explains the problem; it names the pod and the Service.
	Message string
}

// String returns "reason: message".
func (p Problem) String() string { return p.Reason + ": " + p.Message }

// problemFrom turns an error of a source into a Problem.
func problemFrom(pod *corev1.Pod, svc *corev1.Service, defaultReason string, err error) Problem {
	reason := defaultReason
	var se *SkipError
	if errors.As(err, &se) && se.Reason != "" {
		reason = se.Reason
	}
	p := Problem{Reason: reason}
	if pod == nil {
		p.Message = fmt.Sprintf("Service %s/%s: %v", svc.Namespace, svc.Name, err)
		return p
	}
	p.Pod = types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	p.Message = fmt.Sprintf("Pod %s/%s left out of Service %s/%s: %v", pod.Namespace, pod.Name, svc.Namespace, svc.Name, err)
	return p
}

// ParseEndpointIP parses s as the address of an EndpointSlice endpoint and
// returns it; Addr.String gives its canonical form, which is what the
// slices carry. Surrounding spaces are ignored. IPv4 may have leading zeros
// (k8s.io/utils/net ParseIPSloppy, as KCM parses pod IPs); an IPv4-mapped
// IPv6 address is IPv4, as for KCM (utils.go getEndpointAddresses). It
// returns an error for anything else, for an IPv6 zone, and for the
// addresses the API server refuses in an endpoint: unspecified, loopback,
// link-local unicast and link-local multicast (k8s.io/kubernetes
// pkg/apis/core/validation ValidateEndpointIP, called by the EndpointSlice
// validation), so that one bad address never makes a whole slice write
// fail.
func ParseEndpointIP(s string) (netip.Addr, error) {
	s = strings.TrimSpace(s)
	ip := utilnet.ParseIPSloppy(s)
	if ip == nil {
		return netip.Addr{}, fmt.Errorf("%q is not an IP address", s)
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.Addr{}, fmt.Errorf("%q is not an IP address", s)
	}
	addr = addr.Unmap()
	switch {
	case addr.IsUnspecified():
		return netip.Addr{}, fmt.Errorf("%q is unspecified", s)
	case addr.IsLoopback():
		return netip.Addr{}, fmt.Errorf("%q is a loopback address", s)
	case addr.IsLinkLocalUnicast():
		return netip.Addr{}, fmt.Errorf("%q is a link-local address", s)
	case addr.IsLinkLocalMulticast():
		return netip.Addr{}, fmt.Errorf("%q is a link-local multicast address", s)
	}
	return addr, nil
}

// addressType returns the EndpointSlice address type of addr.
func addressType(addr netip.Addr) discovery.AddressType {
	if addr.Is4() {
		return discovery.AddressTypeIPv4
	}
	return discovery.AddressTypeIPv6
}

// candidate is a pod that passed the source and the node lookup.
type candidate struct {
	pod     *corev1.Pod
	node    *corev1.Node
	addrs   []netip.Addr // valid, deduplicated, in the source's order
	serving *bool        // nil: Pod Ready rule
}

// Desired returns the desired endpoints of svc given pods, the Pods its
// selector matches, with addresses from src instead of status.podIPs. The
// caller selects the pods and skips Services without a selector or of type
// ExternalName, as for servicepods.Desired. Everything but the addresses
// (and, with src.Serving, the serving condition) is KCM's: pod inclusion,
// conditions, nodeName, zone, hostname, targetRef, ports and port groups
// come from the servicepods building blocks.
//
// Steps:
//  1. Address types: src.AddressTypes(svc), else servicepods.AddressTypes
//     (KCM C15). Hints: servicepods.Hints.
//  2. src.CheckService, when set, may reject the Service: one
//     Service-level Problem, and a Desired without groups (placeholders
//     only), so nothing is published for a misconfigured Service.
//  3. Pods in namespace/name order, those failing
//     servicepods.ShouldPodBeInEndpoints(pod, true) left out silently
//     (KCM C16). For each other pod: src.Addresses (and src.Serving); an
//     error, or an address ParseEndpointIP refuses, leaves the pod out with
//     a Problem. Duplicates within a pod are dropped.
//  4. The pod's Node, as in servicepods.Desired: missing means the pod is
//     left out with a *servicepods.SkippedPodError in the returned error
//     (retry), unless spec.publishNotReadyAddresses; another lookup error
//     ends Desired with (nil, problems, err).
//  5. An address on several pods goes to one of them, the first in this
//     order: not terminating before terminating, older creationTimestamp,
//     namespace/name, UID. Each other pod loses that address, with a
//     ReasonDuplicateAddress Problem.
//  6. For each address type, each pod contributes one endpoint per address
//     of that family (never an address of another family: families are
//     never mixed), built by servicepods.PodToEndpoint with that single
//     address; like KCM's, every endpoint has exactly one address. Its port
//     group is servicepods.EndpointPorts(svc, pod). A pod with addresses
//     but none of the Service's address types gets a
//     ReasonAddressFamilyMismatch Problem.
//
// With src.Serving set, an endpoint's serving condition is its result and
// ready is spec.publishNotReadyAddresses || (serving && !terminating), as
// KCM derives it (C17).
//
// Problems are returned in pod order; they are never errors: the Desired
// is complete without those pods. Nothing in the inputs is modified.
func Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes servicepods.NodeGetter, src Source) (*reconciler.Desired, []Problem, error) {
	if svc == nil {
		return nil, nil, errors.New("podsource: Service is nil")
	}
	if nodes == nil {
		return nil, nil, errors.New("podsource: NodeGetter is nil")
	}
	if err := src.Validate(); err != nil {
		return nil, nil, err
	}
	logger := klog.FromContext(ctx)

	d := &reconciler.Desired{Hints: servicepods.Hints(svc, servicepods.Options{})}
	if src.AddressTypes != nil {
		d.AddressTypes = src.AddressTypes(svc)
	} else {
		d.AddressTypes = servicepods.AddressTypes(svc)
	}
	if src.CheckService != nil {
		if err := src.CheckService(ctx, svc); err != nil {
			return d, []Problem{problemFrom(nil, svc, ReasonInvalidService, err)}, nil
		}
	}

	sorted := make([]*corev1.Pod, 0, len(pods))
	for _, p := range pods {
		if p != nil {
			sorted = append(sorted, p)
		}
	}
	slices.SortStableFunc(sorted, func(a, b *corev1.Pod) int {
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})

	type nodeResult struct {
		node     *corev1.Node
		notFound bool
	}
	nodeCache := map[string]nodeResult{}
	var problems []Problem
	var skipErrs []error
	var cands []*candidate

	for _, pod := range sorted {
		if !servicepods.ShouldPodBeInEndpoints(pod, true) {
			continue
		}
		raw, err := src.Addresses(ctx, svc, pod)
		if err != nil {
			problems = append(problems, problemFrom(pod, svc, ReasonAddressesFailed, err))
			continue
		}
		addrs, bad := parseAddresses(raw)
		if len(bad) > 0 {
			problems = append(problems, problemFrom(pod, svc, ReasonInvalidAddress,
				fmt.Errorf("invalid address(es): %s", strings.Join(bad, "; "))))
			continue
		}
		if len(addrs) == 0 {
			continue
		}
		c := &candidate{pod: pod, addrs: addrs}
		if src.Serving != nil {
			serving, err := src.Serving(ctx, svc, pod)
			if err != nil {
				problems = append(problems, problemFrom(pod, svc, ReasonAddressesFailed, err))
				continue
			}
			c.serving = ptr.To(serving)
		}

		nr, ok := nodeCache[pod.Spec.NodeName]
		if !ok {
			node, err := nodes.Get(pod.Spec.NodeName)
			switch {
			case err == nil:
				nr = nodeResult{node: node}
			case apierrors.IsNotFound(err):
				nr = nodeResult{notFound: true}
			default:
				return nil, problems, fmt.Errorf("getting Node %q of Pod %s for Service %s: %w", pod.Spec.NodeName, klog.KObj(pod), klog.KObj(svc), err)
			}
			nodeCache[pod.Spec.NodeName] = nr
		}
		if nr.notFound && !svc.Spec.PublishNotReadyAddresses {
			logger.Info("skipping Pod for Service, Node not found", "pod", klog.KObj(pod), "service", klog.KObj(svc), "node", klog.KRef("", pod.Spec.NodeName))
			skipErrs = append(skipErrs, &servicepods.SkippedPodError{Pod: pod.Name, Namespace: svc.Namespace, Service: svc.Name, Node: pod.Spec.NodeName})
			continue
		}
		c.node = nr.node
		cands = append(cands, c)
	}

	problems = append(problems, resolveDuplicates(svc, cands)...)

	wanted := map[discovery.AddressType]bool{}
	for _, at := range d.AddressTypes {
		wanted[at] = true
	}
	groupIndex := map[string]int{}
	ports := make([][]discovery.EndpointPort, len(cands))
	for i, c := range cands {
		ports[i] = servicepods.EndpointPorts(ctx, svc, c.pod)
		matched := false
		for _, a := range c.addrs {
			if wanted[addressType(a)] {
				matched = true
				break
			}
		}
		if !matched && len(c.addrs) > 0 {
			var fams []string
			for _, a := range c.addrs {
				fams = append(fams, a.String())
			}
			problems = append(problems, problemFrom(c.pod, svc, ReasonAddressFamilyMismatch,
				fmt.Errorf("address(es) %s are of no address type of the Service (%v)", strings.Join(fams, ", "), d.AddressTypes)))
		}
	}
	for _, at := range d.AddressTypes {
		for i, c := range cands {
			key := string(at) + "|" + reconciler.PortMapKey(ports[i])
			for _, a := range c.addrs {
				if addressType(a) != at {
					continue
				}
				gi, ok := groupIndex[key]
				if !ok {
					gi = len(d.Groups)
					groupIndex[key] = gi
					d.Groups = append(d.Groups, reconciler.EndpointGroup{AddressType: at, Ports: copyPorts(ports[i])})
				}
				ep := servicepods.PodToEndpoint(c.pod, c.node, svc, []string{a.String()})
				if c.serving != nil {
					terminating := c.pod.DeletionTimestamp != nil
					ep.Conditions.Serving = ptr.To(*c.serving)
					ep.Conditions.Ready = ptr.To(svc.Spec.PublishNotReadyAddresses || (*c.serving && !terminating))
				}
				d.Groups[gi].Endpoints = append(d.Groups[gi].Endpoints, ep)
			}
		}
	}
	return d, problems, errors.Join(skipErrs...)
}

// parseAddresses parses raw with ParseEndpointIP and drops duplicates; it
// returns the errors of the strings it refused.
func parseAddresses(raw []string) ([]netip.Addr, []string) {
	var out []netip.Addr
	var bad []string
	seen := map[netip.Addr]bool{}
	for _, s := range raw {
		a, err := ParseEndpointIP(s)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out, bad
}

// resolveDuplicates gives each address held by several candidates to the
// first of them in claimOrder and removes it from the others, returning
// one Problem per address taken away.
func resolveDuplicates(svc *corev1.Service, cands []*candidate) []Problem {
	holders := map[netip.Addr][]*candidate{}
	var order []netip.Addr
	for _, c := range cands {
		for _, a := range c.addrs {
			if _, ok := holders[a]; !ok {
				order = append(order, a)
			}
			holders[a] = append(holders[a], c)
		}
	}
	lost := map[*candidate]map[netip.Addr]*candidate{}
	for _, a := range order {
		hs := holders[a]
		if len(hs) < 2 {
			continue
		}
		winner := slices.MinFunc(hs, claimOrder)
		for _, h := range hs {
			if h == winner {
				continue
			}
			if lost[h] == nil {
				lost[h] = map[netip.Addr]*candidate{}
			}
			lost[h][a] = winner
		}
	}
	var problems []Problem
	for _, c := range cands { // pod order
		l := lost[c]
		if len(l) == 0 {
			continue
		}
		kept := c.addrs[:0:0]
		for _, a := range c.addrs {
			w, ok := l[a]
			if !ok {
				kept = append(kept, a)
				continue
			}
			problems = append(problems, problemFrom(c.pod, svc, ReasonDuplicateAddress,
				fmt.Errorf("address %s is also on Pod %s/%s, which keeps it", a, w.pod.Namespace, w.pod.Name)))
		}
		c.addrs = kept
	}
	return problems
}

// claimOrder orders the pods claiming one address: not terminating first,
// then older creationTimestamp, then namespace/name, then UID.
func claimOrder(a, b *candidate) int {
	at, bt := a.pod.DeletionTimestamp != nil, b.pod.DeletionTimestamp != nil
	if at != bt {
		if at {
			return 1
		}
		return -1
	}
	ac, bc := a.pod.CreationTimestamp.Time, b.pod.CreationTimestamp.Time
	if !ac.Equal(bc) {
		if ac.Before(bc) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(a.pod.Namespace, b.pod.Namespace); c != 0 {
		return c
	}
	if c := strings.Compare(a.pod.Name, b.pod.Name); c != 0 {
		return c
	}
	return strings.Compare(string(a.pod.UID), string(b.pod.UID))
}

// copyPorts deep-copies ports, so that groups never share pointers.
func copyPorts(ports []discovery.EndpointPort) []discovery.EndpointPort {
	out := make([]discovery.EndpointPort, len(ports))
	for i := range ports {
		ports[i].DeepCopyInto(&out[i])
	}
	return out
}
