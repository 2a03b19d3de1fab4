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

package remoteclusters

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
)

func endpoints(prefix string, n int) []RemoteEndpoints {
	port, name, proto, ready := int32(8080), "http", corev1.ProtocolTCP, true
	re := RemoteEndpoints{AddressType: discovery.AddressTypeIPv4, Ports: []discovery.EndpointPort{{Name: &name, Port: &port, Protocol: &proto}}}
	for i := 1; i <= n; i++ {
		re.Endpoints = append(re.Endpoints, discovery.Endpoint{Addresses: []string{fmt.Sprintf("%s%d", prefix, i)}, Conditions: discovery.EndpointConditions{Ready: &ready}})
	}
	return []RemoteEndpoints{re}
}

// perCluster syncs and returns the number of endpoints per cluster label.
func perCluster(t *testing.T, c *Controller, client *fake.Clientset, svc *corev1.Service, remote map[string][]RemoteEndpoints) map[string]int {
	t.Helper()
	ctx := context.Background()
	lister, err := reconcilertest.Lister(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Sync(ctx, lister, svc, remote); err != nil {
		t.Fatal(err)
	}
	slices, err := reconcilertest.Slices(ctx, client, "ns", map[string]string{discovery.LabelManagedBy: ControllerName})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, s := range slices {
		if s.Labels[discovery.LabelServiceName] != svc.Name || s.OwnerReferences[0].UID != svc.UID {
			t.Errorf("slice %s: labels %v", s.Name, s.Labels)
		}
		out[s.Labels[ClusterLabel]] += len(s.Endpoints)
	}
	return out
}

func TestSync(t *testing.T) {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "db", UID: "uid-db"},
		Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.20", Selector: map[string]string{"app": "db"}, IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}}},
	}
	// A slice of the local controller is never touched.
	local := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "db-local", Labels: map[string]string{
		discovery.LabelServiceName: "db", discovery.LabelManagedBy: "endpointslice-controller.k8s.io"},
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(svc, corev1.SchemeGroupVersion.WithKind("Service"))}},
		AddressType: discovery.AddressTypeIPv4, Ports: endpoints("", 0)[0].Ports, Endpoints: []discovery.Endpoint{}}
	client := reconcilertest.NewClientset(local)
	c, err := New(client)
	if err != nil {
		t.Fatal(err)
	}
	got := perCluster(t, c, client, svc, map[string][]RemoteEndpoints{"east": endpoints("10.1.0.", 3), "west": endpoints("10.2.0.", 150)})
	if got["east"] != 3 || got["west"] != 150 {
		t.Errorf("endpoints per cluster %v", got)
	}
	dumpState(t, client, svc)
	// west shrinks, east is unchanged: only west's slices are written.
	client.ClearActions()
	got = perCluster(t, c, client, svc, map[string][]RemoteEndpoints{"east": endpoints("10.1.0.", 3), "west": endpoints("10.2.0.", 2)})
	if got["west"] != 2 {
		t.Errorf("endpoints per cluster %v", got)
	}
	for _, a := range client.Actions() {
		if u, ok := a.(interface{ GetObject() runtime.Object }); ok && a.GetVerb() != "list" {
			if s := u.GetObject().(*discovery.EndpointSlice); s.Labels[ClusterLabel] != "west" {
				t.Errorf("%s of %s while only west changed", a.GetVerb(), s.Name)
			}
		}
	}
	// west disconnects: its slices go, east's stay.
	c.OnStartedLeading()
	got = perCluster(t, c, client, svc, map[string][]RemoteEndpoints{"east": endpoints("10.1.0.", 3)})
	if _, ok := got["west"]; ok || got["east"] != 3 {
		t.Errorf("after west left: %v", got)
	}
	if _, err := client.DiscoveryV1().EndpointSlices("ns").Get(context.Background(), "db-local", metav1.GetOptions{}); err != nil {
		t.Errorf("the local controller's slice: %v", err)
	}
	c.Forget("ns", "db")
}

// dumpState writes the Service and the slices for `slicekit check -f`
// when $SLICEKIT_EXAMPLE_DUMP names a folder (hack/library.sh check).
func dumpState(t *testing.T, client *fake.Clientset, svc *corev1.Service) {
	t.Helper()
	if dir := os.Getenv("SLICEKIT_EXAMPLE_DUMP"); dir != "" {
		if err := reconcilertest.WriteState(context.Background(), client, filepath.Join(dir, "remoteclusters.json"), svc); err != nil {
			t.Fatal(err)
		}
	}
}
