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

//go:build linux

package dataplane

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/localapply"
)

// labelEndpointControllerName is KEP-4770's Service label: a Service whose
// value names another controller is left to that controller.
const labelEndpointControllerName = "service.kubernetes.io/endpoint-controller-name"

// podSpec describes one Pod of a fixture.
type podSpec struct {
	name, app, node string
	ready           bool
	// subdomain, when set, makes the Pod's hostname its name under that
	// headless Service.
	subdomain string
}

// fixture is the objects of one Kubernetes namespace: Services and Pods,
// each Pod with its namespace and server.
type fixture struct {
	w    *world
	ns   string
	pods map[string]*podServer
	ips  map[string]string // Service name → ClusterIP
}

// webPods serve Services web, web-local, web-close, web-other and hl:
// web-a1 and web-a2 on the local node (zone-a), web-b1 on node-b (zone-b),
// web-c1 on node-c (zone-a) and web-nr, not ready, on the local node.
var webPods = []podSpec{
	{name: "web-a1", app: "web", node: "node-a", ready: true, subdomain: "hl"},
	{name: "web-a2", app: "web", node: "node-a", ready: true, subdomain: "hl"},
	{name: "web-b1", app: "web", node: "node-b", ready: true, subdomain: "hl"},
	{name: "web-c1", app: "web", node: "node-c", ready: true, subdomain: "hl"},
	{name: "web-nr", app: "web", node: "node-a", ready: false, subdomain: "hl"},
}

// morePods serve the terminating, flip and canary Services.
var morePods = []podSpec{
	{name: "term-1", app: "term", node: "node-a", ready: true},
	{name: "term-2", app: "term", node: "node-a", ready: true},
	{name: "flip-1", app: "flip", node: "node-a", ready: true},
	{name: "flip-2", app: "flip", node: "node-a", ready: true},
	{name: "flip-3", app: "flip", node: "node-a", ready: true},
	{name: "canary", app: "canary", node: "node-a", ready: true},
}

// newFixture creates Kubernetes namespace ns with the web Services and Pods,
// and with full also the terminating, flip, canary, selectorless and
// labelled Services.
func newFixture(t *testing.T, w *world, ns string, full bool) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{w: w, ns: ns, pods: map[string]*podServer{}, ips: map[string]string{}}
	if _, err := localapply.Apply(ctx, w.env.Client, &corev1.Namespace{
		TypeMeta: metav1.TypeMeta{Kind: "Namespace", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Name: ns},
	}, discard{}); err != nil {
		t.Fatal(err)
	}
	f.service("web", "web", nil)
	f.service("hl", "web", func(s *corev1.Service) { s.Spec.ClusterIP = corev1.ClusterIPNone })
	pods := webPods
	if full {
		f.service("web-local", "web", func(s *corev1.Service) {
			s.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyLocal)
		})
		f.service("web-close", "web", func(s *corev1.Service) {
			s.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferClose)
		})
		f.service("web-other", "web", func(s *corev1.Service) {
			s.Labels = map[string]string{labelEndpointControllerName: "other"}
		})
		f.service("term", "term", nil)
		f.service("flip", "flip", nil)
		f.service("canary", "canary", nil)
		// The Knative case: no selector, Endpoints written by hand.
		f.service("ext", "", nil)
		ext := w.serve(ns, "ext-1")
		f.pods["ext-1"] = ext
		if _, err := localapply.Apply(ctx, w.env.Client, &corev1.Endpoints{
			TypeMeta:   metav1.TypeMeta{Kind: "Endpoints", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: "ext", Namespace: ns},
			Subsets: []corev1.EndpointSubset{{
				Addresses: []corev1.EndpointAddress{{IP: ext.ip}},
				Ports:     []corev1.EndpointPort{{Name: "http", Port: podPort, Protocol: corev1.ProtocolTCP}},
			}},
		}, discard{}); err != nil {
			t.Fatal(err)
		}
		pods = append(append([]podSpec{}, webPods...), morePods...)
	}
	for _, p := range pods {
		f.pod(p)
	}
	return f
}

