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

package networkmirror

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
)

var svc = &corev1.Service{
	ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web", UID: "uid-web", Labels: map[string]string{"app": "web"}},
	Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.10", Selector: map[string]string{"app": "web"},
		Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}}},
}

var (
	http, port, tcp, ready = "http", int32(8080), corev1.ProtocolTCP, true
)

// source is a slice of the cluster's EndpointSlice controller.
func source(name string, pods ...string) *discovery.EndpointSlice {
	s := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{
			discovery.LabelServiceName: "web", discovery.LabelManagedBy: SourceController, "app": "web"},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(svc, corev1.SchemeGroupVersion.WithKind("Service"))}},
		AddressType: discovery.AddressTypeIPv4,
		Ports:       []discovery.EndpointPort{{Name: &http, Port: &port, Protocol: &tcp}},
	}
	for _, p := range pods {
		s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{"10.244.0." + strings.NewReplacer("pod-", "", "x", "99").Replace(p)},
			Conditions: discovery.EndpointConditions{Ready: &ready}, TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: p}})
	}
	return s
}

// blue is the network: pod-N has 192.168.1.N; pod-x has no address.
func blue(ref *corev1.ObjectReference) (string, bool) {
	if ref == nil || !strings.HasPrefix(ref.Name, "pod-") || ref.Name == "pod-x" {
		return "", false
	}
	return "192.168.1." + strings.TrimPrefix(ref.Name, "pod-"), true
}

func mirrors(t *testing.T, c *Controller, client *fake.Clientset, sources ...*discovery.EndpointSlice) map[string][]string {
	t.Helper()
	ctx := context.Background()
	lister, err := reconcilertest.Lister(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Sync(ctx, lister, svc, sources); err != nil {
		t.Fatal(err)
	}
	slices, err := reconcilertest.Slices(ctx, client, "ns", map[string]string{discovery.LabelManagedBy: ControllerName})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, s := range slices {
		if s.Labels[ServiceNameLabel] != "web" || s.Labels[discovery.LabelServiceName] != "" || s.Labels[NetworkLabel] != "blue" || s.Labels["app"] != "web" {
			t.Errorf("mirror %s labels %v", s.Name, s.Labels)
		}
		if ref := s.OwnerReferences[0]; ref.BlockOwnerDeletion != nil || ref.UID != svc.UID {
			t.Errorf("mirror %s owner reference %+v", s.Name, ref)
		}
		src := s.Labels[SourceLabel]
		if _, dup := out[src]; dup {
			t.Errorf("two mirrors of %s", src)
		}
		out[src] = []string{}
		for _, e := range s.Endpoints {
			out[src] = append(out[src], e.Addresses[0])
		}
	}
	return out
}

func TestSync(t *testing.T) {
	a, b := source("web-abcde", "pod-1", "pod-2", "pod-x"), source("web-fghij", "pod-3")
	client := reconcilertest.NewClientset(a, b)
	c, err := New(client, "blue", blue)
	if err != nil {
		t.Fatal(err)
	}
	foreign := source("web-other", "pod-9")
	foreign.Labels[discovery.LabelManagedBy] = "someone-else"
	got := mirrors(t, c, client, a, b, foreign)
	if len(got) != 2 || strings.Join(got["web-abcde"], ",") != "192.168.1.1,192.168.1.2" || strings.Join(got["web-fghij"], ",") != "192.168.1.3" {
		t.Errorf("mirrors %v", got)
	}
	dumpState(t, client, svc)
	// A Pod moves from one source slice to the other; the mirror follows.
	a2, b2 := source("web-abcde", "pod-1"), source("web-fghij", "pod-3", "pod-2")
	got = mirrors(t, c, client, a2, b2)
	if strings.Join(got["web-abcde"], ",") != "192.168.1.1" || strings.Join(got["web-fghij"], ",") != "192.168.1.3,192.168.1.2" {
		t.Errorf("mirrors after the move %v", got)
	}
	// A source slice deleted: its mirror goes.
	c.OnStartedLeading()
	got = mirrors(t, c, client, b2)
	if _, ok := got["web-abcde"]; ok || len(got) != 1 {
		t.Errorf("mirrors after web-abcde went %v", got)
	}
}

// dumpState writes the Service and the slices for `slicekit check -f`
// when $SLICEKIT_EXAMPLE_DUMP names a folder (hack/library.sh check).
func dumpState(t *testing.T, client *fake.Clientset, svc *corev1.Service) {
	t.Helper()
	if dir := os.Getenv("SLICEKIT_EXAMPLE_DUMP"); dir != "" {
		if err := reconcilertest.WriteState(context.Background(), client, filepath.Join(dir, "networkmirror.json"), svc); err != nil {
			t.Fatal(err)
		}
	}
}
