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
	"fmt"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Random event streams for the equality test: random Pods, Services and
// Nodes and their mutations, and the randomized test.

// randomPod returns Pod ns/p<i> with random labels, readiness, addresses,
// Node, hostname, subdomain, phase and container port.
func (w *eqWorld) randomPod(ns string, i int) *corev1.Pod {
	r := w.rng
	p := w.newPod(ns, i, pick(r, "a", "b", "c"))
	if r.IntN(2) == 0 {
		p.Labels["tier"] = pick(r, "fe", "be")
	}
	p.Spec.NodeName = pick(r, "node-1", "node-2", "node-3")
	if r.IntN(12) == 0 {
		p.Spec.NodeName = pick(r, eqMissingNode, "")
	}
	if r.IntN(3) == 0 {
		p.Spec.Hostname = fmt.Sprintf("h%d", i)
		p.Spec.Subdomain = pick(r, "", "a", "b")
	}
	if r.IntN(8) == 0 {
		// A second port group for Services targeting the named port.
		p.Spec.Containers[0].Ports[0].ContainerPort = 9090
	}
	p.Status.Phase = pick(r, corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodPending)
	w.setReady(p, r.IntN(10) < 7)
	w.setIPs(p, pick(r, 1, 1, 1, 1, 1, 2, 2, 2, 0, 3), r.IntN(3))
	return p
}

// mutatePod changes one random thing about p and returns what.
func (w *eqWorld) mutatePod(p *corev1.Pod) string {
	r := w.rng
	switch r.IntN(11) {
	case 0, 1:
		ready := !podendpoint.IsPodReady(p)
		w.setReady(p, ready)
		return fmt.Sprintf("ready=%v", ready)
	case 2:
		mode, gen := pick(r, 1, 1, 2, 0, 3), r.IntN(3)
		w.setIPs(p, mode, gen)
		return fmt.Sprintf("IPs %v", p.Status.PodIPs)
	case 3, 4:
		p.Labels["app"] = pick(r, "a", "b", "c")
		return "app=" + p.Labels["app"]
	case 5:
		if t := pick(r, "", "fe", "be"); t == "" {
			delete(p.Labels, "tier")
		} else {
			p.Labels["tier"] = t
		}
		return fmt.Sprintf("labels %v", p.Labels)
	case 6:
		p.Spec.NodeName = pick(r, "node-1", "node-2", "node-3", eqMissingNode)
		return "nodeName " + p.Spec.NodeName
	case 7:
		if r.IntN(2) == 0 {
			p.Spec.Hostname = pick(r, "", "h", "h2")
			return "hostname " + p.Spec.Hostname
		}
		p.Spec.Subdomain = pick(r, "", "a", "b")
		return "subdomain " + p.Spec.Subdomain
	case 8:
		if p.DeletionTimestamp == nil {
			p.DeletionTimestamp = ptr.To(w.time(w.next()))
			return "terminating"
		}
		p.Annotations = map[string]string{"n": strconv.Itoa(w.next())}
		return "annotation"
	case 9:
		p.Status.Phase = pick(r, corev1.PodFailed, corev1.PodSucceeded, corev1.PodRunning, corev1.PodPending)
		return "phase " + string(p.Status.Phase)
	default:
		p.Annotations = map[string]string{"n": strconv.Itoa(w.next())}
		return "annotation"
	}
}

// randomService returns Service key with a random selector, ports,
// families, publishNotReadyAddresses and traffic distribution.
func (w *eqWorld) randomService(key string) *corev1.Service {
	ns, name, _ := strings.Cut(key, "/")
	s := w.newService(ns, name, "a")
	for range 1 + w.rng.IntN(3) {
		w.mutateService(s)
	}
	return s
}

