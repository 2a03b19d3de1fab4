// Copyright 2019 The Kubernetes Authors.
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
//
// Modified for slicekit: ported from k8s.io/endpointslice@v0.37.2
// metrics/metrics.go; the global k8s.io/component-base metrics registered on
// legacyregistry became the fields of a Metrics value built with
// github.com/prometheus/client_golang and registered on an injected
// prometheus.Registerer, with a configurable subsystem and nil-safe methods.

package metrics

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/types"
)

// DefaultSubsystem is the Prometheus subsystem used when Options.Subsystem is
// empty; it is KCM's EndpointSliceSubsystem, so metric names are e.g.
// "endpoint_slice_controller_endpoints_added_per_sync".
//
// Source: k8s.io/endpointslice metrics/metrics.go.
const DefaultSubsystem = "endpoint_slice_controller"

// Values of the "operation" label of the changes counter
// (IncEndpointSliceChanges), as used by KCM's reconciler.
const (
	// OperationCreate counts an EndpointSlice created.
	OperationCreate = "create"
	// OperationUpdate counts an EndpointSlice updated.
	OperationUpdate = "update"
	// OperationDelete counts an EndpointSlice deleted.
	OperationDelete = "delete"
)

// Values of the "result" label of the syncs counter (IncEndpointSliceSyncs),
// as used by KCM's EndpointSlice controller (trackSync in
// k8s.io/kubernetes pkg/controller/endpointslice/endpointslice_controller.go).
const (
	// SyncResultSuccess is used when the sync succeeded.
	SyncResultSuccess = "success"
	// SyncResultStale is used when the sync failed because the informer cache
	// was stale (KCM: endpointslice.IsStaleInformerCacheErr).
	SyncResultStale = "stale"
	// SyncResultError is used when the sync failed for any other reason.
	SyncResultError = "error"
)

// Values of the "topology" label of the endpointslices_changed_per_sync
// histogram (ObserveEndpointSlicesChangedPerSync): TopologyAuto when
// topology-aware hints are enabled for the owner (a topology cache is
// configured and the owner asks for them), TopologyDisabled otherwise.
const (
	// TopologyAuto is used when topology-aware hints are enabled.
	TopologyAuto = "Auto"
	// TopologyDisabled is used otherwise.
	TopologyDisabled = "Disabled"
)

// Options configures New. The zero value is valid.
//
// Options will grow (for instance a field selecting the metric set of KCM's
// EndpointSliceMirroring controller, whose zero value keeps the set of the
// EndpointSlice controller); adding fields is backward compatible.
type Options struct {
	// Subsystem is the Prometheus subsystem, the first part of every metric
	// name ("<subsystem>_<name>"). Default: DefaultSubsystem. KCM's
	// EndpointSliceMirroring controller uses
	// "endpoint_slice_mirroring_controller".
	Subsystem string
}

// Metrics holds the metrics of KCM's EndpointSlice controller, registered on
// one prometheus.Registerer. Create it with New.
//
// All methods are safe for concurrent use, and are no-ops on a nil *Metrics,
// so a reconciler can run without metrics.
//
// The gauges endpoints_desired, num_endpoint_slices, desired_endpoint_slices
// and services_count_by_traffic_distribution are set by a Cache (NewCache).
//
// Source: k8s.io/endpointslice metrics/metrics.go.
type Metrics struct {
	// Each field is nil when the metric is not part of the registered set;
	// methods check both the receiver and the field.
	endpointsAddedPerSync              *prometheus.HistogramVec
	endpointsRemovedPerSync            *prometheus.HistogramVec
	endpointsDesired                   *prometheus.GaugeVec
	numEndpointSlices                  *prometheus.GaugeVec
	desiredEndpointSlices              *prometheus.GaugeVec
	endpointSliceChanges               *prometheus.CounterVec
	endpointSlicesChangedPerSync       *prometheus.HistogramVec
	endpointSliceSyncs                 *prometheus.CounterVec
	servicesCountByTrafficDistribution *prometheus.GaugeVec
}

