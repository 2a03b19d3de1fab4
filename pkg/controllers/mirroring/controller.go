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

package mirroring

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
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/internal/workqueuemetrics"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/reconciler"
	rmetrics "github.com/slicekit/slicekit/pkg/reconciler/metrics"
)

// queueName names the queue in workqueue metrics (KCM).
const queueName = "endpoint_slice_mirroring"

// Controller mirrors Endpoints objects of selectorless Services into
// EndpointSlices, as KCM's EndpointSlice mirroring controller does, and
// stops mirroring (deleting what it mirrored) for Services delegated to
// another controller by the KEP-4770 label. Create it with New, run it with
// Run. All methods are safe for concurrent use.
type Controller struct {
	client kubernetes.Interface
	opts   Options
	// gate is the ExternalEndpointController feature gate.
	gate bool
	// cleanup is the SelectorRemovalCleanup feature gate.
	cleanup bool
	// removals counts mirrored slices deleted because their Endpoints
	// object is a selector removal's leftover; nil without metrics.
	removals *selectorless.RemovalMetrics

	// events records Events (Options.EventRecorder, or a broadcaster Run
	// connects to the API server).
	events *controllerkit.Events

	// Listers read the shared informer caches. Objects they return are
	// shared and must never be modified.
	endpointsLister corelisters.EndpointsLister
	serviceLister   corelisters.ServiceLister
	sliceLister     discoverylisters.EndpointSliceLister
	// cachesSynced report whether each informer has synced and delivered
	// its initial objects to this controller's handlers; replaced by tests.
	cachesSynced []cache.InformerSynced

	// reconciler writes EndpointSlices; tracker is its record of the
	// generations this controller wrote (stale-cache detection and echo
	// suppression).
	reconciler *reconciler.Reconciler
	tracker    *reconciler.Tracker
	// metrics (reconciler metrics under the mirroring subsystem) and
	// mirroringMetrics (the mirroring-only ones) are nil without
	// Options.Registerer; their methods are nil-safe.
	metrics          *rmetrics.Metrics
	mirroringMetrics *mirroringMetrics

	// queue holds Endpoints keys (namespace/name) to sync; loop is its
	// work loop.
	queue workqueue.TypedRateLimitingInterface[string]
	loop  *controllerkit.Loop[string]
}

