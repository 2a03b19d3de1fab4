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

package metrics

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// kcmMetric describes a metric as KCM exposes it (k8s.io/endpointslice
// metrics/metrics.go registered through k8s.io/component-base).
type kcmMetric struct {
	name    string // without subsystem
	help    string // including the stability prefix added by component-base
	typ     dto.MetricType
	labels  []string
	buckets []float64 // histograms only
}

var kcmMetrics = []kcmMetric{
	{"endpoints_added_per_sync", "[BETA] Number of endpoints added on each Service sync", dto.MetricType_HISTOGRAM, nil,
		[]float64{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768}},
	{"endpoints_removed_per_sync", "[BETA] Number of endpoints removed on each Service sync", dto.MetricType_HISTOGRAM, nil,
		[]float64{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768}},
	{"endpoints_desired", "[BETA] Number of endpoints desired", dto.MetricType_GAUGE, nil, nil},
	{"num_endpoint_slices", "[BETA] Number of EndpointSlices", dto.MetricType_GAUGE, nil, nil},
	{"desired_endpoint_slices", "[BETA] Number of EndpointSlices that would exist with perfect endpoint allocation", dto.MetricType_GAUGE, nil, nil},
	{"changes", "[ALPHA] Number of EndpointSlice changes", dto.MetricType_COUNTER, []string{"operation"}, nil},
	{"endpointslices_changed_per_sync", "[ALPHA] Number of EndpointSlices changed on each Service sync", dto.MetricType_HISTOGRAM, []string{"topology", "traffic_distribution"},
		[]float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}},
	{"syncs", "[ALPHA] Number of EndpointSlice syncs", dto.MetricType_COUNTER, []string{"result"}, nil},
	{"services_count_by_traffic_distribution", "[BETA] Number of Services using some specific trafficDistribution", dto.MetricType_GAUGE, []string{"traffic_distribution"}, nil},
}

// drive sets a value on every metric of m.
func drive(m *Metrics) {
	m.ObserveEndpointsAddedPerSync(3)
	m.ObserveEndpointsRemovedPerSync(1)
	m.IncEndpointSliceChanges(OperationCreate)
	m.IncEndpointSliceChanges(OperationCreate)
	m.IncEndpointSliceChanges(OperationDelete)
	m.ObserveEndpointSlicesChangedPerSync(TopologyDisabled, "PreferClose", 3)
	m.IncEndpointSliceSyncs(SyncResultSuccess)
	m.IncEndpointSliceSyncs(SyncResultStale)

	c := NewCache(100, m)
	spc := NewServicePortCache()
	spc.Set("80", EfficiencyInfo{Endpoints: 150, Slices: 3})
	c.UpdateServicePortCache(types.NamespacedName{Namespace: "ns", Name: "svc"}, spc)
	c.UpdateTrafficDistributionForService(types.NamespacedName{Namespace: "ns", Name: "svc"}, ptr.To("PreferClose"))
}