// stabilityLevel is the component-base stability level of a KCM metric. KCM
// registers its metrics through k8s.io/component-base/metrics, which prefixes
// the help text with "[<level>] "; this package does the same so that the
// exposed help texts are identical.
type stabilityLevel string

const (
	alpha stabilityLevel = "ALPHA"
	beta  stabilityLevel = "BETA"
)

// perSyncBuckets are the buckets of the endpoints added/removed per sync
// histograms: 2, 4, 8, ..., 32768 (KCM: metrics.ExponentialBuckets(2, 2, 15)).
func perSyncBuckets() []float64 { return prometheus.ExponentialBuckets(2, 2, 15) }

// New creates the metrics of KCM's EndpointSlice controller and registers
// them on reg:
//
//	<subsystem>_endpoints_added_per_sync                histogram, buckets 2..32768 (×2)
//	<subsystem>_endpoints_removed_per_sync              histogram, buckets 2..32768 (×2)
//	<subsystem>_endpoints_desired                       gauge
//	<subsystem>_num_endpoint_slices                     gauge
//	<subsystem>_desired_endpoint_slices                 gauge
//	<subsystem>_changes{operation}                      counter
//	<subsystem>_endpointslices_changed_per_sync{topology,traffic_distribution}
//	                                                    histogram, default buckets
//	<subsystem>_syncs{result}                           counter
//	<subsystem>_services_count_by_traffic_distribution{traffic_distribution}
//	                                                    gauge
//
// Names, help texts (including component-base's "[ALPHA] "/"[BETA] " prefix),
// label names and buckets are KCM's. As in KCM, the metrics without labels
// are vectors with no label, so a series appears only once a value has been
// observed or set.
//
// reg must not be nil; controller-runtime's metrics.Registry is a valid
// Registerer. If a registration fails (for example because metrics with the
// same names are already registered, as they are after a second New on the
// same Registerer), the metrics registered so far are unregistered and the
// error is returned, wrapped: errors.As with prometheus.AlreadyRegisteredError
// works on it. New never panics.
//
// Source: k8s.io/endpointslice metrics/metrics.go (RegisterMetrics).
func New(reg prometheus.Registerer, opts Options) (*Metrics, error) {
	return NewWithConstLabels(reg, opts, nil)
}

// NewWithConstLabels is New with constLabels, labels with a fixed value,
// added to every series, so that several reconcilers of one process report
// on one Registerer without colliding: give each the same label names with
// its own values (e.g. {"controller": "mesh"}). Prometheus refuses two
// collectors of one name with equal constant labels (the error wraps a
// prometheus.AlreadyRegisteredError), or with other label names. nil
// constLabels is New.
func NewWithConstLabels(reg prometheus.Registerer, opts Options, constLabels prometheus.Labels) (*Metrics, error) {
	if reg == nil {
		return nil, errors.New("metrics: nil prometheus.Registerer")
	}
	subsystem := opts.Subsystem
	if subsystem == "" {
		subsystem = DefaultSubsystem
	}

	b := &builder{subsystem: subsystem, constLabels: constLabels}
	m := &Metrics{
		endpointsAddedPerSync: b.histogramVec("endpoints_added_per_sync", beta,
			"Number of endpoints added on each Service sync", perSyncBuckets()),
		endpointsRemovedPerSync: b.histogramVec("endpoints_removed_per_sync", beta,
			"Number of endpoints removed on each Service sync", perSyncBuckets()),
		endpointsDesired: b.gaugeVec("endpoints_desired", beta,
			"Number of endpoints desired"),
		numEndpointSlices: b.gaugeVec("num_endpoint_slices", beta,
			"Number of EndpointSlices"),
		desiredEndpointSlices: b.gaugeVec("desired_endpoint_slices", beta,
			"Number of EndpointSlices that would exist with perfect endpoint allocation"),
		endpointSliceChanges: b.counterVec("changes", alpha,
			"Number of EndpointSlice changes", "operation"),
		// No stability level in KCM: component-base defaults to ALPHA. No
		// buckets: prometheus.DefBuckets.
		endpointSlicesChangedPerSync: b.histogramVec("endpointslices_changed_per_sync", alpha,
			"Number of EndpointSlices changed on each Service sync", nil,
			"topology",             // either "Auto" or "Disabled"
			"traffic_distribution", // a trafficDistribution value or <empty>
		),
		endpointSliceSyncs: b.counterVec("syncs", alpha,
			"Number of EndpointSlice syncs", "result"),
		servicesCountByTrafficDistribution: b.gaugeVec("services_count_by_traffic_distribution", beta,
			"Number of Services using some specific trafficDistribution", "traffic_distribution"),
	}
	if err := b.register(reg); err != nil {
		return nil, err
	}
	return m, nil
}