// mutateService changes one random thing about s and returns what.
func (w *eqWorld) mutateService(s *corev1.Service) string {
	r := w.rng
	switch r.IntN(10) {
	case 0, 1, 2:
		s.Spec.Selector = pick(r,
			map[string]string{"app": "a"}, map[string]string{"app": "b"}, map[string]string{"app": "c"},
			map[string]string{"app": "a", "tier": "fe"}, map[string]string{"tier": "be"},
			map[string]string{"app": "b"}, nil)
		return fmt.Sprintf("selector %v", s.Spec.Selector)
	case 3:
		s.Spec.Ports = eqPorts[r.IntN(len(eqPorts))]
		return fmt.Sprintf("ports %v", s.Spec.Ports)
	case 4:
		s.Spec.IPFamilies = pick(r,
			[]corev1.IPFamily{corev1.IPv4Protocol},
			[]corev1.IPFamily{corev1.IPv4Protocol},
			[]corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol},
			[]corev1.IPFamily{corev1.IPv6Protocol})
		return fmt.Sprintf("families %v", s.Spec.IPFamilies)
	case 5:
		s.Spec.PublishNotReadyAddresses = !s.Spec.PublishNotReadyAddresses
		return fmt.Sprintf("publishNotReadyAddresses %v", s.Spec.PublishNotReadyAddresses)
	case 6:
		s.Spec.TrafficDistribution = pick(r, nil, ptr.To(corev1.ServiceTrafficDistributionPreferClose), ptr.To(corev1.ServiceTrafficDistributionPreferSameNode))
		return fmt.Sprintf("trafficDistribution %v", ptr.Deref(s.Spec.TrafficDistribution, ""))
	case 7:
		if s.Labels[wellknown.LabelEndpointControllerName] == "" && r.IntN(3) == 0 {
			s.Labels = map[string]string{wellknown.LabelEndpointControllerName: "other"}
			return "delegated"
		}
		s.Labels = nil
		return "not delegated"
	case 8:
		if s.Spec.Type != corev1.ServiceTypeExternalName && r.IntN(3) == 0 {
			s.Spec.Type, s.Spec.ExternalName = corev1.ServiceTypeExternalName, "example.com"
			return "type ExternalName"
		}
		s.Spec.Type, s.Spec.ExternalName = corev1.ServiceTypeClusterIP, ""
		return "type ClusterIP"
	default:
		s.Annotations = map[string]string{"n": strconv.Itoa(w.next())}
		return "annotation"
	}
}

// initialStep adds the Nodes, the Services and the Pods, in random order,
// and syncs everything.
func (w *eqWorld) initialStep() eqStep {
	var evs []eqEvent
	for _, n := range eqNodeNames {
		evs = append(evs, w.addNode(n, pick(w.rng, "zone-a", "zone-b", "")))
	}
	for _, key := range eqServiceKeys {
		if w.rng.IntN(4) > 0 {
			evs = append(evs, w.addService(w.randomService(key)))
		}
	}
	for _, ns := range eqNamespaces {
		for i := range eqPodsPerNamespace {
			if w.rng.IntN(5) > 0 {
				evs = append(evs, w.addPod(w.randomPod(ns, i)))
			}
		}
	}
	w.rng.Shuffle(len(evs), func(i, j int) { evs[i], evs[j] = evs[j], evs[i] })
	return eqStep{events: evs, syncAll: true}
}

// podEvent returns a random event for a random Pod: added when absent,
// else updated, resynced or deleted (with a tombstone at times, re-created
// in the same step at times).
func (w *eqWorld) podEvent() []eqEvent {
	r := w.rng
	ns, i := pick(r, eqNamespaces...), r.IntN(eqPodsPerNamespace)
	if w.pods[podKeyOf(ns, i)] == nil {
		return []eqEvent{w.addPod(w.randomPod(ns, i))}
	}
	switch x := r.IntN(20); {
	case x < 14:
		var descs []string
		ev := w.updatePod(ns, i, "", func(p *corev1.Pod) {
			for range 1 + r.IntN(3)/2 + r.IntN(3)/2 {
				descs = append(descs, w.mutatePod(p))
			}
		})
		ev.desc += strings.Join(descs, ", ")
		return []eqEvent{ev}
	case x < 16:
		return []eqEvent{w.resyncPod(ns, i)}
	default:
		evs := []eqEvent{w.deletePod(ns, i, r.IntN(3) == 0)}
		if r.IntN(3) == 0 {
			evs = append(evs, w.addPod(w.randomPod(ns, i)))
		}
		return evs
	}
}

// serviceEvent returns a random event for a random Service: added when
// absent, else updated, resynced or deleted (re-created in the same step
// at times).
func (w *eqWorld) serviceEvent() []eqEvent {
	r := w.rng
	key := pick(r, eqServiceKeys...)
	if w.services[key] == nil {
		return []eqEvent{w.addService(w.randomService(key))}
	}
	switch x := r.IntN(20); {
	case x < 12:
		var desc string
		ev := w.updateService(key, "", func(s *corev1.Service) { desc = w.mutateService(s) })
		ev.desc += desc
		return []eqEvent{ev}
	case x < 15:
		return []eqEvent{w.resyncService(key)}
	default:
		evs := []eqEvent{w.deleteService(key, r.IntN(3) == 0)}
		if r.IntN(3) == 0 {
			evs = append(evs, w.addService(w.randomService(key)))
		}
		return evs
	}
}

