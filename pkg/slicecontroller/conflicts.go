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
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	rmetrics "github.com/slicekit/slicekit/pkg/reconciler/metrics"

	"github.com/slicekit/slicekit/internal/workqueuemetrics"
)

const (
	// ReasonConflictingWriter is the reason of the Warning event recorded on
	// a Service when an EndpointSlice carrying this controller's managed-by
	// value was written by another field manager.
	ReasonConflictingWriter = "ConflictingEndpointSliceWriter"

	// ConflictingWritesMetricName is the full name of the counter of foreign
	// writes observed on EndpointSlices carrying this controller's
	// managed-by value, labelled with the other field manager ("manager";
	// after maxManagerLabels distinct values, further managers count as
	// "other").
	ConflictingWritesMetricName = rmetrics.DefaultSubsystem + "_conflicting_writes_total"

	// maxManagerLabels bounds the cardinality of the manager label: field
	// manager names are chosen by clients.
	maxManagerLabels = 16
)

// conflictDetector notices writes by other field managers on EndpointSlices
// that carry this controller's managed-by value, and reports them (event,
// log line, metric) without interfering with reconciling.
//
// A write is detected from managedFields: an entry of another manager that
// is new compared with the previous version of the slice, or whose time
// advanced (the API server updates an entry's time only when the manager
// took fields, that is changed something). For a slice seen for the first
// time (informer start, creation), entries dated from before the controller
// started are history (for instance the writes of KCM before slicekit
// replaced it, kept on adopted slices) and are only logged at V(2); later
// ones are reported.
type conflictDetector struct {
	self     string
	interval time.Duration
	clock    clock.PassiveClock
	// start is the controller's start, truncated to the second like
	// managedFields times.
	start    time.Time
	recorder record.EventRecorder
	services corelisters.ServiceLister
	counter  *prometheus.CounterVec // nil without metrics

	mu           sync.Mutex
	lastReported map[conflictKey]time.Time
	managers     map[string]struct{} // manager label values in use
}

type conflictKey struct {
	slice   types.UID
	manager string
}

func newConflictDetector(self string, interval time.Duration, clk clock.PassiveClock, recorder record.EventRecorder, services corelisters.ServiceLister, reg prometheus.Registerer) (*conflictDetector, error) {
	d := &conflictDetector{
		self:         self,
		interval:     interval,
		clock:        clk,
		start:        clk.Now().Truncate(time.Second),
		recorder:     recorder,
		services:     services,
		lastReported: map[conflictKey]time.Time{},
		managers:     map[string]struct{}{},
	}
	if reg != nil {
		c := prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: ConflictingWritesMetricName,
			Help: "[ALPHA] Number of writes by another field manager observed on EndpointSlices carrying this controller's managed-by value",
		}, []string{"manager"})
		var err error
		if d.counter, err = workqueuemetrics.RegisterOrReuse(reg, c); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// observe checks cur (and old, its previous version, nil for an add) for
// foreign writes. Only slices carrying this controller's managed-by value
// are checked. A nil detector checks nothing.
func (d *conflictDetector) observe(logger klog.Logger, old, cur *discovery.EndpointSlice) {
	if d == nil || cur == nil || cur.Labels[discovery.LabelManagedBy] != d.self {
		return
	}
	for i := range cur.ManagedFields {
		e := &cur.ManagedFields[i]
		if e.Manager == d.self {
			continue
		}
		if old == nil {
			if e.Time != nil && e.Time.Time.Before(d.start) {
				logger.V(2).Info("EndpointSlice managed by this controller carries fields of another field manager, written before this controller started",
					"endpointSlice", klog.KObj(cur), "manager", e.Manager, "time", e.Time.Time)
				continue
			}
		} else if !advanced(old.ManagedFields, e) {
			continue
		}
		d.report(logger, cur, e)
	}
}

// advanced reports whether e is not in prev, or is there with an earlier
// time.
func advanced(prev []metav1.ManagedFieldsEntry, e *metav1.ManagedFieldsEntry) bool {
	for i := range prev {
		p := &prev[i]
		if p.Manager != e.Manager || p.Operation != e.Operation || p.Subresource != e.Subresource {
			continue
		}
		if p.Time == nil || e.Time == nil {
			return p.Time == nil && e.Time != nil
		}
		return p.Time.Before(e.Time)
	}
	return true
}

// report counts a foreign write and, unless one was reported for the same
// slice and manager within the interval, records a Warning event on the
// Service and logs it.
func (d *conflictDetector) report(logger klog.Logger, slice *discovery.EndpointSlice, e *metav1.ManagedFieldsEntry) {
	now := d.clock.Now()
	key := conflictKey{slice: slice.UID, manager: e.Manager}
	d.mu.Lock()
	label := e.Manager
	if _, ok := d.managers[label]; !ok {
		if len(d.managers) >= maxManagerLabels {
			label = "other"
		} else {
			d.managers[label] = struct{}{}
		}
	}
	last, seen := d.lastReported[key]
	suppress := seen && now.Sub(last) < d.interval
	if !suppress {
		d.lastReported[key] = now
	}
	d.mu.Unlock()

	if d.counter != nil {
		d.counter.WithLabelValues(label).Inc()
	}
	svcName := slice.Labels[discovery.LabelServiceName]
	if suppress {
		logger.V(4).Info("EndpointSlice managed by this controller written again by another field manager", "endpointSlice", klog.KObj(slice), "manager", e.Manager)
		return
	}
	logger.Info("EndpointSlice managed by this controller was written by another field manager; another controller may be writing the same EndpointSlices",
		"endpointSlice", klog.KObj(slice), "service", klog.KRef(slice.Namespace, svcName), "manager", e.Manager, "operation", e.Operation, "managedBy", d.self)
	if svcName == "" || d.recorder == nil {
		return
	}
	svc, err := d.services.Services(slice.Namespace).Get(svcName)
	if err != nil {
		return
	}
	d.recorder.Eventf(svc, corev1.EventTypeWarning, ReasonConflictingWriter,
		"EndpointSlice %s carries managed-by %s but was written by field manager %q (operation %s): another controller may be managing this Service's EndpointSlices",
		slice.Name, d.self, e.Manager, e.Operation)
}

// forget drops the rate-limit state of a deleted slice. A nil detector
// does nothing.
func (d *conflictDetector) forget(uid types.UID) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for k := range d.lastReported {
		if k.slice == uid {
			delete(d.lastReported, k)
		}
	}
}