func TestNewMatchesKCMMetrics(t *testing.T) {
	for _, subsystem := range []string{"", DefaultSubsystem, "endpoint_slice_mirroring_controller"} {
		t.Run("subsystem="+subsystem, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			m, err := New(reg, Options{Subsystem: subsystem})
			if err != nil {
				t.Fatalf("New() error: %v", err)
			}
			prefix := subsystem
			if prefix == "" {
				prefix = DefaultSubsystem
			}

			// As in KCM (vectors without labels), nothing is exposed before
			// the first observation.
			if n, err := testutil.GatherAndCount(reg); err != nil || n != 0 {
				t.Fatalf("GatherAndCount() before any observation = %d, %v; want 0, nil", n, err)
			}

			drive(m)

			families, err := reg.Gather()
			if err != nil {
				t.Fatalf("Gather() error: %v", err)
			}
			got := map[string]*dto.MetricFamily{}
			for _, mf := range families {
				got[mf.GetName()] = mf
			}
			if len(got) != len(kcmMetrics) {
				t.Errorf("got %d metric families, want %d", len(got), len(kcmMetrics))
			}
			for _, want := range kcmMetrics {
				name := prefix + "_" + want.name
				mf, ok := got[name]
				if !ok {
					t.Errorf("metric %s not exposed", name)
					continue
				}
				if mf.GetHelp() != want.help {
					t.Errorf("%s help = %q, want %q", name, mf.GetHelp(), want.help)
				}
				if mf.GetType() != want.typ {
					t.Errorf("%s type = %v, want %v", name, mf.GetType(), want.typ)
				}
				for _, metric := range mf.GetMetric() {
					var labels []string
					for _, lp := range metric.GetLabel() {
						labels = append(labels, lp.GetName())
					}
					slices.Sort(labels)
					wantLabels := slices.Sorted(slices.Values(want.labels))
					if diff := cmp.Diff(wantLabels, labels); diff != "" {
						t.Errorf("%s label names (-want +got):\n%s", name, diff)
					}
					if want.typ == dto.MetricType_HISTOGRAM {
						var bounds []float64
						for _, b := range metric.GetHistogram().GetBucket() {
							bounds = append(bounds, b.GetUpperBound())
						}
						if diff := cmp.Diff(want.buckets, bounds); diff != "" {
							t.Errorf("%s buckets (-want +got):\n%s", name, diff)
						}
					}
				}
			}
		})
	}
}

func TestValuesExposition(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := New(reg, Options{})
	if err != nil {
		t.Fatalf("New() error: %v", err)
	}
	drive(m)

	want := `
# HELP endpoint_slice_controller_changes [ALPHA] Number of EndpointSlice changes
# TYPE endpoint_slice_controller_changes counter
endpoint_slice_controller_changes{operation="create"} 2
endpoint_slice_controller_changes{operation="delete"} 1
# HELP endpoint_slice_controller_desired_endpoint_slices [BETA] Number of EndpointSlices that would exist with perfect endpoint allocation
# TYPE endpoint_slice_controller_desired_endpoint_slices gauge
endpoint_slice_controller_desired_endpoint_slices 2
# HELP endpoint_slice_controller_endpoints_desired [BETA] Number of endpoints desired
# TYPE endpoint_slice_controller_endpoints_desired gauge
endpoint_slice_controller_endpoints_desired 150
# HELP endpoint_slice_controller_endpointslices_changed_per_sync [ALPHA] Number of EndpointSlices changed on each Service sync
# TYPE endpoint_slice_controller_endpointslices_changed_per_sync histogram
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="0.005"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="0.01"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="0.025"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="0.05"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="0.1"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="0.25"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="0.5"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="1"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="2.5"} 0
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="5"} 1
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="10"} 1
endpoint_slice_controller_endpointslices_changed_per_sync_bucket{topology="Disabled",traffic_distribution="PreferClose",le="+Inf"} 1
endpoint_slice_controller_endpointslices_changed_per_sync_sum{topology="Disabled",traffic_distribution="PreferClose"} 3
endpoint_slice_controller_endpointslices_changed_per_sync_count{topology="Disabled",traffic_distribution="PreferClose"} 1
# HELP endpoint_slice_controller_num_endpoint_slices [BETA] Number of EndpointSlices
# TYPE endpoint_slice_controller_num_endpoint_slices gauge
endpoint_slice_controller_num_endpoint_slices 3
# HELP endpoint_slice_controller_services_count_by_traffic_distribution [BETA] Number of Services using some specific trafficDistribution
# TYPE endpoint_slice_controller_services_count_by_traffic_distribution gauge
endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"} 1
# HELP endpoint_slice_controller_syncs [ALPHA] Number of EndpointSlice syncs
# TYPE endpoint_slice_controller_syncs counter
endpoint_slice_controller_syncs{result="stale"} 1
endpoint_slice_controller_syncs{result="success"} 1
`
	names := []string{
		"endpoint_slice_controller_changes",
		"endpoint_slice_controller_desired_endpoint_slices",
		"endpoint_slice_controller_endpoints_desired",
		"endpoint_slice_controller_endpointslices_changed_per_sync",
		"endpoint_slice_controller_num_endpoint_slices",
		"endpoint_slice_controller_services_count_by_traffic_distribution",
		"endpoint_slice_controller_syncs",
	}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}

	// testutil.ToFloat64 does not handle histograms: check the sums.
	if got, want := histogramSampleSum(t, m.endpointsAddedPerSync), 3.0; got != want {
		t.Errorf("endpoints_added_per_sync sum = %v, want %v", got, want)
	}
	if got, want := histogramSampleSum(t, m.endpointsRemovedPerSync), 1.0; got != want {
		t.Errorf("endpoints_removed_per_sync sum = %v, want %v", got, want)
	}
}