// nodeEvent returns a random event for a random Node: added when absent,
// else a zone change, another label change, a resync or a delete.
func (w *eqWorld) nodeEvent() []eqEvent {
	r := w.rng
	name := pick(r, eqNodeNames...)
	if w.nodes[name] == nil {
		return []eqEvent{w.addNode(name, pick(r, "zone-a", "zone-b", ""))}
	}
	switch x := r.IntN(20); {
	case x < 8:
		zone := pick(r, "zone-a", "zone-b", "zone-c", "")
		return []eqEvent{w.updateNode(name, "zone "+zone, setZone(zone))}
	case x < 12:
		return []eqEvent{w.updateNode(name, "other label", func(n *corev1.Node) { n.Labels["x"] = strconv.Itoa(w.next()) })}
	case x < 15:
		return []eqEvent{w.resyncNode(name)}
	default:
		return []eqEvent{w.deleteNode(name, r.IntN(3) == 0)}
	}
}

// randomStep returns one to three random events (mostly Pod events). A
// race step (a Service sync before the Pod worker drains) happens only when
// settled: the previous step synced every Service without error. Then the
// incremental side's early sync reads no Pod (none is marked changed yet)
// or all of them (a Service or Node event invalidated the index), and both
// sides end the step with the same writes. Otherwise its early sync would
// read some of the step's changes (Pods marked by earlier steps and not
// synced since, Pods skipped for a missing Node, which every sync reads
// again) and apply the rest after the drain: the same endpoints in the
// end, but the packing of endpoints into slices and the trigger-time
// annotation depend on the order changes arrive in, in KCM too.
func (w *eqWorld) randomStep(settled bool) eqStep {
	r := w.rng
	var st eqStep
	for range 1 + r.IntN(3) {
		switch x := r.IntN(100); {
		case x < 84:
			st.events = append(st.events, w.podEvent()...)
		case x < 96:
			st.events = append(st.events, w.serviceEvent()...)
		default:
			st.events = append(st.events, w.nodeEvent()...)
		}
	}
	st.race = settled && r.IntN(2) == 0
	st.syncAll = r.IntN(3) == 0
	if !st.race && r.IntN(25) == 0 {
		st.sliceOps = append(st.sliceOps, eqSliceOp{n: r.IntN(1000), delete: r.IntN(3) == 0, tombstone: r.IntN(2) == 0})
	}
	return st
}

// TestIncrementalEqualityRandomized feeds seeded random event streams
// (Pod add, update of every field an endpoint depends on and of fields it
// does not, resync and delete with and without tombstones; Service add,
// selector, ports, families, traffic distribution, type and delegation
// changes, resync, delete and re-create; Node add, zone and label changes,
// resync, delete; EndpointSlices edited or deleted by another writer;
// Service syncs racing the Pod worker) to an incremental
// and a full-path drop-in controller through their registered handlers,
// and checks after every step that both queued the same Services and
// wrote the same EndpointSlices (eqHarness.run). It also checks that at
// least a quarter of the incremental side's syncs did plan incrementally
// (the others rebuild: first sync, Service or Node change, resync, or a
// shape the incremental planner leaves to the full one), so that the
// comparison keeps exercising the index.
func TestIncrementalEqualityRandomized(t *testing.T) {
	seeds, steps := []uint64{1, 2, 3, 4}, 500
	if !testing.Short() {
		seeds, steps = []uint64{1, 2, 3, 4, 5, 6, 7, 8}, 2500
	}
	for _, seed := range seeds {
		maxPer := []int32{3, 100, 2, 5}[seed%4]
		t.Run(fmt.Sprintf("seed=%d,maxEndpointsPerSlice=%d", seed, maxPer), func(t *testing.T) {
			runEqRandom(t, seed, steps, maxPer)
		})
	}
}

// runEqRandom runs steps random steps of seed on a new eqHarness, after
// an initial step that creates the Nodes, Services and Pods.
func runEqRandom(t *testing.T, seed uint64, steps int, maxPer int32) {
	t.Helper()
	h := newEqHarness(t, maxPer)
	w := newEqWorld(seed)
	settled := h.run(w.initialStep())
	for range steps {
		st := w.randomStep(settled)
		clean := h.run(st)
		settled = (st.syncAll || st.race) && clean
	}
	paths := h.inc.pathCounts(t)
	var total float64
	for _, n := range paths {
		total += n
	}
	t.Logf("%d steps (%d races, %d slice edits), %d Service syncs, incremental side's syncs by path: %v", h.steps, h.races, h.sliceOps, h.syncs, paths)
	if inc := paths[SyncPathIncremental]; inc < total/4 {
		t.Errorf("only %v of %v syncs planned incrementally (%v): the comparison hardly exercises the index", inc, total, paths)
	}
}
