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
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// MetricsSubsystem is the Prometheus subsystem of this controller's metrics:
// KCM's EndpointSliceMirroringSubsystem
// (pkg/controller/endpointslicemirroring/metrics metrics.go).
const MetricsSubsystem = "endpoint_slice_mirroring_controller"

// mirroringMetrics are the metrics of KCM's mirroring controller that the
// reconciler's metrics (pkg/reconciler/metrics) do not have:
//
//	endpoint_slice_mirroring_controller_endpoints_updated_per_sync   histogram, buckets 2..32768 (×2)
//	endpoint_slice_mirroring_controller_addresses_skipped_per_sync   histogram, buckets 2..32768 (×2)
//	endpoint_slice_mirroring_controller_endpoints_sync_duration      histogram, buckets 0.001..16.384 (×2)
//
// Names, help texts (with component-base's "[ALPHA] " prefix), labels (none)
// and buckets are KCM's. A nil *mirroringMetrics records nothing.
type mirroringMetrics struct {
	endpointsUpdatedPerSync *prometheus.HistogramVec
	addressesSkippedPerSync *prometheus.HistogramVec
	endpointsSyncDuration   *prometheus.HistogramVec
}

// newMirroringMetrics registers the mirroring-only metrics on reg; on
// failure it unregisters what it registered and returns the error.
func newMirroringMetrics(reg prometheus.Registerer) (*mirroringMetrics, error) {
	perSync := prometheus.ExponentialBuckets(2, 2, 15)
	h := func(name, help string, buckets []float64) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Subsystem: MetricsSubsystem,
			Name:      name,
			Help:      "[ALPHA] " + help,
			Buckets:   buckets,
		}, []string{})
	}
	m := &mirroringMetrics{
		endpointsUpdatedPerSync: h("endpoints_updated_per_sync", "Number of endpoints updated on each Endpoints sync", perSync),
		addressesSkippedPerSync: h("addresses_skipped_per_sync", "Number of addresses skipped on each Endpoints sync due to being invalid or exceeding MaxEndpointsPerSubset", perSync),
		endpointsSyncDuration:   h("endpoints_sync_duration", "Duration of syncEndpoints() in seconds", prometheus.ExponentialBuckets(0.001, 2, 15)),
	}
	collectors := []prometheus.Collector{m.endpointsUpdatedPerSync, m.addressesSkippedPerSync, m.endpointsSyncDuration}
	for i, c := range collectors {
		if err := reg.Register(c); err != nil {
			for _, done := range collectors[:i] {
				reg.Unregister(done)
			}
			return nil, fmt.Errorf("registering mirroring metrics: %w", err)
		}
	}
	return m, nil
}

func (m *mirroringMetrics) observeUpdated(n int) {
	if m != nil {
		m.endpointsUpdatedPerSync.WithLabelValues().Observe(float64(n))
	}
}

func (m *mirroringMetrics) observeSkipped(n int) {
	if m != nil {
		m.addressesSkippedPerSync.WithLabelValues().Observe(float64(n))
	}
}

func (m *mirroringMetrics) observeSyncDuration(d time.Duration) {
	if m != nil {
		// KCM: float64(time.Since(startTime).Milliseconds()) / 1000.
		m.endpointsSyncDuration.WithLabelValues().Observe(float64(d.Milliseconds()) / 1000)
	}
}
