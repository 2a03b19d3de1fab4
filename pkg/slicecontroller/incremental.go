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
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"

	"github.com/slicekit/slicekit/internal/serviceindex"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// SyncPathIncremental is the "path" label value of
// <subsystem>_syncs_by_path_total for a sync planned incrementally; every
// other value is the reason the full planner was used: why the Service's
// index was rebuilt (first-sync, service-changed, lookup-failed), a
// reconciler.FullReason* constant or one of the Invalidate reasons below.
const SyncPathIncremental = "incremental"

// Reasons the controller gives to serviceindex.Index.Invalidate (and so, for the
// next sync of the Service, the "path" label of syncs_by_path_total).
const (
	// InvalidateNodeChanged: a Node was added or deleted, or its zone label
	// changed (endpoints carry the zone; KCM reads Nodes at every sync).
	InvalidateNodeChanged = "node-changed"
	// InvalidateResync: a periodic resync delivered the Service.
	InvalidateResync = "resync"
	// InvalidateSyncAll: SyncAll (`slicekit render`) syncs every Service
	// with the full planner; it may run on indexers filled without events.
	InvalidateSyncAll = "sync-all"
)

// SyncsByPathMetricName is the name, after the subsystem, of the counter
// of Service syncs that reached planning, by path.
const SyncsByPathMetricName = "syncs_by_path_total"

// SupersededSyncsMetricName is the name, under the controller's metrics
// subsystem, of the counter of syncs that stopped writing because new
// events for the Service arrived (reconciler.ApplyUntil); their Service is
// synced again at once.
const SupersededSyncsMetricName = "superseded_syncs_total"

// podKey is an item of the Pod queue: KCM's projection key, plus the Pod's
// name for the per-Service indexes of an incremental source, and markOnly
// for an update that changed no field KCM syncs for (the Pod is marked
// changed in its Services' indexes, which are not queued).
type podKey struct {
	*servicepods.PodProjectionKey
	pod      string
	markOnly bool
}

// indexes holds the per-Service indexes of an incremental source
// (source.IncrementalSource), by Service key. A nil *indexes (a source
// without the capability) does nothing.
type indexes struct {
	src   source.IncrementalSource
	mu    sync.Mutex
	byKey map[string]*serviceindex.Index
	// paths counts syncs by path; nil without metrics.
	paths *prometheus.CounterVec
	// superseded counts syncs that stopped writing because events arrived;
	// nil without metrics.
	superseded prometheus.Counter
}

// newIndexes returns the indexes for src, or nil when src is not an
// IncrementalSource. With reg, it registers <subsystem>_syncs_by_path_total.
func newIndexes(src source.Source, reg prometheus.Registerer, subsystem string) (*indexes, error) {
	inc, ok := src.(source.IncrementalSource)
	if !ok {
		return nil, nil
	}
	x := &indexes{src: inc, byKey: map[string]*serviceindex.Index{}}
	if reg != nil {
		x.paths = prometheus.NewCounterVec(prometheus.CounterOpts{
			Subsystem: subsystem,
			Name:      SyncsByPathMetricName,
			Help:      "[ALPHA] Number of Service syncs that planned EndpointSlices, by path: \"incremental\" (only the changed Pods were read and only their slices planned) or the reason the full planner was used.",
		}, []string{"path"})
		if err := reg.Register(x.paths); err != nil {
			return nil, fmt.Errorf("registering %s_%s: %w", subsystem, SyncsByPathMetricName, err)
		}
		x.superseded = prometheus.NewCounter(prometheus.CounterOpts{
			Subsystem: subsystem,
			Name:      SupersededSyncsMetricName,
			Help:      "[ALPHA] Number of Service syncs that stopped after a write because new events for the Service arrived while the writes waited for the client's rate limiter; the rest of their plan was planned again with the new events.",
		})
		if err := reg.Register(x.superseded); err != nil {
			return nil, fmt.Errorf("registering %s_%s: %w", subsystem, SupersededSyncsMetricName, err)
		}
	}
	return x, nil
}

// get returns the index of the Service key, creating it.
func (x *indexes) get(key string) *serviceindex.Index {
	x.mu.Lock()
	defer x.mu.Unlock()
	idx := x.byKey[key]
	if idx == nil {
		idx = serviceindex.New(x.src)
		x.byKey[key] = idx
	}
	return idx
}

// lookup returns the index of the Service key, or nil.
func (x *indexes) lookup(key string) *serviceindex.Index {
	if x == nil {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.byKey[key]
}

// drop forgets the index of the Service key.
func (x *indexes) drop(key string) {
	if x == nil {
		return
	}
	x.mu.Lock()
	delete(x.byKey, key)
	x.mu.Unlock()
}

// podChanged marks the Pod name changed in the index of the Service key, if
// there is one (a Service without one rebuilds at its first sync).
func (x *indexes) podChanged(key, pod string) {
	if idx := x.lookup(key); idx != nil {
		idx.PodChanged(pod)
	}
}

// invalidate makes the next sync of the Service key rebuild its index and
// use the full planner.
func (x *indexes) invalidate(key, reason string) {
	if idx := x.lookup(key); idx != nil {
		idx.Invalidate(reason)
	}
}

// invalidateAll invalidates every index with reason.
func (x *indexes) invalidateAll(reason string) {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, idx := range x.byKey {
		idx.Invalidate(reason)
	}
}

// countSuperseded counts one sync that stopped writing because events
// arrived (reconciler.ApplyUntil).
func (x *indexes) countSuperseded() {
	if x == nil || x.superseded == nil {
		return
	}
	x.superseded.Inc()
}

// countPath counts one sync by path.
func (x *indexes) countPath(path string) {
	if x == nil || x.paths == nil {
		return
	}
	x.paths.WithLabelValues(path).Inc()
}

// onNodeEvent invalidates every index when a Node was added or deleted
// (old or cur nil) or its zone label changed: the endpoints of its Pods
// carry the zone, and Pods on a missing Node are left out (E14).
func (x *indexes) onNodeEvent(old, cur any) {
	if x == nil {
		return
	}
	if old != nil && cur != nil {
		o, ok1 := old.(*corev1.Node)
		n, ok2 := cur.(*corev1.Node)
		if ok1 && ok2 && o.Labels[corev1.LabelTopologyZone] == n.Labels[corev1.LabelTopologyZone] {
			return
		}
	}
	x.invalidateAll(InvalidateNodeChanged)
}
