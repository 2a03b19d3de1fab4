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

// Package testobjects builds the small Services, Pods and Nodes that the
// unit tests of the EndpointSlice controllers (pkg/controllers/endpointslice
// and the drop-in tests of pkg/slicecontroller) share, so that
// both describe the same objects. It is test harness: no product package
// imports it (hack/verify.sh).
package testobjects

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Namespace is the namespace of the objects Service and Pod return.
const Namespace = "ns"

// Service returns the Service name in Namespace: uid "svc-uid-<name>",
// selector app=<name>, cluster IP 10.96.0.10 (IPv4), port "http" 80/TCP to
// target port 8080, after applying mutate in order.
func Service(name string, mutate ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: Namespace, UID: types.UID("svc-uid-" + name),
			CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		},
		Spec: corev1.ServiceSpec{
			Selector:   map[string]string{"app": name},
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}},
		},
	}
	for _, m := range mutate {
		m(s)
	}
	return s
}

// Labelled returns a Service mutation setting the KEP-4770 label
// service.kubernetes.io/endpoint-controller-name to value.
func Labelled(value string) func(*corev1.Service) {
	return func(s *corev1.Service) {
		if s.Labels == nil {
			s.Labels = map[string]string{}
		}
		s.Labels[wellknown.LabelEndpointControllerName] = value
	}
}

// Pod returns Pod "pod<n>" in Namespace, labelled app=<app>, running on
// node-1 with IP 10.0.0.<n+1> and a Ready condition of status ready whose
// lastTransitionTime is n seconds after 2026-01-01 (UTC).
func Pod(n int, app string, ready bool) *corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: Namespace, Name: fmt.Sprintf("pod%d", n), UID: types.UID(fmt.Sprintf("pod-uid-%d", n)),
			Labels: map[string]string{"app": app}, ResourceVersion: "1",
		},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "c"}}},
		Status: corev1.PodStatus{
			Phase:  corev1.PodRunning,
			PodIP:  fmt.Sprintf("10.0.0.%d", n+1),
			PodIPs: []corev1.PodIP{{IP: fmt.Sprintf("10.0.0.%d", n+1)}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status,
				LastTransitionTime: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, n, 0, time.UTC))}},
		},
	}
}

// Node returns the Node name, with the topology.kubernetes.io/zone label
// zone unless zone is empty.
func Node(name, zone string) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}}}
	if zone != "" {
		n.Labels[corev1.LabelTopologyZone] = zone
	}
	return n
}
