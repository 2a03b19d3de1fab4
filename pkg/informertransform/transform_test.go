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

package informertransform

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/podcache"
)

const networkStatus = "k8s.v1.cni.cncf.io/network-status"

func testPod() *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pod0", UID: "pod-uid-0", ResourceVersion: "1",
			Labels:          map[string]string{"app": "a"},
			Annotations:     map[string]string{"big": strings.Repeat("x", 100), networkStatus: "[]"},
			ManagedFields:   []metav1.ManagedFieldsEntry{{Manager: "kubelet"}},
			OwnerReferences: []metav1.OwnerReference{{Name: "rs"}}},
		Spec: corev1.PodSpec{NodeName: "node-1", Hostname: "h", Subdomain: "sub",
			Containers:     []corev1.Container{{Name: "c", Image: "img", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}, Env: []corev1.EnvVar{{Name: "A"}}}},
			InitContainers: []corev1.Container{{Name: "side", Image: "img", RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways), Ports: []corev1.ContainerPort{{Name: "m", ContainerPort: 9090}}}},
			Volumes:        []corev1.Volume{{Name: "v"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1", PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}},
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, Reason: "r", Message: "m", LastProbeTime: metav1.Unix(1, 0), LastTransitionTime: metav1.Unix(2, 0)},
				{Type: corev1.ContainersReady, Status: corev1.ConditionTrue}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "c"}}},
	}
}

