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

package podsource

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
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

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/internal/workqueuemetrics"
	"github.com/slicekit/slicekit/pkg/reconciler"
	rmetrics "github.com/slicekit/slicekit/pkg/reconciler/metrics"
	"github.com/slicekit/slicekit/pkg/reconciler/topology"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

const (
	// maxRetries is the number of times a Service is retried before it is
	// dropped out of the queue (KCM maxRetries, behaviour C9).
	maxRetries = 15
	// endpointSliceChangeMinSyncDelay is the least delay before a sync
	// triggered by an EndpointSlice change (KCM, C7).
	endpointSliceChangeMinSyncDelay = 1 * time.Second
	// defaultSyncBackOff and maxSyncBackOff bound the Service queue's
	// per-item exponential back-off (KCM, C9).
	defaultSyncBackOff = 1 * time.Second
	maxSyncBackOff     = 1000 * time.Second
	// topologyQueueItemKey is the only key of the topology queue.
	topologyQueueItemKey = "topologyQueueItemKey"
	// workerLoopPeriod is the pause before a worker that returned is
	// restarted.
	workerLoopPeriod = time.Second
	// metricsLabelController is the constant label that tells the metrics
	// of several pod-source controllers apart.
	metricsLabelController = "controller"
)

// Controller manages the EndpointSlices of the Services labelled
// service.kubernetes.io/endpoint-controller-name=<ControllerName>, with
// endpoints derived from the Services' Pods by a Source. Create it with New
// and run it with Run. All methods are safe for concurrent use.
type Controller struct {
	client kubernetes.Interface
	opts   Options

	// eventBroadcaster is nil when the caller supplied the EventRecorder.
	eventBroadcaster record.EventBroadcaster
	eventRecorder    record.EventRecorder

	// Listers read the shared informer caches. Objects they return are
	// shared and must never be modified.
	serviceLister corelisters.ServiceLister
	podLister     corelisters.PodLister
	sliceLister   discoverylisters.EndpointSliceLister
	nodeLister    corelisters.NodeLister
	cachesSynced  []cache.InformerSynced

	// reconciler writes the slices; tracker records the generations it
	// wrote (stale-cache detection and echo suppression, KCM C33).
	reconciler   *reconciler.Reconciler
	tracker      *reconciler.Tracker
	triggerTimes *servicepods.TriggerTimeTracker
	// topologyCache computes topology-aware hints (C34) from the Nodes.
	topologyCache *topology.TopologyCache
	// metrics is nil without Options.Registerer; its methods are nil-safe.
	metrics  *rmetrics.Metrics
	problems *problemReporter

	// serviceQueue holds the namespace/name keys of Services to sync.
	serviceQueue workqueue.TypedRateLimitingInterface[string]
	// podQueue holds Pod projection keys, mapped to Services by a worker
	// (KCM podQueue, C6).
	podQueue workqueue.TypedRateLimitingInterface[*servicepods.PodProjectionKey]
	// topologyQueue triggers a topology-cache refresh after Node changes.
	topologyQueue workqueue.TypedRateLimitingInterface[string]
}

