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

package endpointslice

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	// EventSourceComponent is the source component of the events this
	// controller records when Options.EventRecorder is nil (KCM
	// NewController: v1.EventSource{Component: "endpoint-slice-controller"}).
	EventSourceComponent = "endpoint-slice-controller"

	// DefaultConflictReportInterval is the default Options.ConflictReportInterval.
	DefaultConflictReportInterval = slicecontroller.DefaultConflictReportInterval
)

// Options configures New. The zero value gives KCM's defaults with the
// KEP-4770 gate on.
type Options struct {
	// ControllerName is the managed-by value written on, and looked up in,
	// every EndpointSlice of this controller, and the FieldManager of every
	// write. It must be a valid label value. Default: wellknown.EndpointSliceControllerName.
	ControllerName string

	// MaxEndpointsPerSlice is the most endpoints packed into one slice,
	// 1..1000 (KCM --max-endpoints-per-slice, behaviour C1). Default: 100.
	MaxEndpointsPerSlice int32

	// BatchPeriod delays the syncs triggered by Pod changes, so that several
	// Pod changes produce one write, and raises the minimum delay of syncs
	// triggered by EndpointSlice changes from 1s to BatchPeriod (KCM
	// --endpoint-updates-batch-period, behaviours C2, C6, C7). Default: 0.
	// Must not be negative.
	BatchPeriod time.Duration

	// BurstQuietPeriod, when positive, makes a sync of a Service with Pod
	// events of two or more Pods pending wait until no new event has come
	// for BurstQuietPeriod, at most ten periods after the first, and plan
	// them together: a rolling update's deletions and the new Pods that
	// follow then make one write per slice instead of two
	// (slicecontroller.Options.BurstQuietPeriod; slicekit's, KCM has no
	// such delay). One Pod's change is planned at once. Default: 0 (off);
	// `slicekit run` uses registry.DefaultEndpointUpdatesBurstQuietPeriod.
	// Must not be negative.
	BurstQuietPeriod time.Duration

	// ExternalEndpointController is the KEP-4770 feature gate: when true,
	// Services labelled service.kubernetes.io/endpoint-controller-name with
	// a value other than ControllerName are left to that controller and
	// this controller's slices for them are deleted; when false the label
	// is ignored (rule (a)9). nil means true.
	ExternalEndpointController *bool

	// SelectorRemovalCleanup is the SelectorRemovalCleanup feature gate
	// (pkg/policy/selectorless): when true, this controller deletes its
	// slices of a Service that has no selector or is of type ExternalName
	// (kubernetes#118376, regression case 33), with UID preconditions, a
	// Normal EndpointSlicesRemoved event naming the reason and the counter
	// endpoint_slice_controller_selector_removal_deleted_slices_total;
	// when false it leaves them, as KCM does (C11, E1). nil means true.
	SelectorRemovalCleanup *bool

	// TopologyHints enables topology-aware hints (the Service annotation
	// service.kubernetes.io/topology-mode: Auto, behaviour C34) through a
	// topology cache fed from the Node informer, as KCM always does. nil
	// means true. With false the annotation is ignored (trafficDistribution
	// hints, C35, still apply) and Node events are not handled.
	TopologyHints *bool

	// Registerer receives the controller's metrics: KCM's
	// endpoint_slice_controller_* metrics (pkg/reconciler/metrics), the
	// workqueue_* metrics of the queue named endpoint_slice, and
	// endpoint_slice_controller_conflicting_writes_total. nil means no
	// metrics. New fails when the EndpointSlice metrics are already
	// registered on it.
	Registerer prometheus.Registerer

	// EventRecorder records the controller's events. nil means New builds
	// an event broadcaster that Run connects to the API server through the
	// client, with source component EventSourceComponent (as KCM does).
	EventRecorder record.EventRecorder

	// ConflictReportInterval is the least time between two reports (event
	// and log line) of a foreign write on the same EndpointSlice by the same
	// field manager. Default: DefaultConflictReportInterval. Must not be
	// negative.
	ConflictReportInterval time.Duration

	// Pacer, when not nil, tells when the client's rate limiter has a
	// token available (ratelimit.TokenBucket set as the client's
	// rest.Config.RateLimiter; `slicekit run` passes its client's): a sync
	// then waits for a token before it plans, and every write but the
	// first waits for one before it checks whether new Pod events
	// superseded the plan (slicecontroller.Options.Pacer). nil: plans are
	// made at once.
	Pacer reconciler.Pacer
}

// complete returns a copy of o with defaults filled in. The fields are
// validated by slicecontroller.New (New), which names every invalid one.
func (o Options) complete() Options {
	if o.ControllerName == "" {
		o.ControllerName = wellknown.EndpointSliceControllerName
	}
	if o.MaxEndpointsPerSlice == 0 {
		o.MaxEndpointsPerSlice = reconciler.DefaultMaxEndpointsPerSlice
	}
	if o.ConflictReportInterval == 0 {
		o.ConflictReportInterval = DefaultConflictReportInterval
	}
	return o
}
