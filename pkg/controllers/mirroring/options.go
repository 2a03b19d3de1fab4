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
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	// EventSourceComponent is the source component of the events this
	// controller records when Options.EventRecorder is nil (KCM NewController:
	// v1.EventSource{Component: "endpoint-slice-mirroring-controller"}).
	EventSourceComponent = "endpoint-slice-mirroring-controller"

	// DefaultMaxEndpointsPerSubset is the default of
	// Options.MirroringMaxEndpointsPerSubset (KCM
	// --mirroring-max-endpoints-per-subset; rule b4, spec (e) O8).
	DefaultMaxEndpointsPerSubset = endpointsmirroring.DefaultMaxEndpointsPerSubset

	// DefaultConcurrentServiceEndpointSyncs is the default of
	// Options.MirroringConcurrentServiceEndpointSyncs (KCM
	// --mirroring-concurrent-service-endpoint-syncs).
	DefaultConcurrentServiceEndpointSyncs = 5

	// MaxConcurrentServiceEndpointSyncs is the largest value KCM accepts for
	// --mirroring-concurrent-service-endpoint-syncs
	// (cmd/kube-controller-manager/app/options
	// endpointslicemirroringcontroller.go).
	MaxConcurrentServiceEndpointSyncs = 50
)

// Options configures New. The zero value gives KCM's defaults with the
// KEP-4770 gate on. Field names follow KCM's component configuration
// (EndpointSliceMirroringControllerConfiguration) and flags. They are
// also the controller's command-line options: AddFlags binds KCM's
// --mirroring-* flags to their fields and Validate checks them
// (Registration.NewOptions returns NewOptions()).
type Options struct {
	// ControllerName is the managed-by value written on, and looked up in,
	// every mirrored slice, the FieldManager of every write, and the name a
	// Service's KEP-4770 label must carry for this controller to keep
	// mirroring it. It must be a valid label value and must differ from the
	// EndpointSlice controller's managed-by value (each controller lists
	// and deletes the slices carrying its own). Default:
	// wellknown.MirroringControllerName.
	ControllerName string

	// MirroringMaxEndpointsPerSubset is the most addresses mirrored per
	// re-packed Endpoints subset, ready ones first (KCM
	// --mirroring-max-endpoints-per-subset, rule b4), and the most endpoints
	// per mirrored slice. 1..1000. Default: 1000.
	MirroringMaxEndpointsPerSubset int32

	// MirroringConcurrentServiceEndpointSyncs is the number of workers Run
	// starts when called with workers == 0 (KCM
	// --mirroring-concurrent-service-endpoint-syncs). 1..50. Default: 5.
	MirroringConcurrentServiceEndpointSyncs int32

	// MirroringEndpointSliceUpdatesBatchPeriod delays the syncs triggered by
	// EndpointSlice changes, so that several changes produce one sync (KCM
	// --mirroring-endpointslice-updates-batch-period, rule b11). Default: 0.
	// Must not be negative.
	MirroringEndpointSliceUpdatesBatchPeriod time.Duration

	// ExternalEndpointController is the KEP-4770 feature gate: when true, an
	// Endpoints object whose Service is labelled
	// service.kubernetes.io/endpoint-controller-name with a value other than
	// ControllerName is not mirrored, and the slices mirrored for it before
	// are deleted; when false the label is ignored (rule (a)9). nil means
	// true.
	ExternalEndpointController *bool

	// SelectorRemovalCleanup is the SelectorRemovalCleanup feature gate
	// (pkg/policy/selectorless): when true, an Endpoints object written by
	// KCM's Endpoints controller (selectorless.KCMEndpoints: the
	// endpoints.kubernetes.io/managed-by=endpoint-controller label, or KCM's
	// managedFields entry on an unlabelled object) on a Service without a
	// selector is the Endpoints controller's leftover from
	// before the selector was removed, not hand-written endpoints: it is not
	// mirrored, and the slices mirrored for it before are deleted
	// (kubernetes#118376, regression case 34). Trade-off: a user who edits
	// such a leftover by hand must drop the label for it to be mirrored.
	// When false it is mirrored, as KCM does (shouldMirror). nil means true.
	SelectorRemovalCleanup *bool

	// AcceptedControllerNames are further values of the KEP-4770 label
	// service.kubernetes.io/endpoint-controller-name that name this
	// controller's stack, for example the EndpointSlice controller's name
	// when one slicekit process runs the EndpointSlice, mirroring and
	// Endpoints controllers: a Service labelled with one of them is handled
	// as an unlabelled one. Default: none.
	AcceptedControllerNames []string

	// Registerer receives the controller's metrics: KCM's
	// endpoint_slice_mirroring_controller_* metrics and the workqueue_*
	// metrics of the queue named endpoint_slice_mirroring. nil means no
	// metrics. New fails when the mirroring metrics are already registered
	// on it.
	Registerer prometheus.Registerer

	// EventRecorder records the controller's events. nil means New builds
	// an event broadcaster that Run connects to the API server through the
	// client, with source component EventSourceComponent (as KCM does).
	EventRecorder record.EventRecorder
}

