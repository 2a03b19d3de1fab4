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

package selectorless

import (
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	// UpstreamIssue names the open upstream bug this package answers.
	UpstreamIssue = "kubernetes#118376"

	// ReasonEndpointSlicesRemoved (Normal, on the Service) is recorded when
	// slices were deleted because the Service selects no Pods any more; the
	// message names the reason (no selector, ExternalName).
	ReasonEndpointSlicesRemoved = "EndpointSlicesRemoved"
	// ReasonEndpointsRemoved (Normal, on the Service) is the Endpoints
	// counterpart of ReasonEndpointSlicesRemoved.
	ReasonEndpointsRemoved = "EndpointsRemoved"
)

// Reason values of SelectsNoPods, also the "reason" label of the removal
// metrics.
const (
	ReasonNoSelector   = "no-selector"
	ReasonExternalName = "external-name"
)

// SelectsNoPods reports whether svc selects no Pods for the built-in
// controllers: it is of type ExternalName (checked first, as KCM's
// syncService does) or has no spec.selector. reason is ReasonExternalName
// or ReasonNoSelector, why the same in words for Events and logs; both are
// "" when svc selects Pods. A nil svc selects nothing for no reason ("").
func SelectsNoPods(svc *corev1.Service) (ok bool, reason, why string) {
	switch {
	case svc == nil:
		return false, "", ""
	case svc.Spec.Type == corev1.ServiceTypeExternalName:
		return true, ReasonExternalName, "the Service is of type ExternalName"
	case svc.Spec.Selector == nil:
		return true, ReasonNoSelector, "the Service has no selector"
	}
	return false, "", ""
}

// ParseSelector returns the Pod selector of the selectorless form: the
// value of wellknown.AnnotationSelector on svc parsed with labels.Parse (equality
// and set-based requirements: "app=m", "tier in (a,b)", "!canary", ...).
// present is false when svc lacks the annotation; then sel and err are nil.
// An annotation that does not parse, or that is empty or only whitespace
// (which would select every Pod of the namespace), is an error; so is a
// selector with more than MaxRequirements requirements. ParseSelector never
// panics on any input.
func ParseSelector(svc *corev1.Service) (sel labels.Selector, present bool, err error) {
	if svc == nil {
		return nil, false, nil
	}
	raw, ok := svc.Annotations[wellknown.AnnotationSelector]
	if !ok {
		return nil, false, nil
	}
	sel, err = Parse(raw)
	return sel, true, err
}

// MaxRequirements bounds the requirements of a selector annotation, so that
// a hostile annotation cannot make every Pod event costly.
const MaxRequirements = 64

// Parse parses s as the value of wellknown.AnnotationSelector (see ParseSelector).
func Parse(s string) (labels.Selector, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("annotation %s is empty; it would select every Pod of the namespace", wellknown.AnnotationSelector)
	}
	sel, err := labels.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("annotation %s %q is not a label selector: %w", wellknown.AnnotationSelector, s, err)
	}
	reqs, selectable := sel.Requirements()
	if !selectable || sel.Empty() {
		return nil, fmt.Errorf("annotation %s %q selects every Pod of the namespace", wellknown.AnnotationSelector, s)
	}
	if len(reqs) > MaxRequirements {
		return nil, fmt.Errorf("annotation %s has %d requirements, more than %d", wellknown.AnnotationSelector, len(reqs), MaxRequirements)
	}
	return sel, nil
}

// RemovalMetrics counts what the selector-removal rule did, by reason
// (ReasonNoSelector, ReasonExternalName). A nil *RemovalMetrics counts
// nothing.
type RemovalMetrics struct {
	counter *prometheus.CounterVec
}

// NewRemovalMetrics registers <subsystem>_<name>_total{reason} on reg with
// help; nil reg returns nil (no metrics). It returns the registration
// error, for instance when the metric is already registered.
func NewRemovalMetrics(reg prometheus.Registerer, subsystem, name, help string) (*RemovalMetrics, error) {
	if reg == nil {
		return nil, nil
	}
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Subsystem: subsystem,
		Name:      name + "_total",
		Help:      help,
	}, []string{"reason"})
	if err := reg.Register(c); err != nil {
		return nil, fmt.Errorf("registering %s_%s_total: %w", subsystem, name, err)
	}
	return &RemovalMetrics{counter: c}, nil
}

// Add adds n to the counter of reason; nil-safe.
func (m *RemovalMetrics) Add(reason string, n int) {
	if m == nil || m.counter == nil || n <= 0 {
		return
	}
	m.counter.WithLabelValues(reason).Add(float64(n))
}
