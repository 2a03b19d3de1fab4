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

package endpointslice

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
	corev1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/internal/workqueuemetrics"
	"github.com/slicekit/slicekit/pkg/controllers/selectorless"
	"github.com/slicekit/slicekit/pkg/reconciler"
	rmetrics "github.com/slicekit/slicekit/pkg/reconciler/metrics"
	"github.com/slicekit/slicekit/pkg/reconciler/topology"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

const (
	// maxRetries is the number of times a Service is retried before it is
	// dropped out of the queue (KCM maxRetries, behaviour C9). With the
	// Service queue's rate limiter the delays are 1s, 2s, 4s, ..., 512s,
	// 1000s (max).
	maxRetries = 15

	// endpointSliceChangeMinSyncDelay is the least delay before a sync
	// triggered by an EndpointSlice change (KCM
	// endpointSliceChangeMinSyncDelay, C7); BatchPeriod replaces it when
	// larger.
	endpointSliceChangeMinSyncDelay = 1 * time.Second

	// defaultSyncBackOff and maxSyncBackOff bound the Service queue's
	// per-item exponential back-off (KCM, C9).
	defaultSyncBackOff = 1 * time.Second
	maxSyncBackOff     = 1000 * time.Second

	// serviceQueueName names the Service queue in workqueue metrics (KCM).
	serviceQueueName = "endpoint_slice"

	// topologyQueueItemKey is the only key of the topology queue (KCM).
	topologyQueueItemKey = "topologyQueueItemKey"

	// workerLoopPeriod is the pause before a worker that returned is
	// restarted (KCM workerLoopPeriod).
	workerLoopPeriod = time.Second
)

// Controller manages the EndpointSlices of Services with a selector, as
// KCM's EndpointSlice controller does, and hands Services labelled for
// another controller over to it (KEP-4770). Create it with New, run it with
// Run. All methods are safe for concurrent use.
type Controller struct {
	client kubernetes.Interface
	opts   Options
	// gate is the ExternalEndpointController feature gate.
	gate bool
	// cleanup is the SelectorRemovalCleanup feature gate.
	cleanup bool
	// removals counts slices deleted because their Service selects no
	// Pods; nil without metrics.
	removals *selectorless.RemovalMetrics

	// eventBroadcaster is nil when the caller supplied the EventRecorder;
	// otherwise Run connects it to the API server.
	eventBroadcaster record.EventBroadcaster
	eventRecorder    record.EventRecorder

	// Listers read the shared informer caches. Objects they return are
	// shared and must never be modified.
	serviceLister corelisters.ServiceLister
	podLister     corelisters.PodLister
	sliceLister   discoverylisters.EndpointSliceLister
	nodeLister    corelisters.NodeLister
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
	// topologyCache is nil when Options.TopologyHints is false.
	topologyCache *topology.TopologyCache
	// metrics is nil without Options.Registerer; its methods are nil-safe.
	metrics *rmetrics.Metrics
	// conflicts detects other writers of this controller's managed-by value.
	conflicts *conflictDetector

	// serviceQueue holds Service keys (namespace/name) to sync.
	serviceQueue workqueue.TypedRateLimitingInterface[string]
	// podQueue holds Pod projection keys, mapped to Services by a worker
	// because matching selectors is costly (KCM podQueue, C6).
	podQueue workqueue.TypedRateLimitingInterface[*servicepods.PodProjectionKey]
	// topologyQueue triggers a topology-cache refresh after Node changes
	// (C8).
	topologyQueue workqueue.TypedRateLimitingInterface[string]
}