// builder creates collectors with a common subsystem and registers them
// together.
type builder struct {
	subsystem   string
	constLabels prometheus.Labels
	collectors  []namedCollector
}

type namedCollector struct {
	fqName    string
	collector prometheus.Collector
}

func (b *builder) add(name string, c prometheus.Collector) {
	b.collectors = append(b.collectors, namedCollector{
		fqName:    prometheus.BuildFQName("", b.subsystem, name),
		collector: c,
	})
}

func (b *builder) histogramVec(name string, level stabilityLevel, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	v := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Subsystem:   b.subsystem,
		Name:        name,
		Help:        annotateHelp(level, help),
		Buckets:     buckets,
		ConstLabels: b.constLabels,
	}, labels)
	b.add(name, v)
	return v
}

// opts returns the options of the family name: b's subsystem and help
// annotated with level.
func (b *builder) opts(name string, level stabilityLevel, help string) prometheus.Opts {
	return prometheus.Opts{Subsystem: b.subsystem, Name: name, Help: annotateHelp(level, help), ConstLabels: b.constLabels}
}

func (b *builder) gaugeVec(name string, level stabilityLevel, help string, labels ...string) *prometheus.GaugeVec {
	v := prometheus.NewGaugeVec(prometheus.GaugeOpts(b.opts(name, level, help)), labels)
	b.add(name, v)
	return v
}

func (b *builder) counterVec(name string, level stabilityLevel, help string, labels ...string) *prometheus.CounterVec {
	v := prometheus.NewCounterVec(prometheus.CounterOpts(b.opts(name, level, help)), labels)
	b.add(name, v)
	return v
}

// register registers all collectors on reg; on failure it unregisters the
// ones it registered and returns the wrapped error.
func (b *builder) register(reg prometheus.Registerer) error {
	for i, nc := range b.collectors {
		if err := reg.Register(nc.collector); err != nil {
			for _, done := range b.collectors[:i] {
				reg.Unregister(done.collector)
			}
			return fmt.Errorf("metrics: registering %s: %w", nc.fqName, err)
		}
	}
	return nil
}

// annotateHelp returns help prefixed with the stability level, as
// k8s.io/component-base/metrics does when a metric is registered.
func annotateHelp(level stabilityLevel, help string) string {
	return fmt.Sprintf("[%s] %s", level, help)
}

// ObserveEndpointsAddedPerSync records the number of endpoints added by one
// sync of one owner and address type (KCM observes it once per address type
// in reconcileByAddressType). Metric: <subsystem>_endpoints_added_per_sync.
//
// Source: k8s.io/endpointslice metrics/metrics.go (EndpointsAddedPerSync),
// observed in reconciler.go.
func (m *Metrics) ObserveEndpointsAddedPerSync(endpoints int) {
	if m == nil || m.endpointsAddedPerSync == nil {
		return
	}
	m.endpointsAddedPerSync.WithLabelValues().Observe(float64(endpoints))
}

