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

package endpoints

import (
	"context"
	"fmt"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/internal/workqueuemetrics"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/selectorindex"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// queueName names the Service queue in workqueue metrics (KCM). Both
// queues use the default controller rate limiter, as KCM's do: with
// controllerkit.MaxRetries the delays are 5ms, 10ms, ..., 82s.
const queueName = "endpoint"

// Controller writes one Endpoints object per Service with a selector, from
// the Pods the selector matches, as KCM's Endpoints controller does, and
// leaves Services delegated by the KEP-4770 label to another controller.
// Create it with New, run it with Run. All methods are safe for concurrent
// use.
type Controller struct {
	client kubernetes.Interface
	opts   Options
	// gate is the ExternalEndpointController feature gate.
	gate bool
	// cleanup is the SelectorRemovalCleanup feature gate.
	cleanup bool
	// removals counts Endpoints objects deleted because their Service
	// selects no Pods; nil without metrics.
	removals *selectorless.RemovalMetrics

	// events records Events (Options.EventRecorder, or a broadcaster Run
	// connects to the API server).
	events *controllerkit.Events

	// Listers read the shared informer caches. Objects they return are
	// shared and must never be modified.
	serviceLister corelisters.ServiceLister
	// services is the Pod → Services lookup (podSelectorOf).
	services        *selectorindex.Services
	podLister       corelisters.PodLister
	endpointsLister corelisters.EndpointsLister
	// cachesSynced report whether each informer has synced and delivered
	// its initial objects to this controller's handlers; replaced by tests.
	cachesSynced []cache.InformerSynced

	// staleEndpoints detects an Endpoints cache older than this
	// controller's own updates (KCM staleEndpointsTracker, E5).
	staleEndpoints *staleEndpointsTracker
	// triggerTimes computes the last-change-trigger-time annotation.
	triggerTimes *servicepods.TriggerTimeTracker

	// queue holds Service keys (namespace/name) to sync.
	queue workqueue.TypedRateLimitingInterface[string]
	// podQueue holds Pod projection keys, mapped to Services by a worker
	// (KCM podQueue).
	podQueue workqueue.TypedRateLimitingInterface[*servicepods.PodProjectionKey]
	// loop and podLoop are the queues' work loops.
	loop    *controllerkit.Loop[string]
	podLoop *controllerkit.Loop[*servicepods.PodProjectionKey]
}

// New creates the controller and registers its event handlers on the
// factory's Pod, Service and Endpoints informers (requesting them from the
// factory). It installs no informer transform; if the factory is shared with
// the EndpointSlice controller, that controller's Pod and Service
// transforms keep every field this one reads. Call it before the factory is
// started; start the factory and then call Run. ctx supplies the logger
// (klog.FromContext) used by the event handlers and the event broadcaster.
//
// New returns an error when client or factory is nil, when opts is invalid,
// or when the workqueue metrics cannot be registered on opts.Registerer. The
// KCM counterpart is NewEndpointController in
// pkg/controller/endpoint/endpoints_controller.go.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	if err := controllerkit.CheckNewArgs("endpoints", client, factory); err != nil {
		return nil, err
	}
	opts, err := opts.complete()
	if err != nil {
		return nil, fmt.Errorf("endpoints: invalid options: %w", err)
	}
	c := &Controller{
		client:         client,
		opts:           opts,
		gate:           ptr.Deref(opts.ExternalEndpointController, true),
		cleanup:        ptr.Deref(opts.SelectorRemovalCleanup, true),
		staleEndpoints: newStaleEndpointsTracker(),
		triggerTimes:   servicepods.NewTriggerTimeTracker(),
	}
	c.events = controllerkit.NewEvents(ctx, opts.EventRecorder, wellknown.EndpointsControllerName)
	var wqMetrics workqueue.MetricsProvider
	if opts.Registerer != nil {
		if c.removals, err = selectorless.NewRemovalMetrics(opts.Registerer, "endpoint_controller", SelectorRemovalMetricName,
			"Endpoints objects this controller deleted because their Service has no selector or is of type ExternalName (kubernetes#118376), by reason."); err != nil {
			return nil, fmt.Errorf("endpoints: %w", err)
		}
		if wqMetrics, err = workqueuemetrics.New(opts.Registerer); err != nil {
			return nil, fmt.Errorf("endpoints: registering workqueue metrics: %w", err)
		}
	}
	c.queue = workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: queueName, MetricsProvider: wqMetrics},
	)
	c.podQueue = workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[*servicepods.PodProjectionKey]())
	// Both retry with back-off up to controllerkit.MaxRetries times (KCM
	// handleErr, and the Pod queue's).
	c.loop = &controllerkit.Loop[string]{
		Queue: c.queue,
		Sync:  c.SyncService,
		Retry: controllerkit.Retry{Verbosity: 2, RetryMsg: "Error syncing endpoints, retrying", DropMsg: "Dropping service out of the queue"},
	}
	c.podLoop = &controllerkit.Loop[*servicepods.PodProjectionKey]{
		Queue: c.podQueue,
		Sync:  func(_ context.Context, key *servicepods.PodProjectionKey) error { return c.syncPod(key) },
		Retry: controllerkit.Retry{
			Verbosity:      2,
			RetryMsg:       "Error syncing pod, retrying",
			DropMsg:        "Dropping pod out of the queue",
			HandleErrorMsg: "Dropping pod projection key out of the queue",
			KeyName:        "podProjectionKey",
		},
	}

	serviceInformer := factory.Core().V1().Services()
	podInformer := factory.Core().V1().Pods()
	endpointsInformer := factory.Core().V1().Endpoints()
	c.serviceLister = serviceInformer.Lister()
	if c.services, err = selectorindex.NewServices(serviceInformer.Informer(), c.podSelectorOf); err != nil {
		return nil, err
	}
	if err := podcache.AddLabelIndex(podInformer.Informer()); err != nil {
		return nil, err
	}
	c.podLister = podcache.NewLister(podInformer.Informer().GetIndexer())
	c.endpointsLister = endpointsInformer.Lister()

	var handlers controllerkit.Handlers
	handlers.Register(serviceInformer.Informer(), "Service", cache.ResourceEventHandlerFuncs{
		AddFunc:    c.queueKey,
		UpdateFunc: func(_, cur any) { c.queueKey(cur) },
		DeleteFunc: c.queueKey,
	})
	handlers.Register(podInformer.Informer(), "Pod", cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onPodUpdate(nil, obj) },
		UpdateFunc: c.onPodUpdate,
		DeleteFunc: func(obj any) { c.onPodUpdate(obj, nil) },
	})
	handlers.Register(endpointsInformer.Informer(), "Endpoints", cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onEndpointsAdd,
		UpdateFunc: func(_, cur any) { c.onEndpointsAdd(cur) },
		DeleteFunc: c.queueKey,
	})
	if err := handlers.Err(); err != nil {
		return nil, fmt.Errorf("endpoints: %w", err)
	}
	c.cachesSynced = handlers.Synced()
	return c, nil
}