// New creates the controller and registers its event handlers on the
// factory's Pod, Service, EndpointSlice and Node informers (requesting them
// from the factory), after installing the informer transforms unless
// opts.SkipInformerTransforms. Call it before the factory is started; start
// the factory and then call Run. ctx supplies the logger (klog.FromContext)
// used by the event handlers and the event broadcaster.
//
// Defaults are filled in as documented on Options. New returns an error
// when client or factory is nil, when opts is invalid, or when the metrics
// cannot be registered on opts.Registerer (for example because they already
// are). The KCM counterpart is NewController in
// pkg/controller/endpointslice/endpointslice_controller.go.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	if client == nil {
		return nil, errors.New("endpointslice: client is nil")
	}
	if factory == nil {
		return nil, errors.New("endpointslice: informer factory is nil")
	}
	opts, err := opts.complete()
	if err != nil {
		return nil, fmt.Errorf("endpointslice: invalid options: %w", err)
	}
	logger := klog.FromContext(ctx)

	c := &Controller{
		client:        client,
		opts:          opts,
		gate:          opts.gateEnabled(),
		cleanup:       opts.cleanupEnabled(),
		eventRecorder: opts.EventRecorder,
		triggerTimes:  servicepods.NewTriggerTimeTracker(),
		tracker:       reconciler.NewTracker(),
	}
	if c.eventRecorder == nil {
		c.eventBroadcaster = record.NewBroadcaster(record.WithContext(ctx))
		c.eventRecorder = c.eventBroadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: EventSourceComponent})
	}

	var wqMetrics workqueue.MetricsProvider
	if opts.Registerer != nil {
		if c.metrics, err = rmetrics.New(opts.Registerer, rmetrics.Options{}); err != nil {
			return nil, fmt.Errorf("endpointslice: %w", err)
		}
		if c.removals, err = selectorless.NewRemovalMetrics(opts.Registerer, rmetrics.DefaultSubsystem, SelectorRemovalMetricName,
			"EndpointSlices this controller deleted because their Service has no selector or is of type ExternalName (kubernetes#118376), by reason."); err != nil {
			return nil, fmt.Errorf("endpointslice: %w", err)
		}
		if wqMetrics, err = workqueuemetrics.New(opts.Registerer); err != nil {
			return nil, fmt.Errorf("endpointslice: registering workqueue metrics: %w", err)
		}
	}

	// This is similar to the DefaultControllerRateLimiter, just with a
	// significantly higher default backoff (1s vs 5ms), as in KCM: a sync
	// can require many EndpointSlice writes, and a larger back-off keeps the
	// controller from overwhelming the API server.
	c.serviceQueue = workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedMaxOfRateLimiter(
			workqueue.NewTypedItemExponentialFailureRateLimiter[string](defaultSyncBackOff, maxSyncBackOff),
			// 10 qps, 100 bucket size: overall retry speed, not per item.
			&workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
		),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: serviceQueueName, MetricsProvider: wqMetrics},
	)
	c.podQueue = workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[*servicepods.PodProjectionKey]())
	c.topologyQueue = workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())

	podInformer := factory.Core().V1().Pods()
	serviceInformer := factory.Core().V1().Services()
	sliceInformer := factory.Discovery().V1().EndpointSlices()
	nodeInformer := factory.Core().V1().Nodes()

	if !opts.SkipInformerTransforms {
		for _, it := range []struct {
			informer  cache.SharedIndexInformer
			transform cache.TransformFunc
		}{
			{podInformer.Informer(), TransformPod},
			{serviceInformer.Informer(), TransformService},
			{sliceInformer.Informer(), TransformEndpointSlice},
			{nodeInformer.Informer(), TransformNode},
		} {
			if err := it.informer.SetTransform(it.transform); err != nil {
				// The informer already runs (the factory was started
				// first): it works untransformed, only with more memory.
				logger.Info("Could not install informer transform", "err", err)
			}
		}
	}

	c.serviceLister = serviceInformer.Lister()
	c.podLister = podInformer.Lister()
	c.sliceLister = sliceInformer.Lister()
	c.nodeLister = nodeInformer.Lister()

	if opts.topologyEnabled() {
		c.topologyCache = topology.NewTopologyCache()
	}
	if c.conflicts, err = newConflictDetector(opts.ControllerName, opts.ConflictReportInterval, clock.RealClock{}, c.eventRecorder, c.serviceLister, opts.Registerer); err != nil {
		return nil, fmt.Errorf("endpointslice: registering %s: %w", ConflictingWritesMetricName, err)
	}

	recOpts := []reconciler.Option{
		reconciler.WithTracker(c.tracker),
		reconciler.WithEventRecorder(c.eventRecorder),
	}
	if c.topologyCache != nil {
		recOpts = append(recOpts, reconciler.WithTopologyCache(c.topologyCache))
	}
	if c.metrics != nil {
		recOpts = append(recOpts, reconciler.WithMetrics(c.metrics))
	}
	c.reconciler, err = reconciler.New(client, reconciler.Config{
		ControllerName:       opts.ControllerName,
		OwnerGVK:             reconciler.ServiceGVK,
		MaxEndpointsPerSlice: opts.MaxEndpointsPerSlice,
		Placeholder:          true,
		EnforceOwnership:     true,
		Metadata:             reconciler.ServiceMetadata{},
	}, recOpts...)
	if err != nil {
		return nil, fmt.Errorf("endpointslice: %w", err)
	}

	var handlers controllerkit.Handlers
	add := handlers.Add
	if err := add(serviceInformer.Informer(), cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onServiceUpdate,
		UpdateFunc: func(_, cur any) { c.onServiceUpdate(cur) },
		DeleteFunc: c.onServiceUpdate,
	}); err != nil {
		return nil, fmt.Errorf("endpointslice: adding Service handler: %w", err)
	}
	if err := add(podInformer.Informer(), cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onPodUpdate(nil, obj) },
		UpdateFunc: c.onPodUpdate,
		DeleteFunc: func(obj any) { c.onPodUpdate(obj, nil) },
	}); err != nil {
		return nil, fmt.Errorf("endpointslice: adding Pod handler: %w", err)
	}
	if err := add(sliceInformer.Informer(), cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onEndpointSliceAdd(logger, obj) },
		UpdateFunc: func(old, cur any) { c.onEndpointSliceUpdate(logger, old, cur) },
		DeleteFunc: c.onEndpointSliceDelete,
	}); err != nil {
		return nil, fmt.Errorf("endpointslice: adding EndpointSlice handler: %w", err)
	}
	nodeHandler := cache.ResourceEventHandler(cache.ResourceEventHandlerFuncs{})
	if c.topologyCache != nil {
		nodeHandler = cache.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { c.topologyQueue.Add(topologyQueueItemKey) },
			UpdateFunc: c.onNodeUpdate,
			DeleteFunc: func(any) { c.topologyQueue.Add(topologyQueueItemKey) },
		}
	}
	// A Node handler is registered even without topology hints, so that the
	// Node informer exists and syncs (zones are read through its lister).
	if err := add(nodeInformer.Informer(), nodeHandler); err != nil {
		return nil, fmt.Errorf("endpointslice: adding Node handler: %w", err)
	}
	c.cachesSynced = handlers.Synced()
	return c, nil
}

