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
	"context"

	"fmt"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/reconciler"
	rmetrics "github.com/slicekit/slicekit/pkg/reconciler/metrics"
	"github.com/slicekit/slicekit/pkg/reconciler/topology"
	"github.com/slicekit/slicekit/pkg/selectorindex"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

const (
	// endpointSliceChangeMinSyncDelay is the least delay before a sync
	// triggered by an EndpointSlice change (KCM
	// endpointSliceChangeMinSyncDelay, C7); BatchPeriod replaces it when
	// larger.
	endpointSliceChangeMinSyncDelay = controllerkit.DefaultSyncBackOff
	// topologyQueueItemKey is the only key of the topology queue (KCM).
	topologyQueueItemKey = "topologyQueueItemKey"
)

// Controller manages the EndpointSlices of the Services its Ownership
// gives it, with endpoints from its Source, as KCM's EndpointSlice
// controller does (pkg/controller/endpointslice/endpointslice_controller.go).
// Create it with New, run it with Run. All methods are safe for concurrent
// use.
type Controller struct {
	client kubernetes.Interface
	opts   Options
	// own is opts.Ownership.
	own Ownership
	// selectorless is Options.SelectorlessAnnotation with its default.
	selectorless bool
	// cleanup is the SelectorRemovalCleanup feature gate.
	cleanup bool
	// removals counts slices deleted because their Service selects no
	// Pods; nil without the metric.
	removals *selectorless.RemovalMetrics

	// eventRecorder records the events; Run connects it to the API server
	// when New built its broadcaster.
	eventRecorder *controllerkit.Events

	// Listers read the shared informer caches. Objects they return are
	// shared and must never be modified.
	serviceLister corelisters.ServiceLister
	// services is the Pod → Services lookup, an index of the Service
	// informer's store (podSelectorOf).
	services    *selectorindex.Services
	podLister   corelisters.PodLister
	sliceLister discoverylisters.EndpointSliceLister
	nodeLister  corelisters.NodeLister
	// cachesSynced report whether each informer has synced; replaced by
	// tests.
	cachesSynced []cache.InformerSynced

	// reconciler writes EndpointSlices; tracker is its record of the
	// generations this controller wrote (stale-cache detection and echo
	// suppression, C33).
	reconciler *reconciler.Reconciler
	tracker    *reconciler.Tracker
	// triggerTimes computes the last-change-trigger-time annotation (C25).
	triggerTimes *servicepods.TriggerTimeTracker
	// indexes are the per-Service endpoint indexes of an incremental
	// source (source.IncrementalSource); nil otherwise.
	indexes *indexes
	// topologyCache is nil without Options.TopologyHints.
	topologyCache *topology.TopologyCache
	// metrics is nil without Options.Registerer; its methods are nil-safe.
	metrics  *rmetrics.Metrics
	problems *problemReporter
	// conflicts is nil without Options.DetectConflicts; its methods are
	// nil-safe.
	conflicts *conflictDetector

	// serviceQueue holds Service keys (namespace/name) to sync.
	serviceQueue workqueue.TypedRateLimitingInterface[string]
	// podQueue holds Pod projection keys, mapped to Services by a worker
	// because matching selectors is costly (KCM podQueue, C6).
	podQueue workqueue.TypedRateLimitingInterface[*podKey]
	// topologyQueue triggers a topology-cache refresh after Node changes
	// (C8).
	topologyQueue workqueue.TypedRateLimitingInterface[string]
	// serviceLoop, podLoop and topologyLoop are the work loops of the
	// three queues (newLoops).
	serviceLoop  *controllerkit.Loop[string]
	podLoop      *controllerkit.Loop[*podKey]
	topologyLoop *controllerkit.Loop[string]
}