// New creates a pod-source controller and registers its event handlers on
// the factory's Pod, Service, EndpointSlice and Node informers (requesting
// them from the factory), after installing opts.PodTransform (see
// Options). Call it before the factory is started; start the factory and
// then call Run. ctx supplies the logger of the event handlers.
//
// Defaults are filled in as documented on Options. New returns an error
// when client or factory is nil, when opts is invalid (every invalid field
// named), or when the metrics cannot be registered on opts.Registerer (for
// instance a second controller with the same ControllerName).
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	if client == nil {
		return nil, errors.New("podsource: client is nil")
	}
	if factory == nil {
		return nil, errors.New("podsource: informer factory is nil")
	}
	opts, err := opts.complete()
	if err != nil {
		return nil, fmt.Errorf("podsource: invalid options: %w", err)
	}
	logger := klog.FromContext(ctx)

	c := &Controller{
		client:        client,
		opts:          opts,
		eventRecorder: opts.EventRecorder,
		tracker:       reconciler.NewTracker(),
		triggerTimes:  servicepods.NewTriggerTimeTracker(),
		topologyCache: topology.NewTopologyCache(),
	}
	if c.eventRecorder == nil {
		c.eventBroadcaster = record.NewBroadcaster(record.WithContext(ctx))
		c.eventRecorder = c.eventBroadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: opts.EventSourceComponent})
	}

	var wqMetrics workqueue.MetricsProvider
	var pm *problemMetrics
	if opts.Registerer != nil {
		reg := prometheus.WrapRegistererWith(prometheus.Labels{metricsLabelController: opts.ControllerName}, opts.Registerer)
		if c.metrics, err = rmetrics.New(reg, rmetrics.Options{Subsystem: opts.MetricsSubsystem}); err != nil {
			return nil, fmt.Errorf("podsource %s: %w", opts.ControllerName, err)
		}
		if pm, err = newProblemMetrics(reg, opts.MetricsSubsystem); err != nil {
			return nil, fmt.Errorf("podsource %s: %w", opts.ControllerName, err)
		}
		if wqMetrics, err = workqueuemetrics.New(opts.Registerer); err != nil {
			return nil, fmt.Errorf("podsource %s: registering workqueue metrics: %w", opts.ControllerName, err)
		}
	}
	c.problems = newProblemReporter(c.eventRecorder, pm)

	// KCM's Service queue rate limiter (C9): 1s..1000s per item, 10 qps
	// (burst 100) overall.
	c.serviceQueue = workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedMaxOfRateLimiter(
			workqueue.NewTypedItemExponentialFailureRateLimiter[string](defaultSyncBackOff, maxSyncBackOff),
			&workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
		),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: opts.ControllerName, MetricsProvider: wqMetrics},
	)
	c.podQueue = workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[*servicepods.PodProjectionKey]())
	c.topologyQueue = workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())

	podInformer := factory.Core().V1().Pods()
	serviceInformer := factory.Core().V1().Services()
	sliceInformer := factory.Discovery().V1().EndpointSlices()
	nodeInformer := factory.Core().V1().Nodes()

	if opts.PodTransform != nil && !opts.SkipInformerTransforms {
		if err := podInformer.Informer().SetTransform(opts.PodTransform); err != nil {
			// The informer already runs: it works untransformed.
			logger.Info("Could not install the Pod informer transform", "controller", opts.ControllerName, "err", err)
		}
	}

	c.serviceLister = serviceInformer.Lister()
	c.podLister = podInformer.Lister()
	c.sliceLister = sliceInformer.Lister()
	c.nodeLister = nodeInformer.Lister()

	recOpts := []reconciler.Option{
		reconciler.WithTracker(c.tracker),
		reconciler.WithEventRecorder(c.eventRecorder),
		reconciler.WithTopologyCache(c.topologyCache),
	}
	if c.metrics != nil {
		recOpts = append(recOpts, reconciler.WithMetrics(c.metrics))
	}
	c.reconciler, err = reconciler.New(client, reconciler.Config{
		ControllerName:       opts.ManagedBy,
		OwnerGVK:             reconciler.ServiceGVK,
		MaxEndpointsPerSlice: opts.MaxEndpointsPerSlice,
		Placeholder:          true,
		EnforceOwnership:     true,
		Metadata:             reconciler.ServiceMetadata{},
	}, recOpts...)
	if err != nil {
		return nil, fmt.Errorf("podsource %s: %w", opts.ControllerName, err)
	}

	var handlers controllerkit.Handlers
	add := handlers.Add
	if err := add(serviceInformer.Informer(), cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onServiceEvent(nil, obj) },
		UpdateFunc: c.onServiceEvent,
		DeleteFunc: func(obj any) { c.onServiceEvent(nil, obj) },
	}); err != nil {
		return nil, fmt.Errorf("podsource %s: adding Service handler: %w", opts.ControllerName, err)
	}
	if err := add(podInformer.Informer(), cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onPodUpdate(nil, obj) },
		UpdateFunc: c.onPodUpdate,
		DeleteFunc: func(obj any) { c.onPodUpdate(obj, nil) },
	}); err != nil {
		return nil, fmt.Errorf("podsource %s: adding Pod handler: %w", opts.ControllerName, err)
	}
	if err := add(sliceInformer.Informer(), cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onEndpointSliceAdd(obj) },
		UpdateFunc: func(old, cur any) { c.onEndpointSliceUpdate(logger, old, cur) },
		DeleteFunc: c.onEndpointSliceDelete,
	}); err != nil {
		return nil, fmt.Errorf("podsource %s: adding EndpointSlice handler: %w", opts.ControllerName, err)
	}
	if err := add(nodeInformer.Informer(), cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.topologyQueue.Add(topologyQueueItemKey) },
		UpdateFunc: c.onNodeUpdate,
		DeleteFunc: func(any) { c.topologyQueue.Add(topologyQueueItemKey) },
	}); err != nil {
		return nil, fmt.Errorf("podsource %s: adding Node handler: %w", opts.ControllerName, err)
	}
	c.cachesSynced = handlers.Synced()
	return c, nil
}

