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

// Package serviceindex is the per-Service state of the Service controller's
// incremental path (pkg/slicecontroller, for a source.IncrementalSource):
// which Pods changed since the Service's last sync, when to rebuild, the
// trigger-time state (KCM behaviour C25) and the reconciler.Index of the
// desired endpoints per Pod. It is internal: the controller and the
// differential tests (test/differential, against KCM's reconciler) use it;
// custom controllers get it through slicecontroller's Options.Source.
package serviceindex

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// Reasons Index.Update gives for rebuilding the index from every
// Pod (Result.Rebuilt). PodChanged never causes a rebuild.
const (
	// RebuildFirstSync: the index has not been built yet.
	RebuildFirstSync = "first-sync"
	// RebuildServiceChanged: the Service's UID or resourceVersion changed
	// (its ports, selector, families, annotations or labels may have).
	RebuildServiceChanged = "service-changed"
	// RebuildLookupFailed: a Pod or Node lookup failed at the previous
	// Update (it returned the error).
	RebuildLookupFailed = "lookup-failed"
)

// PodLister lists and gets the Pods of the Service's namespace; a
// corelisters.PodNamespaceLister satisfies it. Get returns an error for
// which apierrors.IsNotFound is true when the Pod does not exist.
type PodLister interface {
	List(selector labels.Selector) ([]*corev1.Pod, error)
	Get(name string) (*corev1.Pod, error)
}

// Index is what the controller knows changed for one Service since
// its last sync, for an incremental source (source.IncrementalSource): the
// names of the Pods that changed (the pending set, with the times of the
// first and latest events for BurstWait), a reason to rebuild
// (Invalidate), the trigger time carried over from a superseded sync
// (CarryTriggerTime) and the Service's trigger-time state (KCM C25), and a
// reconciler.Index of the desired endpoints per Pod, each computed by the
// source's PodEndpoints. Event handlers call PodChanged and Invalidate
// (cheap, safe concurrently with Update); the Service's sync calls Update
// and then reconciler.PlanIndexed with Endpoints(). The zero value is not
// usable; call New.
type Index struct {
	mu      sync.Mutex
	pending map[string]struct{}
	invalid string
	// firstEvent and lastEvent are when the first and the latest of the
	// pending Pod events were recorded (BurstWait).
	firstEvent, lastEvent time.Time
	now                   func() time.Time

	// Owned by the sync (one at a time per Service).
	index   *reconciler.Index
	built   bool
	failed  bool // a lookup failed: the next Update rebuilds
	uid     types.UID
	rv      string
	skipped map[string]struct{} // Pods skipped for a missing Node
	src     source.IncrementalSource
	// triggers is the Service's trigger-time state (KCM's tracker, C25).
	triggers servicepods.ServiceTriggerTimes
	// carried is the trigger time of a sync whose writes were not all
	// made (CarryTriggerTime), for the next Update.
	carried time.Time
}

// New returns an empty index of one Service whose endpoints
// src computes Pod by Pod; its first Update rebuilds it.
func New(src source.IncrementalSource) *Index {
	return &Index{
		pending: map[string]struct{}{},
		index:   reconciler.NewIndex(),
		skipped: map[string]struct{}{},
		src:     src,
		now:     time.Now,
	}
}

// PodChanged records that the Pod name (in the Service's namespace) was
// added, updated or deleted, or may have entered or left the Service's
// selector. Call it from the Pod event handlers for every Service the old
// or the new Pod matches. Safe for concurrent use.
func (x *Index) PodChanged(name string) {
	now := x.now()
	x.mu.Lock()
	if len(x.pending) == 0 {
		x.firstEvent = now
	}
	x.lastEvent = now
	x.pending[name] = struct{}{}
	x.mu.Unlock()
}

// BurstQuietPeriodsMax bounds Index.BurstWait: a burst is planned
// at the latest this many quiet periods after its first pending event,
// however long it goes on.
const BurstQuietPeriodsMax = 10

