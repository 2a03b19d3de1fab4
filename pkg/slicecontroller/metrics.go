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
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"

	"github.com/slicekit/slicekit/internal/workqueuemetrics"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	rmetrics "github.com/slicekit/slicekit/pkg/reconciler/metrics"
)

// metricsLabelController is the constant label that tells the metrics of
// several custom controllers apart.
const metricsLabelController = "controller"

// controllerMetrics are the metric families of one controller, built in
// one place (newControllerMetrics) from Options.Registerer,
// KCMMetricNames, MetricsSubsystem and SelectorRemovalMetric. Every field
// is nil without a Registerer; the methods of the metric types are
// nil-safe.
type controllerMetrics struct {
	// reconciler are the reconciler's metrics (syncs, changes, desired
	// endpoints, ...).
	reconciler *rmetrics.Metrics
	// problems are <subsystem>_pod_problems and _pod_problems_total
	// (custom controllers only).
	problems *problemMetrics
	// removals counts slices deleted because their Service selects no
	// Pods (the drop-in with SelectorRemovalMetric only).
	removals *selectorless.RemovalMetrics
	// workqueue provides the workqueue_* metrics of the Service queue.
	workqueue workqueue.MetricsProvider
	// scoped and subsystem are where the controller's own families go
	// (the incremental index's syncs-by-path counter): KCM's subsystem
	// for the drop-in, MetricsSubsystem under the controller label for a
	// custom controller.
	scoped    prometheus.Registerer
	subsystem string
}

// newControllerMetrics registers the metric families of opts (completed)
// on opts.Registerer: with KCMMetricNames KCM's names (the reconciler's
// endpoint_slice_controller_* and SelectorRemovalMetric), otherwise the
// reconciler's and the problem metrics under MetricsSubsystem, labelled
// controller=<ControllerName>; and the workqueue_* metrics in both cases.
// It returns an error naming the family that could not be registered
// (for example because it already is).
func newControllerMetrics(opts Options) (controllerMetrics, error) {
	m := controllerMetrics{subsystem: rmetrics.DefaultSubsystem}
	reg := opts.Registerer
	if reg == nil {
		return m, nil
	}
	m.scoped = reg
	if !opts.KCMMetricNames {
		m.scoped = prometheus.WrapRegistererWith(prometheus.Labels{metricsLabelController: opts.ControllerName}, reg)
		m.subsystem = opts.MetricsSubsystem
	}
	var err error
	if m.reconciler, err = rmetrics.New(m.scoped, rmetrics.Options{Subsystem: m.subsystem}); err != nil {
		return m, err
	}
	switch {
	case !opts.KCMMetricNames:
		if m.problems, err = newProblemMetrics(m.scoped, m.subsystem); err != nil {
			return m, err
		}
	case opts.SelectorRemovalMetric != "":
		if m.removals, err = selectorless.NewRemovalMetrics(reg, rmetrics.DefaultSubsystem, opts.SelectorRemovalMetric,
			"EndpointSlices this controller deleted because their Service has no selector or is of type ExternalName (kubernetes#118376), by reason."); err != nil {
			return m, err
		}
	}
	if m.workqueue, err = workqueuemetrics.New(reg); err != nil {
		return m, fmt.Errorf("registering workqueue metrics: %w", err)
	}
	return m, nil
}
