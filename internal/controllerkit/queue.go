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

package controllerkit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// KCM's retry constants of the EndpointSlice, mirroring and Endpoints
// controllers (pkg/controller/endpointslice/endpointslice_controller.go,
// pkg/controller/endpointslicemirroring, pkg/controller/endpoint; behaviour
// C9).
const (
	// MaxRetries is the number of times a key is retried before it is
	// dropped out of the queue. With NewSyncQueue's rate limiter the delays
	// are 1s, 2s, 4s, ..., 512s, 1000s (max).
	MaxRetries = 15
	// DefaultSyncBackOff and MaxSyncBackOff bound NewSyncQueue's per-item
	// exponential back-off.
	DefaultSyncBackOff = 1 * time.Second
	MaxSyncBackOff     = 1000 * time.Second
	// MirroringMaxSyncBackOff is KCM's mirroring controller's bound (rule
	// b12): delays 1s, 2s, 4s, ..., 64s, 100s (max).
	MirroringMaxSyncBackOff = 100 * time.Second
	// WorkerLoopPeriod is the pause before a worker that returned is
	// restarted (KCM workerLoopPeriod).
	WorkerLoopPeriod = time.Second
)

// NewSyncQueue returns the rate-limited queue of namespace/name keys KCM's
// EndpointSlice controller uses: NewSyncQueueWithBackOff with
// MaxSyncBackOff (KCM endpointslice_controller.go maxSyncBackOff).
func NewSyncQueue(name string, mp workqueue.MetricsProvider) workqueue.TypedRateLimitingInterface[string] {
	return NewSyncQueueWithBackOff(name, MaxSyncBackOff, mp)
}

// NewSyncQueueWithBackOff returns the rate-limited queue of namespace/name
// keys KCM's EndpointSlice and mirroring controllers use: the maximum of a
// per-item exponential back-off from DefaultSyncBackOff to maxBackOff and an
// overall bucket of 10 retries per second (burst 100). The back-off starts
// at 1s rather than the default controller rate limiter's 5ms because a sync
// can write many EndpointSlices. maxBackOff is MaxSyncBackOff for the
// EndpointSlice controller and MirroringMaxSyncBackOff for the mirroring
// controller (KCM endpointslicemirroring_controller.go maxSyncBackOff).
// name names the queue in workqueue metrics; mp may be nil (no metrics).
func NewSyncQueueWithBackOff(name string, maxBackOff time.Duration, mp workqueue.MetricsProvider) workqueue.TypedRateLimitingInterface[string] {
	return workqueue.NewTypedRateLimitingQueueWithConfig(
		syncRateLimiter(maxBackOff),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: name, MetricsProvider: mp},
	)
}

// syncRateLimiter is NewSyncQueueWithBackOff's rate limiter.
func syncRateLimiter(maxBackOff time.Duration) workqueue.TypedRateLimiter[string] {
	return workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](DefaultSyncBackOff, maxBackOff),
		// 10 qps, 100 bucket size: overall retry speed, not per item.
		&workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// Retry says how HandleErr logs a failed item.
type Retry struct {
	// Verbosity is the log level of "retrying" lines (permission errors
	// are always logged as errors, see LogRetry).
	Verbosity int
	// RetryMsg is logged when the item is requeued, DropMsg (at Info) when
	// it is dropped after MaxRetries; an empty DropMsg logs nothing there
	// (the drop is still reported through utilruntime.HandleError with
	// HandleErrorMsg).
	RetryMsg, DropMsg string
	// KeyName is the log key of the item ("key" when empty).
	KeyName string
	// HandleErrorMsg is the message passed to utilruntime.HandleError when
	// the item is dropped (DropMsg when empty): KCM's mirroring controller
	// logs one message and reports another; the selectorless-cleanup
	// controller only reports.
	HandleErrorMsg string
}

