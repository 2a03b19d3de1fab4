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

package delegation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

func TestDelegated(t *testing.T) {
	const self = "endpointslice-controller.k8s.io"
	svc := func(labels map[string]string) *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc", Labels: labels}}
	}
	tests := []struct {
		name     string
		svc      *corev1.Service
		selfName string
		gate     bool
		want     bool
	}{
		{name: "nil service", svc: nil, selfName: self, gate: true, want: false},
		{name: "no labels", svc: svc(nil), selfName: self, gate: true, want: false},
		{name: "other labels only", svc: svc(map[string]string{"app": "x"}), selfName: self, gate: true, want: false},
		{name: "labelled other controller (a)1", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: "custom-ctrl.example.com"}), selfName: self, gate: true, want: true},
		{name: "labelled empty value (a)1 presence only", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: ""}), selfName: self, gate: true, want: true},
		{name: "labelled own name handled as unlabelled", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: self}), selfName: self, gate: true, want: false},
		{name: "labelled own name of another slicekit instance", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: "slicekit-b"}), selfName: "slicekit-a", gate: true, want: true},
		{name: "labelled with a value differing only in case", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: "EndpointSlice-Controller.k8s.io"}), selfName: self, gate: true, want: true},
		{name: "gate off ignores label (a)9", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: "custom-ctrl.example.com"}), selfName: self, gate: false, want: false},
		{name: "gate off ignores empty label (a)9", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: ""}), selfName: self, gate: false, want: false},
		{name: "empty selfName never matches", svc: svc(map[string]string{wellknown.LabelEndpointControllerName: ""}), selfName: "", gate: true, want: true},
		{name: "label key as annotation is not a label", svc: &corev1.Service{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{wellknown.LabelEndpointControllerName: "x"}}}, selfName: self, gate: true, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Delegated(tc.svc, tc.selfName, tc.gate); got != tc.want {
				t.Errorf("Delegated() = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDelegatedValueChange covers rule (a)6: changing the value from one
// foreign controller to another keeps the Service delegated.
func TestDelegatedValueChange(t *testing.T) {
	s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{wellknown.LabelEndpointControllerName: "a"}}}
	before := Delegated(s, "self", true)
	s.Labels[wellknown.LabelEndpointControllerName] = "b"
	after := Delegated(s, "self", true)
	if !before || !after {
		t.Errorf("Delegated before/after value change = %v/%v, want true/true", before, after)
	}
}
