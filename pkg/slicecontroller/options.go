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
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/policy/delegation"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/addressguard"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// DefaultMetricsSubsystem is the default Options.MetricsSubsystem of a
// custom controller (Labelled ownership).
const DefaultMetricsSubsystem = "endpoint_slice_pod_source_controller"

// DefaultConflictReportInterval is the default Options.ConflictReportInterval.
const DefaultConflictReportInterval = 10 * time.Minute

// Ownership says which Services a controller manages and what it does with
// the slices of a Service it stops managing. Build it with DropIn or
// Labelled; the zero value is invalid.
type Ownership struct {
	// dropIn is true for DropIn, false for Labelled.
	dropIn bool
	// name is the endpoint-controller-name label value the controller
	// answers to.
	name string
	// gate is the ExternalEndpointController feature gate (DropIn only).
	gate bool
}

// DropIn is the ownership of the drop-in EndpointSlice controller
// (KEP-4770, pkg/policy/delegation): with the ExternalEndpointController
// gate on, every Service not labelled
// service.kubernetes.io/endpoint-controller-name or labelled with name;
// with the gate off, every Service. Pod selection is KCM's (spec.selector
// only). The slices of a Service delegated to another controller are
// deleted with a Normal EndpointSlicesHandedOver event, and Run first
// queues the delegated Services that still have slices of this controller
// (edge case E8, rule (a)11).
func DropIn(name string, gate bool) Ownership {
	return Ownership{dropIn: true, name: name, gate: gate}
}

// Labelled is the ownership of a custom controller: exactly the Services
// labelled service.kubernetes.io/endpoint-controller-name=<name>. Service
// events of other Services are ignored. The slices of a Service that loses
// the label (or whose label changes) are deleted with a Normal
// EndpointSlicesReleased event, and Run first queues the Services that
// still have slices of this controller but no longer carry the label.
func Labelled(name string) Ownership {
	return Ownership{name: name}
}

// Owns reports whether svc is managed by a controller with this ownership;
// false for a nil svc.
func (o Ownership) Owns(svc *corev1.Service) bool {
	if svc == nil {
		return false
	}
	if o.dropIn {
		return !delegation.Delegated(svc, o.name, o.gate)
	}
	v, ok := svc.Labels[wellknown.LabelEndpointControllerName]
	return ok && v == o.name
}

// Common are the settings every Service controller built on New takes
// from slicekit's shared flags (registry.Shared, through
// registry.InitContext.Common). Options and the Options of each custom
// controller built on it (secondarynetwork, dranetwork, celprofiles) embed
// it, so that each is documented, defaulted and validated here once. The
// zero value gives the defaults.
type Common struct {
	// MaxEndpointsPerSlice is the most endpoints packed into one slice,
	// 1..1000 (KCM --max-endpoints-per-slice). Default: 100.
	MaxEndpointsPerSlice int32

	// BatchPeriod delays the syncs triggered by Pod changes (and by the
	// changes of Options.Inputs), so that several changes make one write,
	// and raises the minimum delay of syncs triggered by EndpointSlice
	// changes from 1s to BatchPeriod (KCM --endpoint-updates-batch-period).
	// Default 0. Must not be negative.
	BatchPeriod time.Duration

	// SelectorRemovalCleanup is the SelectorRemovalCleanup feature gate
	// (pkg/policy/selectorless): when true, the slices of a Service that
	// selects no Pods any more (type ExternalName, or no selector) are
	// deleted, with a Normal EndpointSlicesRemoved event naming the reason
	// (kubernetes#118376); when false they are left as they are (KCM C11).
	// nil means true.
	SelectorRemovalCleanup *bool

	// AddressGuard configures the address guard New installs on a
	// pod-address Source (one implementing source.AddressGuarded, such as
	// source.PodAddresses): addresses inside the Service CIDRs, Node
	// addresses and, with an allow-list for the managed-by value,
	// addresses outside it are refused (pkg/source/addressguard,
	// docs/security.md). The zero value refuses the ServiceCIDR objects'
	// and the Nodes' addresses. Ignored for other Sources
	// (servicepods.Source).
	AddressGuard addressguard.Options

	// Registerer receives the metrics; nil means none. With
	// Options.KCMMetricNames (the drop-in) they are KCM's names: the
	// reconciler's endpoint_slice_controller_* metrics,
	// Options.SelectorRemovalMetric when set, the conflict counter, and the
	// workqueue_* metrics of the queue Options.QueueName. Otherwise (custom
	// controllers) every metric but workqueue_* is labelled
	// controller=<ControllerName> so that several controllers share one
	// registry: the reconciler's metrics under Options.MetricsSubsystem and
	// <subsystem>_pod_problems{reason} (gauge) and
	// <subsystem>_pod_problems_total{reason} (counter). New fails when its
	// metrics are already registered on it.
	Registerer prometheus.Registerer

	// EventRecorder records the controller's events. nil means New builds
	// a broadcaster that Run connects to the API server, with source
	// component Options.EventSourceComponent (default: ControllerName).
	EventRecorder record.EventRecorder
}

