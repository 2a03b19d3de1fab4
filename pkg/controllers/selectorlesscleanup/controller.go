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

package selectorlesscleanup

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/controllerkit"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	// EventSourceComponent is the source component of this controller's
	// Events when Options.EventRecorder is nil.
	EventSourceComponent = "selectorless-cleanup"

	// ReasonEndpointSlicesRemoved and ReasonEndpointsRemoved (Normal, on the
	// Service) are recorded after deleting KCM's leftovers.
	ReasonEndpointSlicesRemoved = selectorless.ReasonEndpointSlicesRemoved
	ReasonEndpointsRemoved      = selectorless.ReasonEndpointsRemoved
	// ReasonLeftoverFound (Normal, on the Service) is recorded in dry-run
	// mode for each leftover that would be deleted.
	ReasonLeftoverFound = "SelectorlessLeftoverFound"
	// ReasonFailedToDelete (Warning, on the Service): a deletion failed.
	ReasonFailedToDelete = "FailedToDeleteSelectorlessLeftover"

	// MetricName is the counter of deletions (or, in dry-run mode, of
	// leftovers found), labelled kind (EndpointSlice, Endpoints), reason
	// (no-selector, external-name) and dry_run ("true", "false").
	MetricName = "selectorless_cleanup_deletions_total"
)

// Options configures New. They are also the controller's command-line
// options: AddFlags binds --selectorless-cleanup-dry-run to DryRun and
// Validate checks it (Registration.NewOptions).
type Options struct {
	// DryRun reports leftovers (Event, log, metric) without deleting them
	// (--selectorless-cleanup-dry-run).
	DryRun bool
	// Registerer receives MetricName; nil means no metrics.
	Registerer prometheus.Registerer
	// EventRecorder records the Events; nil means New builds a broadcaster
	// that Run connects to the API server.
	EventRecorder record.EventRecorder
}

// Controller deletes kube-controller-manager's leftovers of Services that
// select no Pods (see the package doc). Create it with New, run it with Run.
type Controller struct {
	client kubernetes.Interface
	opts   Options

	// events records Events (Options.EventRecorder, or a broadcaster Run
	// connects to the API server).
	events    *controllerkit.Events
	deletions *prometheus.CounterVec

	serviceLister   corelisters.ServiceLister
	sliceLister     discoverylisters.EndpointSliceLister
	endpointsLister corelisters.EndpointsLister
	cachesSynced    []cache.InformerSynced

	queue workqueue.TypedRateLimitingInterface[string]

	// reported remembers, in dry-run mode and per Service key, the
	// leftovers reported by the last sync (kind/uid/resourceVersion), so an
	// unchanged leftover is reported once; each sync replaces the Service's
	// set, so it never outgrows the leftovers that exist.
	mu       sync.Mutex
	reported map[string]map[string]bool
}