// New creates the controller and registers its event handlers on the
// factory's Pod, Service, EndpointSlice and Node informers (requesting them
// from the factory) and on the informers of opts.Inputs. It installs no informer transform (see the package
// doc). Call it before the factory is started; start the factory and then
// call Run. ctx supplies the logger of the event
// handlers and the event broadcaster.
//
// Defaults are filled in as documented on Options. New returns an error
// when client or factory is nil, when opts is invalid (every invalid field
// named), or when the metrics cannot be registered on opts.Registerer (for
// example because they already are). The KCM counterpart is NewController
// in pkg/controller/endpointslice/endpointslice_controller.go.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	name := opts.Name
	if name == "" {
		name = opts.ControllerName
	}
	if err := controllerkit.CheckNewArgs(name, client, factory); err != nil {
		return nil, err
	}
	opts, err := opts.complete()
	if err != nil {
		return nil, fmt.Errorf("%s: invalid options: %w", name, err)
	}
	m, err := newControllerMetrics(opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	c := &Controller{
		client:        client,
		opts:          opts,
		own:           opts.Ownership,
		selectorless:  opts.selectorless(),
		cleanup:       ptr.Deref(opts.SelectorRemovalCleanup, true),
		eventRecorder: controllerkit.NewEvents(ctx, opts.EventRecorder, opts.EventSourceComponent),
		triggerTimes:  servicepods.NewTriggerTimeTracker(),
		tracker:       reconciler.NewTracker(),
		metrics:       m.reconciler,
		removals:      m.removals,
		// KCM's Service queue rate limiter (C9): 1s..1000s per item, 10
		// qps (burst 100) overall.
		serviceQueue:  controllerkit.NewSyncQueue(opts.QueueName, m.workqueue),
		podQueue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[*podKey]()),
		topologyQueue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	c.newLoops()
	c.problems = newProblemReporter(c.eventRecorder, m.problems)
	guardSynced := cache.InformerSynced(nil)
	if opts.Source, guardSynced, err = guardSource(ctx, client, factory, opts, func() { c.queueOwnedServices() }); err != nil {
		return nil, err
	}
	c.opts.Source = opts.Source
	if c.indexes, err = newIndexes(opts.Source, m.scoped, m.subsystem); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}

	c.serviceLister = factory.Core().V1().Services().Lister()
	if c.services, err = selectorindex.NewServices(factory.Core().V1().Services().Informer(), c.podSelectorOf); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	// Pod and EndpointSlice indexes: a sync lists the Service's Pods and
	// slices at a cost proportional to them, not to the namespace.
	if err := podcache.AddLabelIndex(factory.Core().V1().Pods().Informer()); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	if err := reconciler.AddServiceNameIndex(factory.Discovery().V1().EndpointSlices().Informer()); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	c.podLister = podcache.NewLister(factory.Core().V1().Pods().Informer().GetIndexer())
	c.sliceLister = reconciler.NewSliceLister(factory.Discovery().V1().EndpointSlices().Informer().GetIndexer())
	c.nodeLister = factory.Core().V1().Nodes().Lister()
	if opts.topologyEnabled() {
		c.topologyCache = topology.NewTopologyCache()
	}
	if opts.DetectConflicts {
		if c.conflicts, err = newConflictDetector(opts.ManagedBy, opts.ConflictReportInterval, clock.RealClock{}, c.eventRecorder, c.serviceLister, opts.Registerer); err != nil {
			return nil, fmt.Errorf("%s: registering %s: %w", opts.Name, ConflictingWritesMetricName, err)
		}
	}
	if c.reconciler, err = c.newReconciler(); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	if c.cachesSynced, err = c.addHandlers(ctx, factory); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	if guardSynced != nil {
		c.cachesSynced = append(c.cachesSynced, guardSynced)
	}
	return c, nil
}

// newReconciler returns the reconciler of c's slices: c's managed-by
// value, Service owners, placeholders and ownership enforced (KCM's
// EndpointSlice reconciler), with c's tracker, events and, when set, its
// topology cache, metrics and pacer.
func (c *Controller) newReconciler() (*reconciler.Reconciler, error) {
	return reconciler.New(c.client, reconciler.Config{
		ControllerName:       c.opts.ManagedBy,
		OwnerGVK:             reconciler.ServiceGVK,
		MaxEndpointsPerSlice: c.opts.MaxEndpointsPerSlice,
		Placeholder:          true,
		EnforceOwnership:     true,
		Metadata:             reconciler.ServiceMetadata{},
	},
		reconciler.WithTracker(c.tracker),
		reconciler.WithEventRecorder(c.eventRecorder),
		reconciler.WithTopologyCache(c.topologyCache),
		reconciler.WithMetrics(c.metrics),
		reconciler.WithPacer(c.opts.Pacer))
}

