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
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/source"
)

// problemMetrics count the Problems of the controller. A nil
// *problemMetrics records nothing.
type problemMetrics struct {
	standing *prometheus.GaugeVec
	total    *prometheus.CounterVec
}

// newProblemMetrics registers <subsystem>_pod_problems and
// <subsystem>_pod_problems_total on reg; on failure it unregisters what it
// registered.
func newProblemMetrics(reg prometheus.Registerer, subsystem string) (*problemMetrics, error) {
	m := &problemMetrics{
		standing: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Subsystem: subsystem,
			Name:      "pod_problems",
			Help:      "[ALPHA] Number of Pods (and Services) currently left out of, or with an address taken away from, the EndpointSlices of a Service, by reason.",
		}, []string{"reason"}),
		total: prometheus.NewCounterVec(prometheus.CounterOpts{
			Subsystem: subsystem,
			Name:      "pod_problems_total",
			Help:      "[ALPHA] Number of Pod (and Service) problems that appeared, by reason; each is also a Warning event on the Service.",
		}, []string{"reason"}),
	}
	if err := reg.Register(m.standing); err != nil {
		return nil, fmt.Errorf("registering %s_pod_problems: %w", subsystem, err)
	}
	if err := reg.Register(m.total); err != nil {
		reg.Unregister(m.standing)
		return nil, fmt.Errorf("registering %s_pod_problems_total: %w", subsystem, err)
	}
	return m, nil
}

func (m *problemMetrics) appeared(reason string) {
	if m != nil {
		m.total.WithLabelValues(reason).Inc()
		m.standing.WithLabelValues(reason).Inc()
	}
}

func (m *problemMetrics) resolved(reason string) {
	if m != nil {
		m.standing.WithLabelValues(reason).Dec()
	}
}

// problemReporter turns Problems into Warning events on the Service and
// into metrics, once per appearance: it remembers, per Service, the
// Problems of the previous sync, and reports only those that are new. A
// Problem that disappears and comes back is reported again. Events are on
// the Service (and, for an address guard's refusals, on the Pod as well),
// not only the Pod, because the Service's owner is the one looking
// for missing endpoints (kubectl describe service), several Services may
// select one Pod, and Pods come and go.
type problemReporter struct {
	recorder record.EventRecorder
	metrics  *problemMetrics

	mu        sync.Mutex
	byService map[string]map[source.Problem]struct{}
}

func newProblemReporter(rec record.EventRecorder, m *problemMetrics) *problemReporter {
	return &problemReporter{recorder: rec, metrics: m, byService: map[string]map[source.Problem]struct{}{}}
}

// report records the Problems of one sync of svc.
func (r *problemReporter) report(ctx context.Context, svc *corev1.Service, problems []source.Problem) {
	key := svc.Namespace + "/" + svc.Name
	cur := make(map[source.Problem]struct{}, len(problems))
	for _, p := range problems {
		cur[p] = struct{}{}
	}
	r.mu.Lock()
	prev := r.byService[key]
	if len(cur) == 0 {
		delete(r.byService, key)
	} else {
		r.byService[key] = cur
	}
	r.mu.Unlock()

	logger := klog.FromContext(ctx)
	for p := range prev {
		if _, ok := cur[p]; !ok {
			r.metrics.resolved(p.Reason)
			logger.V(2).Info("Endpoint problem resolved", "service", klog.KObj(svc), "reason", p.Reason, "pod", p.Pod.String())
		}
	}
	// Report in a stable order (problems come in pod order), each once.
	reported := map[source.Problem]bool{}
	for _, p := range problems {
		if _, ok := prev[p]; ok || reported[p] {
			continue
		}
		reported[p] = true
		r.metrics.appeared(p.Reason)
		logger.V(2).Info("Endpoint problem", "service", klog.KObj(svc), "reason", p.Reason, "pod", p.Pod.String(), "message", p.Message)
		r.recorder.Eventf(svc, corev1.EventTypeWarning, p.Reason, "%s", p.Message)
		if source.IsRefusal(p.Reason) && p.Pod.Name != "" {
			// An address guard's refusal: the Pod claimed an address no Pod
			// may have; its owner sees it on the Pod too.
			r.recorder.Eventf(podRef(p.Pod.Namespace, p.Pod.Name), corev1.EventTypeWarning, p.Reason, "%s", p.Message)
		}
	}
}

// podRef is the event target of a Pod known by namespace and name.
func podRef(namespace, name string) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Namespace: namespace, Name: name}
}

// forget drops the Problems of the Service namespace/name (it is gone or
// no longer handled), resolving them in the metrics.
func (r *problemReporter) forget(namespace, name string) {
	key := namespace + "/" + name
	r.mu.Lock()
	prev := r.byService[key]
	delete(r.byService, key)
	r.mu.Unlock()
	for p := range prev {
		r.metrics.resolved(p.Reason)
	}
}

// current returns the standing Problems of the Service namespace/name,
// sorted by pod then reason (for tests and debugging).
func (r *problemReporter) current(namespace, name string) []source.Problem {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []source.Problem
	for p := range r.byService[namespace+"/"+name] {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pod != out[j].Pod {
			return out[i].Pod.String() < out[j].Pod.String()
		}
		if out[i].Reason != out[j].Reason {
			return out[i].Reason < out[j].Reason
		}
		return out[i].Message < out[j].Message
	})
	return out
}
