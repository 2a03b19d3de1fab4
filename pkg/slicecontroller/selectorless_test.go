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
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// selectorlessForm turns a Service into the selectorless form with the
// given annotation.
func selectorlessForm(annotation string) func(*corev1.Service) {
	return func(s *corev1.Service) {
		s.Spec.Selector = nil
		s.Annotations = map[string]string{wellknown.AnnotationSelector: annotation}
	}
}

// TestSelectorlessForm: a labelled Service without spec.selector selects
// its Pods by the slicekit.dev/selector annotation (set-based included,
// same namespace only); spec.selector, when present, wins; an invalid
// annotation keeps the slices as they are with one Warning InvalidSelector
// event and the problem metric, until it is fixed.
func TestSelectorlessForm(t *testing.T) {
	other := pod("p-other-ns", "svc", "10.1.0.9")
	other.Namespace = "elsewhere"
	f := newFixture(t, Options{},
		service("svc", selectorlessForm("app in (svc,blue),!canary")),
		pod("p1", "svc", "10.1.0.1"),
		pod("p2", "blue", "10.1.0.2"),
		pod("p3", "svc", "10.1.0.3", func(p *corev1.Pod) { p.Labels["canary"] = "1" }),
		pod("p4", "green", "10.1.0.4"),
		other,
	)
	f.mustSync("svc")
	if d := cmp.Diff([]string{"IPv4:10.1.0.1", "IPv4:10.1.0.2"}, addresses(f.slices("svc"))); d != "" {
		t.Fatalf("selected by the annotation (-want +got):\n%s", d)
	}

	// An invalid annotation: slices kept, one Warning event, the metric.
	f.events()
	f.add(service("svc", selectorlessForm("app in (svc")))
	for range 2 {
		f.mustSync("svc")
		if w := f.writes(); len(w) != 0 {
			t.Errorf("an invalid selector wrote %v; the slices must stay", w)
		}
	}
	if ev := f.events(); len(ev) != 1 || !strings.HasPrefix(ev[0], "Warning "+ReasonInvalidSelector) || !strings.Contains(ev[0], wellknown.AnnotationSelector) {
		t.Errorf("events = %q, want one Warning %s naming the annotation", ev, ReasonInvalidSelector)
	}
	if got := f.metric(DefaultMetricsSubsystem+"_pod_problems", map[string]string{"reason": ReasonInvalidSelector}); got != 1 {
		t.Errorf("pod_problems{reason=InvalidSelector} = %v, want 1", got)
	}
	if d := cmp.Diff([]string{"IPv4:10.1.0.1", "IPv4:10.1.0.2"}, addresses(f.slices("svc"))); d != "" {
		t.Errorf("slices changed (-want +got):\n%s", d)
	}

	// Fixed: the problem resolves, the new selector applies.
	f.add(service("svc", selectorlessForm("app=green")))
	f.mustSync("svc")
	if d := cmp.Diff([]string{"IPv4:10.1.0.4"}, addresses(f.slices("svc"))); d != "" {
		t.Errorf("after the fix (-want +got):\n%s", d)
	}
	if got := f.metric(DefaultMetricsSubsystem+"_pod_problems", map[string]string{"reason": ReasonInvalidSelector}); got != 0 {
		t.Errorf("pod_problems{reason=InvalidSelector} = %v after the fix, want 0", got)
	}

	// spec.selector wins over the annotation.
	f.add(service("svc", selectorlessForm("app=green"), func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "blue"} }))
	f.mustSync("svc")
	if d := cmp.Diff([]string{"IPv4:10.1.0.2"}, addresses(f.slices("svc"))); d != "" {
		t.Errorf("spec.selector and the annotation (-want +got):\n%s", d)
	}

	// Neither selector nor annotation (the selector removed while
	// labelled): the slices go (kubernetes#118376), with an event.
	f.events()
	f.add(service("svc", func(s *corev1.Service) { s.Spec.Selector = nil }))
	f.mustSync("svc")
	if d := cmp.Diff([]string{"delete"}, f.writes()); d != "" {
		t.Errorf("selector removed while labelled (-want +got):\n%s", d)
	}
	if ev := f.events(); len(ev) != 1 || !strings.HasPrefix(ev[0], "Normal "+selectorless.ReasonEndpointSlicesRemoved) || !strings.Contains(ev[0], "no selector") {
		t.Errorf("events = %q", ev)
	}
	// ExternalName with the annotation: selects nothing, nothing left.
	f.add(service("svc", selectorlessForm("app=green"), func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }))
	f.mustSync("svc")
	if w := f.writes(); len(w) != 0 {
		t.Errorf("an ExternalName Service wrote %v", w)
	}
}

// TestSelectorRemovalGateOff: with SelectorRemovalCleanup off, a labelled
// Service whose selector was removed (or that became ExternalName) keeps
// this controller's slices, as KCM keeps its own (C11); with it on they go,
// and come back with the selector.
func TestSelectorRemovalGateOff(t *testing.T) {
	for _, gate := range []bool{false, true} {
		for _, way := range []func(*corev1.Service){
			func(s *corev1.Service) { s.Spec.Selector = nil },
			func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName },
		} {
			f := newFixture(t, Options{Common: Common{SelectorRemovalCleanup: &gate}}, service("svc"), pod("p1", "svc", "10.1.0.1"))
			f.mustSync("svc")
			f.add(service("svc", way))
			f.mustSync("svc")
			if got := len(f.slices("svc")) == 0; got != gate {
				t.Errorf("gate %v: slices deleted = %v", gate, got)
			}
			f.add(service("svc"))
			f.mustSync("svc")
			if d := cmp.Diff([]string{"IPv4:10.1.0.1"}, addresses(f.slices("svc"))); d != "" {
				t.Errorf("gate %v, selector back (-want +got):\n%s", gate, d)
			}
		}
	}
}

// TestSelectorlessPodEvents: Pod changes queue the Services that select
// the Pod by annotation, and only labelled ones.
func TestSelectorlessPodEvents(t *testing.T) {
	f := newFixture(t, Options{},
		service("svc", selectorlessForm("tier=web")),
		service("bad", selectorlessForm("tier in (")),
		service("plain", selectorlessForm("tier=web"), func(s *corev1.Service) { s.Labels = nil }),
	)
	q := f.c.serviceQueue
	p := pod("p1", "x", "10.1.0.1", func(p *corev1.Pod) { p.Labels["tier"] = "web" })
	f.c.onPodUpdate(nil, p)
	key, _ := f.c.podQueue.Get()
	if err := f.c.syncPod(key); err != nil {
		t.Fatal(err)
	}
	f.c.podQueue.Done(key)
	var got []string
	for q.Len() > 0 {
		k, _ := q.Get()
		got = append(got, k)
		q.Done(k)
	}
	if d := cmp.Diff([]string{testNS + "/svc"}, got); d != "" {
		t.Errorf("queued Services (-want +got):\n%s", d)
	}
}
