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

package secondarynetwork_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestForgedAddressesRefused reproduces issue 24 without the admission
// policies: Pods whose network-status was forged (by anyone who may patch
// Pods) claim the kubernetes Service's ClusterIP (a ServiceCIDR address)
// and a Node's InternalIP. The controller, run as `slicekit run` runs it
// (the manager's informer transforms installed), refuses exactly those
// addresses, with Warning events on the Service and the Pod, and keeps
// every other endpoint.
func TestForgedAddressesRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	t.Parallel()
	env := testenv.Shared(t)
	// The test reads the API server's own ServiceCIDR; the flag path on
	// older servers is the guard's unit tests' and test/skew's.
	testenv.SkipUnlessServed(t, env.Config, "networking.k8s.io/v1", "servicecidrs", "Kubernetes 1.33+")
	it := &itest{t: t, ctx: t.Context(), client: env.Client}
	it.ns = testenv.Namespace(t, env.Client)
	it.node = it.ns + "-node"
	it.createNode()
	const nodeIP = "172.18.0.5"
	it.eventually("Node addresses", func() (bool, error) {
		n, err := it.client.CoreV1().Nodes().Get(it.ctx, it.node, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: nodeIP}, {Type: corev1.NodeHostName, Address: it.node}}
		_, err = it.client.CoreV1().Nodes().UpdateStatus(it.ctx, n, metav1.UpdateOptions{})
		return err == nil, err
	})
	// kube-apiserver writes the default/kubernetes Service and the
	// ServiceCIDR "kubernetes" itself, shortly after it starts serving: a
	// test that is first to use a fresh shared control plane must wait for
	// them (CI once read the Service before it existed).
	var clusterIP string
	it.eventually("the API server's default/kubernetes Service and ServiceCIDR", func() (bool, error) {
		kubernetes, err := it.client.CoreV1().Services("default").Get(it.ctx, "kubernetes", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		clusterIP = kubernetes.Spec.ClusterIP
		_, err = it.client.NetworkingV1().ServiceCIDRs().Get(it.ctx, "kubernetes", metav1.GetOptions{})
		return err == nil, err
	})

	// The controllers as the manager runs them: transforms composed from
	// both registrations' Reads, installed before the factory starts.
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactoryWithOptions(it.client, 0, informers.WithNamespace(it.ns))
	if err := informertransform.Compose(endpointslice.Registration.Reads, secondarynetwork.Registration.Reads).Install(factory); err != nil {
		cancel()
		t.Fatal(err)
	}
	def, err := endpointslice.New(ctx, it.client, factory, endpointslice.Options{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	sec, err := secondarynetwork.New(ctx, it.client, factory, secondarynetwork.Options{ControllerName: secondaryName})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() { _ = def.Run(ctx, 2) })
	wg.Go(func() { _ = sec.Run(ctx, 2) })
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})
	it.eventually("controllers synced", func() (bool, error) { return def.HasSynced() && sec.HasSynced(), nil })

	network := it.ns + "/net-a"
	it.createService("svc", network, secondaryName, false)
	it.createPod("p1", "svc", "10.0.0.41", netStatus("10.0.0.41", network, "10.1.0.41"), true)
	// p2: the ClusterIP and a Node IP beside its own address.
	it.createPod("p2", "svc", "10.0.0.42", netStatus("10.0.0.42", network, clusterIP, nodeIP, "10.1.0.42"), true)
	// p3: only the Node IP.
	it.createPod("p3", "svc", "10.0.0.43", netStatus("10.0.0.43", network, nodeIP), true)

	it.waitView("svc", secondaryName+" IPv4: 10.1.0.41/ready 10.1.0.42/ready")
	it.waitEvent("svc", source.ReasonAddressInServiceCIDR, clusterIP)
	it.waitEvent("svc", source.ReasonNodeAddress, "p3")
	it.waitPodEvent("p2", source.ReasonNodeAddress, nodeIP)

	// The editor's later rewrite (the 10.244.9.9 is an address no
	// guard knows: only the admission policy or an allow-list stops it)
	// to the ClusterIP alone: p1 loses its endpoint, p2 keeps its own.
	it.setNetworkStatus("p1", netStatus("10.0.0.41", network, clusterIP))
	it.waitView("svc", secondaryName+" IPv4: 10.1.0.42/ready")

	// An address that becomes a Node's after it was published is taken
	// away at once: the guard's change re-syncs the controller's Services
	// (no Pod or Service changes here).
	it.eventually("a second Node address", func() (bool, error) {
		n, err := it.client.CoreV1().Nodes().Get(it.ctx, it.node, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		n.Status.Addresses = append(n.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeExternalIP, Address: "10.1.0.42"})
		_, err = it.client.CoreV1().Nodes().UpdateStatus(it.ctx, n, metav1.UpdateOptions{})
		return err == nil, err
	})
	it.waitView("svc", secondaryName+" IPv4: ")
	it.waitPodEvent("p2", source.ReasonNodeAddress, "10.1.0.42")
}

// waitPodEvent waits for an event with reason on Pod pod whose message
// contains contains.
func (it *itest) waitPodEvent(pod, reason, contains string) {
	it.t.Helper()
	it.eventually("event "+reason+" on Pod "+pod, func() (bool, error) {
		list, err := it.client.CoreV1().Events(it.ns).List(it.ctx, metav1.ListOptions{FieldSelector: fields.Set{
			"involvedObject.kind": "Pod", "involvedObject.name": pod, "reason": reason,
		}.String()})
		if err != nil {
			return false, err
		}
		for _, e := range list.Items {
			if strings.Contains(e.Message, contains) {
				return true, nil
			}
		}
		return false, nil
	})
}