// HasSynced reports whether the Pod, Service and Endpoints informers have
// synced and delivered their initial objects to this controller's handlers.
func (c *Controller) HasSynced() bool {
	return controllerkit.AllSynced(c.cachesSynced)
}

// Workers returns Options.ConcurrentEndpointSyncs after defaulting: the
// number of workers Run starts when given 0.
func (c *Controller) Workers() int { return int(c.opts.ConcurrentEndpointSyncs) }

// Run starts the event pipeline (when New built the broadcaster), waits for
// the informer caches, and runs workers Service workers and workers Pod
// workers until ctx is done (KCM Run). workers == 0 means
// Options.ConcurrentEndpointSyncs. Unlike KCM it does not queue every
// Endpoints object at start-up to delete those without a Service
// (checkLeftoverEndpoints): only Endpoints carrying this controller's
// managed-by label are ever deleted, and the Endpoints handlers queue those
// whose Service is missing or delegated as the cache fills (spec O3, E9).
// It does not start the informers. It returns nil after ctx is done and the
// workers have stopped, and an error when workers is negative or ctx ends
// before the caches synced. Run must be called at most once.
func (c *Controller) Run(ctx context.Context, workers int) error {
	return controllerkit.Runner{
		Name:   "endpoints",
		Events: c.events, EventsClient: c.client.CoreV1(),
		Synced:         c.cachesSynced,
		Starting:       "Starting endpoint controller",
		StartingKV:     []any{"externalEndpointController", c.gate, "selectorRemovalCleanup", c.cleanup},
		Stopping:       "Shutting down endpoint controller",
		Queues:         []interface{ ShutDown() }{c.queue, c.podQueue},
		DefaultWorkers: c.Workers(),
		PerWorker:      []func(context.Context){c.loop.Worker, c.podLoop.Worker},
	}.Run(ctx, workers)
}