// HandleErr is KCM's handleErr for item of q after a sync that returned
// err: nil forgets the item's back-off; otherwise the item is requeued with
// back-off (AddRateLimited) while it has been requeued fewer than
// MaxRetries times, and dropped (forgotten, reported through
// utilruntime.HandleErrorWithContext) after that.
func HandleErr[T comparable](ctx context.Context, q workqueue.TypedRateLimitingInterface[T], item T, err error, r Retry) {
	if err == nil {
		q.Forget(item)
		return
	}
	keyName := r.KeyName
	if keyName == "" {
		keyName = "key"
	}
	logger := klog.FromContext(ctx)
	if q.NumRequeues(item) < MaxRetries {
		LogRetry(logger, r.Verbosity, err, r.RetryMsg, keyName, item)
		q.AddRateLimited(item)
		return
	}
	if r.DropMsg != "" {
		logger.Info(r.DropMsg, keyName, item, "err", err)
	}
	q.Forget(item)
	handleMsg := r.HandleErrorMsg
	if handleMsg == "" {
		handleMsg = r.DropMsg
	}
	utilruntime.HandleErrorWithContext(ctx, err, handleMsg, keyName, item)
}

// Loop is the work loop of one queue, the one every slicekit controller
// runs (KCM's worker, processNextWorkItem and handleErr; the
// controller-runtime idiom of a sync that returns an error and a loop that
// requeues): a worker takes an item from Queue, calls Sync, tells Result
// the outcome and hands it to HandleErr with Retry (forget, requeue with
// back-off, or drop after MaxRetries). The queue never hands one item to
// two workers at once.
type Loop[T comparable] struct {
	// Queue holds the items; Sync is called with each.
	Queue workqueue.TypedRateLimitingInterface[T]
	// Sync syncs one item; a non-nil error requeues it (see HandleErr).
	Sync func(ctx context.Context, item T) error
	// Result, when not nil, is called with every Sync's error (nil for a
	// success) before the retry decision: the controllers' syncs{result}
	// counters (KCM trackSync).
	Result func(err error)
	// Retry says how a failed item is logged.
	Retry Retry
}

// Worker processes items until Queue shuts down; it is a worker for
// RunWorkers (wait.UntilWithContext).
func (l *Loop[T]) Worker(ctx context.Context) {
	Worker(l.Queue, l.Process)(ctx)
}

// Process syncs item and handles the outcome (HandleResult). The caller
// has taken item from Queue and marks it done after Process returns.
func (l *Loop[T]) Process(ctx context.Context, item T) {
	l.HandleResult(ctx, item, l.Sync(ctx, item))
}

// HandleResult handles err, the outcome of a sync of item: it calls
// Result, then HandleErr with Retry.
func (l *Loop[T]) HandleResult(ctx context.Context, item T, err error) {
	if l.Result != nil {
		l.Result(err)
	}
	HandleErr(ctx, l.Queue, item, err, l.Retry)
}

// Runner is the body of a controller's Run, in the order of KCM's
// controllers' Run: crash handling, the worker count, the Event pipeline,
// a "Starting" log line, waiting for the caches, Start (start-up sweeps),
// the workers until ctx is done, then a "Shutting down" log line and the
// queues shut down.
type Runner struct {
	// Name prefixes Run's errors ("<Name>: caches did not sync: ...").
	Name string
	// Events, when not nil, is started (Events.Start on EventsClient) for
	// the duration of Run.
	Events       *Events
	EventsClient typedcorev1.EventsGetter
	// Synced are the informers' synced functions Run waits for.
	Synced []cache.InformerSynced
	// Starting (with StartingKV) and Stopping are logged at Info when Run
	// starts and when it stops.
	Starting   string
	StartingKV []any
	Stopping   string
	// Start, when not nil, is called after the caches synced and before
	// the workers start, with the number of workers.
	Start func(ctx context.Context, workers int)
	// Queues are shut down when Run stops, so that the workers return.
	Queues []interface{ ShutDown() }
	// DefaultWorkers is the number of workers when Run is given 0.
	DefaultWorkers int
	// PerWorker are started workers times each (a Loop's Worker); Once
	// once each.
	PerWorker, Once []func(context.Context)
}