// HasSynced reports whether the Pod, Service, EndpointSlice and Node
// informers have synced and delivered their initial objects to this
// controller's handlers.
func (c *Controller) HasSynced() bool {
	return controllerkit.AllSynced(c.cachesSynced)
}

// Run starts the event pipeline (when New built the broadcaster), waits for
// the informer caches, sweeps delegated Services (see package doc), and runs
// workers Service workers, workers Pod workers and one topology worker
// until ctx is done (KCM Run, behaviour C4). It does not start the
// informers: start the factory before or after calling Run. It returns nil
// after ctx is done and the workers have stopped, and an error when workers
// is less than 1 or ctx ends before the caches synced. Run must be called at
// most once: it shuts the queues down on return.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrashWithContext(ctx)
	if workers < 1 {
		return fmt.Errorf("endpointslice: workers must be at least 1, got %d", workers)
	}
	logger := klog.FromContext(ctx)

	defer controllerkit.StartEvents(c.eventBroadcaster, c.client.CoreV1())()

	logger.Info("Starting endpoint slice controller", "controllerName", c.opts.ControllerName, "externalEndpointController", c.gate, "selectorRemovalCleanup", c.cleanup)
	var wg sync.WaitGroup
	defer func() {
		logger.Info("Shutting down endpoint slice controller")
		c.serviceQueue.ShutDown()
		c.podQueue.ShutDown()
		c.topologyQueue.ShutDown()
		wg.Wait()
	}()

	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.cachesSynced...) {
		return fmt.Errorf("endpointslice: caches did not sync: %w", context.Cause(ctx))
	}

	c.sweepDelegated(ctx)

	logger.V(2).Info("Starting service queue worker threads", "total", workers)
	for range workers {
		wg.Go(func() { wait.UntilWithContext(ctx, c.serviceQueueWorker, workerLoopPeriod) })
		wg.Go(func() { wait.UntilWithContext(ctx, c.podQueueWorker, workerLoopPeriod) })
	}
	logger.V(2).Info("Starting topology queue worker threads", "total", 1)
	wg.Go(func() { wait.UntilWithContext(ctx, c.topologyQueueWorker, workerLoopPeriod) })
	<-ctx.Done()
	return nil
}

