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

package library

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	confk8s "github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/examples/library/networkmirror"
	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestNetworkMirror: the mirrors of the EndpointSlice controller's slices on
// a second network. The source slices are what KCM writes for two running
// Pods (and pass slicekit check with the Pods and their Node); the mirrors
// carry their own service-name label, so that the Service's consumers never
// read them: check reports them as slices no Service uses
// (missing-service-name), which is their purpose.
func TestNetworkMirror(t *testing.T) {
	ctx := context.Background()
	svc := service("web", nil, map[string]string{"app": "web"}, corev1.IPv4Protocol)
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}
	pod := func(name, ip string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{NodeName: node.Name, Containers: []corev1.Container{{Name: "app",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}},
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
		}
	}
	source := func(name string, pods ...*corev1.Pod) *discovery.EndpointSlice {
		port, portName, proto := int32(8080), "http", corev1.ProtocolTCP
		s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Generation: 1,
			Annotations: map[string]string{corev1.EndpointsLastChangeTriggerTime: changed.Format(time.RFC3339Nano)}, Labels: map[string]string{
				discovery.LabelServiceName: svc.Name, discovery.LabelManagedBy: wellknown.EndpointSliceControllerName},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(svc, corev1.SchemeGroupVersion.WithKind("Service"))}},
			AddressType: discovery.AddressTypeIPv4, Ports: []discovery.EndpointPort{{Name: &portName, Port: &port, Protocol: &proto}}}
		for _, p := range pods {
			s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{p.Status.PodIP},
				Conditions: discovery.EndpointConditions{Ready: ready(true), Serving: ready(true), Terminating: ready(false)},
				NodeName:   &p.Spec.NodeName, Zone: ptr.To("zone-a"),
				TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: p.Name, UID: p.UID}})
		}
		return s
	}
	web1, web2 := pod("web-1", "10.0.0.1"), pod("web-2", "10.0.0.2")
	src1, src2 := source("web-abcde", web1), source("web-fghij", web2)
	client := reconcilertest.NewClientset(namespace(), svc, node, web1, web2, src1, src2)
	blue := map[string]string{"web-1": "192.168.1.1", "web-2": "192.168.1.2"}
	c, err := networkmirror.New(client, "blue", func(ref *corev1.ObjectReference) (string, bool) {
		if ref == nil {
			return "", false
		}
		a, ok := blue[ref.Name]
		return a, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	mirrors := labels.Set{networkmirror.ServiceNameLabel: svc.Name, discovery.LabelManagedBy: networkmirror.ControllerName}.String()
	sync := func(sources ...*discovery.EndpointSlice) []discovery.EndpointSlice {
		t.Helper()
		lister, err := reconcilertest.Lister(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Sync(ctx, lister, svc, sources); err != nil {
			t.Fatal(err)
		}
		return mustList(t, client, mirrors)
	}
	sets := check.Config{SliceSetLabels: map[string]string{networkmirror.ControllerName: networkmirror.SourceLabel}}
	allowed := byDesign{check.RuleMissingServiceName: "the mirrors' own service-name label keeps the Service's consumers away"}

	got := sync(src1, src2)
	if len(got) != 2 {
		t.Errorf("%d mirrors, want one per source slice", len(got))
	}
	endpointsMustBe(t, got, []confk8s.Endpoint{
		{Address: "192.168.1.1", Pod: "web-1", Ready: ready(true), Serving: ready(true), Terminating: ready(false)},
		{Address: "192.168.1.2", Pod: "web-2", Ready: ready(true), Serving: ready(true), Terminating: ready(false)},
	})
	triggerTimeMustBe(t, got)
	// The suite's ownership assertion: owned by the Service (uid included),
	// and only the two deviations the example makes on purpose.
	for _, e := range ownershipErrors(got, svc, networkmirror.ControllerName) {
		if !strings.Contains(e, "label "+discovery.LabelServiceName+`=""`) && !strings.Contains(e, "does not block owner deletion") {
			t.Errorf("ownership: %s", e)
		}
	}
	rep := judge(t, client, sets, allowed)
	if n := len(rep.Findings); n == 0 {
		t.Errorf("no finding: the mirrors should be reported as slices no Service uses")
	}

	// A source slice goes: its mirror goes.
	if err := client.DiscoveryV1().EndpointSlices(ns).Delete(ctx, src2.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	delete(blue, "web-2")
	got = sync(src1)
	endpointsMustBe(t, got, []confk8s.Endpoint{{Address: "192.168.1.1", Pod: "web-1", Ready: ready(true)}})
	if err := client.CoreV1().Pods(ns).Delete(ctx, web2.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	judge(t, client, sets, allowed)
}
