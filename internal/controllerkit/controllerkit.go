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

// Package controllerkit holds the scaffolding slicekit's controllers share,
// in the shape of kube-controller-manager's controllers: event handler
// registration with sync tracking, the Event pipeline, queue workers, and
// the logging of failed syncs.
// The controllers' own logic (what to queue, how to sync, how to retry) stays
// in each controller.
package controllerkit

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Handlers registers event handlers on informers and remembers, for each,
// whether it has synced: the informer has listed and the handler has been
// given every initial object. The zero value is ready to use; it is not safe
// for concurrent use.
type Handlers struct {
	synced []cache.InformerSynced
	err    error
}

// Add registers handler on inf. It returns the informer's error, for example
// when inf has been stopped.
func (h *Handlers) Add(inf cache.SharedIndexInformer, handler cache.ResourceEventHandler) error {
	reg, err := inf.AddEventHandler(handler)
	if err != nil {
		return err
	}
	h.synced = append(h.synced, reg.HasSynced)
	return nil
}

// Register is Add for a sequence of registrations checked once: it
// registers handler on inf unless an earlier Register failed, and records
// the first failure as "adding <kind> handler: <informer error>", which Err
// returns.
func (h *Handlers) Register(inf cache.SharedIndexInformer, kind string, handler cache.ResourceEventHandler) {
	if h.err != nil {
		return
	}
	if err := h.Add(inf, handler); err != nil {
		h.err = fmt.Errorf("adding %s handler: %w", kind, err)
	}
}

// Err returns the first failure of Register, or nil.
func (h *Handlers) Err() error { return h.err }

// Synced returns one InformerSynced per registered handler, in Add order,
// for cache.WaitForNamedCacheSyncWithContext and [AllSynced].
func (h *Handlers) Synced() []cache.InformerSynced {
	return append([]cache.InformerSynced(nil), h.synced...)
}

// AllSynced reports whether every function in synced reports true (true for
// none).
func AllSynced(synced []cache.InformerSynced) bool {
	for _, s := range synced {
		if !s() {
			return false
		}
	}
	return true
}

// Events records a controller's Events: through the recorder the caller
// supplied, or through one NewEvents built, whose broadcaster Start connects
// to the API server. It implements record.EventRecorder.
type Events struct {
	record.EventRecorder
	// broadcaster is nil when the caller supplied the recorder.
	broadcaster record.EventBroadcaster
}

// NewEvents returns Events recording through rec, or, when rec is nil,
// through a new broadcaster (its logger from ctx) with a recorder whose
// source component is component (KCM's controllers build theirs the same
// way).
func NewEvents(ctx context.Context, rec record.EventRecorder, component string) *Events {
	if rec != nil {
		return &Events{EventRecorder: rec}
	}
	b := record.NewBroadcaster(record.WithContext(ctx))
	return &Events{EventRecorder: b.NewRecorder(scheme.Scheme, corev1.EventSource{Component: component}), broadcaster: b}
}

// Start connects the broadcaster NewEvents built, if any, to the API server
// through events (StartEvents) and returns the function that shuts it down.
func (e *Events) Start(events typedcorev1.EventsGetter) (stop func()) {
	return StartEvents(e.broadcaster, events)
}

// StartEvents starts b, when it is non-nil, logging Events at verbosity 3
// and writing them to the Events API of events, as KCM's controllers do in
// Run. It returns the function that shuts b down (a no-op for a nil b).
func StartEvents(b record.EventBroadcaster, events typedcorev1.EventsGetter) (stop func()) {
	if b == nil {
		return func() {}
	}
	b.StartStructuredLogging(3)
	b.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: events.Events("")})
	return b.Shutdown
}

// Worker returns a worker for wait.UntilWithContext: it takes items from q
// and hands each to process, marking it done after process returns, until q
// shuts down. The queue never hands one item to two workers at once.
// Retrying is process's business (Forget, AddRateLimited).
func Worker[T comparable](q workqueue.TypedInterface[T], process func(ctx context.Context, item T)) func(context.Context) {
	return func(ctx context.Context) {
		for processNext(ctx, q, process) {
		}
	}
}

func processNext[T comparable](ctx context.Context, q workqueue.TypedInterface[T], process func(context.Context, T)) bool {
	item, quit := q.Get()
	if quit {
		return false
	}
	defer q.Done(item)
	process(ctx, item)
	return true
}

// IsForbidden reports whether err is or wraps (also within errors.Join) a
// Forbidden API error that retries cannot fix: a missing RBAC permission or
// an admission denial. The Forbidden error of a create in a terminating
// namespace (cause NamespaceTerminating) is not one: the controllers treat
// it as done, as KCM does.
func IsForbidden(err error) bool {
	return apierrors.IsForbidden(err) && !apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause)
}

// forbiddenHint tells the operator what a Forbidden sync error means.
const forbiddenHint = "the API server forbids this request: grant the missing RBAC permission (slicekit run names it at start-up, see --preflight)"

// LogRetry logs a failed sync that is requeued with back-off. A Forbidden
// error (IsForbidden) is logged at error level at once, with a hint, since
// it is a configuration error that retrying does not fix and that would
// otherwise show only after the retry budget; any other error is logged as
// info at verbosity v, the level of the KCM controller the caller replaces.
// keysAndValues are logged with msg (the item's key).
func LogRetry(logger klog.Logger, v int, err error, msg string, keysAndValues ...any) {
	logger = logger.WithCallDepth(1) // the caller's file and line
	if IsForbidden(err) {
		logger.Error(err, msg, slices.Concat(keysAndValues, []any{"hint", forbiddenHint})...)
		return
	}
	logger.V(v).Info(msg, slices.Concat(keysAndValues, []any{"err", err})...)
}

// CheckNewArgs returns the error a controller's New returns for a nil
// client ("<controller>: client is nil") or a nil informer factory
// ("<controller>: informer factory is nil"), or nil.
func CheckNewArgs(controller string, client kubernetes.Interface, factory informers.SharedInformerFactory) error {
	if client == nil {
		return fmt.Errorf("%s: client is nil", controller)
	}
	if factory == nil {
		return fmt.Errorf("%s: informer factory is nil", controller)
	}
	return nil
}
