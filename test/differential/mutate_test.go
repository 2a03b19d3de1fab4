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

package differential

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// mutation is one kind of change between two syncs, with its weight.
type mutation struct {
	name   string
	weight int
	apply  func(sc *scenario)
}

// mutations are the changes a step draws from: Pod churn, Service edits,
// Node churn, and hand edits of the existing slices.
var mutations = []mutation{
	{"addPods", 10, func(sc *scenario) {
		for range 1 + sc.rng.IntN(3) {
			p := sc.newPod()
			sc.pods = append(sc.pods, p)
			sc.logf("add pod %s", p.Name)
		}
	}},
	{"removePods", 8, func(sc *scenario) {
		for range 1 + sc.rng.IntN(3) {
			if len(sc.pods) == 0 {
				return
			}
			i := sc.rng.IntN(len(sc.pods))
			sc.logf("remove pod %s", sc.pods[i].Name)
			sc.pods = slices.Delete(sc.pods, i, i+1)
		}
	}},
	{"flipReady", 14, func(sc *scenario) {
		for range 1 + sc.rng.IntN(3) {
			if len(sc.pods) == 0 {
				return
			}
			p := pick(sc.rng, sc.pods)
			c := readyCondition(p)
			if c == nil {
				p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(sc.now)})
				sc.logf("pod %s gets Ready=True", p.Name)
				continue
			}
			if c.Status == corev1.ConditionTrue {
				c.Status = corev1.ConditionFalse
			} else {
				c.Status = corev1.ConditionTrue
			}
			c.LastTransitionTime = metav1.NewTime(sc.now)
			sc.logf("pod %s flips Ready to %s", p.Name, c.Status)
		}
	}},
	{"changeIPs", 5, func(sc *scenario) {
		if len(sc.pods) > 0 {
			p := pick(sc.rng, sc.pods)
			sc.randomizeIPs(p)
			sc.logf("pod %s gets IPs %v", p.Name, p.Status.PodIPs)
		}
	}},
	{"changePhase", 3, func(sc *scenario) {
		if len(sc.pods) > 0 {
			p := pick(sc.rng, sc.pods)
			p.Status.Phase = pick(sc.rng, []corev1.PodPhase{corev1.PodRunning, corev1.PodPending, corev1.PodSucceeded, corev1.PodFailed})
			sc.logf("pod %s phase %s", p.Name, p.Status.Phase)
		}
	}},
	{"terminatePod", 3, func(sc *scenario) {
		if len(sc.pods) > 0 {
			p := pick(sc.rng, sc.pods)
			if p.DeletionTimestamp == nil {
				p.DeletionTimestamp = ptr.To(metav1.NewTime(sc.now))
			} else {
				p.DeletionTimestamp = nil
			}
			sc.logf("pod %s deletionTimestamp %v", p.Name, p.DeletionTimestamp)
		}
	}},
	{"movePod", 3, func(sc *scenario) {
		if len(sc.pods) > 0 {
			p := pick(sc.rng, sc.pods)
			sc.randomizeNodeName(p)
			sc.logf("pod %s on node %q", p.Name, p.Spec.NodeName)
		}
	}},
	{"podHostname", 2, func(sc *scenario) {
		if len(sc.pods) > 0 {
			p := pick(sc.rng, sc.pods)
			sc.randomizeHostname(p)
			sc.logf("pod %s hostname %q subdomain %q", p.Name, p.Spec.Hostname, p.Spec.Subdomain)
		}
	}},
	{"podPorts", 4, func(sc *scenario) {
		if len(sc.pods) > 0 {
			p := pick(sc.rng, sc.pods)
			sc.randomizeContainers(p)
			sc.logf("pod %s gets new container ports", p.Name)
		}
	}},
	{"svcPorts", 4, func(sc *scenario) {
		sc.randomizePorts(sc.svc)
		sc.logf("service ports %v", sc.svc.Spec.Ports)
	}},
	{"svcLabels", 4, func(sc *scenario) {
		sc.randomizeLabels(sc.svc)
		sc.logf("service labels %v", sc.svc.Labels)
	}},
	{"svcFamilies", 3, func(sc *scenario) {
		sc.randomizeFamilies(sc.svc)
		sc.logf("service clusterIP %q families %v", sc.svc.Spec.ClusterIP, sc.svc.Spec.IPFamilies)
	}},
	{"svcTrafficDistribution", 4, func(sc *scenario) {
		sc.randomizeTrafficDistribution(sc.svc)
		sc.logf("service trafficDistribution %v", ptr.Deref(sc.svc.Spec.TrafficDistribution, "<nil>"))
	}},
	{"svcTopologyMode", 3, func(sc *scenario) {
		sc.randomizeTopologyAnnotation(sc.svc)
		sc.logf("service annotations %v", sc.svc.Annotations)
	}},
	{"svcPublishNotReady", 2, func(sc *scenario) {
		sc.svc.Spec.PublishNotReadyAddresses = !sc.svc.Spec.PublishNotReadyAddresses
		sc.logf("service publishNotReadyAddresses %v", sc.svc.Spec.PublishNotReadyAddresses)
	}},
	{"svcRecreate", 1, func(sc *scenario) {
		// Same name, new object: existing slices are owned by a stale UID.
		sc.svc.UID = types.UID(fmt.Sprintf("svc-uid-%d", sc.next()))
		sc.svc.CreationTimestamp = metav1.NewTime(sc.now)
		sc.svc.DeletionTimestamp = nil
		sc.logf("service recreated with UID %s", sc.svc.UID)
	}},
	{"svcDeleting", 1, func(sc *scenario) {
		if sc.svc.DeletionTimestamp == nil {
			sc.svc.DeletionTimestamp = ptr.To(metav1.NewTime(sc.now))
		} else {
			sc.svc.DeletionTimestamp = nil
		}
		sc.logf("service deletionTimestamp %v", sc.svc.DeletionTimestamp)
	}},
	{"deleteNode", 3, func(sc *scenario) {
		if len(sc.nodes) > 0 {
			i := sc.rng.IntN(len(sc.nodes))
			sc.logf("delete node %s", sc.nodes[i].Name)
			sc.nodes = slices.Delete(sc.nodes, i, i+1)
		}
	}},
	{"addNode", 2, func(sc *scenario) {
		n := sc.newNode()
		sc.nodes = append(sc.nodes, n)
		sc.logf("add node %s %v", n.Name, n.Labels)
	}},
	{"changeNode", 3, func(sc *scenario) {
		if len(sc.nodes) > 0 {
			n := pick(sc.rng, sc.nodes)
			sc.randomizeNode(n)
			sc.logf("node %s now %v cpu=%v", n.Name, n.Labels, n.Status.Allocatable.Cpu())
		}
	}},
	{"handEdit", 14, func(sc *scenario) {
		for range 1 + sc.rng.IntN(2) {
			sc.handEdit()
		}
	}},
	{"noop", 4, func(sc *scenario) { sc.logf("no change") }},
}