// New creates the controller and registers its handlers on the factory's
// Service, EndpointSlice and Endpoints informers. Call it before the factory
// is started. It returns an error when client or factory is nil or the
// metric cannot be registered.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	if client == nil || factory == nil {
		return nil, errors.New("selectorlesscleanup: client and informer factory are required")
	}
	c := &Controller{
		client:   client,
		opts:     opts,
		reported: map[string]map[string]bool{},
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "selectorless_cleanup"}),
	}
	c.events = controllerkit.NewEvents(ctx, opts.EventRecorder, EventSourceComponent)
	if opts.Registerer != nil {
		c.deletions = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricName,
			Help: "Leftovers of kube-controller-manager's endpoint controllers deleted (dry_run=\"true\": found) for Services without selector or of type ExternalName (kubernetes#118376), by kind and reason.",
		}, []string{"kind", "reason", "dry_run"})
		if err := opts.Registerer.Register(c.deletions); err != nil {
			return nil, fmt.Errorf("selectorlesscleanup: registering %s: %w", MetricName, err)
		}
	}

	svcInf := factory.Core().V1().Services()
	sliceInf := factory.Discovery().V1().EndpointSlices()
	epInf := factory.Core().V1().Endpoints()
	c.serviceLister = svcInf.Lister()
	if err := reconciler.AddServiceNameIndex(sliceInf.Informer()); err != nil {
		return nil, fmt.Errorf("selectorlesscleanup: %w", err)
	}
	c.sliceLister = reconciler.NewSliceLister(sliceInf.Informer().GetIndexer())
	c.endpointsLister = epInf.Lister()

	var h controllerkit.Handlers
	h.Register(svcInf.Informer(), "Service", cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onService,
		UpdateFunc: func(_, cur any) { c.onService(cur) },
	})
	h.Register(sliceInf.Informer(), "EndpointSlice", cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onEndpointSlice,
		UpdateFunc: func(_, cur any) { c.onEndpointSlice(cur) },
	})
	h.Register(epInf.Informer(), "Endpoints", cache.ResourceEventHandlerFuncs{
		AddFunc:    c.onEndpoints,
		UpdateFunc: func(_, cur any) { c.onEndpoints(cur) },
	})
	if err := h.Err(); err != nil {
		return nil, fmt.Errorf("selectorlesscleanup: %w", err)
	}
	c.cachesSynced = h.Synced()
	return c, nil
}

// onService queues a Service that selects no Pods.
func (c *Controller) onService(obj any) {
	svc, ok := obj.(*corev1.Service)
	if !ok {
		return
	}
	if none, _, _ := selectorless.SelectsNoPods(svc); none {
		c.queue.Add(svc.Namespace + "/" + svc.Name)
	}
}

// onEndpointSlice queues the Service of a slice of KCM's EndpointSlice
// controller (it may be a leftover, or recreated from a stale cache).
func (c *Controller) onEndpointSlice(obj any) {
	s, ok := obj.(*discovery.EndpointSlice)
	if !ok || s.Labels[discovery.LabelManagedBy] != wellknown.EndpointSliceControllerName {
		return
	}
	if name := s.Labels[discovery.LabelServiceName]; name != "" {
		c.queue.Add(s.Namespace + "/" + name)
	}
}

// onEndpoints queues the Service of an Endpoints object of KCM's Endpoints
// controller.
func (c *Controller) onEndpoints(obj any) {
	ep, ok := obj.(*corev1.Endpoints)
	if !ok {
		return
	}
	if kcm, _ := selectorless.KCMEndpoints(ep); !kcm {
		return
	}
	c.queue.Add(ep.Namespace + "/" + ep.Name)
}

// HasSynced reports whether the informers have synced and delivered their
// initial objects to this controller's handlers.
func (c *Controller) HasSynced() bool { return controllerkit.AllSynced(c.cachesSynced) }

// Run waits for the caches and runs workers workers until ctx is done. It
// returns an error when workers < 1 or the caches did not sync. Call it at
// most once.
func (c *Controller) Run(ctx context.Context, workers int) error {
	return controllerkit.Runner{
		Name:   "selectorlesscleanup",
		Events: c.events, EventsClient: c.client.CoreV1(),
		Synced:     c.cachesSynced,
		Starting:   "Starting selectorless-cleanup controller",
		StartingKV: []any{"dryRun", c.opts.DryRun},
		Stopping:   "Shutting down selectorless-cleanup controller",
		Queues:     []interface{ ShutDown() }{c.queue},
		PerWorker:  []func(context.Context){c.loop().Worker},
	}.Run(ctx, workers)
}

// loop syncs the queue's keys and retries each with back-off, up to
// controllerkit.MaxRetries times (KCM's value).
func (c *Controller) loop() *controllerkit.Loop[string] {
	return &controllerkit.Loop[string]{
		Queue: c.queue,
		Sync:  c.SyncService,
		Retry: controllerkit.Retry{
			RetryMsg:       "Error cleaning up after selector removal, retrying",
			HandleErrorMsg: "Dropping Service out of the queue",
		},
	}
}