// complete returns a copy of o with defaults filled in, or an error naming
// every invalid field.
func (o Options) complete() (Options, error) {
	if o.ControllerName == "" {
		o.ControllerName = wellknown.MirroringControllerName
	}
	if o.MirroringMaxEndpointsPerSubset == 0 {
		o.MirroringMaxEndpointsPerSubset = DefaultMaxEndpointsPerSubset
	}
	if o.MirroringConcurrentServiceEndpointSyncs == 0 {
		o.MirroringConcurrentServiceEndpointSyncs = DefaultConcurrentServiceEndpointSyncs
	}
	var errs []error
	if msgs := validation.IsValidLabelValue(o.ControllerName); len(msgs) > 0 {
		errs = append(errs, fmt.Errorf("ControllerName %q is not a valid label value: %s", o.ControllerName, strings.Join(msgs, "; ")))
	}
	if o.MirroringMaxEndpointsPerSubset < 1 || o.MirroringMaxEndpointsPerSubset > endpointsmirroring.MaxEndpointsPerSubsetLimit {
		errs = append(errs, fmt.Errorf("MirroringMaxEndpointsPerSubset %d is outside 1..%d", o.MirroringMaxEndpointsPerSubset, endpointsmirroring.MaxEndpointsPerSubsetLimit))
	}
	if o.MirroringConcurrentServiceEndpointSyncs < 1 || o.MirroringConcurrentServiceEndpointSyncs > MaxConcurrentServiceEndpointSyncs {
		errs = append(errs, fmt.Errorf("MirroringConcurrentServiceEndpointSyncs %d is outside 1..%d", o.MirroringConcurrentServiceEndpointSyncs, MaxConcurrentServiceEndpointSyncs))
	}
	if o.MirroringEndpointSliceUpdatesBatchPeriod < 0 {
		errs = append(errs, fmt.Errorf("MirroringEndpointSliceUpdatesBatchPeriod %s is negative", o.MirroringEndpointSliceUpdatesBatchPeriod))
	}
	return o, errors.Join(errs...)
}

// NewOptions returns the Options `slicekit run` starts from: KCM's
// defaults, spelled out, and ControllerName wellknown.MirroringControllerName.
func NewOptions() *Options {
	return &Options{
		ControllerName:                          wellknown.MirroringControllerName,
		MirroringMaxEndpointsPerSubset:          DefaultMaxEndpointsPerSubset,
		MirroringConcurrentServiceEndpointSyncs: DefaultConcurrentServiceEndpointSyncs,
	}
}

// AddFlags binds KCM's --mirroring-* flags to o.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.AddRenderFlags(fs)
	fs.Int32Var(&o.MirroringConcurrentServiceEndpointSyncs, "mirroring-concurrent-service-endpoint-syncs", o.MirroringConcurrentServiceEndpointSyncs,
		"The number of Endpoints objects the mirroring controller syncs at once, 1..50.")
	fs.DurationVar(&o.MirroringEndpointSliceUpdatesBatchPeriod, "mirroring-endpointslice-updates-batch-period", o.MirroringEndpointSliceUpdatesBatchPeriod,
		"How long the mirroring controller waits after an EndpointSlice change before syncing, so that several changes make one write.")
}

// AddRenderFlags binds --mirroring-max-endpoints-per-subset, the one flag
// that shapes what the controller writes, to o.
func (o *Options) AddRenderFlags(fs *pflag.FlagSet) {
	fs.Int32Var(&o.MirroringMaxEndpointsPerSubset, "mirroring-max-endpoints-per-subset", o.MirroringMaxEndpointsPerSubset,
		"The most addresses the mirroring controller mirrors per Endpoints subset, 1..1000 (ready addresses first; the rest is skipped with a Warning Event).")
}

// Validate reports every flag outside KCM's range, whether or not the
// controller is enabled (as KCM validates its configuration); the errors
// name the flags (registry.InRange, WorkerCount, NonNegative).
func (o *Options) Validate(bool) error {
	return errors.Join(
		registry.InRange("--mirroring-max-endpoints-per-subset", o.MirroringMaxEndpointsPerSubset, endpointsmirroring.MaxEndpointsPerSubsetLimit),
		registry.WorkerCount("--mirroring-concurrent-service-endpoint-syncs", o.MirroringConcurrentServiceEndpointSyncs),
		registry.NonNegative("--mirroring-endpointslice-updates-batch-period", o.MirroringEndpointSliceUpdatesBatchPeriod),
	)
}
