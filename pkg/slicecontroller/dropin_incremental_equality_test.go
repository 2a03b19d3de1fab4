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
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// The incremental-equality tests (issue 14) run two drop-in controllers
// side by side, each on its own fake clientset and informer stores: one
// with servicepods.Source, an IncrementalSource (per-Service endpoint indexes
// kept up to date by the event handlers), and one whose Source hides that
// capability (every sync recomputes everything). Both receive the same
// informer events through the handlers New registered on the informers,
// drain their Pod queues through the Pod worker, and sync the same
// Services; their EndpointSlices, writes, sync errors, events and queued
// Services must then be the same. A handler path that forgets to mark a Pod
// changed, or to invalidate an index, shows as a difference.
//
// The EndpointSlices the controllers write are reflected into their caches
// by the fixture's reactors, with a new resourceVersion at every write as
// the API server gives (the index takes an unchanged resourceVersion for
// unchanged content). Slice events are not delivered for the controllers'
// own writes (the tracker drops those echoes); EndpointSlice changes by
// another writer are (eqSliceOp).

// TestIncrementalEqualityScenarios runs hand-written event sequences, one
// per handler path that must mark a Pod changed or invalidate an index,
// through an incremental and a full-path drop-in controller fed the same
// events through their registered handlers, and checks after every step
// that both wrote the same EndpointSlices (eqHarness.run) and that the
// incremental side did plan incrementally where the case expects it.
func TestIncrementalEqualityScenarios(t *testing.T) {
	// base adds Nodes node-1 (zone-a) and node-2 (zone-b), Services ns/a
	// (app=a) and ns/b (app=b), Pods ns/p0..p3 (app=a) and ns/p4, ns/p5
	// (app=b), and syncs everything.
	base := func(w *eqWorld) eqStep {
		st := eqStep{syncAll: true}
		st.events = append(st.events, w.addNode("node-1", "zone-a"), w.addNode("node-2", "zone-b"))
		st.events = append(st.events, w.addService(w.newService(testNS, "a", "a")), w.addService(w.newService(testNS, "b", "b")))
		for i := range 6 {
			app := "a"
			if i >= 4 {
				app = "b"
			}
			p := w.newPod(testNS, i, app)
			if i%2 == 1 {
				p.Spec.NodeName = "node-2"
			}
			st.events = append(st.events, w.addPod(p))
		}
		return st
	}
	one := func(evs ...eqEvent) eqStep { return eqStep{events: evs} }
	setApp := func(app string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { p.Labels["app"] = app }
	}
	svcA := testNS + "/a"

	for _, tc := range []struct {
		name string
		// steps after base.
		steps func(w *eqWorld) []eqStep
		// wantIncremental: the incremental side planned at least one sync
		// incrementally after base.
		wantIncremental bool
	}{{
		name: "label change moves a Pod between Services and out of all",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "app=b", setApp("b"))),
				one(w.updatePod(testNS, 0, "app=c", setApp("c"))),
				one(w.updatePod(testNS, 0, "app=a", setApp("a"))),
				one(w.updatePod(testNS, 1, "app=b and not ready", func(p *corev1.Pod) { setApp("b")(p); w.setReady(p, false) })),
				one(w.updatePod(testNS, 4, "tier=fe added", func(p *corev1.Pod) { p.Labels["tier"] = "fe" })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Pod deleted, with and without a tombstone",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.deletePod(testNS, 1, false)),
				one(w.deletePod(testNS, 2, true)),
				one(w.deletePod(testNS, 4, true), w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Pod added before and after its Service; deleted and re-created in one step",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.addPod(w.newPod(testNS, 6, "c"))),
				one(w.addService(w.newService(testNS, "c", "c"))),
				one(w.addPod(w.newPod(testNS, 7, "c"))),
				one(w.deletePod(testNS, 6, false), w.addPod(func() *corev1.Pod {
					p := w.newPod(testNS, 6, "c")
					w.setIPs(p, 1, 1)
					return p
				}())),
				one(w.deletePod(testNS, 7, true), w.addPod(w.newPod(testNS, 7, "a"))),
			}
		},
		wantIncremental: true,
	}, {
		name: "periodic resyncs with unchanged resourceVersions",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.resyncPod(testNS, 0), w.resyncService(svcA), w.resyncNode("node-1")),
				{events: []eqEvent{w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) }), w.resyncPod(testNS, 0)}, syncAll: true},
				one(w.resyncService(svcA), w.updatePod(testNS, 2, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "phase Failed and Succeeded are read at the next sync though they queue nothing",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "phase Failed", func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed })),
				one(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.updatePod(testNS, 2, "phase Succeeded", func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded })),
				{events: []eqEvent{w.updatePod(testNS, 3, "annotation", func(p *corev1.Pod) { p.Annotations = map[string]string{"x": "y"} })}, syncAll: true},
			}
		},
		wantIncremental: true,
	}, {
		name: "hostname and subdomain changes",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "hostname h0, subdomain a", func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "h0", "a" })),
				{events: []eqEvent{w.updatePod(testNS, 0, "hostname h1", func(p *corev1.Pod) { p.Spec.Hostname = "h1" })}, syncAll: true},
				{events: []eqEvent{w.updatePod(testNS, 0, "subdomain b", func(p *corev1.Pod) { p.Spec.Subdomain = "b" })}, syncAll: true},
				{events: []eqEvent{w.updatePod(testNS, 0, "subdomain a", func(p *corev1.Pod) { p.Spec.Subdomain = "a" })}, syncAll: true},
			}
		},
		wantIncremental: true,
	}, {
		name: "nodeName changes, Pods on a missing Node, the Node added and deleted",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				{events: []eqEvent{w.updatePod(testNS, 0, "node-2", func(p *corev1.Pod) { p.Spec.NodeName = "node-2" })}, syncAll: true},
				{events: []eqEvent{w.updatePod(testNS, 2, "missing node", func(p *corev1.Pod) { p.Spec.NodeName = eqMissingNode })}, syncAll: true},
				{events: []eqEvent{w.addNode(eqMissingNode, "zone-c")}, syncAll: true},
				{events: []eqEvent{w.deleteNode(eqMissingNode, true)}, syncAll: true},
				one(w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				// With publishNotReadyAddresses a Pod on a missing Node is
				// not skipped but has no zone, until the Node is added.
				one(w.updateService(svcA, "publishNotReadyAddresses", func(s *corev1.Service) { s.Spec.PublishNotReadyAddresses = true })),
				{events: []eqEvent{w.addNode(eqMissingNode, "zone-d")}, syncAll: true},
				{events: []eqEvent{w.updateNode(eqMissingNode, "zone-e", setZone("zone-e"))}, syncAll: true},
				{events: []eqEvent{w.deleteNode(eqMissingNode, false)}, syncAll: true},
				one(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "deletionTimestamp and IP changes",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updatePod(testNS, 0, "terminating", func(p *corev1.Pod) { p.DeletionTimestamp = ptr.To(w.time(w.next())) })),
				one(w.updatePod(testNS, 1, "new IP", func(p *corev1.Pod) { w.setIPs(p, 1, 2) })),
				one(w.updatePod(testNS, 2, "no IP", func(p *corev1.Pod) { w.setIPs(p, 0, 0) })),
				one(w.updateService(svcA, "dual-stack", func(s *corev1.Service) {
					s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
				})),
				one(w.updatePod(testNS, 3, "dual-stack IPs", func(p *corev1.Pod) { w.setIPs(p, 2, 0) })),
				one(w.deletePod(testNS, 0, false)),
			}
		},
		wantIncremental: true,
	}, {
		name: "Node zone change, add and delete",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updateNode("node-1", "zone-c", setZone("zone-c"))),
				one(w.updatePod(testNS, 2, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.updateNode("node-2", "other label", func(n *corev1.Node) { n.Labels["x"] = "y" })),
				{events: []eqEvent{w.updateNode("node-2", "no zone", setZone(""))}, syncAll: true},
				{events: []eqEvent{w.deleteNode("node-1", true)}, syncAll: true},
				{events: []eqEvent{w.addNode("node-1", "zone-b")}, syncAll: true},
				one(w.updatePod(testNS, 3, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Service selector, ports and traffic distribution change",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.updateService(svcA, "selector app=b", func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "b"} })),
				one(w.updatePod(testNS, 4, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.updateService(svcA, "named ports", func(s *corev1.Service) { s.Spec.Ports = eqPorts[2] })),
				one(w.updateService(svcA, "PreferSameNode", func(s *corev1.Service) {
					s.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferSameNode)
				})),
				one(w.updatePod(testNS, 5, "node-1", func(p *corev1.Pod) { p.Spec.NodeName = "node-1" }),
					w.updatePod(testNS, 4, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
				one(w.updateService(svcA, "no selector", func(s *corev1.Service) { s.Spec.Selector = nil })),
				one(w.updateService(svcA, "selector app=a", func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "a"} })),
				one(w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "Service deleted and re-created",
		steps: func(w *eqWorld) []eqStep {
			return []eqStep{
				one(w.deleteService(svcA, false)),
				one(w.updatePod(testNS, 0, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				one(w.addService(w.newService(testNS, "a", "a"))),
				one(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				// Deleted and re-created before the sync: same key, new UID.
				one(w.deleteService(svcA, true), w.updatePod(testNS, 2, "not ready", func(p *corev1.Pod) { w.setReady(p, false) }),
					w.addService(w.newService(testNS, "a", "a"))),
				one(w.updatePod(testNS, 3, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				// Delegated to another controller and back.
				one(w.updateService(svcA, "delegated", func(s *corev1.Service) {
					s.Labels = map[string]string{wellknown.LabelEndpointControllerName: "other"}
				})),
				one(w.updatePod(testNS, 3, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
				one(w.updateService(svcA, "not delegated", func(s *corev1.Service) { s.Labels = nil })),
				one(w.updatePod(testNS, 0, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
			}
		},
		wantIncremental: true,
	}, {
		name: "a Service sync runs before the Pod worker drains",
		steps: func(w *eqWorld) []eqStep {
			race := func(evs ...eqEvent) eqStep { return eqStep{events: evs, race: true} }
			return []eqStep{
				race(w.updatePod(testNS, 0, "app=b", setApp("b"))),
				race(w.updatePod(testNS, 1, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
				race(w.updatePod(testNS, 2, "phase Failed", func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed })),
				race(w.deletePod(testNS, 3, true)),
				race(w.addPod(w.newPod(testNS, 3, "a"))),
				race(w.updatePod(testNS, 1, "hostname", func(p *corev1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "h1", "a" })),
				race(w.updateNode("node-1", "zone-c", setZone("zone-c")), w.updatePod(testNS, 1, "ready", func(p *corev1.Pod) { w.setReady(p, true) })),
				race(w.updateService(svcA, "ports", func(s *corev1.Service) { s.Spec.Ports = eqPorts[1] }), w.updatePod(testNS, 0, "app=a", setApp("a"))),
				one(w.updatePod(testNS, 4, "not ready", func(p *corev1.Pod) { w.setReady(p, false) })),
			}
		},
		wantIncremental: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, maxPer := range []int32{2, 100} {
				h := newEqHarness(t, maxPer)
				w := newEqWorld(1)
				h.run(base(w))
				before := h.inc.pathCounts(t)[SyncPathIncremental]
				for _, st := range tc.steps(w) {
					h.run(st)
				}
				if got := h.inc.pathCounts(t)[SyncPathIncremental] - before; tc.wantIncremental && got == 0 {
					t.Errorf("maxEndpointsPerSlice %d: no sync planned incrementally (paths %v): the case checks nothing of the index", maxPer, h.inc.pathCounts(t))
				}
			}
		})
	}
}
