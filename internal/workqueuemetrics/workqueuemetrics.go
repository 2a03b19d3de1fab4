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

// Package workqueuemetrics provides client-go workqueue metrics with KCM's
// names on an injected Prometheus registerer, shared by slicekit's
// controllers.
package workqueuemetrics

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"
)

// Provider is a workqueue.MetricsProvider that registers KCM's
// workqueue metrics (k8s.io/component-base/metrics/prometheus/workqueue:
// workqueue_depth, workqueue_adds_total, workqueue_queue_duration_seconds,
// workqueue_work_duration_seconds, workqueue_unfinished_work_seconds,
// workqueue_longest_running_processor_seconds, workqueue_retries_total, all
// labelled name) on an injected registerer instead of the global legacy
// registry. When another provider already registered identical collectors
// on the same registerer (another controller of the same manager), those are
// reused.
type Provider struct {
	depth, unfinished, longestRunning *prometheus.GaugeVec
	adds, retries                     *prometheus.CounterVec
	latency, workDuration             *prometheus.HistogramVec
}

var _ workqueue.MetricsProvider = (*Provider)(nil)

// New registers the workqueue metrics on reg and returns the provider
// to pass to workqueue.NewTypedRateLimitingQueueWithConfig; it returns
// the registration error of a conflicting collector. Help texts
// carry component-base's "[BETA] " prefix, as KCM exposes them.
func New(reg prometheus.Registerer) (*Provider, error) {
	const subsystem = "workqueue"
	labels := []string{"name"}
	buckets := prometheus.ExponentialBuckets(10e-9, 10, 10)
	m := &Provider{
		depth: prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: subsystem, Name: "depth",
			Help: "[BETA] Current depth of workqueue"}, labels),
		adds: prometheus.NewCounterVec(prometheus.CounterOpts{Subsystem: subsystem, Name: "adds_total",
			Help: "[BETA] Total number of adds handled by workqueue"}, labels),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Subsystem: subsystem, Name: "queue_duration_seconds",
			Help: "[BETA] How long in seconds an item stays in workqueue before being requested.", Buckets: buckets}, labels),
		workDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Subsystem: subsystem, Name: "work_duration_seconds",
			Help: "[BETA] How long in seconds processing an item from workqueue takes.", Buckets: buckets}, labels),
		unfinished: prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: subsystem, Name: "unfinished_work_seconds",
			Help: "[BETA] How many seconds of work has done that is in progress and hasn't been observed by work_duration. " +
				"Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases."}, labels),
		longestRunning: prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: subsystem, Name: "longest_running_processor_seconds",
			Help: "[BETA] How many seconds has the longest running processor for workqueue been running."}, labels),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{Subsystem: subsystem, Name: "retries_total",
			Help: "[BETA] Total number of retries handled by workqueue"}, labels),
	}
	var err error
	if m.depth, err = RegisterOrReuse(reg, m.depth); err != nil {
		return nil, err
	}
	if m.adds, err = RegisterOrReuse(reg, m.adds); err != nil {
		return nil, err
	}
	if m.latency, err = RegisterOrReuse(reg, m.latency); err != nil {
		return nil, err
	}
	if m.workDuration, err = RegisterOrReuse(reg, m.workDuration); err != nil {
		return nil, err
	}
	if m.unfinished, err = RegisterOrReuse(reg, m.unfinished); err != nil {
		return nil, err
	}
	if m.longestRunning, err = RegisterOrReuse(reg, m.longestRunning); err != nil {
		return nil, err
	}
	if m.retries, err = RegisterOrReuse(reg, m.retries); err != nil {
		return nil, err
	}
	return m, nil
}

// RegisterOrReuse registers c on reg, or returns the identical collector
// already registered there.
func RegisterOrReuse[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	if err == nil {
		return c, nil
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing, nil
		}
	}
	return c, err
}

// NewDepthMetric implements workqueue.MetricsProvider.
func (m *Provider) NewDepthMetric(name string) workqueue.GaugeMetric {
	return m.depth.WithLabelValues(name)
}

// NewAddsMetric implements workqueue.MetricsProvider.
func (m *Provider) NewAddsMetric(name string) workqueue.CounterMetric {
	return m.adds.WithLabelValues(name)
}

// NewLatencyMetric implements workqueue.MetricsProvider.
func (m *Provider) NewLatencyMetric(name string) workqueue.HistogramMetric {
	return m.latency.WithLabelValues(name)
}

// NewWorkDurationMetric implements workqueue.MetricsProvider.
func (m *Provider) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	return m.workDuration.WithLabelValues(name)
}

// NewUnfinishedWorkSecondsMetric implements workqueue.MetricsProvider.
func (m *Provider) NewUnfinishedWorkSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return m.unfinished.WithLabelValues(name)
}

// NewLongestRunningProcessorSecondsMetric implements workqueue.MetricsProvider.
func (m *Provider) NewLongestRunningProcessorSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return m.longestRunning.WithLabelValues(name)
}

// NewRetriesMetric implements workqueue.MetricsProvider.
func (m *Provider) NewRetriesMetric(name string) workqueue.CounterMetric {
	return m.retries.WithLabelValues(name)
}