// BurstWait returns how long the Service's sync should wait, at now,
// before planning, so that a burst of Pod events is planned at once
// instead of being written as it arrives (a rolling update's deletions and
// the additions that refill the same slices, for instance): while at least
// two Pods are pending and the latest event is less than quiet old, the
// rest of quiet since it; never past BurstQuietPeriodsMax × quiet after
// the first pending event. It returns 0 (plan now) for a single pending Pod (one readiness
// flip is planned at once), when nothing is pending, and when quiet is not
// positive. Safe for concurrent use.
func (x *Index) BurstWait(now time.Time, quiet time.Duration) time.Duration {
	if quiet <= 0 {
		return 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pending) < 2 {
		return 0
	}
	wait := quiet - now.Sub(x.lastEvent)
	if limit := BurstQuietPeriodsMax*quiet - now.Sub(x.firstEvent); limit < wait {
		wait = limit
	}
	return max(wait, 0)
}

// Invalidate makes the next Update rebuild the index from every Pod and
// the next plan use the full planner, giving reason. Call it on a resync
// and when a Node is added, deleted or changes its zone label (the
// endpoints of its Pods carry the zone; KCM reads Nodes at every sync).
// Safe for concurrent use.
func (x *Index) Invalidate(reason string) {
	x.mu.Lock()
	if x.invalid == "" {
		x.invalid = reason
	}
	x.mu.Unlock()
}

// HasPending reports whether a Pod was given to PodChanged, or Invalidate
// was called, since the last Update: the plan made from that Update no
// longer covers every event (reconciler.ApplyUntil). Safe for concurrent
// use.
func (x *Index) HasPending() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.pending) > 0 || x.invalid != ""
}

// CarryTriggerTime keeps t, the trigger time of a sync that stopped before
// making all its writes, so that the next Update returns the earlier of t
// and its own: the changes t stands for are written by the next sync, and
// the trigger-time annotation (C25) must still point at the earliest of
// them. Call it from the sync only.
func (x *Index) CarryTriggerTime(t time.Time) {
	if !t.IsZero() && (x.carried.IsZero() || t.Before(x.carried)) {
		x.carried = t
	}
}

// Endpoints returns the reconciler index of the desired endpoints per Pod,
// to pass to reconciler.PlanIndexed.
func (x *Index) Endpoints() *reconciler.Index { return x.index }

// Result is the outcome of Update.
type Result struct {
	// Ready is true when the index is up to date and may be planned
	// (reconciler.PlanIndexed), even with an error made only of
	// *podendpoint.SkippedPodError; false when a lookup failed (nothing
	// may be reconciled: return the error and retry).
	Ready bool
	// Rebuilt is the reason the index was rebuilt from every Pod (one of
	// the Rebuild constants or a reason given to Invalidate), "" when only
	// the changed Pods were read.
	Rebuilt string
	// Pods is the number of Pods read (all selected Pods when rebuilt).
	Pods int
	// TriggerTime is the last-change trigger time to hand to Apply (C25).
	TriggerTime time.Time
}

// PodListError is the error of a failed list of a Service's Pods (the
// FailedToListPods event of the sync): errors.As finds it in the error of
// Update.
type PodListError struct {
	// Service is the Service's namespace/name.
	Service string
	// Err is the lister's error.
	Err error
}

func (e *PodListError) Error() string {
	return fmt.Sprintf("listing Pods for Service %s: %v", e.Service, e.Err)
}

// Unwrap returns the lister's error.
func (e *PodListError) Unwrap() error { return e.Err }

// podListError wraps err, the error of listing svc's Pods.
func podListError(svc *corev1.Service, err error) error {
	return &PodListError{Service: klog.KObj(svc).String(), Err: err}
}