var mutationWeight = func() int {
	n := 0
	for _, m := range mutations {
		n += m.weight
	}
	return n
}()

// mutate advances the clock and applies one to three random mutations.
func (sc *scenario) mutate() {
	sc.log = sc.log[:0]
	sc.now = sc.now.Add(time.Duration(1+sc.rng.IntN(30)) * time.Second)
	if sc.svc.DeletionTimestamp != nil && sc.chance(40) {
		// Deletion is short-lived: the garbage collector (not simulated)
		// would remove the Service, or a finalizer is dropped and it stays.
		sc.svc.DeletionTimestamp = nil
		sc.logf("service no longer deleting")
	}
	for range 1 + sc.rng.IntN(3) {
		w := sc.rng.IntN(mutationWeight)
		for _, m := range mutations {
			if w < m.weight {
				m.apply(sc)
				break
			}
			w -= m.weight
		}
	}
}

// managedSlices returns the indexes of the slices the controller lists for
// the Service: our managed-by and our service-name label.
func (sc *scenario) managedSlices() []int {
	var out []int
	for i, s := range sc.slices {
		if s.Labels[discovery.LabelManagedBy] == controllerName && s.Labels[discovery.LabelServiceName] == serviceName {
			out = append(out, i)
		}
	}
	return out
}