// New creates the controller and registers its event handlers on the
// factory's Endpoints, Service and EndpointSlice informers (requesting them
// from the factory). It installs no informer transform, so it can share the
// factory with the EndpointSlice controller (whose transforms keep every
// field this controller reads) and the Endpoints controller. Call it before
// the factory is started; start the factory and then call Run. ctx supplies
// the logger (klog.FromContext) used by the event handlers and the event
// broadcaster.
//
// Defaults are filled in as documented on Options. New returns an error
// when client or factory is nil, when opts is invalid, or when the metrics
// cannot be registered on opts.Registerer. The KCM counterpart is
// NewController in pkg/controller/endpointslicemirroring/
// endpointslicemirroring_controller.go.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	if err := controllerkit.CheckNewArgs("mirroring", client, factory); err != nil {
		return nil, err
	}
	opts, err := opts.complete()
	if err != nil {
		return nil, fmt.Errorf("mirroring: invalid options: %w", err)
	}
	logger := klog.FromContext(ctx)

	c := &Controller{
		client:  client,
		opts:    opts,
		gate:    ptr.Deref(opts.ExternalEndpointController, true),
		cleanup: ptr.Deref(opts.SelectorRemovalCleanup, true),
		tracker: reconciler.NewTracker(),
	}
	c.events = controllerkit.NewEvents(ctx, opts.EventRecorder, EventSourceComponent)

	var wqMetrics workqueue.MetricsProvider
	if opts.Registerer != nil {
		if c.metrics, err = rmetrics.New(opts.Registerer, rmetrics.Options{Subsystem: MetricsSubsystem}); err != nil {
			return nil, fmt.Errorf("mirroring: %w", err)
		}
		if c.removals, err = selectorless.NewRemovalMetrics(opts.Registerer, MetricsSubsystem, SelectorRemovalMetricName,
			"Mirrored EndpointSlices deleted because their Endpoints object is the Endpoints controller's leftover on a Service without a selector (kubernetes#118376), by reason."); err != nil {
			return nil, fmt.Errorf("mirroring: %w", err)
		}
		if c.mirroringMetrics, err = newMirroringMetrics(opts.Registerer); err != nil {
			return nil, fmt.Errorf("mirroring: %w", err)
		}
		if wqMetrics, err = workqueuemetrics.New(opts.Registerer); err != nil {
			return nil, fmt.Errorf("mirroring: registering workqueue metrics: %w", err)
		}
	}

	// Like the DefaultControllerRateLimiter with a larger base back-off
	// (1s instead of 5ms), as in KCM: a sync can require many EndpointSlice
	// writes. Back-off up to 100s (rule b12).
	c.queue = controllerkit.NewSyncQueueWithBackOff(queueName, controllerkit.MirroringMaxSyncBackOff, wqMetrics)
	// Each sync is counted in syncs{result} and retried with back-off, up
	// to controllerkit.MaxRetries times (KCM handleErr, rule b12).
	c.loop = &controllerkit.Loop[string]{
		Queue:  c.queue,
		Sync:   c.SyncEndpoints,
		Result: func(err error) { c.metrics.IncEndpointSliceSyncs(reconciler.SyncResult(err)) },
		Retry: controllerkit.Retry{
			RetryMsg:       "Error mirroring EndpointSlices for Endpoints, retrying",
			DropMsg:        "Retry budget exceeded, dropping Endpoints out of the queue",
			HandleErrorMsg: "Dropping Endpoints out of the queue",
		},
	}

	endpointsInformer := factory.Core().V1().Endpoints()
	serviceInformer := factory.Core().V1().Services()
	sliceInformer := factory.Discovery().V1().EndpointSlices()
	c.endpointsLister = endpointsInformer.Lister()
	c.serviceLister = serviceInformer.Lister()
	if err := reconciler.AddServiceNameIndex(sliceInformer.Informer()); err != nil {
		return nil, fmt.Errorf("mirroring: %w", err)
	}
	c.sliceLister = reconciler.NewSliceLister(sliceInformer.Informer().GetIndexer())

	c.reconciler, err = reconciler.New(client, reconciler.Config{
		ControllerName:       opts.ControllerName,
		OwnerGVK:             reconciler.EndpointsGVK,
		MaxEndpointsPerSlice: opts.MirroringMaxEndpointsPerSubset,
		Placeholder:          false,
		EnforceOwnership:     false,
		OneSlicePerGroup:     true,
		Metadata:             metadataPolicy{},
	}, reconciler.WithTracker(c.tracker), reconciler.WithEventRecorder(c.events), reconciler.WithMetrics(c.metrics))
	if err != nil {
		return nil, fmt.Errorf("mirroring: %w", err)
	}

	var handlers controllerkit.Handlers
	handlers.Register(endpointsInformer.Informer(), "Endpoints", cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.onEndpointsAdd(logger, obj) },
		UpdateFunc: func(old, cur any) { c.onEndpointsUpdate(logger, old, cur) },
		DeleteFunc: func(obj any) { c.onEndpointsDelete(logger, obj) },
	})
	handlers.Register(serviceInformer.Informer(), "Service", cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onServiceAdd,
		UpdateFunc: c.onServiceUpdate,
		DeleteFunc: c.onServiceDelete,
	})
	handlers.Register(sliceInformer.Informer(), "EndpointSlice", cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onEndpointSliceAdd,
		UpdateFunc: func(old, cur any) { c.onEndpointSliceUpdate(logger, old, cur) },
		DeleteFunc: c.onEndpointSliceDelete,
	})
	if err := handlers.Err(); err != nil {
		return nil, fmt.Errorf("mirroring: %w", err)
	}
	c.cachesSynced = handlers.Synced()
	return c, nil
}

// HasSynced reports whether the Endpoints, Service and EndpointSlice
// informers have synced and delivered their initial objects to this
// controller's handlers.
func (c *Controller) HasSynced() bool {
	return controllerkit.AllSynced(c.cachesSynced)
}

// Workers returns Options.MirroringConcurrentServiceEndpointSyncs after
// defaulting: the number of workers Run starts when given 0.
func (c *Controller) Workers() int { return int(c.opts.MirroringConcurrentServiceEndpointSyncs) }

// Run starts the event pipeline (when New built the broadcaster), waits for
// the informer caches, sweeps once for slices mirrored for delegated
// Services (see package doc), and runs workers workers until ctx is done
// (KCM Run). workers == 0 means Options.MirroringConcurrentServiceEndpointSyncs.
// It does not start the informers: start the factory before or after
// calling Run. It returns nil after ctx is done and the workers have
// stopped, and an error when workers is negative or ctx ends before the
// caches synced. Run must be called at most once: it shuts the queue down on
// return.
func (c *Controller) Run(ctx context.Context, workers int) error {
	return controllerkit.Runner{
		Name:   "mirroring",
		Events: c.events, EventsClient: c.client.CoreV1(),
		Synced:   c.cachesSynced,
		Starting: "Starting EndpointSliceMirroring controller",
		StartingKV: []any{"controllerName", c.opts.ControllerName, "maxEndpointsPerSubset", c.opts.MirroringMaxEndpointsPerSubset,
			"externalEndpointController", c.gate, "selectorRemovalCleanup", c.cleanup},
		Stopping: "Shutting down EndpointSliceMirroring controller",
		Start: func(ctx context.Context, workers int) {
			c.sweepDelegated(ctx)
			klog.FromContext(ctx).V(2).Info("Starting worker threads", "total", workers)
		},
		Queues:         []interface{ ShutDown() }{c.queue},
		DefaultWorkers: c.Workers(),
		PerWorker:      []func(context.Context){c.loop.Worker},
	}.Run(ctx, workers)
}
