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

package endpoints

import (
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/pkg/registry"
)

const (
	// MaxCapacity is the most addresses (ready and not ready) written into
	// one Endpoints object; beyond it the addresses are truncated and the
	// object is annotated endpoints.kubernetes.io/over-capacity: truncated
	// (KCM maxCapacity).
	MaxCapacity = 1000

	// OverCapacityTruncated is the value of the
	// endpoints.kubernetes.io/over-capacity annotation on a truncated
	// Endpoints object (KCM truncated).
	OverCapacityTruncated = "truncated"

	// DefaultConcurrentEndpointSyncs is the default of
	// Options.ConcurrentEndpointSyncs (KCM --concurrent-endpoint-syncs).
	DefaultConcurrentEndpointSyncs = 5
)

// Options configures New. The zero value gives KCM's defaults with the
// KEP-4770 gate on. Field names follow KCM's component configuration
// (EndpointControllerConfiguration) and flags. They are also the
// controller's command-line options: AddFlags binds
// --concurrent-endpoint-syncs to ConcurrentEndpointSyncs and Validate
// checks it (Registration.NewOptions returns NewOptions()); the batch
// period is the shared --endpoint-updates-batch-period.
type Options struct {
	// ConcurrentEndpointSyncs is the number of Service workers (and Pod
	// workers) Run starts when called with workers == 0 (KCM
	// --concurrent-endpoint-syncs). At least 1. Default: 5.
	ConcurrentEndpointSyncs int32

	// EndpointUpdatesBatchPeriod delays the syncs triggered by Pod changes,
	// so that several Pod changes produce one write (KCM
	// --endpoint-updates-batch-period). Default: 0. Must not be negative.
	EndpointUpdatesBatchPeriod time.Duration

	// ExternalEndpointController is the KEP-4770 feature gate: when true, a
	// Service labelled service.kubernetes.io/endpoint-controller-name with a
	// value other than wellknown.EndpointsControllerName gets no Endpoints object from this
	// controller, and the one it wrote (carrying wellknown.LabelEndpointsManagedBy) is deleted;
	// when false the label is ignored (rule (a)9). nil means true.
	ExternalEndpointController *bool

	// SelectorRemovalCleanup is the SelectorRemovalCleanup feature gate
	// (pkg/policy/selectorless): when true, the Endpoints object of a
	// Service that has no selector or is of type ExternalName is deleted if
	// it carries wellknown.LabelEndpointsManagedBy=wellknown.EndpointsControllerName (never one without it: that
	// is hand-written), with a UID precondition, a Normal EndpointsRemoved
	// event naming the reason and the counter
	// endpoint_controller_selector_removal_deleted_endpoints_total
	// (kubernetes#118376, regression case 34); when false it is left, as
	// KCM does. nil means true.
	SelectorRemovalCleanup *bool

	// AcceptedControllerNames are further values of the KEP-4770 label
	// service.kubernetes.io/endpoint-controller-name that name this
	// controller's stack, for example the EndpointSlice controller's name
	// when one slicekit process runs the EndpointSlice, mirroring and
	// Endpoints controllers: a Service labelled with one of them is handled
	// as an unlabelled one. Default: none.
	AcceptedControllerNames []string

	// Registerer receives the workqueue_* metrics of the queue named
	// endpoint (KCM's Endpoints controller has no other metric) and
	// slicekit's selector-removal counter. nil means no metrics.
	Registerer prometheus.Registerer

	// EventRecorder records the controller's events. nil means New builds
	// an event broadcaster that Run connects to the API server through the
	// client, with source component wellknown.EndpointsControllerName (as KCM does).
	EventRecorder record.EventRecorder
}

// complete returns a copy of o with defaults filled in, or an error naming
// every invalid field.
func (o Options) complete() (Options, error) {
	if o.ConcurrentEndpointSyncs == 0 {
		o.ConcurrentEndpointSyncs = DefaultConcurrentEndpointSyncs
	}
	var errs []error
	if o.ConcurrentEndpointSyncs < 1 {
		errs = append(errs, fmt.Errorf("ConcurrentEndpointSyncs %d is less than 1", o.ConcurrentEndpointSyncs))
	}
	if o.EndpointUpdatesBatchPeriod < 0 {
		errs = append(errs, fmt.Errorf("EndpointUpdatesBatchPeriod %s is negative", o.EndpointUpdatesBatchPeriod))
	}
	return o, errors.Join(errs...)
}

// NewOptions returns the Options `slicekit run` starts from: KCM's
// defaults, spelled out.
func NewOptions() *Options {
	return &Options{ConcurrentEndpointSyncs: DefaultConcurrentEndpointSyncs}
}

// AddFlags binds --concurrent-endpoint-syncs to o.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.Int32Var(&o.ConcurrentEndpointSyncs, "concurrent-endpoint-syncs", o.ConcurrentEndpointSyncs,
		"The number of Services the Endpoints controller syncs at once, 1..50 (it also uses --endpoint-updates-batch-period).")
}

// AddRenderFlags adds no flag: the worker count does not shape output.
func (o *Options) AddRenderFlags(*pflag.FlagSet) {}

// Validate reports --concurrent-endpoint-syncs outside KCM's range 1..50,
// whether or not the controller is enabled (registry.WorkerCount).
func (o *Options) Validate(bool) error {
	return registry.WorkerCount("--concurrent-endpoint-syncs", o.ConcurrentEndpointSyncs)
}
