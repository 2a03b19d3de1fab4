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

package mirroring

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

func TestOptionsComplete(t *testing.T) {
	got, err := Options{}.complete()
	if err != nil {
		t.Fatal(err)
	}
	if got.ControllerName != wellknown.MirroringControllerName || got.MirroringMaxEndpointsPerSubset != 1000 ||
		got.MirroringConcurrentServiceEndpointSyncs != 5 || got.MirroringEndpointSliceUpdatesBatchPeriod != 0 || !ptr.Deref(got.ExternalEndpointController, true) {
		t.Errorf("defaults = %+v", got)
	}
	bad := []Options{
		{ControllerName: "not a label value!"},
		{MirroringMaxEndpointsPerSubset: -1},
		{MirroringMaxEndpointsPerSubset: 1001},
		{MirroringConcurrentServiceEndpointSyncs: -1},
		{MirroringConcurrentServiceEndpointSyncs: 51},
		{MirroringEndpointSliceUpdatesBatchPeriod: -time.Second},
	}
	for _, o := range bad {
		if _, err := o.complete(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	for _, o := range []Options{{MirroringMaxEndpointsPerSubset: 1}, {MirroringMaxEndpointsPerSubset: 1000}, {MirroringConcurrentServiceEndpointSyncs: 50}} {
		if _, err := o.complete(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func TestNewErrors(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	if _, err := New(ctx, nil, factory, Options{}); err == nil {
		t.Error("nil client accepted")
	}
	if _, err := New(ctx, client, nil, Options{}); err == nil {
		t.Error("nil factory accepted")
	}
	reg := prometheus.NewRegistry()
	if _, err := New(ctx, client, factory, Options{Registerer: reg}); err != nil {
		t.Fatal(err)
	}
	_, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), Options{Registerer: reg})
	var are prometheus.AlreadyRegisteredError
	if !errors.As(err, &are) {
		t.Errorf("second New on one registerer: err = %v, want AlreadyRegisteredError", err)
	}
}

// TestMetricNames checks that the metrics carry KCM's mirroring names.
func TestMetricNames(t *testing.T) {
	ep := endpointsObj("svc", subset([]string{"10.0.0.1", "bogus"}, nil, httpPort()))
	f := newFixture(t, Options{}, service("svc"), ep)
	f.mustSync("svc")
	f.c.loop.HandleResult(f.ctx, "ns-a/svc", nil)
	mfs, err := f.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, mf := range mfs {
		names = append(names, mf.GetName())
	}
	sort.Strings(names)
	for _, want := range []string{
		"endpoint_slice_mirroring_controller_addresses_skipped_per_sync",
		"endpoint_slice_mirroring_controller_changes",
		"endpoint_slice_mirroring_controller_desired_endpoint_slices",
		"endpoint_slice_mirroring_controller_endpoints_added_per_sync",
		"endpoint_slice_mirroring_controller_endpoints_desired",
		"endpoint_slice_mirroring_controller_endpoints_removed_per_sync",
		"endpoint_slice_mirroring_controller_endpoints_sync_duration",
		"endpoint_slice_mirroring_controller_endpoints_updated_per_sync",
		"endpoint_slice_mirroring_controller_num_endpoint_slices",
		"endpoint_slice_mirroring_controller_syncs",
		"workqueue_adds_total",
	} {
		if sort.SearchStrings(names, want) == len(names) || names[sort.SearchStrings(names, want)] != want {
			t.Errorf("metric %s missing; have %s", want, strings.Join(names, " "))
		}
	}
}

// TestRun runs the controller with real (fake-clientset) informers: a
// selectorless Service and its Endpoints get a mirrored slice; adding the
// KEP-4770 label deletes it; removing it mirrors again.
func TestRun(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	client := memapi.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	c, err := New(ctx, client, factory, Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 0) }()
	factory.Start(ctx.Done())
	defer factory.Shutdown()

	svc := service("svc")
	if _, err := client.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ep := endpointsObj("svc", subset([]string{"10.0.0.1"}, nil, httpPort()))
	ep.ResourceVersion = ""
	if _, err := client.CoreV1().Endpoints(ns).Create(ctx, ep, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitSlices := func(want int) {
		t.Helper()
		err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
			l, err := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelManagedBy + "=" + wellknown.MirroringControllerName})
			return err == nil && len(l.Items) == want, nil
		})
		if err != nil {
			t.Fatalf("waiting for %d mirrored slices: %v", want, err)
		}
	}
	waitSlices(1)
	svc, _ = client.CoreV1().Services(ns).Get(ctx, "svc", metav1.GetOptions{})
	svc.Labels = map[string]string{"service.kubernetes.io/endpoint-controller-name": "knative"}
	if _, err := client.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitSlices(0)
	svc, _ = client.CoreV1().Services(ns).Get(ctx, "svc", metav1.GetOptions{})
	svc.Labels = nil
	if _, err := client.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitSlices(1)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

func TestRunRejectsNegativeWorkers(t *testing.T) {
	f := newFixture(t, Options{})
	if err := f.c.Run(f.ctx, -1); err == nil {
		t.Error("Run(-1) returned nil")
	}
}
