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

package servicepods

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// ServiceTriggerTimes is what KCM's trigger-time tracker remembers about
// one Service between two syncs (k8s.io/endpointslice
// util/trigger_time_tracker.go ServiceState): the Service's
// creationTimestamp and each Pod's Ready condition lastTransitionTime seen
// at the previous computation. Its methods are the tracker's rules (KCM
// behaviour C25) applied to this value; the caller keeps the value (one
// per Service; TriggerTimeTracker keeps a map of them, the Service
// controller's incremental index keeps its Service's) and must not call
// them concurrently. The zero value is a Service not seen yet.
type ServiceTriggerTimes struct {
	known   bool
	service time.Time
	pods    map[string]time.Time // by Pod name, non-zero times only
}

// Known reports whether the Service was seen (a computation was made since
// the zero value).
func (s *ServiceTriggerTimes) Known() bool { return s.known }

// Compute records svc and podTimes, the non-zero trigger times
// (PodTriggerTime) of every Pod of svc by Pod name, keeping podTimes, and
// returns the trigger time to write on the slices changed by this sync:
//   - the first time the Service is seen (zero value): its
//     creationTimestamp;
//   - afterwards: the earliest of the Pod times that are later than at the
//     previous computation (a new Pod counts) and of the Service's
//     creationTimestamp if it is later than at the previous computation;
//     the zero time when none changed (the reconciler then removes the
//     annotation from the slices it writes).
func (s *ServiceTriggerTimes) Compute(svc *corev1.Service, podTimes map[string]time.Time) time.Time {
	var minChanged time.Time
	for name, pt := range podTimes {
		if pt.After(s.pods[name]) {
			minChanged = minTime(minChanged, pt)
		}
	}
	st := svc.CreationTimestamp.Time
	if st.After(s.service) {
		minChanged = minTime(minChanged, st)
	}
	wasKnown := s.known
	*s = ServiceTriggerTimes{known: true, service: st, pods: podTimes}
	if !wasKnown {
		return st
	}
	return minChanged
}

// UpdatePods is Compute for the incremental path: changed maps the name of
// each Pod that changed since the previous computation (added, updated,
// deleted or no longer selected) to its current object, or nil when it is
// gone or no longer selected. Given that every other Pod is as at the
// previous computation, it records the same state and returns the same
// time as Compute would with every Pod, at a cost proportional to
// len(changed). It returns ok false, recording nothing, when the Service
// is not known: the caller then calls Compute with every Pod.
func (s *ServiceTriggerTimes) UpdatePods(svc *corev1.Service, changed map[string]*corev1.Pod) (time.Time, bool) {
	if !s.known {
		return time.Time{}, false
	}
	if s.pods == nil {
		s.pods = map[string]time.Time{}
	}
	var minChanged time.Time
	for name, pod := range changed {
		var pt time.Time
		if pod != nil {
			pt = PodTriggerTime(pod)
		}
		if pt.IsZero() {
			delete(s.pods, name)
			continue
		}
		if pt.After(s.pods[name]) {
			minChanged = minTime(minChanged, pt)
		}
		s.pods[name] = pt
	}
	st := svc.CreationTimestamp.Time
	if st.After(s.service) {
		minChanged = minTime(minChanged, st)
	}
	s.service = st
	return minChanged, true
}

// PodTimes returns the non-zero trigger times (PodTriggerTime) of pods by
// Pod name, the argument of Compute.
func PodTimes(pods []*corev1.Pod) map[string]time.Time {
	podTimes := make(map[string]time.Time, len(pods))
	for _, pod := range pods {
		if pt := PodTriggerTime(pod); !pt.IsZero() {
			podTimes[pod.Name] = pt
		}
	}
	return podTimes
}

// TriggerTimeTracker computes the value of the
// endpoints.kubernetes.io/last-change-trigger-time annotation (KCM behaviour
// C25; k8s.io/endpointslice util/trigger_time_tracker.go, same algorithm):
// a ServiceTriggerTimes per Service.
//
// Like KCM's, it may compute a wrong time when the same object changes
// several times between two syncs. It is safe for concurrent use on
// different Services; calls for the same Service must not overlap (a
// workqueue guarantees that). The zero value is not usable; call
// NewTriggerTimeTracker.
type TriggerTimeTracker struct {
	mu     sync.Mutex
	states map[types.NamespacedName]*ServiceTriggerTimes
}

// NewTriggerTimeTracker returns an empty tracker.
func NewTriggerTimeTracker() *TriggerTimeTracker {
	return &TriggerTimeTracker{states: map[types.NamespacedName]*ServiceTriggerTimes{}}
}

// state returns the Service's state, creating it.
func (t *TriggerTimeTracker) state(namespace, name string) *ServiceTriggerTimes {
	key := types.NamespacedName{Namespace: namespace, Name: name}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.states[key]
	if s == nil {
		s = &ServiceTriggerTimes{}
		t.states[key] = s
	}
	return s
}

// ComputeEndpointLastChangeTriggerTime records the state of service (in
// namespace) and pods, and returns the trigger time to write on the slices
// changed by this sync (ServiceTriggerTimes.Compute; the first time the
// Service is seen, or after DeleteService, its creationTimestamp).
func (t *TriggerTimeTracker) ComputeEndpointLastChangeTriggerTime(namespace string, service *corev1.Service, pods []*corev1.Pod) time.Time {
	return t.state(namespace, service.Name).Compute(service, PodTimes(pods))
}

// UpdatePods is the per-Pod entry point of ComputeEndpointLastChangeTriggerTime
// (ServiceTriggerTimes.UpdatePods): ok false, recording nothing, when the
// Service is not known (first call, or after DeleteService).
func (t *TriggerTimeTracker) UpdatePods(namespace string, service *corev1.Service, changed map[string]*corev1.Pod) (time.Time, bool) {
	return t.state(namespace, service.Name).UpdatePods(service, changed)
}

// DeleteService forgets the Service namespace/name; call it when the
// Service is gone.
func (t *TriggerTimeTracker) DeleteService(namespace, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.states, types.NamespacedName{Namespace: namespace, Name: name})
}

// PodTriggerTime is the lastTransitionTime of pod's Ready condition, or
// the zero time (KCM util/trigger_time_tracker.go getPodTriggerTime).
func PodTriggerTime(pod *corev1.Pod) time.Time {
	if c := podendpoint.PodReadyCondition(&pod.Status); c != nil {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

// minTime returns the earlier of cur and t, or t when cur is zero.
func minTime(cur, t time.Time) time.Time {
	if cur.IsZero() || t.Before(cur) {
		return t
	}
	return cur
}