// Options configures New.
type Options struct {
	// Common are the settings shared with slicekit's other Service
	// controllers (see Common).
	Common

	// ControllerName is the value of the Service label
	// service.kubernetes.io/endpoint-controller-name (KEP-4770) this
	// controller answers to. Required; a valid label value.
	ControllerName string

	// ManagedBy is the endpointslice.kubernetes.io/managed-by value written
	// on, and looked up in, this controller's slices, and the FieldManager
	// of its writes. Default: ControllerName. It must differ from every
	// other controller's.
	ManagedBy string

	// Ownership says which Services are this controller's (DropIn or
	// Labelled). Default: Labelled(ControllerName).
	Ownership Ownership

	// Source computes the desired endpoints of a Service from its selected
	// Pods (servicepods.Source for KCM's rules, a source.PodAddresses for a
	// pod-address source). Required.
	Source source.Source

	// Inputs are the informers of other kinds the Source reads (for
	// example ResourceClaims), each with the Pods an event concerns; see
	// Input. Their objects reach the Source through listers it holds.
	Inputs []Input

	// SelectorlessAnnotation, when true, lets a Service without
	// spec.selector select its Pods by the slicekit.dev/selector annotation
	// (PodSelector; pkg/policy/selectorless). nil means true for
	// Labelled ownership and false for DropIn: the drop-in controller
	// selects by spec.selector only, as KCM.
	SelectorlessAnnotation *bool

	// TopologyHints enables topology-aware hints (topology-mode: Auto, KCM
	// C34) through a topology cache fed from the Node informer, as KCM
	// always does. nil means true. With false the annotation is ignored
	// (trafficDistribution hints, C35, still apply) and Node events are not
	// handled.
	TopologyHints *bool

	// DetectConflicts enables the managed-by conflict detector: writes by
	// other field managers on this controller's slices are reported as
	// Warning ConflictingEndpointSliceWriter events and in
	// ConflictingWritesMetricName.
	DetectConflicts bool

	// ConflictReportInterval is the least time between two reports of a
	// foreign write on the same slice by the same field manager. Default:
	// DefaultConflictReportInterval. Must not be negative.
	ConflictReportInterval time.Duration

	// MetricsSubsystem is the Prometheus subsystem of the reconciler's
	// and the problem metrics without KCMMetricNames. Default:
	// DefaultMetricsSubsystem. Ignored with KCMMetricNames (KCM's
	// endpoint_slice_controller).
	MetricsSubsystem string

	// KCMMetricNames selects the drop-in's metrics naming: KCM's names,
	// no controller label, no problem metrics (see Registerer).
	KCMMetricNames bool

	// SelectorRemovalMetric, when not empty and with KCMMetricNames,
	// is the name (after the subsystem endpoint_slice_controller, without
	// _total) of the counter of slices deleted because their Service
	// selects no Pods, labelled reason.
	SelectorRemovalMetric string

	// QueueName names the Service queue in the workqueue metrics. Default:
	// ControllerName.
	QueueName string

	// EventSourceComponent is the source component of the events when
	// EventRecorder is nil. Default: ControllerName.
	EventSourceComponent string

	// Name prefixes New's and Run's errors. Default: ControllerName.
	Name string

	// Pacer, when not nil, tells when the client's rate limiter has a
	// token available (ratelimit.TokenBucket, set as the client's
	// rest.Config.RateLimiter; the manager passes its client's). The
	// incremental path (an incremental Source) then plans as late as the
	// limiter allows: a sync waits for a token before it reads the Pods
	// and plans, and every write but the first waits for one before it
	// checks whether new events superseded the plan
	// (reconciler.WithPacer). nil: plans are made at once and each write
	// waits inside the client.
	Pacer reconciler.Pacer
	// BurstQuietPeriod, when positive, lets an incremental sync wait while
	// a burst of Pod events for its Service goes on: with two or more Pods
	// pending and the latest event less than BurstQuietPeriod old, the
	// plan waits for a pause of that length, at most ten of them after the
	// first pending event (serviceindex.Index.BurstWait). A single
	// event (one readiness flip) is planned at once. slicekit's own (KCM
	// has no such wait). Default 0: off. Must not be negative.
	BurstQuietPeriod time.Duration
}