// Update brings the index up to date for svc, whose Pods are those
// selector matches (the selector the controller lists them with: KCM's
// labels.Set(spec.selector).AsSelectorPreValidated(), or slicekit's
// selectorless form; a change of it must come with a change of the
// Service's resourceVersion or an Invalidate). When the index is not built,
// the Service changed (UID or resourceVersion) or Invalidate was called,
// it lists every Pod svc selects and rebuilds (reconciler.Index.Reset with
// the reason and the source's SliceLayout); otherwise it reads only the
// Pods given to PodChanged since the last Update and those skipped for a
// missing Node, with pods.Get, and sets their items (a Pod that is gone,
// no longer selected or contributing nothing is removed). Each item is the
// source's PodEndpoints, the per-Pod step of its Desired, so
// Endpoints().Desired() equals Desired over the selected Pods. The Service's
// trigger-time state is updated with the same Pods
// (servicepods.ServiceTriggerTimes: Compute on a rebuild, UpdatePods
// otherwise) and the trigger time returned, the earlier of it and one
// carried over (CarryTriggerTime).
//
// The caller must skip Services without a selector or of type
// ExternalName, as for Desired. Errors: a failed List (a *PodListError),
// Get or Node lookup returns the error and makes the next Update rebuild
// (nothing may be reconciled); Pods skipped for a missing Node are
// reported as joined *podendpoint.SkippedPodError with a usable result, as
// Desired does: reconcile, then return the error so the Service is retried
// (each retry looks them up again).
func (x *Index) Update(ctx context.Context, svc *corev1.Service, selector labels.Selector, pods PodLister, nodes podendpoint.NodeGetter) (Result, error) {
	if svc == nil || selector == nil || pods == nil || nodes == nil {
		return Result{}, errors.New("slicecontroller: Index.Update needs a Service, a selector, a PodLister and a NodeGetter")
	}
	u, err := x.update(ctx, svc, selector, pods, nodes)
	if u.Ready && !x.carried.IsZero() {
		if u.TriggerTime.IsZero() || x.carried.Before(u.TriggerTime) {
			u.TriggerTime = x.carried
		}
		x.carried = time.Time{}
	}
	return u, err
}

