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

package podsource

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
)

// DefaultMetricsSubsystem is the default Options.MetricsSubsystem.
const DefaultMetricsSubsystem = "endpoint_slice_pod_source_controller"

// Options configures New.
type Options struct {
	// ControllerName is the value of the Service label
	// service.kubernetes.io/endpoint-controller-name (KEP-4770) this
	// controller answers to: it manages the EndpointSlices of exactly the
	// Services carrying that label with this value. Required; a valid
	// label value.
	ControllerName string

	// ManagedBy is the endpointslice.kubernetes.io/managed-by value written
	// on, and looked up in, this controller's slices, and the FieldManager
	// of its writes. Default: ControllerName. It must differ from every
	// other controller's, KCM's endpointslice-controller.k8s.io included.
	ManagedBy string

	// Source supplies the addresses. Required (Source.Addresses).
	Source source.Source

	// MaxEndpointsPerSlice is the most endpoints packed into one slice,
	// 1..1000. Default: 100 (KCM's --max-endpoints-per-slice default).
	MaxEndpointsPerSlice int32

	// BatchPeriod delays the syncs triggered by Pod changes, and raises
	// the minimum delay of syncs triggered by EndpointSlice changes from 1s
	// to BatchPeriod, as KCM's --endpoint-updates-batch-period. Default 0.
	// Must not be negative.
	BatchPeriod time.Duration

	// Registerer receives the metrics, all labelled
	// controller=<ControllerName> so that several pod-source controllers
	// share one registry: the reconciler's KCM-named metrics under
	// MetricsSubsystem (<subsystem>_syncs, _changes, ...), the problem
	// metrics <subsystem>_pod_problems{reason} (gauge: problems standing
	// now) and <subsystem>_pod_problems_total{reason} (counter: problems
	// that appeared), and the workqueue_* metrics of the queue named
	// ControllerName (without the controller label, shared with the other
	// controllers). nil means no metrics.
	Registerer prometheus.Registerer

	// MetricsSubsystem is the Prometheus subsystem of the metrics above.
	// Default: DefaultMetricsSubsystem.
	MetricsSubsystem string

	// EventRecorder records the controller's events. nil means New builds
	// a broadcaster that Run connects to the API server, with source
	// component EventSourceComponent.
	EventRecorder record.EventRecorder

	// EventSourceComponent is the source component of the events when
	// EventRecorder is nil. Default: ControllerName.
	EventSourceComponent string

	// PodTransform, when not nil and SkipInformerTransforms is false, is
	// installed on the factory's Pod informer (cache.TransformFunc). It
	// must keep every Pod field the Source reads and those the
	// EndpointSlice controller's transform keeps (see
	// endpointslice.TransformPod). An informer has one transform: the last
	// one installed before the factory starts wins.
	PodTransform cache.TransformFunc

	// SkipInformerTransforms, when true, installs no transform, for callers
	// that share the factory and choose the transforms themselves.
	SkipInformerTransforms bool

	// SelectorRemovalCleanup is the SelectorRemovalCleanup feature gate
	// (pkg/controllers/selectorless): when true, the slices of a labelled
	// Service that selects no Pods any more (type ExternalName, or neither
	// spec.selector nor slicekit.dev/selector) are deleted, with a Normal
	// EndpointSlicesRemoved event naming the reason (kubernetes#118376 for
	// custom controllers); when false they are left as they are (KCM C11).
	// nil means true.
	SelectorRemovalCleanup *bool
}

// cleanupEnabled reports the SelectorRemovalCleanup gate (nil means true).
func (o Options) cleanupEnabled() bool {
	return o.SelectorRemovalCleanup == nil || *o.SelectorRemovalCleanup
}

// complete returns a copy of o with defaults filled in, or an error naming
// every invalid field.
func (o Options) complete() (Options, error) {
	if o.ManagedBy == "" {
		o.ManagedBy = o.ControllerName
	}
	if o.MaxEndpointsPerSlice == 0 {
		o.MaxEndpointsPerSlice = reconciler.DefaultMaxEndpointsPerSlice
	}
	if o.MetricsSubsystem == "" {
		o.MetricsSubsystem = DefaultMetricsSubsystem
	}
	if o.EventSourceComponent == "" {
		o.EventSourceComponent = o.ControllerName
	}
	var errs []error
	if o.ControllerName == "" {
		errs = append(errs, errors.New("ControllerName is required"))
	} else if msgs := validation.IsValidLabelValue(o.ControllerName); len(msgs) > 0 {
		errs = append(errs, fmt.Errorf("ControllerName %q is not a valid label value: %s", o.ControllerName, strings.Join(msgs, "; ")))
	}
	if msgs := validation.IsValidLabelValue(o.ManagedBy); o.ManagedBy != "" && len(msgs) > 0 {
		errs = append(errs, fmt.Errorf("ManagedBy %q is not a valid label value: %s", o.ManagedBy, strings.Join(msgs, "; ")))
	}
	if err := o.Source.Validate(); err != nil {
		errs = append(errs, err)
	}
	if o.MaxEndpointsPerSlice < 1 || o.MaxEndpointsPerSlice > reconciler.MaxEndpointsPerSliceLimit {
		errs = append(errs, fmt.Errorf("MaxEndpointsPerSlice %d is outside 1..%d", o.MaxEndpointsPerSlice, reconciler.MaxEndpointsPerSliceLimit))
	}
	if o.BatchPeriod < 0 {
		errs = append(errs, fmt.Errorf("BatchPeriod %s is negative", o.BatchPeriod))
	}
	return o, errors.Join(errs...)
}
