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
)

// TriggerTimeTracker computes the value of the
// endpoints.kubernetes.io/last-change-trigger-time annotation (KCM behaviour
// C25; k8s.io/endpointslice util/trigger_time_tracker.go, same algorithm).
// It remembers, per Service, the Service's creationTimestamp and each Pod's
// Ready condition lastTransitionTime seen at the previous call.
//
// Like KCM's, it may compute a wrong time when the same object changes
// several times between two syncs. It is safe for concurrent use on
// different Services; calls for the same Service must not overlap (a
// workqueue guarantees that). The zero value is not usable; call
// NewTriggerTimeTracker.
type TriggerTimeTracker struct {
	mu     sync.Mutex
	states map[types.NamespacedName]serviceState
}

// serviceState is what the tracker saw at the previous call for a Service.
type serviceState struct {
	lastServiceTriggerTime time.Time
	lastPodTriggerTimes    map[string]time.Time // by pod name
}

// NewTriggerTimeTracker returns an empty tracker.
func NewTriggerTimeTracker() *TriggerTimeTracker {
	return &TriggerTimeTracker{states: map[types.NamespacedName]serviceState{}}
}

// ComputeEndpointLastChangeTriggerTime records the state of service (in
// namespace) and pods, and returns the trigger time to write on the slices
// changed by this sync:
//   - the first time the Service is seen (or after DeleteService): its
//     creationTimestamp;
//   - afterwards: the earliest of the Ready-condition lastTransitionTimes
//     that are later than at the previous call (pods without a Ready
//     condition, or with a zero time, do not count; a new pod counts) and of
//     the Service's creationTimestamp if it is later than at the previous
//     call; the zero time when none changed (the reconciler then removes
//     the annotation from the slices it writes).
func (t *TriggerTimeTracker) ComputeEndpointLastChangeTriggerTime(namespace string, service *corev1.Service, pods []*corev1.Pod) time.Time {
	podTimes := make(map[string]time.Time, len(pods))
	for _, pod := range pods {
		if pt := podTriggerTime(pod); !pt.IsZero() {
			podTimes[pod.Name] = pt
		}
	}
	return t.computeFromPodTimes(namespace, service, podTimes)
}

// computeFromPodTimes is ComputeEndpointLastChangeTriggerTime given the
// Pods' non-zero trigger times by Pod name (podTriggerTime); it keeps
// podTimes as the Service's state.
func (t *TriggerTimeTracker) computeFromPodTimes(namespace string, service *corev1.Service, podTimes map[string]time.Time) time.Time {
	key := types.NamespacedName{Namespace: namespace, Name: service.Name}
	t.mu.Lock()
	state, wasKnown := t.states[key]
	t.mu.Unlock()

	var minChanged time.Time
	for name, pt := range podTimes {
		if pt.After(state.lastPodTriggerTimes[name]) {
			minChanged = minTime(minChanged, pt)
		}
	}
	st := service.CreationTimestamp.Time
	if st.After(state.lastServiceTriggerTime) {
		minChanged = minTime(minChanged, st)
	}

	t.mu.Lock()
	t.states[key] = serviceState{lastServiceTriggerTime: st, lastPodTriggerTimes: podTimes}
	t.mu.Unlock()

	if !wasKnown {
		return service.CreationTimestamp.Time
	}
	return minChanged
}

// UpdatePods is the per-Pod entry point of ComputeEndpointLastChangeTriggerTime
// for the incremental path: changed maps the name of each Pod that changed
// since the previous call for service (added, updated, deleted or no
// longer selected) to its current object, or nil when it is gone or no
// longer selected. Given that every other Pod is as at the previous call,
// it records the same state and returns the same time as
// ComputeEndpointLastChangeTriggerTime would with the whole list of Pods,
// at a cost proportional to len(changed). It returns ok false, recording
// nothing, when the Service is not known (first call, or after
// DeleteService): the caller then calls ComputeEndpointLastChangeTriggerTime
// with every Pod.
func (t *TriggerTimeTracker) UpdatePods(namespace string, service *corev1.Service, changed map[string]*corev1.Pod) (time.Time, bool) {
	key := types.NamespacedName{Namespace: namespace, Name: service.Name}
	t.mu.Lock()
	defer t.mu.Unlock()
	state, known := t.states[key]
	if !known {
		return time.Time{}, false
	}
	if state.lastPodTriggerTimes == nil {
		state.lastPodTriggerTimes = map[string]time.Time{}
	}
	var minChanged time.Time
	for name, pod := range changed {
		var pt time.Time
		if pod != nil {
			pt = podTriggerTime(pod)
		}
		if pt.IsZero() {
			delete(state.lastPodTriggerTimes, name)
			continue
		}
		if pt.After(state.lastPodTriggerTimes[name]) {
			minChanged = minTime(minChanged, pt)
		}
		state.lastPodTriggerTimes[name] = pt
	}
	st := service.CreationTimestamp.Time
	if st.After(state.lastServiceTriggerTime) {
		minChanged = minTime(minChanged, st)
	}
	state.lastServiceTriggerTime = st
	t.states[key] = state
	return minChanged, true
}

// DeleteService forgets the Service namespace/name; call it when the
// Service is gone.
func (t *TriggerTimeTracker) DeleteService(namespace, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.states, types.NamespacedName{Namespace: namespace, Name: name})
}

// podTriggerTime is the lastTransitionTime of the pod's Ready condition, or
// the zero time.
func podTriggerTime(pod *corev1.Pod) time.Time {
	if c := podReadyCondition(&pod.Status); c != nil {
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
