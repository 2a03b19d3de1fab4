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

// Package slicecontroller is slicekit's one Service controller: an
// EndpointSlice controller with the shape of KCM's
// (pkg/controller/endpointslice/endpointslice_controller.go: informers for
// Pods, Services, EndpointSlices and Nodes; Service, Pod and topology
// queues; KCM's triggers, batching, rate limits, retry budget, stale-cache
// tracker and metric names), built on the generic reconciler
// (pkg/reconciler, whose OwnerSlices and DeleteAll list and release a
// Service's slices) and internal/controllerkit (NewSyncQueue, HandleErr,
// RunWorkers). Every Pod-derived EndpointSlice controller of slicekit is an
// instance, parameterised by
//
//   - a source.Source (pkg/source): the desired endpoints of a Service
//     from its selected Pods, plus per-Pod Problems. KCM's own is
//     servicepods.Source; pod-address sources are a source.PodAddresses. Every
//     pod-address source (source.AddressGuarded) runs behind an address
//     guard New builds from the factory (pkg/source/addressguard,
//     Options.AddressGuard): addresses inside the Service CIDRs, Node
//     addresses and addresses outside an allow-list are refused, with a
//     Problem reported on the Service and the Pod (docs/security.md). Its
//     Registration declares GuardedReads and GuardRBACRules;
//   - an Ownership: which Services are its own and what happens to the
//     slices of a Service it stops owning. DropIn (the drop-in
//     EndpointSlice controller, KEP-4770 with the ExternalEndpointController
//     gate, pkg/policy/delegation): every Service not delegated to
//     another controller by the label
//     service.kubernetes.io/endpoint-controller-name; slices of a
//     delegated Service are deleted with a Normal EndpointSlicesHandedOver
//     event. Labelled (custom controllers): exactly the Services labelled
//     with its name; slices of a Service that loses the label are deleted
//     with a Normal EndpointSlicesReleased event. Either way Run first
//     queues the Services that still have its slices without being its own
//     (edge case E8, rule (a)11), and slices of other controllers are never
//     written;
//   - Options: the managed-by conflict detector (DetectConflicts), topology
//     hints (TopologyHints), the selectorless annotation form
//     slicekit.dev/selector (SelectorlessAnnotation, custom controllers
//     only: the drop-in selects by spec.selector only, as KCM), metric
//     naming (KCMMetricNames: KCM's names without a controller label for the
//     drop-in; otherwise a subsystem and a controller label) and the event
//     source component.
//
// The instances are pkg/controllers/endpointslice (drop-in, servicepods.Source),
// pkg/controllers/secondarynetwork (Multus, pkg/source/networkstatus) and
// pkg/controllers/celprofiles (one controller per CEL profile,
// pkg/source/celpods). A new Pod-address source is one package (the
// source, and New wiring it here) plus one registration line in
// pkg/manager.
//
// # Incremental reconciliation
//
// A Source that implements source.IncrementalSource (servicepods.Source, hence
// the drop-in) is synced incrementally: the controller keeps a
// serviceindex.Index per Service (internal/serviceindex): what changed since the
// Service's last sync (the pending Pods, the burst wait, the carried
// trigger time, the trigger-time state) and the Service's desired
// endpoints by Pod, each computed by the source's PodEndpoints, the one
// per-Pod function the source provides. The Pod queue's worker, which maps a Pod event to Services (KCM
// syncPod), marks the Pod changed (serviceindex.Index.PodChanged) in the index
// of every Service its old or new labels match, also for updates KCM does
// not sync for (those are queued "mark only": the Pod is read again at the
// Service's next sync, as the full path reads every Pod, but no sync is
// queued). The sync then reads only the marked Pods (serviceindex.Index.Update,
// which also updates the Service's trigger-time state) and plans only the slices
// their endpoints live in (reconciler.PlanIndexed), then applies the plan
// as before. The writes, events and errors are the full path's; the
// equality is tested at every step of the differential test and by a fuzz
// target (serviceindex_equality_test.go, test/differential).
//
// The full planner is used, and the index rebuilt from every selected Pod,
// whenever there is any doubt: the first sync of a Service, a new
// resourceVersion or UID of the Service (ports, selector, labels,
// annotations), a periodic resync of the Service, a Node added or deleted
// or whose zone label changed (every index), a failed Pod or Node lookup,
// a failed write, SyncAll (`slicekit render`, which fills the indexers
// without events), and the structural cases PlanIndexed does not plan
// incrementally (several port groups, an address type without endpoints,
// topology-aware hints, slices it cannot account for; the
// reconciler.FullReason constants). A deleted or released Service drops its
// index. <subsystem>_syncs_by_path_total{path} counts the syncs that
// planned by path: "incremental" or the reason for the full planner.
//
// An incremental sync applies its plan with reconciler.ApplyUntil: when a
// Pod event for the Service arrives while the sync writes (each write
// waits for the client's rate limiter), the sync stops after the write in
// progress, carries its trigger time over (serviceindex.Index.CarryTriggerTime)
// and returns; the event queued the Service again, and the next sync plans
// the rest together with the new events. A burst of changes (a rolling
// update) so costs fewer writes: a removal and an addition planned
// together share one slice write. Every sync makes at least one write.
// <subsystem>_superseded_syncs_total counts the syncs that stopped.
//
// With Options.Pacer (the manager passes its client's rate limiter, a
// ratelimit.TokenBucket) the plan is made as late as the limiter allows:
// the sync waits until a token is available before it lists the slices,
// reads the Pods and plans, so that its first write goes out at once with
// the events of that wait; and before every later write it waits for a
// token first and only then checks for new events (reconciler.WithPacer),
// so that a write does not carry a plan made before its own wait (unless
// another worker takes the token in between). The waits take no token:
// the write takes it. Without a pacer (library use, render, tests) the
// check comes before the write's wait in the client.
//
// With Options.BurstQuietPeriod (`slicekit run`: 20ms,
// --endpoint-updates-burst-quiet-period) a sync that finds Pod events of
// two or more Pods pending first waits, before the pacer, until no new
// event has come for that period, at most ten periods after the first
// pending event (serviceindex.Index.BurstWait): a rolling update's
// deletions and the creations that follow are then planned together, the
// new endpoints filling the slices the deletions update anyway. One Pod's
// change (a readiness flip) is planned at once. The wait holds the worker;
// it ends with the context, leaving the events pending.
//
// Pod-address sources (source.PodAddresses: secondary networks, CEL
// profiles) do not implement the capability yet and keep the full path:
// their per-Pod step also reports Problems, which would need a per-Pod
// Problem report.
//
// # Problems
//
// A Problem (a Pod without usable addresses, an ambiguous attachment, a
// duplicate address, a misconfigured Service, ...) never fails a sync: the
// Service gets its other endpoints. Each Problem is reported once, when it
// appears, as a Warning event on the Service (reason = the Problem's
// reason, message naming the Pod) and, without KCMMetricNames, counted in
// <subsystem>_pod_problems_total{controller,reason}; the gauge
// <subsystem>_pod_problems{controller,reason} holds the standing ones.
// Events go on the Service rather than the Pod: its owner is the one
// looking for missing endpoints (kubectl describe service), several
// Services may select a Pod, and Pods come and go.
//
// # Usage
//
//	factory := informers.NewSharedInformerFactory(client, 0)
//	// Optional: cache only what the controller reads (before New and Start).
//	err := informertransform.Compose(slicecontroller.Reads()).Install(factory)
//	c, err := slicecontroller.New(ctx, client, factory, slicecontroller.Options{
//		ControllerName: "my-controller.example.com",
//		Ownership:      slicecontroller.Labelled("my-controller.example.com"),
//		Source:         source.PodAddresses{Addresses: myAddresses},
//	})
//	factory.Start(ctx.Done())
//	err = c.Run(ctx, 5)
//
// SyncService and SyncAll are exported so that `slicekit render` can drive
// the same code to a fixed point without Run, after filling the informers'
// indexers. Run, HasSynced and SyncAll are the manager's Controller
// interface (pkg/manager), which *Controller implements as it is.
//
// # Informer transforms
//
// The controller installs no informer transform: its caches hold whole
// objects unless the caller installed transforms on the factory before
// creating the controllers. The manager does that once for all enabled
// controllers, composing what each declares it reads
// (registry.Registration.Reads, informertransform.Compose), so that no
// controller's transform hides a field another reads. A Source that reads
// Pod annotations declares them (informertransform.Reads.PodAnnotations); one
// that may read any field (CEL) declares AllPodFields.
package slicecontroller