// handEdit changes the cluster's slices the way a user, another tool or a
// bug would: endpoints removed, duplicated or altered, labels and
// annotations drifted, slices deleted, re-owned, re-typed or merged, and
// foreign or stale slices added. Edited slices get a new generation, as the
// API server would give them.
func (sc *scenario) handEdit() {
	r := sc.rng
	managed := sc.managedSlices()
	var s *discovery.EndpointSlice
	if len(managed) > 0 {
		i := pick(r, managed)
		s = sc.slices[i].DeepCopy()
		s.Generation++
		sc.slices[i] = s
	}
	withEndpoint := func() (*discovery.Endpoint, bool) {
		if s == nil || len(s.Endpoints) == 0 {
			return nil, false
		}
		return &s.Endpoints[r.IntN(len(s.Endpoints))], true
	}
	switch k := r.IntN(16); {
	case k == 0 || s == nil:
		if sc.chance(50) {
			ns := sc.handSlice(foreignController, sc.svc.UID)
			sc.slices = append(sc.slices, ns)
			sc.logf("hand: add foreign slice %s", ns.Name)
		} else {
			ns := sc.handSlice(controllerName, types.UID(fmt.Sprintf("stale-uid-%d", sc.next())))
			sc.slices = append(sc.slices, ns)
			sc.logf("hand: add stale-owner slice %s", ns.Name)
		}
	case k == 1:
		if len(s.Endpoints) > 0 {
			j := r.IntN(len(s.Endpoints))
			s.Endpoints = slices.Delete(s.Endpoints, j, j+1)
			sc.logf("hand: remove endpoint %d of %s", j, s.Name)
		}
	case k == 2:
		if ep, ok := withEndpoint(); ok {
			target := s
			if sc.chance(50) {
				target = sc.slices[pick(r, managed)]
				if target != s {
					target = target.DeepCopy()
					target.Generation++
					sc.replace(target)
				}
			}
			target.Endpoints = append(target.Endpoints, *ep.DeepCopy())
			sc.logf("hand: duplicate an endpoint of %s into %s", s.Name, target.Name)
		}
	case k <= 5:
		if ep, ok := withEndpoint(); ok {
			sc.alterEndpoint(ep)
			sc.logf("hand: alter an endpoint of %s: %s", s.Name, sc.log[len(sc.log)-1])
		}
	case k == 6:
		if s.Labels == nil {
			s.Labels = map[string]string{}
		}
		switch r.IntN(6) {
		case 0:
			s.Labels["drift"] = "x"
		case 1:
			for key := range s.Labels {
				if key != discovery.LabelManagedBy && key != discovery.LabelServiceName {
					delete(s.Labels, key)
					break
				}
			}
		case 2:
			for key := range s.Labels {
				if key != discovery.LabelManagedBy && key != discovery.LabelServiceName {
					s.Labels[key] = "changed"
					break
				}
			}
		case 3:
			if _, ok := s.Labels[corev1.IsHeadlessService]; ok {
				delete(s.Labels, corev1.IsHeadlessService)
			} else {
				s.Labels[corev1.IsHeadlessService] = ""
			}
		case 4:
			s.Labels[discovery.LabelServiceName] = "other" // no longer listed
		case 5:
			s.Labels[discovery.LabelManagedBy] = foreignController // now foreign
		}
		sc.logf("hand: labels of %s now %v", s.Name, s.Labels)
	case k == 7:
		if s.Annotations == nil {
			s.Annotations = map[string]string{}
		}
		switch r.IntN(3) {
		case 0:
			s.Annotations["example.com/note"] = "hand"
		case 1:
			delete(s.Annotations, corev1.EndpointsLastChangeTriggerTime)
		case 2:
			s.Annotations[corev1.EndpointsLastChangeTriggerTime] = "garbage"
		}
		sc.logf("hand: annotations of %s now %v", s.Name, s.Annotations)
	case k == 8:
		sc.replace(nil, s.Name)
		sc.logf("hand: delete slice %s", s.Name)
	case k == 9:
		switch r.IntN(4) {
		case 0:
			if len(s.OwnerReferences) > 0 {
				s.OwnerReferences[0].UID = types.UID(fmt.Sprintf("stale-uid-%d", sc.next()))
			}
		case 1:
			s.OwnerReferences = nil
		case 2:
			if len(s.OwnerReferences) > 0 {
				s.OwnerReferences[0].Kind = "Endpoints"
			}
		case 3:
			s.OwnerReferences = append(s.OwnerReferences, metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", UID: "cm-uid"})
		}
		sc.logf("hand: owner references of %s now %v", s.Name, s.OwnerReferences)
	case k == 10:
		switch {
		case len(s.Ports) == 0:
			s.Ports = []discovery.EndpointPort{{Name: ptr.To("hand"), Port: ptr.To(int32(1234)), Protocol: ptr.To(corev1.ProtocolTCP)}}
		case sc.chance(30):
			s.Ports = s.Ports[1:]
		case sc.chance(40) && len(s.Ports) > 1:
			slices.Reverse(s.Ports)
		default:
			s.Ports[0].Port = ptr.To(ptr.Deref(s.Ports[0].Port, 0) + 1)
		}
		sc.logf("hand: ports of %s now %s", s.Name, fmtPorts(s.Ports))
	case k == 11:
		ns := sc.handSlice(controllerName, sc.svc.UID)
		if sc.chance(40) {
			ns.Endpoints = []discovery.Endpoint{}
			ns.Ports = []discovery.EndpointPort{}
		}
		sc.slices = append(sc.slices, ns)
		sc.logf("hand: add own slice %s with %d endpoints", ns.Name, len(ns.Endpoints))
	case k == 12:
		switch {
		case sc.chance(30):
			s.AddressType = discovery.AddressTypeFQDN
		case s.AddressType == discovery.AddressTypeIPv4:
			s.AddressType = discovery.AddressTypeIPv6
		default:
			s.AddressType = discovery.AddressTypeIPv4
		}
		sc.logf("hand: address type of %s now %s", s.Name, s.AddressType)
	case k == 13:
		// Merge another slice of the same kind into s (may overfill it).
		for _, j := range managed {
			o := sc.slices[j]
			if o.Name != s.Name && o.AddressType == s.AddressType && fmtPorts(o.Ports) == fmtPorts(s.Ports) {
				s.Endpoints = append(s.Endpoints, o.DeepCopy().Endpoints...)
				sc.replace(nil, o.Name)
				sc.logf("hand: merge %s into %s (%d endpoints)", o.Name, s.Name, len(s.Endpoints))
				break
			}
		}
	default:
		// Reorder endpoints: no semantic change.
		r.Shuffle(len(s.Endpoints), func(i, j int) { s.Endpoints[i], s.Endpoints[j] = s.Endpoints[j], s.Endpoints[i] })
		sc.logf("hand: shuffle endpoints of %s", s.Name)
	}
}

// replace puts s in place of the slice with the same name, or, with s nil,
// deletes the slice named name[0].
func (sc *scenario) replace(s *discovery.EndpointSlice, name ...string) {
	n := ""
	if s != nil {
		n = s.Name
	} else {
		n = name[0]
	}
	for i, x := range sc.slices {
		if x.Name == n {
			if s == nil {
				sc.slices = slices.Delete(sc.slices, i, i+1)
			} else {
				sc.slices[i] = s
			}
			return
		}
	}
}

func (sc *scenario) alterEndpoint(ep *discovery.Endpoint) {
	r := sc.rng
	switch r.IntN(11) {
	case 0:
		ep.Conditions.Ready = flip(ep.Conditions.Ready)
		sc.logf("ready %v", ptr.Deref(ep.Conditions.Ready, false))
	case 1:
		if sc.chance(50) {
			ep.Conditions.Serving = flip(ep.Conditions.Serving)
		} else {
			ep.Conditions.Terminating = nil
		}
		sc.logf("serving/terminating changed")
	case 2:
		if ep.Zone == nil || sc.chance(50) {
			ep.Zone = ptr.To(pick(r, zones))
		} else {
			ep.Zone = nil
		}
		sc.logf("zone %v", ptr.Deref(ep.Zone, "<nil>"))
	case 3:
		ep.NodeName = ptr.To(fmt.Sprintf("node-%d", r.IntN(5)))
		sc.logf("nodeName %s", *ep.NodeName)
	case 4:
		if ep.TargetRef != nil {
			if sc.chance(50) {
				ep.TargetRef.ResourceVersion = "42" // ignored by both
			} else {
				ep.TargetRef.UID = "other-uid"
			}
		}
		sc.logf("targetRef %v", ep.TargetRef)
	case 5:
		ep.TargetRef = nil // identity changes
		sc.logf("targetRef removed")
	case 6, 7:
		switch r.IntN(4) {
		case 0:
			ep.Hints = nil
		case 1:
			ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: pick(r, zones)}}}
		case 2:
			ep.Hints = &discovery.EndpointHints{ForNodes: []discovery.ForNode{{Name: fmt.Sprintf("node-%d", r.IntN(5))}}}
		case 3:
			ep.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}, {Name: "zone-b"}}}
		}
		sc.logf("hints %v", ep.Hints)
	case 8:
		if ep.Hostname == nil {
			ep.Hostname = ptr.To("hand-host")
		} else {
			ep.Hostname = nil
		}
		sc.logf("hostname %v", ep.Hostname)
	case 9:
		// A second address in front: same identity only once sorted.
		ep.Addresses = append([]string{"10.255.255.254"}, ep.Addresses...)
		if sc.chance(50) && len(ep.Addresses) > 1 {
			ep.Addresses = ep.Addresses[1:]
			slices.Reverse(ep.Addresses)
		}
		sc.logf("addresses %v", ep.Addresses)
	case 10:
		ep.Addresses = []string{sc.ipv4()}
		sc.logf("addresses %v", ep.Addresses)
	}
}

func flip(b *bool) *bool {
	if b == nil {
		return ptr.To(true)
	}
	return ptr.To(!*b)
}