// ControllerName returns the label value this controller answers to.
func (c *Controller) ControllerName() string { return c.opts.ControllerName }

// ManagedBy returns the managed-by value of this controller's slices.
func (c *Controller) ManagedBy() string { return c.opts.ManagedBy }

// HasSynced reports whether the Pod, Service, EndpointSlice and Node
// informers have synced and delivered their initial objects to this
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
// the informer caches, queues the Services this controller has slices for
// but no longer handles (released while it was down), and runs workers
// Service workers, workers Pod workers and one topology worker until ctx is
// done. It does not start the informers. It returns nil after ctx is done
// and the workers stopped, and an error when workers is less than 1 or ctx
// ends before the caches synced. Call it at most once.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrashWithContext(ctx)
	if workers < 1 {
		return fmt.Errorf("podsource %s: workers must be at least 1, got %d", c.opts.ControllerName, workers)
	}
	logger := klog.FromContext(ctx).WithValues("controller", c.opts.ControllerName)
	ctx = klog.NewContext(ctx, logger)

	defer controllerkit.StartEvents(c.eventBroadcaster, c.client.CoreV1())()

	logger.Info("Starting pod-source endpoint slice controller", "managedBy", c.opts.ManagedBy)
	var wg sync.WaitGroup
	defer func() {
		logger.Info("Shutting down pod-source endpoint slice controller")
		c.serviceQueue.ShutDown()
		c.podQueue.ShutDown()
		c.topologyQueue.ShutDown()
		wg.Wait()
	}()

	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.cachesSynced...) {
		return fmt.Errorf("podsource %s: caches did not sync: %w", c.opts.ControllerName, context.Cause(ctx))
	}

	c.sweepReleased(ctx)

	for range workers {
		wg.Go(func() { wait.UntilWithContext(ctx, c.serviceQueueWorker, workerLoopPeriod) })
		wg.Go(func() { wait.UntilWithContext(ctx, c.podQueueWorker, workerLoopPeriod) })
	}
	wg.Go(func() { wait.UntilWithContext(ctx, c.topologyQueueWorker, workerLoopPeriod) })
	<-ctx.Done()
	return nil
}

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
	switch {
	case err == nil:
		c.metrics.IncEndpointSliceSyncs(rmetrics.SyncResultSuccess)
	case IsStaleInformerCache(err):
		c.metrics.IncEndpointSliceSyncs(rmetrics.SyncResultStale)
	default:
		c.metrics.IncEndpointSliceSyncs(rmetrics.SyncResultError)
	}
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

func (c *Controller) podQueueWorker(ctx context.Context) {
	controllerkit.Worker(c.podQueue, c.processPodItem)(ctx)
}

func (c *Controller) processPodItem(ctx context.Context, key *servicepods.PodProjectionKey) {
	err := c.syncPod(key)
	switch {
	case err == nil:
		c.podQueue.Forget(key)
	case c.podQueue.NumRequeues(key) < maxRetries:
		klog.FromContext(ctx).V(2).Info("Error syncing pod, retrying", "podProjectionKey", *key, "err", err)
		c.podQueue.AddRateLimited(key)
	default:
		c.podQueue.Forget(key)
		utilruntime.HandleErrorWithContext(ctx, err, "Dropping pod projection key out of the queue")
	}
}

// syncPod queues, after the batch period, every Service of this controller
// whose selector matches the Pod's old or new labels (KCM syncPod, C6).
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
