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

package reconciler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler/metrics"
)

// StaleInformerCacheError is returned by OwnerSlices (and by the controllers'
// sync functions that call it) when the EndpointSlice informer cache is older
// than this reconciler's own writes for the owner: the tracker holds a newer
// generation than a cached slice, or a slice it expects to be gone is still
// cached (behaviour C13; KCM
// staging/src/k8s.io/endpointslice/util/endpointslice_tracker.go
// StaleSlices and pkg/controller/util/endpointslice StaleInformerCache).
// Controllers retry the sync later and count it as syncs{result="stale"}.
type StaleInformerCacheError struct {
	// OwnerKind is the kind of the owner, Config.OwnerGVK.Kind ("Service"
	// or "Endpoints" for slicekit's controllers; your own kind otherwise).
	OwnerKind string
	// Owner is the namespace/name key of the owner.
	Owner string
}

// Error implements error.
func (e *StaleInformerCacheError) Error() string {
	return fmt.Sprintf("EndpointSlice informer cache is out of date for %s %s", e.OwnerKind, e.Owner)
}

// IsStaleInformerCache reports whether err is, or wraps, a
// *StaleInformerCacheError.
func IsStaleInformerCache(err error) bool {
	var stale *StaleInformerCacheError
	return errors.As(err, &stale)
}

// SyncResult returns the result label of the syncs counter
// (metrics.Metrics.IncEndpointSliceSyncs) for a sync that returned err:
// metrics.SyncResultSuccess for nil, metrics.SyncResultStale for a
// *StaleInformerCacheError (IsStaleInformerCache), metrics.SyncResultError
// otherwise (KCM trackSync in
// pkg/controller/endpointslice/endpointslice_controller.go).
func SyncResult(err error) string {
	switch {
	case err == nil:
		return metrics.SyncResultSuccess
	case IsStaleInformerCache(err):
		return metrics.SyncResultStale
	default:
		return metrics.SyncResultError
	}
}

// OwnerSlices lists from lister (an informer cache) this reconciler's slices
// of the owner namespace/name: the slices labelled
// endpointslice.kubernetes.io/managed-by with this reconciler's
// Config.ControllerName and kubernetes.io/service-name with name (the label
// KCM's EndpointSlice and mirroring controllers both select by). Slices
// pending deletion are left out (KCM dropEndpointSlicesPendingDeletion, C12:
// a slice held by a finalizer would otherwise keep the tracker reporting a
// stale cache). The result is sorted by name and holds shallow copies without
// managedFields where the cached object had them (the planner deep-copies
// what it updates, and managedFields must not be echoed back); the cached
// objects are never modified.
//
// It returns a wrapped lister error, or a *StaleInformerCacheError (OwnerKind
// from Config.OwnerGVK) when the tracker has seen newer writes for the owner
// than the cache holds (C13). Slices of other controllers are never listed.
//
// With Config.ServiceNameLabel, slices are selected by that label instead
// of kubernetes.io/service-name. With Config.SetLabel, a Reconciler of a
// set (ForSet) lists the slices of that set (SetLabel=set) and checks the
// tracker for that set alone; the Reconciler New returned lists the slices
// of every set of the owner (and of none) and checks them all.
func (r *Reconciler) OwnerSlices(lister discoverylisters.EndpointSliceLister, namespace, name string) ([]*discovery.EndpointSlice, error) {
	if err := checkOwnerKey("OwnerSlices", lister, namespace, name); err != nil {
		return nil, err
	}
	sel := labels.Set{
		r.cfg.ServiceNameLabel:   name,
		discovery.LabelManagedBy: r.cfg.ControllerName,
	}
	if r.bound {
		sel[r.cfg.SetLabel] = r.set
	}
	selector := sel.AsSelectorPreValidated()
	cached, err := lister.EndpointSlices(namespace).List(selector)
	if err != nil {
		return nil, fmt.Errorf("listing EndpointSlices of %s %s/%s: %w", r.cfg.OwnerGVK.Kind, namespace, name, err)
	}
	out := make([]*discovery.EndpointSlice, 0, len(cached))
	for _, s := range cached {
		if s.DeletionTimestamp != nil {
			continue
		}
		if len(s.ManagedFields) > 0 {
			cp := *s // shallow: maps and slices stay shared and are never modified
			cp.ManagedFields = nil
			s = &cp
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *discovery.EndpointSlice) int { return strings.Compare(a.Name, b.Name) })
	stale := false
	if r.bound {
		stale = r.trk().StaleSetSlices(namespace, name, r.set, out)
	} else {
		stale = r.trk().StaleSlices(namespace, name, out)
	}
	if stale {
		return nil, &StaleInformerCacheError{OwnerKind: r.cfg.OwnerGVK.Kind, Owner: namespace + "/" + name}
	}
	return out, nil
}

// Release deletes all of this reconciler's slices of the owner
// namespace/name, for an owner the controller stops writing for (a Service
// handed over by the KEP-4770 label, released by a custom controller, or
// that selects no Pods any more; an Endpoints object no longer mirrored):
// OwnerSlices, then DeleteAll (UID preconditions, tracker, changes metric,
// DeleteOwner). It returns the number of slices deleted, and the error of
// OwnerSlices (a *StaleInformerCacheError when the cache is older than this
// reconciler's writes, so that a slice just created is not missed) or of
// DeleteAll. The caller records its own Events.
func (r *Reconciler) Release(ctx context.Context, lister discoverylisters.EndpointSliceLister, namespace, name string) (int, error) {
	existing, err := r.OwnerSlices(lister, namespace, name)
	if err != nil {
		return 0, err
	}
	return r.DeleteAll(ctx, namespace, name, existing)
}

// OwnerSets lists from lister the slice sets (Config.SetLabel values) that
// this reconciler's slices of the owner namespace/name carry, sorted, so
// that a controller can release the sets it no longer writes (a remote
// cluster gone while it was not running): ForSet(set), then Release. A
// slice of the owner without the set label is reported as the set "".
// It returns an error without Config.SetLabel, and the lister's, wrapped.
// It does not check the tracker: Release does.
func (r *Reconciler) OwnerSets(lister discoverylisters.EndpointSliceLister, namespace, name string) ([]string, error) {
	if err := checkOwnerKey("OwnerSets", lister, namespace, name); err != nil {
		return nil, err
	}
	if r.cfg.SetLabel == "" {
		return nil, errors.New("reconciler: OwnerSets needs Config.SetLabel")
	}
	selector := labels.Set{
		r.cfg.ServiceNameLabel:   name,
		discovery.LabelManagedBy: r.cfg.ControllerName,
	}.AsSelectorPreValidated()
	cached, err := lister.EndpointSlices(namespace).List(selector)
	if err != nil {
		return nil, fmt.Errorf("listing EndpointSlices of %s %s/%s: %w", r.cfg.OwnerGVK.Kind, namespace, name, err)
	}
	var sets []string
	for _, s := range cached {
		if v := s.Labels[r.cfg.SetLabel]; !slices.Contains(sets, v) {
			sets = append(sets, v)
		}
	}
	slices.Sort(sets)
	return sets, nil
}

// checkOwnerKey refuses a nil lister and an empty namespace or name: the
// label selector of an empty name would match slices of no owner.
func checkOwnerKey(what string, lister discoverylisters.EndpointSliceLister, namespace, name string) error {
	if isNil(lister) {
		return invalid("%s: lister is nil", what)
	}
	if namespace == "" || name == "" {
		return invalid("%s: owner %q in namespace %q: an owner needs a namespace and a name", what, name, namespace)
	}
	return nil
}