// addHandlers registers c's event handlers on the factory's Service, Pod,
// EndpointSlice and Node informers and on those of Options.Inputs, and
// returns their synced functions. ctx supplies the handlers' logger.
func (c *Controller) addHandlers(ctx context.Context, factory informers.SharedInformerFactory) ([]cache.InformerSynced, error) {
	logger := klog.FromContext(ctx)
	var handlers controllerkit.Handlers
	handlers.Register(factory.Core().V1().Services().Informer(), "Service", cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onServiceEvent(nil, obj) },
		UpdateFunc: c.onServiceEvent,
		DeleteFunc: func(obj any) { c.onServiceEvent(nil, obj) },
	})
	handlers.Register(factory.Core().V1().Pods().Informer(), "Pod", cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onPodUpdate(nil, obj) },
		UpdateFunc: c.onPodUpdate,
		DeleteFunc: func(obj any) { c.onPodUpdate(obj, nil) },
	})
	handlers.Register(factory.Discovery().V1().EndpointSlices().Informer(), "EndpointSlice", cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onEndpointSliceAdd(logger, obj) },
		UpdateFunc: func(old, cur any) { c.onEndpointSliceUpdate(logger, old, cur) },
		DeleteFunc: c.onEndpointSliceDelete,
	})
	// A Node handler is registered even without topology hints, so that the
	// Node informer exists and syncs (zones are read through its lister).
	handlers.Register(factory.Core().V1().Nodes().Informer(), "Node", c.nodeHandler())
	for _, in := range c.opts.Inputs {
		handlers.Register(in.Informer, in.Kind, c.inputHandler(in))
	}
	return handlers.Synced(), handlers.Err()
}

// nodeHandler returns the Node event handler: it marks the Node changed in
// the incremental indexes and queues a topology-cache refresh; it does
// nothing without either.
func (c *Controller) nodeHandler() cache.ResourceEventHandler {
	if c.topologyCache == nil && c.indexes == nil {
		return cache.ResourceEventHandlerFuncs{}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			c.indexes.onNodeEvent(nil, obj)
			if c.topologyCache != nil {
				c.topologyQueue.Add(topologyQueueItemKey)
			}
		},
		UpdateFunc: func(old, cur any) {
			c.indexes.onNodeEvent(old, cur)
			if c.topologyCache != nil {
				c.onNodeUpdate(old, cur)
			}
		},
		DeleteFunc: func(obj any) {
			c.indexes.onNodeEvent(obj, nil)
			if c.topologyCache != nil {
				c.topologyQueue.Add(topologyQueueItemKey)
			}
		},
	}
}

// logKV returns keysAndValues, preceded by "controller", ControllerName
// for a custom controller (whose log lines name it; the drop-in's are
// KCM's).
func (c *Controller) logKV(keysAndValues ...any) []any {
	if c.own.dropIn {
		return keysAndValues
	}
	return append([]any{"controller", c.opts.ControllerName}, keysAndValues...)
}

// ControllerName returns the label value this controller answers to.
func (c *Controller) ControllerName() string { return c.opts.ControllerName }

// ManagedBy returns the managed-by value of this controller's slices.
func (c *Controller) ManagedBy() string { return c.opts.ManagedBy }

// Ownership returns the controller's Ownership (Options.Ownership).
func (c *Controller) Ownership() Ownership { return c.own }

// TopologyHints reports whether topology-aware hints are enabled
// (Options.TopologyHints).
func (c *Controller) TopologyHints() bool { return c.topologyCache != nil }

// HasSynced reports whether the Pod, Service, EndpointSlice and Node
// informers (and those of Options.Inputs) have synced and delivered their initial objects to this
// controller's handlers.
func (c *Controller) HasSynced() bool {
	return controllerkit.AllSynced(c.cachesSynced)
}

// Problems returns the problems standing for the Service namespace/name
// after its last sync (pods left out or addresses taken away, and
// Service-level problems), sorted by pod and reason. Each was reported
// once, when it appeared, as a Warning event on the Service.
func (c *Controller) Problems(namespace, name string) []source.Problem {
	return c.problems.current(namespace, name)
}

