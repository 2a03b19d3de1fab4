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

package testenv_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestServiceAndEndpointSlice proves the shared control plane is a real API
// server: names come from generateName, ClusterIPs from the allocator,
// defaults are applied, generation follows EndpointSlice's update strategy,
// stale writes conflict, and validation rejects bad slices.
func TestServiceAndEndpointSlice(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a control plane")
	}
	env := testenv.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns := testenv.Namespace(t, env.Client)
	if !strings.HasPrefix(ns, "test-") || len(ns) == len("test-") {
		t.Fatalf("namespace name %q was not generated from %q", ns, "test-")
	}

	svc, err := env.Client.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "web-"},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Service: %v", err)
	}
	if !strings.HasPrefix(svc.Name, "web-") || len(svc.Name) == len("web-") {
		t.Errorf("Service name %q was not generated from %q", svc.Name, "web-")
	}
	if svc.Spec.ClusterIP == "" || !strings.HasPrefix(svc.Spec.ClusterIP, "10.96.") {
		t.Errorf("Service ClusterIP = %q, want one allocated from 10.96.0.0/16", svc.Spec.ClusterIP)
	}
	if svc.Spec.Type != corev1.ServiceTypeClusterIP || svc.Spec.Ports[0].Protocol != corev1.ProtocolTCP {
		t.Errorf("Service not defaulted: type %q, protocol %q", svc.Spec.Type, svc.Spec.Ports[0].Protocol)
	}

	slices := env.Client.DiscoveryV1().EndpointSlices(ns)
	ready := true
	port := int32(8080)
	created, err := slices.Create(ctx, &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: svc.Name + "-",
			Labels: map[string]string{
				discovery.LabelServiceName: svc.Name,
				discovery.LabelManagedBy:   "slicekit-testenv",
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "Service", Name: svc.Name, UID: svc.UID,
			}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints: []discovery.Endpoint{{
			Addresses:  []string{"198.18.0.10"},
			Conditions: discovery.EndpointConditions{Ready: &ready},
		}},
		Ports: []discovery.EndpointPort{{Name: ptr("http"), Port: &port}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating EndpointSlice: %v", err)
	}
	if !strings.HasPrefix(created.Name, svc.Name+"-") || len(created.Name) == len(svc.Name)+1 {
		t.Errorf("EndpointSlice name %q was not generated from %q", created.Name, svc.Name+"-")
	}
	if created.Generation != 1 {
		t.Errorf("new EndpointSlice generation = %d, want 1", created.Generation)
	}
	if p := created.Ports[0].Protocol; p == nil || *p != corev1.ProtocolTCP {
		t.Errorf("EndpointSlice port protocol not defaulted to TCP: %v", p)
	}

	// A change to the endpoints bumps the generation.
	got, err := slices.Get(ctx, created.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading EndpointSlice: %v", err)
	}
	got.Endpoints = append(got.Endpoints, discovery.Endpoint{
		Addresses:  []string{"198.18.0.11"},
		Conditions: discovery.EndpointConditions{Ready: &ready},
	})
	updated, err := slices.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("updating EndpointSlice endpoints: %v", err)
	}
	if updated.Generation != 2 {
		t.Errorf("generation after endpoints update = %d, want 2", updated.Generation)
	}
	if updated.ResourceVersion == created.ResourceVersion {
		t.Errorf("resourceVersion unchanged by update: %s", updated.ResourceVersion)
	}

	// EndpointSlice's strategy also counts label changes (the
	// kubernetes.io/service-name label is part of what a slice means) ...
	updated.Labels["example.com/touched"] = "true"
	relabelled, err := slices.Update(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("updating EndpointSlice labels: %v", err)
	}
	if relabelled.Generation != 3 {
		t.Errorf("generation after labels update = %d, want 3", relabelled.Generation)
	}

	// ... but not other metadata.
	relabelled.Annotations = map[string]string{"example.com/note": "hello"}
	annotated, err := slices.Update(ctx, relabelled, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("updating EndpointSlice annotations: %v", err)
	}
	if annotated.Generation != 3 {
		t.Errorf("generation after annotations-only update = %d, want 3", annotated.Generation)
	}

	// A stale update conflicts.
	if _, err := slices.Update(ctx, updated, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update with stale resourceVersion: err = %v, want Conflict", err)
	}

	list, err := slices.List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + svc.Name})
	if err != nil {
		t.Fatalf("listing EndpointSlices: %v", err)
	}
	if len(list.Items) != 1 || len(list.Items[0].Endpoints) != 2 {
		t.Errorf("listed %d EndpointSlices (want 1 with 2 endpoints): %+v", len(list.Items), list.Items)
	}

	// Validation runs: loopback addresses are rejected.
	_, err = slices.Create(ctx, &discovery.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{GenerateName: "bad-"},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"127.0.0.1"}}},
	}, metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Errorf("creating EndpointSlice with a loopback address: err = %v, want Invalid", err)
	}
}

// TestStart starts a control plane of the test's own and checks that it is
// a separate, working API server.
func TestStart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a control plane")
	}
	cfg := testenv.Start(t)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := client.Discovery().ServerVersion()
	if err != nil {
		t.Fatalf("reading server version: %v", err)
	}
	t.Logf("kube-apiserver %s (%s)", v.GitVersion, v.GoVersion)
	// The API server creates the default/kubernetes Service itself, shortly
	// after it starts serving.
	err = wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Errorf("default/kubernetes Service did not appear: %v", err)
	}
}

// TestMissingBinaries checks the failure message when the binaries are not
// built.
func TestMissingBinaries(t *testing.T) {
	dir := t.TempDir()
	_, err := testenv.New(testenv.Options{BinDir: dir})
	if !errors.Is(err, testenv.ErrBinariesMissing) {
		t.Fatalf("New with empty bin dir: err = %v, want ErrBinariesMissing", err)
	}
	if !strings.Contains(err.Error(), "run `make controlplane` first") {
		t.Errorf("error %q does not say to run `make controlplane` first", err)
	}
}

// TestBinDir checks that SLICEKIT_BIN_DIR overrides the repository's bin/.
func TestBinDir(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := testenv.BinDir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "bin"); dir != want && !isEnvSet() {
		t.Errorf("BinDir() = %q, want %q", dir, want)
	}
	t.Setenv(testenv.BinDirEnv, "/opt/elsewhere")
	if dir, err := testenv.BinDir(); err != nil || dir != "/opt/elsewhere" {
		t.Errorf("BinDir() with %s set = %q, %v; want /opt/elsewhere", testenv.BinDirEnv, dir, err)
	}
}

func isEnvSet() bool {
	_, ok := os.LookupEnv(testenv.BinDirEnv)
	return ok
}

func ptr[T any](v T) *T { return &v }