// SyncAll syncs every Service of the cache once, in namespace/name order
// (the `slicekit render` hook); it returns the failures joined.
func (c *Controller) SyncAll(ctx context.Context) error {
	svcs, err := c.serviceLister.List(labels.Everything())
	if err != nil {
		return err
	}
	slices.SortFunc(svcs, func(a, b *corev1.Service) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	var errs []error
	for _, s := range svcs {
		if err := c.SyncService(ctx, s.Namespace+"/"+s.Name); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// SyncService deletes (or, with DryRun, reports) the leftovers of KCM's
// EndpointSlice and Endpoints controllers for the Service namespace/name
// when it exists and selects no Pods (selectorless.SelectsNoPods); see the
// package doc for exactly what is deleted. A missing Service, or one with
// a selector, is left alone (its objects are KCM's business). A deletion
// that fails on a precondition (the object changed or was replaced) or
// NotFound is not an error: the informer event of the change queues the
// Service again. Other failures are returned joined, with a Warning Event.
func (c *Controller) SyncService(ctx context.Context, key string) error {
	logger := klog.FromContext(ctx)
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	svc, err := c.serviceLister.Services(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		c.forgetReported(key)
		return nil
	}
	if err != nil {
		return fmt.Errorf("getting Service %s: %w", key, err)
	}
	none, reason, why := selectorless.SelectsNoPods(svc)
	if !none {
		c.forgetReported(key)
		return nil
	}
	seen := map[string]bool{}
	defer c.setReported(key, seen)

	var errs []error
	cached, err := c.sliceLister.EndpointSlices(namespace).List(labels.Set{
		discovery.LabelServiceName: name,
		discovery.LabelManagedBy:   wellknown.EndpointSliceControllerName,
	}.AsSelectorPreValidated())
	if err != nil {
		return fmt.Errorf("listing EndpointSlices of Service %s: %w", key, err)
	}
	slices.SortFunc(cached, func(a, b *discovery.EndpointSlice) int { return cmp.Compare(a.Name, b.Name) })
	deletedSlices := 0
	for _, s := range cached {
		if s.DeletionTimestamp != nil || !ownedBy(s, svc) {
			continue
		}
		if c.opts.DryRun {
			c.report(ctx, svc, seen, "EndpointSlice", s.Name, string(s.UID), s.ResourceVersion, reason, why)
			continue
		}
		done, err := c.delete(ctx, "EndpointSlice", s.Name, s.UID, s.ResourceVersion, func(o metav1.DeleteOptions) error {
			return c.client.DiscoveryV1().EndpointSlices(namespace).Delete(ctx, s.Name, o)
		})
		if err != nil {
			errs = append(errs, err)
		}
		if done {
			deletedSlices++
			c.count("EndpointSlice", reason, false)
		}
	}
	if deletedSlices > 0 {
		logger.Info("Deleted kube-controller-manager's EndpointSlices of a Service that selects no Pods", "service", klog.KObj(svc), "reason", reason, "deleted", deletedSlices)
		c.events.Eventf(svc, corev1.EventTypeNormal, ReasonEndpointSlicesRemoved,
			"Deleted %d EndpointSlice(s) managed by %s: %s (%s)", deletedSlices, wellknown.EndpointSliceControllerName, why, selectorless.UpstreamIssue)
	}

	ep, err := c.endpointsLister.Endpoints(namespace).Get(name)
	kcm, by := selectorless.KCMEndpoints(ep)
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		errs = append(errs, fmt.Errorf("getting Endpoints %s: %w", key, err))
	case !kcm || ep.DeletionTimestamp != nil:
		// Hand-written Endpoints of a selectorless Service: never touched.
	case c.opts.DryRun:
		c.report(ctx, svc, seen, "Endpoints", ep.Name, string(ep.UID), ep.ResourceVersion, reason, why)
	default:
		done, err := c.delete(ctx, "Endpoints", ep.Name, ep.UID, ep.ResourceVersion, func(o metav1.DeleteOptions) error {
			return c.client.CoreV1().Endpoints(namespace).Delete(ctx, ep.Name, o)
		})
		if err != nil {
			errs = append(errs, err)
		}
		if done {
			c.count("Endpoints", reason, false)
			logger.Info("Deleted kube-controller-manager's Endpoints of a Service that selects no Pods", "service", klog.KObj(svc), "reason", reason, "recognisedBy", by)
			c.events.Eventf(svc, corev1.EventTypeNormal, ReasonEndpointsRemoved,
				"Deleted Endpoints managed by %s (recognised by its %s): %s (%s)", wellknown.EndpointsControllerName, by, why, selectorless.UpstreamIssue)
		}
	}
	if err := errors.Join(errs...); err != nil {
		c.events.Eventf(svc, corev1.EventTypeWarning, ReasonFailedToDelete,
			"Error deleting leftovers of Service %s/%s (%s): %v", namespace, name, why, err)
		return err
	}
	return nil
}

// ownedBy reports whether the controller ownerReference of s is svc (same
// name and UID).
func ownedBy(s *discovery.EndpointSlice, svc *corev1.Service) bool {
	ref := metav1.GetControllerOfNoCopy(s)
	return ref != nil && ref.Kind == "Service" && ref.APIVersion == "v1" && ref.Name == svc.Name && ref.UID == svc.UID
}

// delete calls del with UID and resourceVersion preconditions. It reports
// whether the object was deleted; NotFound and a failed precondition
// (Conflict) are not errors.
func (c *Controller) delete(ctx context.Context, kind, name string, uid types.UID, rv string, del func(metav1.DeleteOptions) error) (bool, error) {
	pre := &metav1.Preconditions{UID: &uid}
	if rv != "" {
		pre.ResourceVersion = &rv
	}
	err := del(metav1.DeleteOptions{Preconditions: pre})
	switch {
	case err == nil:
		return true, nil
	case apierrors.IsNotFound(err), apierrors.IsConflict(err):
		klog.FromContext(ctx).V(2).Info("Leftover changed or gone before deletion, skipped", "kind", kind, "name", name, "err", err)
		return false, nil
	}
	return false, fmt.Errorf("deleting %s %s: %w", kind, name, err)
}

// report records, in dry-run mode, a leftover found, unless the last sync
// of the Service already reported it unchanged (same uid and
// resourceVersion); it adds the leftover to seen, the Service's new set.
func (c *Controller) report(ctx context.Context, svc *corev1.Service, seen map[string]bool, kind, name, uid, rv, reason, why string) {
	k := kind + "/" + uid + "/" + rv
	seen[k] = true
	c.mu.Lock()
	already := c.reported[svc.Namespace+"/"+svc.Name][k]
	c.mu.Unlock()
	if already {
		return
	}
	c.count(kind, reason, true)
	klog.FromContext(ctx).Info("Dry run: would delete a leftover of kube-controller-manager", "service", klog.KObj(svc), "kind", kind, "name", name, "reason", reason)
	c.events.Eventf(svc, corev1.EventTypeNormal, ReasonLeftoverFound,
		"Dry run: would delete %s %s/%s: %s (%s)", kind, svc.Namespace, name, why, selectorless.UpstreamIssue)
}

// setReported replaces the dry-run set of the Service key; an empty set
// forgets it.
func (c *Controller) setReported(key string, seen map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(seen) == 0 {
		delete(c.reported, key)
		return
	}
	c.reported[key] = seen
}

func (c *Controller) forgetReported(key string) { c.setReported(key, nil) }

func (c *Controller) count(kind, reason string, dryRun bool) {
	if c.deletions != nil {
		c.deletions.WithLabelValues(kind, reason, fmt.Sprint(dryRun)).Inc()
	}
}