// selectorless reports whether the slicekit.dev/selector annotation
// selects Pods (SelectorlessAnnotation; nil: for Labelled ownership only).
func (o Options) selectorless() bool {
	if o.SelectorlessAnnotation == nil {
		return !o.Ownership.dropIn
	}
	return *o.SelectorlessAnnotation
}

// topologyEnabled reports whether topology hints are enabled (nil means
// true).
func (o Options) topologyEnabled() bool {
	return o.TopologyHints == nil || *o.TopologyHints
}

// complete returns a copy of c with defaults filled in, and an error for
// each invalid field.
func (c Common) complete() (Common, []error) {
	if c.MaxEndpointsPerSlice == 0 {
		c.MaxEndpointsPerSlice = reconciler.DefaultMaxEndpointsPerSlice
	}
	var errs []error
	if c.MaxEndpointsPerSlice < 1 || c.MaxEndpointsPerSlice > reconciler.MaxEndpointsPerSliceLimit {
		errs = append(errs, fmt.Errorf("MaxEndpointsPerSlice %d is outside 1..%d", c.MaxEndpointsPerSlice, reconciler.MaxEndpointsPerSliceLimit))
	}
	if c.BatchPeriod < 0 {
		errs = append(errs, fmt.Errorf("BatchPeriod %s is negative", c.BatchPeriod))
	}
	return c, errs
}

// complete returns a copy of o with defaults filled in, or an error naming
// every invalid field.
func (o Options) complete() (Options, error) {
	if o.ManagedBy == "" {
		o.ManagedBy = o.ControllerName
	}
	if o.MetricsSubsystem == "" {
		o.MetricsSubsystem = DefaultMetricsSubsystem
	}
	if o.EventSourceComponent == "" {
		o.EventSourceComponent = o.ControllerName
	}
	if o.QueueName == "" {
		o.QueueName = o.ControllerName
	}
	if o.ConflictReportInterval == 0 {
		o.ConflictReportInterval = DefaultConflictReportInterval
	}
	if o.Name == "" {
		o.Name = o.ControllerName
	}
	if o.Ownership.name == "" {
		o.Ownership = Labelled(o.ControllerName)
	}
	var errs []error
	o.Common, errs = o.Common.complete()
	if o.ControllerName == "" {
		errs = append(errs, errors.New("ControllerName is required"))
	} else if msgs := validation.IsValidLabelValue(o.ControllerName); len(msgs) > 0 {
		errs = append(errs, fmt.Errorf("ControllerName %q is not a valid label value: %s", o.ControllerName, strings.Join(msgs, "; ")))
	}
	if msgs := validation.IsValidLabelValue(o.ManagedBy); o.ManagedBy != "" && len(msgs) > 0 {
		errs = append(errs, fmt.Errorf("ManagedBy %q is not a valid label value: %s", o.ManagedBy, strings.Join(msgs, "; ")))
	}
	if o.Source == nil {
		errs = append(errs, errors.New("no Source given (Options.Source is required)"))
	} else if v, ok := o.Source.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, in := range o.Inputs {
		if err := in.validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if o.BurstQuietPeriod < 0 {
		errs = append(errs, fmt.Errorf("BurstQuietPeriod %s is negative", o.BurstQuietPeriod))
	}
	if o.ConflictReportInterval < 0 {
		errs = append(errs, fmt.Errorf("ConflictReportInterval %s is negative", o.ConflictReportInterval))
	}
	return o, errors.Join(errs...)
}

// Reads returns what a Service controller built by New reads from the
// shared informers (for its Registration.Reads, pkg/registry):
// Pods, Services, EndpointSlices and Nodes, with the Pod fields of the
// endpoint rules plus the given Pod annotations (those its Source reads).
// A Source that may read any Pod or Service field sets AllPodFields or
// AllServiceFields on the result.
func Reads(podAnnotations ...string) informertransform.Reads {
	return informertransform.Reads{
		Informers: []informertransform.Informer{
			informertransform.Pods, informertransform.Services, informertransform.EndpointSlices, informertransform.Nodes,
		},
		PodAnnotations: podAnnotations,
	}
}

// GuardedReads returns Reads(podAnnotations...) for a controller with a
// pod-address Source: its address guard also reads Nodes' status.addresses
// (informertransform.Reads.NodeAddresses).
func GuardedReads(podAnnotations ...string) informertransform.Reads {
	r := Reads(podAnnotations...)
	r.NodeAddresses = true
	return r
}
