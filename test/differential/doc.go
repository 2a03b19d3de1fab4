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

// Package differential tests slicekit against kube-controller-manager's
// EndpointSlice reconciler (k8s.io/endpointslice v0.37.2, "KCM"), which
// serves as the oracle. It has test files only, so k8s.io/endpointslice stays
// a test-only dependency.
//
// # Differential test
//
// TestDifferential generates random scenarios from a seed
// (-differential.seed; scenario i gets its own seed, so it can be replayed
// with -differential.scenario=i). A scenario is one Service with its Pods and
// Nodes, changed over 8 to 32 steps. Each step starts from the previous
// step's slices, sometimes edited by hand. The generator covers:
//   - Services with named, numeric and missing target ports, the TCP, UDP
//     and SCTP protocols, appProtocol, single and dual stack (both orders),
//     headless with and without families, empty families with a cluster IP,
//     publishNotReadyAddresses, trafficDistribution (PreferClose,
//     PreferSameZone, PreferSameNode, invalid), topology mode Auto/auto, the
//     deprecated hints annotation, labels including the reserved keys, a
//     deletionTimestamp, and recreation with a new UID;
//   - Pods of every phase, with no IP, one or two IPs (in both orders),
//     podIP without podIPs, irregular IP forms and reused IPs, Ready
//     true/false/absent with lastTransitionTime, a deletionTimestamp, Nodes
//     that exist, are missing or unset, hostname/subdomain that match or
//     not, and containers and (restartable or not) init containers whose
//     named ports resolve differently or not at all;
//   - Nodes with and without zones, readiness, allocatable CPU and
//     control-plane labels, added, changed and deleted;
//   - hand edits of the cluster's slices: endpoints removed, duplicated
//     (within and across slices) or altered (conditions, zone, node,
//     targetRef, hints, hostname, addresses), labels and annotations
//     drifted, slices deleted, merged (overfull), re-typed, re-owned or
//     re-ported, slices added with a foreign managed-by, with a stale
//     Service UID, or empty.
//
// For every step both sides get identical inputs and their own deep copies
// (KCM sorts addresses and ports in place): KCM's
// endpointslice.NewReconciler (node lister from an indexer, an
// EndpointSliceTracker, a topologycache.TopologyCache fed the same Nodes,
// WithPreferSameTrafficDistributionEnabled(true), controller name
// endpointslice-controller.k8s.io, the scenario's max endpoints per slice)
// and slicekit's reconciler.New (Placeholder, EnforceOwnership,
// ServiceMetadata, WithTopologyCache) behind servicepods.Desired, each
// with its own trigger-time tracker and event recorder. As the
// controllers do, only slices with the controller's managed-by and the
// Service's service-name label are handed over. Each side writes through
// its own fake clientset backed by a sliceStore seeded with the same
// slices: it names generateName objects, sets and bumps generations, sets
// UIDs and honours delete preconditions, and logs every write. (The
// package internal/memapi has the same semantics plus no-op updates and
// resourceVersion conflicts, but lists on every write through client-go's
// object tracker, which would dominate the run time here.)
//
// slicekit then runs again on its own result, with every slice of the
// Service handed over (foreign ones included): it must write nothing. The
// next step starts from KCM's result, so inputs stay identical.
//
// # What is compared, and why at that level
//
// KCM is not deterministic: it ranges over maps and sets, so the same
// inputs can give different (equally valid) slices. The comparison is at
// the level that is a function of the inputs alone. A group is an address
// type plus a set of ports (KCM's grouping, util.NewPortMapKey).
//
//	| Aspect                        | Compared                                                | Why not stricter                                                     |
//	|-------------------------------|---------------------------------------------------------|----------------------------------------------------------------------|
//	| trigger time                  | equal (KCM's util.TriggerTimeTracker vs servicepods')   |                                                                      |
//	| sync error                    | both or neither                                         | KCM aggregates, slicekit joins: texts differ by design               |
//	| slices not handed over        | never written, identical after the step, both sides     |                                                                      |
//	| slices per group              | count and sorted endpoint counts per slice              | which endpoint goes to which slice is random: EndpointSet.PopAny     |
//	|                               |                                                         | ranges over a map, the fullest-first sort is unstable, ties of       |
//	|                               |                                                         | getSliceToFill go to the first of a map-ordered list, and finalize   |
//	|                               |                                                         | pairs map-ordered creates with deletes, so names are random too      |
//	| endpoints per group           | the multiset of endpoints, every field                  | addresses are compared as a sorted set: KCM's hashEndpoint sorts the |
//	|                               |                                                         | addresses of every endpoint it hashes in place, including those of   |
//	|                               |                                                         | existing slices it only reads, so a slice it later copies (filled or |
//	|                               |                                                         | re-hinted) is written with sorted addresses; slicekit copies the     |
//	|                               |                                                         | original order. Only hand-made multi-address endpoints are affected. |
//	| hints, topology mode Auto     | presence, and a valid single zone of a ready Node       | redistributeHints ranges over maps, getMost breaks ties by map       |
//	|                               |                                                         | order, and which endpoints move depends on the random slice order    |
//	| hints, trafficDistribution    | exact                                                   |                                                                      |
//	| labels, owner references,     | multiset per group                                      | tie choices above decide which slice holds which endpoints, not      |
//	| annotations w/o trigger time  |                                                         | these; per slice (label, count) pairs would depend on them           |
//	| trigger-time annotation       | on every written slice: present iff the trigger time is | which of two equally full slices is written is random, so which      |
//	|                               | non-zero, with its value; unwritten slices untouched    | slices carry the annotation afterwards is random                     |
//	| port order within a slice     | multiset per group (difference reported, see below)     |                                                                      |
//	| events                        | multiset; for Services with two address types the       | KCM ranges over a set of address types, and the topology cache's     |
//	|                               | address type of "hints enabled" and "annotation         | populated flag is per Service: the address type handled first emits  |
//	|                               | removed" events is dropped, and the "enabled" count may | them, and when one address type gets hints and the other does not,   |
//	|                               | differ when hints fail for exactly one address type     | whether "enabled" is emitted, and the flag afterwards, are random    |
//	| topology populated flag       | equal for one address type; else synced to KCM's        | as above                                                             |
//	| API writes                    | slicekit <= KCM at every step; totals logged            |                                                                      |
//	| idempotence                   | slicekit's second run writes nothing                    | see known differences                                                |
//	| input mutation                | slicekit leaves Service, Pods and slices unchanged      |                                                                      |
//	| Service being deleted, with   | no creates; per address type the number of slices and   | KCM skips the creates after recycling some into updates; a planned   |
//	| creates planned               | the label/annotation/owner multisets; per group the     | create holds random endpoints (PopAny), so which endpoints survive   |
//	|                               | written endpoints are a subset of those KCM desires     | is random. KCM is run again without the deletionTimestamp to get the |
//	|                               | (KCM's outcome without the deletionTimestamp)           | full desired content.                                                |
//
// -differential.exact turns the normalisations off (expect differences;
// for checking that they are still needed).
//
// # Known differences
//
// Each is recognised precisely (a single kind of difference, or an "undo"
// that rewrites slicekit's outcome as KCM's and must leave nothing else
// different) and counted in the log line; -differential.strict makes the
// ones reported as slicekit bugs fail again.
//
//	| Name                     | Status             | What                                                              |
//	|--------------------------|--------------------|-------------------------------------------------------------------|
//	| portOrder                | intended           | KCM writes ports sorted by a hash of each port (NewPortMapKey     |
//	|                          |                    | sorts its argument in place: new slices, and existing slices it   |
//	|                          |                    | rewrites); slicekit keeps the Service's port order. Ports are a   |
//	|                          |                    | set to the API and both group by an order-insensitive key.        |
//	| inheritedNonIdempotence  | inherited from KCM | topology mode Auto: KCM rewrites unchanged slices on every sync   |
//	|                          |                    | when the hints it wrote fail its own check (getHintsByZone) next  |
//	|                          |                    | time, e.g. a ready endpoint without zone (hints are given up but  |
//	|                          |                    | the slices promoted for missing hints stay updates) or in a zone  |
//	|                          |                    | without eligible Node (control-plane or not ready: its own-zone   |
//	|                          |                    | hint is outside the allocation). slicekit does the same; its      |
//	|                          |                    | second run must write no more than KCM run on the same slices.    |
//	|                          |                    | slicekit drops updates that change nothing (dropNoOpUpdates), so  |
//	|                          |                    | only cases where the hints really alternate remain.               |
//	| kcmTieBreak              | KCM randomness     | slicekit wrote more than KCM, but a rerun of KCM on the same      |
//	|                          |                    | input writes as much: of two equally full unchanged slices KCM    |
//	|                          |                    | fills a random one, slicekit the first by name, and the other may |
//	|                          |                    | then need a hints update.                                         |
//	| placeholderOwner         | intended, upstream | KCM v1.37.2 keeps an empty placeholder whose owner references are |
//	|                          | after v1.37.2      | not the Service's (a deleted Service of the same name, an extra   |
//	|                          |                    | owner): it compares placeholders by labels only. slicekit, as     |
//	|                          |                    | upstream after kubernetes PR #141593, compares the owners' UIDs   |
//	|                          |                    | and replaces it (delete+create, or an update when the Service is  |
//	|                          |                    | one of its owners). The undo puts the old slice back.             |
//	| topologyAddressTypeOrder | KCM randomness     | see "events" above.                                               |
//	| topologyStateSynced      | KCM randomness     | see "topology populated flag" above.                              |
//
// # Reproductions
//
// A difference is reported with the replay command, the steps before it,
// the step's inputs, both outcomes, and a minimal reproduction: the step
// alone, shrunk (pods, slices, endpoints, nodes, ports, labels dropped
// while the difference remains), with fresh caches and the original trigger
// times. The step is also written to a JSON file for exact replay with
// TestDifferentialReplay (-differential.replay=file): replaying a scenario
// by seed may diverge, because KCM's random choices feed into later steps.
//
// FuzzDifferential runs the same comparison on fuzzer-chosen seeds, step
// counts and packing limits.
//
// # Benchmarks
//
// BenchmarkReadinessFlip, BenchmarkRollingUpdate and BenchmarkColdSync run
// both reconcilers side by side (sub-benchmarks .../kcm and .../slicekit)
// and report writes/op; hack/bench-table.sh turns a run into a table.
package differential