// histogramSampleSum returns the sample sum of the only series of a histogram
// vector.
func histogramSampleSum(t *testing.T, c prometheus.Collector) float64 {
	t.Helper()
	ch := make(chan prometheus.Metric, 10)
	c.Collect(ch)
	close(ch)
	var sums []float64
	for metric := range ch {
		var pb dto.Metric
		if err := metric.Write(&pb); err != nil {
			t.Fatalf("Write() error: %v", err)
		}
		sums = append(sums, pb.GetHistogram().GetSampleSum())
	}
	if len(sums) != 1 {
		t.Fatalf("got %d series, want 1", len(sums))
	}
	return sums[0]
}

func TestNewErrors(t *testing.T) {
	t.Run("nil registerer", func(t *testing.T) {
		m, err := New(nil, Options{})
		if err == nil || m != nil {
			t.Fatalf("New(nil) = %v, %v; want nil, error", m, err)
		}
	})

	t.Run("registered twice", func(t *testing.T) {
		reg := prometheus.NewRegistry()
		if _, err := New(reg, Options{}); err != nil {
			t.Fatalf("first New() error: %v", err)
		}
		m, err := New(reg, Options{})
		if err == nil || m != nil {
			t.Fatalf("second New() = %v, %v; want nil, error", m, err)
		}
		var are prometheus.AlreadyRegisteredError
		if !errors.As(err, &are) {
			t.Errorf("second New() error %v does not wrap prometheus.AlreadyRegisteredError", err)
		}
		// Another subsystem does not conflict.
		if _, err := New(reg, Options{Subsystem: "other"}); err != nil {
			t.Errorf("New() with another subsystem error: %v", err)
		}
	})

	t.Run("conflict rolls back", func(t *testing.T) {
		reg := prometheus.NewRegistry()
		// A collector identical to a metric registered after a few others.
		// (Identical: a Registry remembers the label names and help of a
		// name even after Unregister.)
		conflicting := prometheus.NewCounterVec(prometheus.CounterOpts{
			Subsystem: DefaultSubsystem,
			Name:      "changes",
			Help:      "[ALPHA] Number of EndpointSlice changes",
		}, []string{"operation"})
		reg.MustRegister(conflicting)
		m, err := New(reg, Options{})
		if err == nil || m != nil {
			t.Fatalf("New() = %v, %v; want nil, error", m, err)
		}
		if !strings.Contains(err.Error(), "endpoint_slice_controller_changes") {
			t.Errorf("error %q does not name the metric", err)
		}
		// Nothing of the failed New stays registered: once the conflict is
		// gone, New succeeds.
		reg.Unregister(conflicting)
		if _, err := New(reg, Options{}); err != nil {
			t.Errorf("New() after removing the conflict error: %v", err)
		}
	})
}

func TestNilMetricsAndCache(t *testing.T) {
	var m *Metrics
	drive(m) // must not panic

	var c *Cache
	nn := types.NamespacedName{Namespace: "ns", Name: "svc"}
	c.UpdateServicePortCache(nn, NewServicePortCache())
	c.UpdateTrafficDistributionForService(nn, ptr.To("PreferClose"))
	c.DeleteService(nn)
}