// serviceQueueWorker processes Service keys until the queue shuts down;
// the queue never hands the same key to two workers at once.
func (c *Controller) serviceQueueWorker(ctx context.Context) {
	controllerkit.Worker(c.serviceQueue, c.processServiceItem)(ctx)
}

func (c *Controller) processServiceItem(ctx context.Context, key string) {
	err := c.SyncService(ctx, key)
	c.handleErr(ctx, err, key)
}

// handleErr counts the sync result and forgets the key, requeues it with
// back-off, or drops it after maxRetries (KCM handleErr, C9).
func (c *Controller) handleErr(ctx context.Context, err error, key string) {
	logger := klog.FromContext(ctx)
	c.trackSync(err)
	if err == nil {
		c.serviceQueue.Forget(key)
		return
	}
	if c.serviceQueue.NumRequeues(key) < maxRetries {
		controllerkit.LogRetry(logger, 0, err, "Error syncing endpoint slices for service, retrying", "key", key)
		c.serviceQueue.AddRateLimited(key)
		return
	}
	logger.Info("Retry budget exceeded, dropping service out of the queue", "key", key, "err", err)
	c.serviceQueue.Forget(key)
	utilruntime.HandleErrorWithContext(ctx, err, "Dropping service out of the queue", "key", key)
}

// trackSync counts one sync in syncs{result} (KCM trackSync).
func (c *Controller) trackSync(err error) {
	switch {
	case err == nil:
		c.metrics.IncEndpointSliceSyncs(rmetrics.SyncResultSuccess)
	case IsStaleInformerCache(err):
		c.metrics.IncEndpointSliceSyncs(rmetrics.SyncResultStale)
	default:
		c.metrics.IncEndpointSliceSyncs(rmetrics.SyncResultError)
	}
}

func (c *Controller) podQueueWorker(ctx context.Context) {
	controllerkit.Worker(c.podQueue, c.processPodItem)(ctx)
}

func (c *Controller) processPodItem(ctx context.Context, key *servicepods.PodProjectionKey) {
	err := c.syncPod(key)
	c.handlePodErr(ctx, err, key)
}

// handlePodErr is KCM's handlePodErr: retry with the default controller
// rate limiter, drop after maxRetries.
func (c *Controller) handlePodErr(ctx context.Context, err error, key *servicepods.PodProjectionKey) {
	logger := klog.FromContext(ctx)
	if err == nil {
		c.podQueue.Forget(key)
		return
	}
	if c.podQueue.NumRequeues(key) < maxRetries {
		logger.V(2).Info("Error syncing pod, retrying", "podProjectionKey", *key, "err", err)
		c.podQueue.AddRateLimited(key)
		return
	}
	logger.Info("Dropping pod out of the queue", "podProjectionKey", *key)
	c.podQueue.Forget(key)
	utilruntime.HandleErrorWithContext(ctx, err, "Dropping pod projection key out of the queue")
}

// syncPod queues, after the batch period, every Service whose selector
// matches the Pod's labels (old and new ones on a label change) and that is
// not delegated (KCM syncPod with util.GetServicesToUpdate, C6; KEP-4770
// rule (a)7).
func (c *Controller) syncPod(key *servicepods.PodProjectionKey) error {
	services, err := c.servicesToUpdate(key)
	if err != nil {
		return err
	}
	for svc := range services {
		c.serviceQueue.AddAfter(svc, c.opts.BatchPeriod)
	}
	return nil
}

func (c *Controller) topologyQueueWorker(ctx context.Context) {
	controllerkit.Worker(c.topologyQueue, c.processTopologyItem)(ctx)
}

func (c *Controller) processTopologyItem(ctx context.Context, _ string) {
	c.checkNodeTopologyDistribution(ctx)
}