func (x *Index) update(ctx context.Context, svc *corev1.Service, selector labels.Selector, pods PodLister, nodes podendpoint.NodeGetter) (Result, error) {
	x.mu.Lock()
	pending, invalid := x.pending, x.invalid
	x.pending, x.invalid = map[string]struct{}{}, ""
	x.mu.Unlock()

	reason := invalid
	switch {
	case reason != "":
	case x.failed:
		reason = RebuildLookupFailed
	case !x.built:
		reason = RebuildFirstSync
	case x.uid != svc.UID || x.rv != svc.ResourceVersion:
		reason = RebuildServiceChanged
	}
	cached := podendpoint.CachedNodes(nodes)
	if reason != "" {
		return x.rebuild(ctx, svc, pods, cached, selector, reason)
	}

	names := make([]string, 0, len(pending)+len(x.skipped))
	for n := range pending {
		names = append(names, n)
	}
	for n := range x.skipped {
		if _, ok := pending[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	changed := make(map[string]*corev1.Pod, len(names))
	var errs []error
	for _, name := range names {
		pod, err := pods.Get(name)
		switch {
		case apierrors.IsNotFound(err):
			pod = nil
		case err != nil:
			x.built, x.failed = false, true
			return Result{}, fmt.Errorf("getting Pod %s/%s for Service %s: %w", svc.Namespace, name, klog.KObj(svc), err)
		}
		if pod != nil && (pod.Namespace != svc.Namespace || !selector.Matches(labels.Set(pod.Labels))) {
			pod = nil
		}
		changed[name] = pod
		delete(x.skipped, name)
		var item *reconciler.Item
		if pod != nil {
			var skip *podendpoint.SkippedPodError
			item, err = x.src.PodEndpoints(ctx, svc, pod, cached)
			switch {
			case errors.As(err, &skip):
				x.skipped[name] = struct{}{}
				errs = append(errs, err)
			case err != nil:
				x.built, x.failed = false, true
				return Result{}, err
			}
		}
		x.index.SetItem(svc.Namespace+"/"+name, item)
	}
	u := Result{Ready: true, Pods: len(names)}
	t, ok := x.triggers.UpdatePods(svc, changed)
	if !ok {
		all, err := pods.List(selector)
		if err != nil {
			x.built, x.failed = false, true
			return Result{}, podListError(svc, err)
		}
		t = x.triggers.Compute(svc, servicepods.PodTimes(all))
	}
	u.TriggerTime = t
	return u, errors.Join(errs...)
}

// podNameLister is an optional interface of a PodLister whose List makes a
// new Pod object per call (podcache's lister, over compact records): Names
// lists the selected Pods' names without making any, so that a rebuild
// gets them one at a time and never holds every Pod of a large Service at
// once (the garbage collector's heap goal would double that peak).
type podNameLister interface {
	Names(selector labels.Selector) ([]string, error)
}

// rebuild lists every selected Pod and rebuilds the index, in Pod name
// order.
func (x *Index) rebuild(ctx context.Context, svc *corev1.Service, pods PodLister, nodes podendpoint.NodeGetter, selector labels.Selector, reason string) (Result, error) {
	x.built = false
	addressTypes, hints := x.src.SliceLayout(svc)
	fail := func(err error) (Result, error) {
		x.failed = true
		x.index.Reset(addressTypes, hints, reason)
		return Result{}, podListError(svc, err)
	}
	// Either the names (then each Pod is got in the loop) or the Pods.
	var names []string
	var listed []*corev1.Pod
	if nl, ok := pods.(podNameLister); ok {
		var err error
		if names, err = nl.Names(selector); err != nil {
			return fail(err)
		}
		sort.Strings(names)
	} else {
		all, err := pods.List(selector)
		if err != nil {
			return fail(err)
		}
		for _, p := range all {
			if p != nil && p.Namespace == svc.Namespace {
				listed = append(listed, p)
			}
		}
		sort.Slice(listed, func(i, j int) bool { return listed[i].Name < listed[j].Name })
	}
	x.index.Reset(addressTypes, hints, reason)
	x.skipped = map[string]struct{}{}
	podTimes := make(map[string]time.Time, len(names)+len(listed))
	var errs []error
	n := 0
	for i := range max(len(names), len(listed)) {
		var pod *corev1.Pod
		if names != nil {
			p, err := pods.Get(names[i])
			switch {
			case apierrors.IsNotFound(err):
				continue // deleted since Names: its event marks it pending
			case err != nil:
				x.failed = true
				return Result{}, fmt.Errorf("getting Pod %s/%s for Service %s: %w", svc.Namespace, names[i], klog.KObj(svc), err)
			}
			if p.Namespace != svc.Namespace || !selector.Matches(labels.Set(p.Labels)) {
				continue // changed since Names: as above
			}
			pod = p
		} else {
			pod = listed[i]
		}
		n++
		if pt := servicepods.PodTriggerTime(pod); !pt.IsZero() {
			podTimes[pod.Name] = pt
		}
		item, err := x.src.PodEndpoints(ctx, svc, pod, nodes)
		var skip *podendpoint.SkippedPodError
		switch {
		case errors.As(err, &skip):
			x.skipped[pod.Name] = struct{}{}
			errs = append(errs, err)
		case err != nil:
			x.failed = true
			return Result{}, err
		}
		x.index.SetItem(pod.Namespace+"/"+pod.Name, item)
	}
	x.built, x.failed, x.uid, x.rv = true, false, svc.UID, svc.ResourceVersion
	u := Result{Ready: true, Rebuilt: reason, Pods: n}
	u.TriggerTime = x.triggers.Compute(svc, podTimes)
	return u, errors.Join(errs...)
}
