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

package kubernetes

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func slice(name string, eps ...discovery.Endpoint) discovery.EndpointSlice {
	return discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{discovery.LabelServiceName: "web", discovery.LabelManagedBy: "ctrl"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: "web", UID: "u", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}},
		Endpoints: eps,
	}
}

func endpoint(addr, pod string, ready bool) discovery.Endpoint {
	return discovery.Endpoint{Addresses: []string{addr}, TargetRef: &corev1.ObjectReference{Kind: "Pod", Name: pod},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(ready), Serving: ptr.To(ready), Terminating: ptr.To(false)}}
}

func TestEndpointsDiff(t *testing.T) {
	a := endpoint("10.0.0.1", "a", true)
	b := endpoint("10.0.0.2", "b", false)
	tests := []struct {
		name string
		got  []discovery.EndpointSlice
		want []Endpoint
		diff string
	}{
		{"equal", []discovery.EndpointSlice{slice("s1", a), slice("s2", b)}, []Endpoint{{Address: "10.0.0.1", Pod: "a", Ready: ptr.To(true)}, {Address: "10.0.0.2"}}, ""},
		{"none wanted, placeholder", []discovery.EndpointSlice{slice("s1")}, nil, ""},
		{"missing", []discovery.EndpointSlice{slice("s1", a)}, []Endpoint{{Address: "10.0.0.1"}, {Address: "10.0.0.2"}}, "missing 10.0.0.2"},
		{"unexpected", []discovery.EndpointSlice{slice("s1", a, b)}, []Endpoint{{Address: "10.0.0.1"}}, "unexpected 10.0.0.2 (slice s1)"},
		{"twice", []discovery.EndpointSlice{slice("s1", a), slice("s2", a)}, []Endpoint{{Address: "10.0.0.1"}}, "10.0.0.1 published 2 times"},
		{"wrong pod", []discovery.EndpointSlice{slice("s1", a)}, []Endpoint{{Address: "10.0.0.1", Pod: "x"}}, "targetRef Pod /a, want Pod x"},
		{"wrong condition", []discovery.EndpointSlice{slice("s1", b)}, []Endpoint{{Address: "10.0.0.2", Ready: ptr.To(true), Terminating: ptr.To(false)}}, "10.0.0.2: ready=false, want true"},
		{"unset condition", []discovery.EndpointSlice{slice("s1", discovery.Endpoint{Addresses: []string{"10.0.0.3"}})}, []Endpoint{{Address: "10.0.0.3", Serving: ptr.To(true)}}, "serving=<unset>, want true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EndpointsDiff(tc.got, tc.want)
			if (tc.diff == "") != (got == "") || !strings.Contains(got, tc.diff) {
				t.Errorf("EndpointsDiff = %q, want %q", got, tc.diff)
			}
		})
	}
}

func TestOwnershipError(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "u"}}
	good := slice("s1")
	tests := []struct {
		name   string
		mutate func(*discovery.EndpointSlice)
		want   string
	}{
		{"owned", func(*discovery.EndpointSlice) {}, ""},
		{"no owner", func(s *discovery.EndpointSlice) { s.OwnerReferences = nil }, "0 controller ownerReferences"},
		{"stale uid", func(s *discovery.EndpointSlice) { s.OwnerReferences[0].UID = "old" }, "uid old, want v1 Service web uid u"},
		{"not blocking", func(s *discovery.EndpointSlice) { s.OwnerReferences[0].BlockOwnerDeletion = nil }, "does not block owner deletion"},
		{"wrong manager", func(s *discovery.EndpointSlice) { s.Labels[discovery.LabelManagedBy] = "x" }, "managed-by=\"x\""},
		{"wrong service", func(s *discovery.EndpointSlice) { s.Labels[discovery.LabelServiceName] = "x" }, "service-name=\"x\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := *good.DeepCopy()
			tc.mutate(&s)
			err := OwnershipError([]discovery.EndpointSlice{s}, svc, "ctrl")
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("OwnershipError = %v, want %q", err, tc.want)
			}
		})
	}
	if err := OwnershipError(nil, svc, "ctrl"); err == nil {
		t.Error("OwnershipError(no slices) = nil")
	}
}

func TestPortsString(t *testing.T) {
	got := portsString([]Port{{Name: "b", Port: 2}, {Name: "a", Port: 1, Protocol: corev1.ProtocolUDP}})
	if got != "[a:1/UDP b:2/TCP]" {
		t.Errorf("portsString = %q", got)
	}
	if got := portsString(nil); got != "[]" {
		t.Errorf("portsString(nil) = %q", got)
	}
}
