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

package check

// The world the rule tests mutate, and the helpers that build its objects.

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	ns        = "ns"
	custom    = "custom.example.com"
	customB   = "other.example.com"
	mirrorMgr = wellknown.MirroringControllerName
)

// fixture is a consistent world: Service web (selector app=web, port http
// 80 -> 8080) with Pod web-1 on node-a (zone-a) and its default-controller
// slice web-abc; the selectorless Service ext with Endpoints ext and its
// mirrored slice ext-m; and the Service db without slices. Every test
// mutates a fresh fixture.
type fixture struct {
	web, ext, db *corev1.Service
	pod          *corev1.Pod
	node         *corev1.Node
	ep           *corev1.Endpoints
	slice        *discovery.EndpointSlice // web-abc
	mirror       *discovery.EndpointSlice // ext-m
	extra        []runtime.Object
}

func newFixture() *fixture {
	f := &fixture{}
	f.web = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns, UID: "uid-web"},
		Spec: corev1.ServiceSpec{
			Type:       corev1.ServiceTypeClusterIP,
			ClusterIP:  "10.96.0.1",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": "web"},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
		},
	}
	f.ext = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "ext", Namespace: ns, UID: "uid-ext"},
		Spec: corev1.ServiceSpec{
			Type: corev1.ServiceTypeClusterIP, ClusterIP: "10.96.0.2", IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
		},
	}
	f.db = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: ns, UID: "uid-db"},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: "10.96.0.3", Selector: map[string]string{"app": "db"},
			Ports: []corev1.ServicePort{{Name: "sql", Port: 5432, Protocol: corev1.ProtocolTCP}}},
	}
	f.pod = newPod("web-1", "10.0.0.1", true)
	f.node = &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}
	f.ep = &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Name: "ext", Namespace: ns, UID: "uid-ep-ext"},
		Subsets: []corev1.EndpointSubset{{
			Addresses:         []corev1.EndpointAddress{{IP: "10.1.0.1"}},
			NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.1.0.2"}},
			Ports:             []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}},
		}},
	}
	f.slice = newSlice("web-abc", "web", wellknown.EndpointSliceControllerName, podEndpoint(f.pod))
	f.mirror = &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "ext-m", Namespace: ns,
			Labels:          map[string]string{discovery.LabelServiceName: "ext", discovery.LabelManagedBy: mirrorMgr},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Endpoints", Name: "ext", UID: "uid-ep-ext", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints: []discovery.Endpoint{
			{Addresses: []string{"10.1.0.1"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}},
			{Addresses: []string{"10.1.0.2"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(false)}},
		},
		Ports: []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}
	return f
}

func newPod(name, ip string, ready bool) *corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + name), Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			NodeName:   "node-a",
			Containers: []corev1.Container{{Name: "app", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}},
		},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			PodIP:      ip,
			PodIPs:     []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status}},
		},
	}
}

// podEndpoint is the endpoint the default controller publishes for pod.
func podEndpoint(pod *corev1.Pod) discovery.Endpoint {
	ready := podendpoint.IsPodReady(pod)
	return discovery.Endpoint{
		Addresses:  []string{pod.Status.PodIP},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(ready), Serving: ptr.To(ready), Terminating: ptr.To(false)},
		NodeName:   ptr.To(pod.Spec.NodeName),
		Zone:       ptr.To("zone-a"),
		TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
	}
}

func newSlice(name, svc, managedBy string, eps ...discovery.Endpoint) *discovery.EndpointSlice {
	return &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns,
			Labels:          map[string]string{discovery.LabelServiceName: svc, discovery.LabelManagedBy: managedBy},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc, UID: types.UID("uid-" + svc), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   eps,
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}
}

func (f *fixture) objects() []runtime.Object {
	objs := []runtime.Object{f.node}
	for _, o := range []runtime.Object{f.web, f.ext, f.db, f.pod, f.ep, f.slice, f.mirror} {
		switch v := o.(type) {
		case *corev1.Service:
			if v != nil {
				objs = append(objs, v)
			}
		case *corev1.Pod:
			if v != nil {
				objs = append(objs, v)
			}
		case *corev1.Endpoints:
			if v != nil {
				objs = append(objs, v)
			}
		case *discovery.EndpointSlice:
			if v != nil {
				objs = append(objs, v)
			}
		}
	}
	return append(objs, f.extra...)
}

// findingKeys returns "severity rule Kind ns/name" per finding, sorted.
func findingKeys(r *Report) []string {
	out := []string{}
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s %s %s", f.Severity, f.Rule, f.Object))
	}
	slices.Sort(out)
	return out
}

const (
	webSlice  = "EndpointSlice ns/web-abc"
	mirSlice  = "EndpointSlice ns/ext-m"
	webSvc    = "Service ns/web"
	otherPort = 9090
)