// service creates Service name selecting app=app (no selector when app is
// empty), port "http" 80 → podPort, and records its ClusterIP.
func (f *fixture) service(name, app string, mutate func(*corev1.Service)) {
	t := f.w.t
	t.Helper()
	svc := &corev1.Service{
		TypeMeta:   metav1.TypeMeta{Kind: "Service", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: f.ns},
		Spec: corev1.ServiceSpec{
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(podPort), Protocol: corev1.ProtocolTCP}},
		},
	}
	if app != "" {
		svc.Spec.Selector = map[string]string{"app": app}
	}
	if mutate != nil {
		mutate(svc)
	}
	obj, err := localapply.Apply(context.Background(), f.w.env.Client, svc, discard{})
	if err != nil {
		t.Fatal(err)
	}
	f.ips[name] = obj.(*corev1.Service).Spec.ClusterIP
}

// pod creates the Pod's namespace and server, then the Pod with the
// status a kubelet would report (Running, its IP, Ready as p.ready).
func (f *fixture) pod(p podSpec) {
	t := f.w.t
	t.Helper()
	ps := f.w.serve(f.ns, p.name)
	f.pods[p.name] = ps
	pod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: f.ns, Labels: map[string]string{"app": p.app}},
		Spec: corev1.PodSpec{
			NodeName: p.node,
			Containers: []corev1.Container{{Name: "server", Image: "example.invalid/server",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: podPort}}}},
		},
		Status: corev1.PodStatus{
			Phase:  corev1.PodRunning,
			PodIP:  ps.ip,
			PodIPs: []corev1.PodIP{{IP: ps.ip}},
			HostIP: nodeIP, HostIPs: []corev1.HostIP{{IP: nodeIP}},
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: condition(p.ready), LastTransitionTime: metav1.Now()},
				{Type: corev1.ContainersReady, Status: condition(p.ready), LastTransitionTime: metav1.Now()},
			},
		},
	}
	if p.subdomain != "" {
		pod.Spec.Hostname = p.name
		pod.Spec.Subdomain = p.subdomain
	}
	if _, err := localapply.Apply(context.Background(), f.w.env.Client, pod, discard{}); err != nil {
		t.Fatal(err)
	}
}

func condition(b bool) corev1.ConditionStatus {
	if b {
		return corev1.ConditionTrue
	}
	return corev1.ConditionFalse
}

// setReady writes Pod name's Ready condition through the status
// subresource, as a kubelet would, and returns when the write returned.
func (f *fixture) setReady(ctx context.Context, name string, ready bool) error {
	patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":%q,"lastTransitionTime":%q},{"type":"ContainersReady","status":%q,"lastTransitionTime":%q}]}}`,
		condition(ready), time.Now().UTC().Format(time.RFC3339), condition(ready), time.Now().UTC().Format(time.RFC3339))
	_, err := f.w.env.Client.CoreV1().Pods(f.ns).Patch(ctx, name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}, "status")
	return err
}

// terminate deletes Pod name with a long grace period: with no kubelet
// it stays terminating, its server still up.
func (f *fixture) terminate(ctx context.Context, name string) error {
	return f.w.env.Client.CoreV1().Pods(f.ns).Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](3600)})
}

// setLabel sets (value != "") or removes Service name's
// endpoint-controller-name label.
func (f *fixture) setLabel(ctx context.Context, name, value string) error {
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:null}}}`, labelEndpointControllerName)
	if value != "" {
		patch = fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, labelEndpointControllerName, value)
	}
	_, err := f.w.env.Client.CoreV1().Services(f.ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// url is the ClusterIP URL of Service name.
func (f *fixture) url(name string) string {
	return fmt.Sprintf("http://%s:80/", f.ips[name])
}
