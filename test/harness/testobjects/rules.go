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

package testobjects

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The objects of the unit tests of KCM's Pod rules (pkg/source/podendpoint)
// and of KCM's own source (pkg/source/servicepods), which describe the
// same Pods and Service.

// RuleNamespace is the namespace of the objects RulePod and RuleService
// return.
const RuleNamespace = "ns-a"

// RulePod returns a Running, Ready RulePod on node-a with IP 10.0.0.<n> and one
// container port http=8080/TCP; opts adjust it.
func RulePod(name string, opts ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: RuleNamespace, UID: types.UID("uid-pod-" + name), Labels: map[string]string{"app": "a"}},
		Spec: corev1.PodSpec{
			NodeName: "node-a",
			Containers: []corev1.Container{{
				Name:  "app",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
			}},
		},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

// WithPodIPs sets status.podIPs to ips and status.podIP to the first.
func WithPodIPs(ips ...string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.PodIPs = nil
		p.Status.PodIP = ""
		for i, ip := range ips {
			if i == 0 {
				p.Status.PodIP = ip
			}
			p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: ip})
		}
	}
}

// WithReady sets the Pod's only condition: Ready with status.
func WithReady(status corev1.ConditionStatus) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
	}
}

// Terminating sets a deletionTimestamp.
func Terminating(p *corev1.Pod) {
	p.DeletionTimestamp = &metav1.Time{}
}

// WithPhase sets status.phase.
func WithPhase(phase corev1.PodPhase) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Status.Phase = phase }
}

// OnNode sets spec.nodeName.
func OnNode(n string) func(*corev1.Pod) { return func(p *corev1.Pod) { p.Spec.NodeName = n } }

// RuleService returns a ClusterIP IPv4 Service svc-a with port http 80 ->
// targetPort; opts adjust it.
func RuleService(opts ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc-a", Namespace: RuleNamespace, UID: "uid-svc-a"},
		Spec: corev1.ServiceSpec{
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": "a"},
			Ports: []corev1.ServicePort{{
				Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080),
			}},
		},
	}
	for _, o := range opts {
		o(s)
	}
	return s
}
