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

package source

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
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

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
// come from KCM's Pod rules (pkg/source/podendpoint).
//
// Steps:
//  1. Address types: src.AddressTypes(svc), else podendpoint.AddressTypes
//     (KCM C15). Hints: podendpoint.Hints.
//  2. src.CheckService, when set, may reject the Service: one
//     Service-level Problem, and a Desired without groups (placeholders
//     only), so nothing is published for a misconfigured Service.
//  3. Pods in namespace/name order, those failing
//     podendpoint.ShouldPodBeInEndpoints(pod, true) left out silently
//     (KCM C16). For each other pod: src.Addresses (and src.Serving); an
//     error, or an address ParseEndpointIP refuses, leaves the pod out with
//     a Problem. Duplicates within a pod are dropped. With src.Guard, each
//     address it refuses is taken away with a Problem of its reason (one
//     per reason and pod, naming the addresses); a pod left with no
//     address is left out.
//  4. The pod's Node, as in servicepods.Desired: missing means the pod is
//     left out with a *podendpoint.SkippedPodError in the returned error
//     (retry), unless spec.publishNotReadyAddresses; another lookup error
//     ends Desired with (nil, problems, err).
//  5. An address on several pods goes to one of them, the first in this
//     order: not terminating before terminating, older creationTimestamp,
//     namespace/name, UID. Each other pod loses that address, with a
//     ReasonDuplicateAddress Problem.
//  6. For each address type, each pod contributes one endpoint per address
//     of that family (never an address of another family: families are
//     never mixed), built by podendpoint.PodToEndpoint with that single
//     address; like KCM's, every endpoint has exactly one address. Its port
//     group is podendpoint.EndpointPorts(svc, pod). A pod with addresses
//     but none of the Service's address types gets a
//     ReasonAddressFamilyMismatch Problem.
//
// With src.Serving set, an endpoint's serving condition is its result and
// ready is spec.publishNotReadyAddresses || (serving && !terminating), as
// KCM derives it (C17).
//
// Problems are returned in pod order; they are never errors: the Desired
// is complete without those pods. Nothing in the inputs is modified.
func Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes podendpoint.NodeGetter, src PodAddresses) (*reconciler.Desired, []Problem, error) {
	if svc == nil {
		return nil, nil, errors.New("source: Service is nil")
	}
	if nodes == nil {
		return nil, nil, errors.New("source: NodeGetter is nil")
	}
	if err := src.Validate(); err != nil {
		return nil, nil, err
	}
	logger := klog.FromContext(ctx)

	d := &reconciler.Desired{Hints: podendpoint.Hints(svc, podendpoint.Options{})}
	if src.AddressTypes != nil {
		d.AddressTypes = src.AddressTypes(svc)
	} else {
		d.AddressTypes = podendpoint.AddressTypes(svc)
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

	cachedNodes := podendpoint.CachedNodes(nodes)
	var problems []Problem
	var skipErrs []error
	var cands []*candidate

	for _, pod := range sorted {
		if !podendpoint.ShouldPodBeInEndpoints(pod, true) {
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
		if src.Guard != nil {
			var refused []Problem
			addrs, refused = guardAddresses(src.Guard, svc, pod, addrs)
			problems = append(problems, refused...)
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

		node, err := cachedNodes.Get(pod.Spec.NodeName)
		notFound := apierrors.IsNotFound(err)
		if err != nil && !notFound {
			return nil, problems, fmt.Errorf("getting Node %q of Pod %s for Service %s: %w", pod.Spec.NodeName, klog.KObj(pod), klog.KObj(svc), err)
		}
		if notFound && !svc.Spec.PublishNotReadyAddresses {
			logger.Info("skipping Pod for Service, Node not found", "pod", klog.KObj(pod), "service", klog.KObj(svc), "node", klog.KRef("", pod.Spec.NodeName))
			skipErrs = append(skipErrs, &podendpoint.SkippedPodError{Pod: pod.Name, Namespace: svc.Namespace, Service: svc.Name, Node: pod.Spec.NodeName})
			continue
		}
		if !notFound {
			c.node = node
		}
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
		ports[i] = podendpoint.EndpointPorts(ctx, svc, c.pod)
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
					d.Groups = append(d.Groups, reconciler.EndpointGroup{AddressType: at, Ports: reconciler.CopyPorts(ports[i])})
				}
				ep := podendpoint.PodToEndpoint(c.pod, c.node, svc, []string{a.String()})
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

// guardAddresses returns the addresses of addrs that g accepts, in order,
// and one Problem per refusal reason naming the refused addresses (in
// reason order of first appearance).
func guardAddresses(g AddressGuard, svc *corev1.Service, pod *corev1.Pod, addrs []netip.Addr) ([]netip.Addr, []Problem) {
	var kept []netip.Addr
	var reasons []string
	msgs := map[string][]string{}
	for _, a := range addrs {
		err := g.CheckAddress(svc, pod, a)
		if err == nil {
			kept = append(kept, a)
			continue
		}
		reason := ReasonAddressesFailed
		var se *SkipError
		if errors.As(err, &se) && se.Reason != "" {
			reason = se.Reason
		}
		if _, ok := msgs[reason]; !ok {
			reasons = append(reasons, reason)
		}
		msgs[reason] = append(msgs[reason], err.Error())
	}
	var problems []Problem
	for _, r := range reasons {
		p := problemFrom(pod, svc, r, errors.New(strings.Join(msgs[r], "; ")))
		p.Message = fmt.Sprintf("Pod %s/%s: address(es) refused for Service %s/%s: %s", pod.Namespace, pod.Name, svc.Namespace, svc.Name, strings.Join(msgs[r], "; "))
		problems = append(problems, p)
	}
	return kept, problems
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