// ObserveEndpointsRemovedPerSync records the number of endpoints removed by
// one sync of one owner and address type. Metric:
// <subsystem>_endpoints_removed_per_sync.
//
// Source: k8s.io/endpointslice metrics/metrics.go (EndpointsRemovedPerSync),
// observed in reconciler.go.
func (m *Metrics) ObserveEndpointsRemovedPerSync(endpoints int) {
	if m == nil || m.endpointsRemovedPerSync == nil {
		return
	}
	m.endpointsRemovedPerSync.WithLabelValues().Observe(float64(endpoints))
}

// IncEndpointSliceChanges counts one EndpointSlice create, update or delete
// request; operation is OperationCreate, OperationUpdate or OperationDelete.
// Metric: <subsystem>_changes{operation}.
//
// Source: k8s.io/endpointslice metrics/metrics.go (EndpointSliceChanges),
// incremented in reconciler.go after each successful API call.
func (m *Metrics) IncEndpointSliceChanges(operation string) {
	if m == nil || m.endpointSliceChanges == nil {
		return
	}
	m.endpointSliceChanges.WithLabelValues(operation).Inc()
}

// ObserveEndpointSlicesChangedPerSync records the number of EndpointSlices
// created, updated and deleted by one sync of one owner and address type
// (KCM observes it at the end of finalize, once per address type, when all
// API calls succeeded). topology is
// TopologyAuto or TopologyDisabled; trafficDistribution is the owner's
// trafficDistribution when it is honoured and topology hints are not enabled,
// "" otherwise. Metric:
// <subsystem>_endpointslices_changed_per_sync{topology,traffic_distribution}.
//
// Source: k8s.io/endpointslice metrics/metrics.go
// (EndpointSlicesChangedPerSync), observed in reconciler.go finalize.
func (m *Metrics) ObserveEndpointSlicesChangedPerSync(topology, trafficDistribution string, slices int) {
	if m == nil || m.endpointSlicesChangedPerSync == nil {
		return
	}
	m.endpointSlicesChangedPerSync.WithLabelValues(topology, trafficDistribution).Observe(float64(slices))
}

// IncEndpointSliceSyncs counts one sync of one owner; result is
// SyncResultSuccess, SyncResultStale or SyncResultError. Metric:
// <subsystem>_syncs{result}.
//
// Source: k8s.io/endpointslice metrics/metrics.go (EndpointSliceSyncs),
// incremented by trackSync in k8s.io/kubernetes
// pkg/controller/endpointslice/endpointslice_controller.go.
func (m *Metrics) IncEndpointSliceSyncs(result string) {
	if m == nil || m.endpointSliceSyncs == nil {
		return
	}
	m.endpointSliceSyncs.WithLabelValues(result).Inc()
}

// setCacheGauges sets the gauges driven by a Cache: endpoints_desired,
// num_endpoint_slices, desired_endpoint_slices, and
// services_count_by_traffic_distribution (reset, then one series per key of
// servicesByTrafficDistribution, including empty sets).
//
// Source: k8s.io/endpointslice metrics/cache.go (updateMetrics).
func (m *Metrics) setCacheGauges(numSlicesActual, numSlicesDesired, numEndpoints int, servicesByTrafficDistribution map[string]map[types.NamespacedName]bool) {
	if m == nil {
		return
	}
	if m.numEndpointSlices != nil {
		m.numEndpointSlices.WithLabelValues().Set(float64(numSlicesActual))
	}
	if m.desiredEndpointSlices != nil {
		m.desiredEndpointSlices.WithLabelValues().Set(float64(numSlicesDesired))
	}
	if m.endpointsDesired != nil {
		m.endpointsDesired.WithLabelValues().Set(float64(numEndpoints))
	}
	if m.servicesCountByTrafficDistribution != nil {
		m.servicesCountByTrafficDistribution.Reset()
		for trafficDistribution, services := range servicesByTrafficDistribution {
			m.servicesCountByTrafficDistribution.WithLabelValues(trafficDistribution).Set(float64(len(services)))
		}
	}
}
