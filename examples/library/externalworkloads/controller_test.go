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

package externalworkloads

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
)

func service() *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web", UID: "uid-web", Labels: map[string]string{"team": "a"}},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")}},
		},
	}
}

func workload(name, addr string, ready bool) ExternalWorkload {
	return ExternalWorkload{Namespace: "ns", Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{"app": "web"},
		Addresses: []string{addr}, Ports: map[string]int32{"http": 8080}, Ready: ready}
}

func sync(t *testing.T, c *Controller, client *fake.Clientset, svc *corev1.Service, ws []ExternalWorkload) []discovery.EndpointSlice {
	t.Helper()
	ctx := context.Background()
	lister, err := reconcilertest.Lister(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Sync(ctx, lister, svc, ws); err != nil {
		t.Fatal(err)
	}
	slices, err := reconcilertest.Slices(ctx, client, "ns", nil)
	if err != nil {
		t.Fatal(err)
	}
	return slices
}

func TestSync(t *testing.T) {
	client := reconcilertest.NewClientset()
	c, err := New(client)
	if err != nil {
		t.Fatal(err)
	}
	svc := service()
	other := workload("other-ns", "10.0.0.9", true)
	other.Namespace = "elsewhere"
	ws := []ExternalWorkload{workload("vm-1", "10.0.0.1", true), workload("vm-2", "fd00::2", false), other}
	slices := sync(t, c, client, svc, ws)
	if len(slices) != 2 {
		t.Fatalf("%d slices, want one IPv4 and one IPv6", len(slices))
	}
	for _, s := range slices {
		if !strings.HasPrefix(s.Name, "external-web-") || s.Labels[discovery.LabelManagedBy] != ControllerName ||
			s.Labels[discovery.LabelServiceName] != "web" || s.Labels["team"] != "a" {
			t.Errorf("slice %s labels %v", s.Name, s.Labels)
		}
		if len(s.Endpoints) != 1 || *s.Ports[0].Port != 8080 || s.Endpoints[0].TargetRef.Kind != "ExternalWorkload" {
			t.Errorf("slice %s: endpoints %+v ports %+v", s.Name, s.Endpoints, s.Ports)
		}
		if s.AddressType == discovery.AddressTypeIPv6 && *s.Endpoints[0].Conditions.Ready {
			t.Errorf("vm-2 is not ready")
		}
	}

	dumpState(t, client, svc)
	// A label removed from the Service leaves the slices at the next sync,
	// though no workload changed.
	delete(svc.Labels, "team")
	for _, s := range sync(t, c, client, svc, ws) {
		if _, ok := s.Labels["team"]; ok {
			t.Errorf("slice %s keeps the removed label", s.Name)
		}
	}

	// A new leadership term starts from a reset tracker; a workload gone
	// leaves its slice.
	c.OnStartedLeading()
	if slices := sync(t, c, client, svc, ws[:1]); len(slices) != 1 {
		t.Errorf("%d slices after vm-2 went, want 1", len(slices))
	}

	// The selector removed: the slices go.
	svc.Spec.Selector = nil
	if slices := sync(t, c, client, svc, ws); len(slices) != 0 {
		t.Errorf("%d slices left without a selector", len(slices))
	}
}

// dumpState writes the Service and the slices for `slicekit check -f`
// when $SLICEKIT_EXAMPLE_DUMP names a folder (hack/library.sh check).
func dumpState(t *testing.T, client *fake.Clientset, svc *corev1.Service) {
	t.Helper()
	if dir := os.Getenv("SLICEKIT_EXAMPLE_DUMP"); dir != "" {
		if err := reconcilertest.WriteState(context.Background(), client, filepath.Join(dir, "externalworkloads.json"), svc); err != nil {
			t.Fatal(err)
		}
	}
}