// TestCacheGauges checks the gauges set by a Cache, with the values of
// TestNumEndpointsAndSlices, and KCM's services_count_by_traffic_distribution
// semantics.
func TestCacheGauges(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := New(reg, Options{})
	if err != nil {
		t.Fatalf("New() error: %v", err)
	}
	c := NewCache(100, m)

	expectGauges := func(desired, actual, endpoints int) {
		t.Helper()
		if got := testutil.ToFloat64(m.desiredEndpointSlices); got != float64(desired) {
			t.Errorf("desired_endpoint_slices = %v, want %d", got, desired)
		}
		if got := testutil.ToFloat64(m.numEndpointSlices); got != float64(actual) {
			t.Errorf("num_endpoint_slices = %v, want %d", got, actual)
		}
		if got := testutil.ToFloat64(m.endpointsDesired); got != float64(endpoints) {
			t.Errorf("endpoints_desired = %v, want %d", got, endpoints)
		}
	}

	efficient := NewServicePortCache()
	efficient.Set("80", EfficiencyInfo{Endpoints: 45, Slices: 1})
	efficient.Set("80,443", EfficiencyInfo{Endpoints: 35, Slices: 1})
	inefficient := NewServicePortCache()
	inefficient.Set("80", EfficiencyInfo{Endpoints: 12, Slices: 5})
	inefficient.Set("80,443", EfficiencyInfo{Endpoints: 18, Slices: 8})

	svc1 := types.NamespacedName{Namespace: "ns1", Name: "svc1"}
	svc2 := types.NamespacedName{Namespace: "ns1", Name: "svc2"}
	svc3 := types.NamespacedName{Namespace: "ns1", Name: "svc3"}

	c.UpdateServicePortCache(svc1, inefficient)
	expectGauges(2, 13, 30)
	c.UpdateServicePortCache(svc2, efficient)
	expectGauges(4, 15, 110)
	c.UpdateServicePortCache(svc3, inefficient)
	expectGauges(6, 28, 140)
	c.UpdateServicePortCache(svc1, efficient)
	expectGauges(6, 17, 190)
	c.DeleteService(svc3)
	expectGauges(4, 4, 160)

	expectTD := func(want string) {
		t.Helper()
		if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "endpoint_slice_controller_services_count_by_traffic_distribution"); err != nil {
			t.Error(err)
		}
	}
	const header = `
# HELP endpoint_slice_controller_services_count_by_traffic_distribution [BETA] Number of Services using some specific trafficDistribution
# TYPE endpoint_slice_controller_services_count_by_traffic_distribution gauge
`
	c.UpdateTrafficDistributionForService(svc1, ptr.To("PreferClose"))
	c.UpdateTrafficDistributionForService(svc2, ptr.To("PreferClose"))
	expectTD(header + `endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"} 2
`)
	c.UpdateTrafficDistributionForService(svc2, ptr.To("PreferSameNode"))
	expectTD(header + `endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"} 1
endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferSameNode"} 1
`)
	// A value keeps its series at 0 after its last service left it.
	c.UpdateTrafficDistributionForService(svc2, nil)
	expectTD(header + `endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"} 1
endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferSameNode"} 0
`)
	// Deleting a service with port groups updates the gauges.
	c.DeleteService(svc1)
	expectTD(header + `endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"} 0
endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferSameNode"} 0
`)
	// KCM quirk: deleting a service without port groups does not update the
	// gauges until the next update.
	svc4 := types.NamespacedName{Namespace: "ns2", Name: "svc4"}
	c.UpdateTrafficDistributionForService(svc4, ptr.To("PreferClose"))
	c.DeleteService(svc4)
	expectTD(header + `endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"} 1
endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferSameNode"} 0
`)
	c.UpdateServicePortCache(svc2, efficient)
	expectTD(header + `endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"} 0
endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferSameNode"} 0
`)
}