func TestTransforms(t *testing.T) {
	pod := testPod()
	trimmedPod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pod0", UID: "pod-uid-0", Labels: pod.Labels, ResourceVersion: "1"},
		Spec: corev1.PodSpec{NodeName: "node-1", Hostname: "h", Subdomain: "sub",
			Containers:     []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}}},
			InitContainers: []corev1.Container{{Name: "side", RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways), Ports: []corev1.ContainerPort{{Name: "m", ContainerPort: 9090}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: pod.Status.PodIP, PodIPs: pod.Status.PodIPs,
			// Only the Ready condition, with what IsPodReady and the
			// trigger-time tracker read.
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Unix(2, 0)}}},
	}
	withStatus := trimmedPod.DeepCopy()
	withStatus.Annotations = map[string]string{networkStatus: "[]"}

	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s",
		Annotations:   map[string]string{corev1.LastAppliedConfigAnnotation: "{}", corev1.AnnotationTopologyMode: "Auto"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}},
		Spec:   corev1.ServiceSpec{Selector: map[string]string{"app": "a"}},
		Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "1.2.3.4"}}}}}

	ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s", //nolint:staticcheck // v1 Endpoints under test
		Annotations: map[string]string{corev1.LastAppliedConfigAnnotation: "{}", "keep": "me"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}, {Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
			APIVersion: "v1", Time: &metav1.Time{Time: time.Unix(50, 0)}, FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:annotations":{".":{},"f:endpoints.kubernetes.io/last-change-trigger-time":{}}},"f:subsets":{}}`)}}},
		Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}}}}} //nolint:staticcheck // as above

	when := metav1.NewTime(time.Unix(100, 0))
	slice := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s-1", Labels: map[string]string{discovery.LabelServiceName: "s"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "discovery.k8s.io/v1",
			Time: &when, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:endpoints":{}}`)}}},
		AddressType: discovery.AddressTypeIPv4, Endpoints: []discovery.Endpoint{{Addresses: []string{"10.0.0.1"}}}}

	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}, Annotations: map[string]string{"a": "b"}},
		Spec: corev1.NodeSpec{PodCIDR: "10.0.0.0/24"},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Message: "ready", LastHeartbeatTime: metav1.Now()}},
			Images:     []corev1.ContainerImage{{Names: []string{"img"}}},
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "192.0.2.10"}, {Type: corev1.NodeHostName, Address: "n"}}}}

	tests := []struct {
		name      string
		transform cache.TransformFunc
		in        runtime.Object
		want      runtime.Object
	}{
		{"pod", asPods(PodTransform()), pod, trimmedPod},
		{"pod keeping an annotation", asPods(PodTransform(networkStatus, "absent")), pod, withStatus},
		{"service", TransformService, svc, func() runtime.Object {
			s := svc.DeepCopy()
			s.ManagedFields = nil
			s.Annotations = map[string]string{corev1.AnnotationTopologyMode: "Auto"}
			s.Status = corev1.ServiceStatus{}
			return s
		}()},
		{"endpoints", TransformEndpoints, ep, func() runtime.Object {
			e := ep.DeepCopy()
			e.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl"}, {Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
				APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{},"f:subsets":{}}`)}}
			e.Annotations = map[string]string{"keep": "me"}
			return e
		}()},
		{"endpointslice", TransformEndpointSlice, slice, func() runtime.Object {
			s := slice.DeepCopy()
			s.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "discovery.k8s.io/v1", Time: &when}}
			return s
		}()},
		{"node", TransformNode, node, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: node.Labels},
			Status: corev1.NodeStatus{Allocatable: node.Status.Allocatable,
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
		}},
		{"node with addresses", TransformNodeWithAddresses, node, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: node.Labels},
			Status: corev1.NodeStatus{Allocatable: node.Status.Allocatable,
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
				Addresses:  node.Status.Addresses},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.in.DeepCopyObject()
			out, err := tc.transform(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, out); diff != "" {
				t.Errorf("transformed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tc.in); diff != "" {
				t.Errorf("input modified (-before +after):\n%s", diff)
			}
			again, err := tc.transform(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(out, again); diff != "" {
				t.Errorf("not idempotent (-once +twice):\n%s", diff)
			}
			tomb := cache.DeletedFinalStateUnknown{Key: "k", Obj: tc.in}
			if got, _ := tc.transform(tomb); !cmp.Equal(got, tomb) {
				t.Errorf("tombstone changed")
			}
		})
	}
}

// asPods wraps a Pod transform so that it returns the Pod its compact record
// stands for (podcache.Record.Pod), which the tests compare with the Pod
// the transform keeps.
func asPods(fn cache.TransformFunc) cache.TransformFunc {
	return func(obj any) (any, error) {
		out, err := fn(obj)
		if r, ok := out.(*podcache.Record); ok {
			return r.Pod(), err
		}
		return out, err
	}
}

// kept applies the composed Pod transform to testPod and returns the
// annotations kept, or "whole" when Pods are cached whole.
func kept(t *testing.T, tr Transforms) string {
	t.Helper()
	fn, ok := tr[Pods]
	if !ok {
		return "unused"
	}
	if fn == nil {
		return "whole"
	}
	out, err := fn(testPod())
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	pod, ok := podcache.FromObject(out)
	if !ok {
		t.Fatalf("the Pod transform returned a %T", out)
	}
	for k := range pod.Annotations {
		keys = append(keys, k)
	}
	return strings.Join(keys, ",")
}

func TestCompose(t *testing.T) {
	dropIn := Reads{Informers: []Informer{Pods, Services, EndpointSlices, Nodes}}
	secondary := Reads{Informers: []Informer{Pods, Services, EndpointSlices, Nodes}, PodAnnotations: []string{networkStatus}}
	cel := Reads{Informers: []Informer{Pods, Services, EndpointSlices, Nodes}, AllPodFields: true, AllServiceFields: true}
	mirroring := Reads{Informers: []Informer{Services, Endpoints, EndpointSlices}}

	for _, tc := range []struct {
		name  string
		reads []Reads
		pods  string
		used  int
	}{
		{"nothing", nil, "unused", 0},
		{"mirroring only: no Pod informer", []Reads{mirroring}, "unused", 3},
		{"drop-in", []Reads{dropIn}, "", 4},
		{"drop-in then secondary", []Reads{dropIn, secondary}, networkStatus, 4},
		{"secondary then drop-in", []Reads{secondary, dropIn}, networkStatus, 4},
		{"cel anywhere", []Reads{secondary, cel, dropIn}, "whole", 4},
		{"all", []Reads{mirroring, dropIn, secondary}, networkStatus, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := Compose(tc.reads...)
			if got := kept(t, tr); got != tc.pods {
				t.Errorf("Pod annotations kept = %q, want %q", got, tc.pods)
			}
			if len(tr) != tc.used {
				t.Errorf("%d informers used, want %d", len(tr), tc.used)
			}
		})
	}
	if tr := Compose(cel); tr[Services] != nil {
		t.Error("a controller reading all Service fields: Services still transformed")
	}
	if tr := Compose(cel); tr[Nodes] == nil || tr[EndpointSlices] == nil {
		t.Error("a controller reading all Pod and Service fields: Nodes or EndpointSlices not transformed")
	}
	// Node addresses are kept when one controller reads them (the
	// address guard), in any order.
	guarded := Reads{Informers: []Informer{Pods, Services, EndpointSlices, Nodes}, NodeAddresses: true}
	addrNode := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "192.0.2.1"}}}}
	for _, tc := range []struct {
		reads []Reads
		keep  bool
	}{{[]Reads{dropIn}, false}, {[]Reads{dropIn, guarded}, true}, {[]Reads{guarded, dropIn}, true}} {
		out, err := Compose(tc.reads...)[Nodes](addrNode)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(out.(*corev1.Node).Status.Addresses) > 0; got != tc.keep {
			t.Errorf("Compose(%d reads): Node addresses kept = %v, want %v", len(tc.reads), got, tc.keep)
		}
	}
	endpointsController := Reads{Informers: []Informer{Services, Pods, Endpoints}, AllEndpointsFields: true}
	if tr := Compose(mirroring); tr[Endpoints] == nil {
		t.Error("mirroring alone: Endpoints not transformed")
	}
	if tr := Compose(mirroring, endpointsController); tr[Endpoints] != nil {
		t.Error("with a controller reading all Endpoints fields: Endpoints still transformed")
	}
	if tr := Compose(endpointsController, mirroring); tr[Endpoints] != nil {
		t.Error("with a controller reading all Endpoints fields (other order): Endpoints still transformed")
	}
}

func TestInstall(t *testing.T) {
	client := fake.NewClientset(testPod())
	factory := informers.NewSharedInformerFactory(client, 0)
	tr := Compose(Reads{Informers: []Informer{Pods}, PodAnnotations: []string{networkStatus}})
	if err := tr.Install(factory); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); factory.Shutdown() }()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("%v did not sync", typ)
		}
	}
	if started := len(factory.WaitForCacheSync(ctx.Done())); started != 1 {
		t.Errorf("%d informers started, want only the Pod informer", started)
	}
	pod, err := podcache.NewLister(factory.Core().V1().Pods().Informer().GetIndexer()).Pods("ns").Get("pod0")
	if err != nil {
		t.Fatal(err)
	}
	if len(pod.ManagedFields) != 0 || len(pod.Annotations) != 1 || pod.Annotations[networkStatus] != "[]" {
		t.Errorf("cached Pod not transformed: managedFields %d, annotations %v", len(pod.ManagedFields), pod.Annotations)
	}
	if err := tr.Install(factory); err == nil || !strings.Contains(err.Error(), "pods informer transform") {
		t.Errorf("Install on a started factory = %v, want an error naming the pods informer", err)
	}
}
