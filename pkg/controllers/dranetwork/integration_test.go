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

package dranetwork_test

// Integration tests on a real kube-apiserver and etcd
// (test/harness/testenv): the default EndpointSlice controller and
// the dra-network controller run in-process on one informer factory with
// the transforms `slicekit run` installs (composed from both
// registrations' Reads, ResourceClaims included). No kubelet, scheduler or
// DRA driver runs: Pod status and ResourceClaim status (allocation,
// reservedFor, devices with networkData) are written through the status
// subresource, as the kubelet, the scheduler and a driver write them.

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/casefile"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// startControllers runs the default EndpointSlice controller and the
// dra-network controller on namespace ns until the test ends.
func startControllers(t *testing.T, client kubernetes.Interface, ns string) {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
	if err := informertransform.Compose(endpointslice.Registration.Reads, dranetwork.Registration.Reads).Install(factory, dranetwork.ResourceClaimKind); err != nil {
		cancel()
		t.Fatal(err)
	}
	def, err := endpointslice.New(ctx, client, factory, endpointslice.Options{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	dra, err := dranetwork.New(ctx, client, factory, dranetwork.Options{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() { _ = def.Run(ctx, 2) })
	wg.Go(func() { _ = dra.Run(ctx, 2) })
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return def.HasSynced() && dra.HasSynced(), nil
	}); err != nil {
		t.Fatalf("controllers did not sync: %v", err)
	}
}

// addresses returns "managedBy addressType address(ready)" for every
// endpoint of the Service's slices, sorted.
func addresses(ctx context.Context, t *testing.T, client kubernetes.Interface, ns, svc string) []string {
	t.Helper()
	l, err := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + svc})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range l.Items {
		for _, e := range s.Endpoints {
			ready := ""
			if e.Conditions.Ready != nil && !*e.Conditions.Ready {
				ready = "(notready)"
			}
			out = append(out, s.Labels[discovery.LabelManagedBy]+" "+string(s.AddressType)+" "+strings.Join(e.Addresses, ",")+ready)
		}
	}
	slices.Sort(out)
	return out
}

// eventually waits until the Service's endpoints are want.
func eventually(ctx context.Context, t *testing.T, client kubernetes.Interface, ns, svc, step string, want ...string) {
	t.Helper()
	slices.Sort(want)
	var got []string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		got = addresses(ctx, t, client, ns, svc)
		return slices.Equal(got, want), nil
	})
	if err != nil {
		t.Fatalf("%s: endpoints of %s are %q, want %q", step, svc, got, want)
	}
}

// TestCase45Live runs regression case 45 on the real API server (claims
// written through the status subresource, the patch steps as a driver's
// status writes), then goes on with what the case does not cover: a
// device whose Ready condition turns False, a claim deleted, and a Service
// without the KEP-4770 label, which only the default controller serves.
func TestCase45Live(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	testenv.SkipUnlessServed(t, env.Config, "resource.k8s.io/v1", "resourceclaims", "Kubernetes 1.34+")
	client := env.Client
	_, ctx := ktesting.NewTestContext(t)
	startControllers(t, client, "ns-a")

	b := &casefile.LiveBackend{Client: client, Quiet: 2 * time.Second}
	casefile.Report(t, casefile.Run(ctx, casefile.MustLoad(t, "45"), b, casefile.RunOptions{Optional: true}))
	if t.Failed() {
		return
	}
	const dra = wellknown.DRANetworkControllerName
	base := []string{dra + " IPv4 192.168.60.41", dra + " IPv4 192.168.60.32", dra + " IPv4 192.168.60.33", dra + " IPv6 fd00:60::31"}
	eventually(ctx, t, client, "ns-a", "svc-a", "after the case", base...)

	// The driver reports eth3 (pod-a2's device) not ready.
	claims := client.ResourceV1().ResourceClaims("ns-a")
	patch := func(name string, pt types.PatchType, p string) {
		t.Helper()
		if _, err := claims.Patch(ctx, name, pt, []byte(p), metav1.PatchOptions{}, "status"); err != nil {
			t.Fatalf("patching claim %s: %v", name, err)
		}
	}
	patch("pod-a2-net-x7k2p", types.JSONPatchType, `[{"op":"test","path":"/status/devices/0/device","value":"eth3"},{"op":"replace","path":"/status/devices/0/conditions/0/status","value":"False"}]`)
	eventually(ctx, t, client, "ns-a", "svc-a", "device not ready",
		dra+" IPv4 192.168.60.41", dra+" IPv4 192.168.60.32(notready)", dra+" IPv4 192.168.60.33", dra+" IPv6 fd00:60::31")
	patch("pod-a2-net-x7k2p", types.JSONPatchType, `[{"op":"replace","path":"/status/devices/0/conditions/0/status","value":"True"}]`)
	eventually(ctx, t, client, "ns-a", "svc-a", "device ready again", base...)

	// pod-b1 releases the shared claim net-a4: pod-a4's addresses appear.
	patch("net-a4", types.JSONPatchType, `[{"op":"test","path":"/status/reservedFor/1/name","value":"pod-b1"},{"op":"remove","path":"/status/reservedFor/1"}]`)
	eventually(ctx, t, client, "ns-a", "svc-a", "claim no longer shared",
		append(slices.Clone(base), dra+" IPv4 192.168.60.34", dra+" IPv6 fd00:60::34")...)

	// The claim of pod-a3 is deleted: its endpoint goes.
	if err := claims.Delete(ctx, "net-a3", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, client, "ns-a", "svc-a", "claim deleted",
		dra+" IPv4 192.168.60.41", dra+" IPv4 192.168.60.32", dra+" IPv6 fd00:60::31", dra+" IPv4 192.168.60.34", dra+" IPv6 fd00:60::34")

	// A Service of the same Pods without the label: KCM's rules, primary
	// addresses, and the dra-network controller writes nothing for it.
	plain := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns-a", Name: "svc-plain", Annotations: map[string]string{wellknown.AnnotationDRAClaim: "net/nic"}},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "a"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}},
		},
	}
	if _, err := client.CoreV1().Services("ns-a").Create(ctx, plain, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	def := wellknown.EndpointSliceControllerName
	eventually(ctx, t, client, "ns-a", "svc-plain", "unlabelled Service",
		def+" IPv4 10.0.0.11", def+" IPv4 10.0.0.12", def+" IPv4 10.0.0.13", def+" IPv4 10.0.0.14")
}
