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

package besidekcm

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/selectorlesscleanup"
	"github.com/slicekit/slicekit/pkg/policy/selectorless"
)

// TestUnlabelledKCMEndpoints: Endpoints written the way
// kube-controller-manager 1.32 and older write them (a plain create under
// the field manager kube-controller-manager, no
// endpoints.kubernetes.io/managed-by label) for Services that no longer
// select Pods are recognised through the real API server's managedFields
// and the manager's informer transform: selectorless-cleanup deletes them
// and slicekit's mirroring controller does not mirror them. Endpoints that
// another writer created, or whose addresses another writer replaced
// after KCM, are mirrored and never deleted.
func TestUnlabelledKCMEndpoints(t *testing.T) {
	env := controlPlane(t, false)
	_, ctx := ktesting.NewTestContext(t)
	client := env.Client
	const ns = "default"
	selectorlessSvc := func(name string) {
		t.Helper()
		_, err := client.CoreV1().Services(ns).Create(ctx, &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	endpoints := func(name, ip string) *corev1.Endpoints { //nolint:staticcheck // v1 Endpoints under test
		return &corev1.Endpoints{ //nolint:staticcheck // as above
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Subsets: []corev1.EndpointSubset{{ //nolint:staticcheck // as above
				Addresses: []corev1.EndpointAddress{{IP: ip}},                                              //nolint:staticcheck // as above
				Ports:     []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}, //nolint:staticcheck // as above
			}},
		}
	}
	create := func(ep *corev1.Endpoints, manager string) { //nolint:staticcheck // as above
		t.Helper()
		if _, err := client.CoreV1().Endpoints(ns).Create(ctx, ep, metav1.CreateOptions{FieldManager: manager}); err != nil {
			t.Fatal(err)
		}
	}
	// KCM 1.32's leftover, and the same after someone rewrote its addresses.
	selectorlessSvc("kcm")
	create(endpoints("kcm", "10.0.0.1"), selectorless.KCMFieldManager)
	selectorlessSvc("taken-over")
	create(endpoints("taken-over", "10.0.0.2"), selectorless.KCMFieldManager)
	to, err := client.CoreV1().Endpoints(ns).Get(ctx, "taken-over", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	to.Subsets[0].Addresses[0].IP = "192.0.2.2"
	if _, err := client.CoreV1().Endpoints(ns).Update(ctx, to, metav1.UpdateOptions{FieldManager: "operator"}); err != nil {
		t.Fatal(err)
	}
	// Hand-written.
	selectorlessSvc("hand")
	create(endpoints("hand", "192.0.2.3"), "operator")

	runSlicekit(t, env.Config, "*", selectorlesscleanup.RegistrationName)

	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Endpoints(ns).Get(ctx, "kcm", metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if err != nil {
		t.Fatalf("selectorless-cleanup did not delete KCM's unlabelled Endpoints default/kcm: %v", err)
	}
	// The others are mirrored (and so were seen by the controllers) and stay.
	for _, name := range []string{"taken-over", "hand"} {
		err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			l, err := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + name})
			return err == nil && len(l.Items) > 0, nil
		})
		if err != nil {
			t.Errorf("Endpoints default/%s was not mirrored: %v", name, err)
		}
		if _, err := client.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{}); err != nil {
			t.Errorf("Endpoints default/%s: %v (it is not KCM's and must stay)", name, err)
		}
	}
	l, err := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=kcm"})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 0 {
		t.Errorf("KCM's leftover was mirrored: %d slice(s)", len(l.Items))
	}
}