// Run runs r with workers workers (DefaultWorkers when 0) until ctx is
// done and returns after the workers stopped: nil, or an error naming
// r.Name when workers is below 1 or ctx ends before the caches synced.
func (r Runner) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrashWithContext(ctx)
	workers, err := WorkerCount(r.Name, workers, r.DefaultWorkers)
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx)
	if r.Events != nil {
		defer r.Events.Start(r.EventsClient)()
	}
	logger.WithCallDepth(1).Info(r.Starting, r.StartingKV...) // the controller's Run
	start := func(ctx context.Context) {
		if r.Start != nil {
			r.Start(ctx, workers)
		}
	}
	shutDown := func() {
		logger.Info(r.Stopping)
		for _, q := range r.Queues {
			q.ShutDown()
		}
	}
	return RunWorkers(ctx, r.Name, r.Synced, start, shutDown, append(Replicate(workers, r.PerWorker...), r.Once...)...)
}

// RunWorkers waits until the caches synced, calls start (which may be nil:
// start-up sweeps), then runs each of workers until ctx is done, each
// restarted after WorkerLoopPeriod if it returns (wait.UntilWithContext).
// On return it calls shutDown (which shuts the controller's queues down, so
// that the workers return) and waits for the workers. It returns an error
// naming the controller when ctx ends before the caches synced, nil
// otherwise. It is the body of KCM's controllers' Run.
func RunWorkers(ctx context.Context, controller string, synced []cache.InformerSynced, start func(context.Context), shutDown func(), workers ...func(context.Context)) error {
	var wg sync.WaitGroup
	defer func() {
		shutDown()
		wg.Wait()
	}()
	if !cache.WaitForNamedCacheSyncWithContext(ctx, synced...) {
		return fmt.Errorf("%s: caches did not sync: %w", controller, context.Cause(ctx))
	}
	if start != nil {
		start(ctx)
	}
	for _, w := range workers {
		wg.Go(func() { wait.UntilWithContext(ctx, w, WorkerLoopPeriod) })
	}
	<-ctx.Done()
	return nil
}

// SyncAll is the offline renderer's hook of a controller: it calls sync
// once for every key keys returns, in that order, reading only what sync
// reads (the informer caches); it never waits for them and starts no
// goroutine. It syncs every key even when some fail and returns the
// failures joined, or the error of keys.
func SyncAll(ctx context.Context, keys func() ([]string, error), sync func(ctx context.Context, key string) error) error {
	ks, err := keys()
	if err != nil {
		return err
	}
	var errs []error
	for _, k := range ks {
		if err := sync(ctx, k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ObjectKeys returns the namespace/name key of each object, in order.
func ObjectKeys[T metav1.Object](objs []T) []string {
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i] = o.GetNamespace() + "/" + o.GetName()
	}
	return keys
}

// SortedKeys returns the distinct keys of all lists, sorted as strings:
// the keys a controller's SyncAll syncs.
func SortedKeys(lists ...[]string) []string {
	set := map[string]bool{}
	for _, l := range lists {
		for _, k := range l {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// Replicate returns n copies of each of fns, for RunWorkers: n workers of
// every kind (KCM starts workers goroutines per queue). n < 1 gives none.
func Replicate(n int, fns ...func(context.Context)) []func(context.Context) {
	out := make([]func(context.Context), 0, max(n, 0)*len(fns))
	for range n {
		out = append(out, fns...)
	}
	return out
}

// WorkerCount returns the number of workers a controller's Run starts:
// workers, or def when workers is 0. It returns an error
// ("<controller>: workers must be at least 1, got N") when that is below 1.
func WorkerCount(controller string, workers, def int) (int, error) {
	if workers == 0 {
		workers = def
	}
	if workers < 1 {
		return 0, fmt.Errorf("%s: workers must be at least 1, got %d", controller, workers)
	}
	return workers, nil
}