// Run starts the event pipeline (when New built the broadcaster), waits for
// the informer caches, sweeps the Services this controller still has
// slices for but no longer manages (see Ownership), and runs workers
// Service workers, workers Pod workers and one topology worker until ctx is
// done (KCM Run, behaviour C4). It does not start the informers: start the
// factory before or after calling Run. It returns nil after ctx is done and
// the workers have stopped, and an error when workers is less than 1 or ctx
// ends before the caches synced. Run must be called at most once: it shuts
// the queues down on return.
func (c *Controller) Run(ctx context.Context, workers int) error {
	r := controllerkit.Runner{
		Name:   c.opts.Name,
		Events: c.eventRecorder, EventsClient: c.client.CoreV1(),
		Synced:   c.cachesSynced,
		Starting: "Starting endpoint slice controller",
		StartingKV: []any{"controllerName", c.opts.ControllerName, "externalEndpointController", c.own.gate,
			"selectorRemovalCleanup", c.cleanup},
		Stopping: "Shutting down endpoint slice controller",
		Start: func(ctx context.Context, workers int) {
			c.sweep(ctx)
			logger := klog.FromContext(ctx)
			logger.V(2).Info("Starting service queue worker threads", "total", workers)
			logger.V(2).Info("Starting topology queue worker threads", "total", 1)
		},
		Queues:    []interface{ ShutDown() }{c.serviceQueue, c.podQueue, c.topologyQueue},
		PerWorker: []func(context.Context){c.serviceLoop.Worker, c.podLoop.Worker},
		Once:      []func(context.Context){c.topologyLoop.Worker},
	}
	if !c.own.dropIn {
		ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("controller", c.opts.ControllerName))
		r.Starting, r.StartingKV = "Starting pod-source endpoint slice controller", []any{"managedBy", c.opts.ManagedBy}
		r.Stopping = "Shutting down pod-source endpoint slice controller"
	}
	return r.Run(ctx, workers)
}

// newLoops returns the work loops of c's queues: Service keys synced by
// SyncService, counted in syncs{result} and retried with KCM's back-off
// (handleErr, C9); Pod projection keys mapped to Services by syncPod,
// retried with the default controller rate limiter (KCM handlePodErr);
// and the topology refresh. Each drops a key after
// controllerkit.MaxRetries.
func (c *Controller) newLoops() {
	c.serviceLoop = &controllerkit.Loop[string]{
		Queue:  c.serviceQueue,
		Sync:   c.SyncService,
		Result: func(err error) { c.metrics.IncEndpointSliceSyncs(reconciler.SyncResult(err)) },
		Retry: controllerkit.Retry{
			RetryMsg: "Error syncing endpoint slices for service, retrying",
			DropMsg:  "Retry budget exceeded, dropping service out of the queue",
		},
	}
	c.podLoop = &controllerkit.Loop[*podKey]{
		Queue: c.podQueue,
		Sync:  func(_ context.Context, key *podKey) error { return c.syncPod(key) },
		Retry: controllerkit.Retry{
			Verbosity: 2,
			RetryMsg:  "Error syncing pod, retrying",
			DropMsg:   "Dropping pod projection key out of the queue",
			KeyName:   "podProjectionKey",
		},
	}
	c.topologyLoop = &controllerkit.Loop[string]{
		Queue: c.topologyQueue,
		Sync: func(ctx context.Context, _ string) error {
			c.checkNodeTopologyDistribution(ctx)
			return nil
		},
	}
}

// syncPod queues, after the batch period, every Service of this controller
// whose Pod selector matches the Pod's labels (old and new ones on a label
// change) (KCM syncPod with util.GetServicesToUpdate, C6; KEP-4770 rule
// (a)7). With an incremental source it first marks the Pod changed in the
// index of every Service its old or new labels match (also those a label
// change does not queue, and for a markOnly key, which queues nothing), so
// that the next sync of each reads the Pod again. Each label set is looked
// up once (servicepods.MatchProjectionKey).
func (c *Controller) syncPod(key *podKey) error {
	mark := c.indexes != nil && key.pod != ""
	if key.markOnly && !mark {
		return nil
	}
	marked, services, err := servicepods.MatchProjectionKey(key.PodProjectionKey, c.matchServices)
	if err != nil {
		return err
	}
	if mark {
		for svc := range marked {
			c.indexes.podChanged(svc, key.pod)
		}
	}
	if key.markOnly {
		return nil
	}
	for svc := range services {
		c.serviceQueue.AddAfter(svc, c.opts.BatchPeriod)
	}
	return nil
}
