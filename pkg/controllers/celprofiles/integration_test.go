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

package celprofiles_test

// An integration test on a real kube-apiserver (test/harness/testenv): the
// default EndpointSlice controller and the CEL controllers on one informer
// factory with no informer transform (CEL may read any Pod field).

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/addressguard"
	"github.com/slicekit/slicekit/pkg/source/celpods"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestCELProfilesLive(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	client := env.Client
	ns := testenv.Namespace(t, client)
	ctx := t.Context()
	node := ns + "-node"
	if _, err := client.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.CoreV1().Nodes().Delete(context.Background(), node, metav1.DeleteOptions{}) })

	_, lctx := ktesting.NewTestContext(t)
	lctx, cancel := context.WithCancel(lctx)
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
	def, err := endpointslice.New(lctx, client, factory, endpointslice.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cel, err := celprofiles.New(lctx, client, factory, celprofiles.Options{Config: &celpods.Config{Profiles: []celpods.Profile{{
		Name:      "storage.example.com",
		Addresses: "pod.metadata.?annotations[?'example.com/storage-ips'].orValue('').split(',').filter(s, s != '')",
		Ready:     "pod.status.phase == 'Running' && !('example.com/drain' in pod.metadata.?annotations.orValue({}))",
	}}}, Common: slicecontroller.Common{AddressGuard: addressguard.Options{ServiceCIDRs: testenv.ServiceCIDRs(t, env.Config)}}})
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(lctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() { _ = def.Run(lctx, 1) })
	wg.Go(func() { _ = cel.Run(lctx, 1) })
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})

	if _, err := client.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc", Labels: map[string]string{wellknown.LabelEndpointControllerName: "storage.example.com"}},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "a"},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i, ips := range []string{"10.5.0.1", "10.5.0.2,10.5.0.22"} {
		p, err := client.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i+1), Labels: map[string]string{"app": "a"},
				Annotations: map[string]string{"example.com/storage-ips": ips}},
			Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10"}}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: fmt.Sprintf("10.0.0.%d", i+1), PodIPs: []corev1.PodIP{{IP: fmt.Sprintf("10.0.0.%d", i+1)}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}}
		if _, err := client.CoreV1().Pods(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	view := func() string {
		list, err := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: labels.Set{discovery.LabelServiceName: "svc"}.String()})
		if err != nil {
			return err.Error()
		}
		var out []string
		for _, s := range list.Items {
			for _, e := range s.Endpoints {
				r := "ready"
				if !*e.Conditions.Ready {
					r = "notready"
				}
				out = append(out, s.Labels[discovery.LabelManagedBy]+" "+e.Addresses[0]+" "+r)
			}
		}
		sort.Strings(out)
		return strings.Join(out, ", ")
	}
	waitView := func(want string) {
		t.Helper()
		var got string
		if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) {
			got = view()
			return got == want, nil
		}); err != nil {
			t.Fatalf("slices: got %q, want %q", got, want)
		}
	}
	patchPod := func(name, patch string) {
		t.Helper()
		if _, err := client.CoreV1().Pods(ns).Patch(ctx, name, "application/merge-patch+json", []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	waitView("storage.example.com 10.5.0.1 ready, storage.example.com 10.5.0.2 ready, storage.example.com 10.5.0.22 ready")
	patchPod("p1", `{"metadata":{"annotations":{"example.com/drain":"yes"}}}`)
	waitView("storage.example.com 10.5.0.1 notready, storage.example.com 10.5.0.2 ready, storage.example.com 10.5.0.22 ready")
	patchPod("p2", `{"metadata":{"annotations":{"example.com/storage-ips":"10.5.0.2,bogus"}}}`)
	waitView("storage.example.com 10.5.0.1 notready")
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) {
		list, err := client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: fields.Set{"involvedObject.name": "svc", "reason": "InvalidAddress"}.String()})
		return err == nil && len(list.Items) > 0 && strings.Contains(list.Items[0].Message, "p2"), nil
	}); err != nil {
		t.Fatalf("no InvalidAddress event on the Service: %v", err)
	}
	// Back to the default controller: primary addresses, CEL slices gone.
	svc, err := client.CoreV1().Services(ns).Get(ctx, "svc", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	delete(svc.Labels, wellknown.LabelEndpointControllerName)
	if _, err := client.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitView("endpointslice-controller.k8s.io 10.0.0.1 ready, endpointslice-controller.k8s.io 10.0.0.2 ready")
}
