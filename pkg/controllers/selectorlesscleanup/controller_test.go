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

package selectorlesscleanup

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/internal/memapi"
)

const ns = "ns"

func service(mutate ...func(*corev1.Service)) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: ns, UID: "uid-svc"},
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeClusterIP,
			Selector: map[string]string{"app": "a"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80}},
		},
	}
	for _, m := range mutate {
		m(s)
	}
	return s
}

func slice(name, managedBy string, owner types.UID) *discovery.EndpointSlice {
	s := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + name),
			Labels: map[string]string{discovery.LabelServiceName: "svc", discovery.LabelManagedBy: managedBy}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.0.0.1"}}},
	}
	if owner != "" {
		kind := "Service"
		if managedBy == "endpointslicemirroring-controller.k8s.io" {
			kind = "Endpoints"
		}
		s.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: kind, Name: "svc", UID: owner, Controller: ptr.To(true)}}
	}
	return s
}

func endpoints(labelled bool) *corev1.Endpoints {
	ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: ns, UID: "uid-ep"},
		Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}}}}}
	if labelled {
		ep.Labels = map[string]string{"endpoints.kubernetes.io/managed-by": "endpoint-controller"}
	}
	return ep
}

// kcm132Endpoints is the Endpoints object as kube-controller-manager 1.32
// and older leave it: no managed-by label, its managedFields entry owning
// the subsets; with userSubsets, someone rewrote the addresses since.
func kcm132Endpoints(userSubsets bool) *corev1.Endpoints {
	ep := endpoints(false)
	ep.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
		APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:annotations":{}},"f:subsets":{}}`)}}
	if userSubsets {
		ep.ManagedFields[0].FieldsV1 = metav1.NewFieldsV1(`{"f:metadata":{"f:annotations":{}}}`)
		ep.ManagedFields = append(ep.ManagedFields, metav1.ManagedFieldsEntry{Manager: "kubectl-edit", Operation: metav1.ManagedFieldsOperationUpdate,
			APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:subsets":{}}`)})
	}
	return ep
}

// fixture seeds the fake API server with objs, builds the controller on
// informers whose stores hold what the server returns (with its
// resourceVersions), and returns both.
func fixture(t *testing.T, opts Options, objs ...runtime.Object) (*Controller, kubernetes.Interface, *record.FakeRecorder, *prometheus.Registry) {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	client := memapi.NewClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	rec := record.NewFakeRecorder(100)
	reg := prometheus.NewRegistry()
	opts.EventRecorder, opts.Registerer = rec, reg
	c, err := New(ctx, client, factory, opts)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, ctx, client, factory)
	return c, client, rec, reg
}

func fill(t *testing.T, ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory) {
	t.Helper()
	svcs, _ := client.CoreV1().Services("").List(ctx, metav1.ListOptions{})
	eps, _ := client.CoreV1().Endpoints("").List(ctx, metav1.ListOptions{})
	sls, _ := client.DiscoveryV1().EndpointSlices("").List(ctx, metav1.ListOptions{})
	var a, b, c []any
	for i := range svcs.Items {
		a = append(a, &svcs.Items[i])
	}
	for i := range eps.Items {
		b = append(b, &eps.Items[i])
	}
	for i := range sls.Items {
		c = append(c, &sls.Items[i])
	}
	for _, err := range []error{
		factory.Core().V1().Services().Informer().GetIndexer().Replace(a, ""),
		factory.Core().V1().Endpoints().Informer().GetIndexer().Replace(b, ""),
		factory.Discovery().V1().EndpointSlices().Informer().GetIndexer().Replace(c, ""),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// remaining lists the EndpointSlice and Endpoints names left on the server.
func remaining(t *testing.T, client kubernetes.Interface) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	sls, _ := client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
	for _, s := range sls.Items {
		out = append(out, "EndpointSlice/"+s.Name)
	}
	eps, _ := client.CoreV1().Endpoints(ns).List(ctx, metav1.ListOptions{})
	for _, e := range eps.Items {
		out = append(out, "Endpoints/"+e.Name)
	}
	slices.Sort(out)
	return out
}

func events(rec *record.FakeRecorder) []string {
	var out []string
	for {
		select {
		case e := <-rec.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

// TestSyncService covers the fault class: every way a Service stops
// selecting Pods (selector removed, ExternalName, ExternalName and back,
// selector removed while labelled for a custom controller) against every
// leftover kind (KCM's slice, KCM's Endpoints, the mirrored slice) and the
// objects that must never be touched (hand-written Endpoints, foreign and
// mirrored slices, a KCM slice owned by an earlier Service of that name).
func TestSyncService(t *testing.T) {
	kcm := "endpointslice-controller.k8s.io"
	mirror := "endpointslicemirroring-controller.k8s.io"
	all := func() []runtime.Object {
		return []runtime.Object{
			slice("svc-kcm", kcm, "uid-svc"),
			slice("svc-kcm-old", kcm, "uid-old-svc"),
			slice("svc-mirror", mirror, "uid-ep"),
			slice("svc-custom", "secondary.example.com", "uid-svc"),
		}
	}
	untouchable := []string{"EndpointSlice/svc-custom", "EndpointSlice/svc-kcm-old", "EndpointSlice/svc-mirror"}
	tests := []struct {
		name      string
		svc       *corev1.Service
		endpoints *corev1.Endpoints
		want      []string
		wantEvent []string
	}{
		{
			name: "selector removed: KCM's slice and Endpoints deleted", svc: service(func(s *corev1.Service) { s.Spec.Selector = nil }),
			endpoints: endpoints(true), want: untouchable,
			wantEvent: []string{"Normal EndpointSlicesRemoved Deleted 1 EndpointSlice(s) managed by endpointslice-controller.k8s.io: the Service has no selector (kubernetes#118376)",
				"Normal EndpointsRemoved Deleted Endpoints managed by endpoint-controller (recognised by its label): the Service has no selector (kubernetes#118376)"},
		},
		{
			name: "ExternalName (selector kept): deleted", svc: service(func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }),
			endpoints: endpoints(true), want: untouchable,
			wantEvent: []string{"Normal EndpointSlicesRemoved Deleted 1 EndpointSlice(s) managed by endpointslice-controller.k8s.io: the Service is of type ExternalName (kubernetes#118376)",
				"Normal EndpointsRemoved Deleted Endpoints managed by endpoint-controller (recognised by its label): the Service is of type ExternalName (kubernetes#118376)"},
		},
		{
			name: "ExternalName and back to ClusterIP with selector: nothing", svc: service(),
			endpoints: endpoints(true), want: append([]string{"EndpointSlice/svc-kcm", "Endpoints/svc"}, untouchable...),
		},
		{
			name: "selector removed while labelled: deleted", svc: service(func(s *corev1.Service) {
				s.Spec.Selector = nil
				s.Labels = map[string]string{"service.kubernetes.io/endpoint-controller-name": "secondary.example.com"}
				s.Annotations = map[string]string{"slicekit.dev/selector": "app=a"}
			}),
			endpoints: endpoints(true), want: untouchable,
			wantEvent: []string{"Normal EndpointSlicesRemoved Deleted 1 EndpointSlice(s) managed by endpointslice-controller.k8s.io: the Service has no selector (kubernetes#118376)",
				"Normal EndpointsRemoved Deleted Endpoints managed by endpoint-controller (recognised by its label): the Service has no selector (kubernetes#118376)"},
		},
		{
			name: "selector removed beside KCM 1.32: its unlabelled Endpoints recognised by managedFields and deleted", svc: service(func(s *corev1.Service) { s.Spec.Selector = nil }),
			endpoints: kcm132Endpoints(false), want: untouchable,
			wantEvent: []string{"Normal EndpointSlicesRemoved Deleted 1 EndpointSlice(s) managed by endpointslice-controller.k8s.io: the Service has no selector (kubernetes#118376)",
				"Normal EndpointsRemoved Deleted Endpoints managed by endpoint-controller (recognised by its managedFields): the Service has no selector (kubernetes#118376)"},
		},
		{
			name: "KCM 1.32's Endpoints whose addresses someone rewrote since: never touched", svc: service(func(s *corev1.Service) { s.Spec.Selector = nil }),
			endpoints: kcm132Endpoints(true), want: append([]string{"Endpoints/svc"}, untouchable...),
			wantEvent: []string{"Normal EndpointSlicesRemoved Deleted 1 EndpointSlice(s) managed by endpointslice-controller.k8s.io: the Service has no selector (kubernetes#118376)"},
		},
		{
			name: "hand-written Endpoints of a selectorless Service: never touched", svc: service(func(s *corev1.Service) { s.Spec.Selector = nil }),
			endpoints: endpoints(false), want: append([]string{"Endpoints/svc"}, untouchable...),
			wantEvent: []string{"Normal EndpointSlicesRemoved Deleted 1 EndpointSlice(s) managed by endpointslice-controller.k8s.io: the Service has no selector (kubernetes#118376)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			objs := append(all(), tc.svc, tc.endpoints)
			c, client, rec, _ := fixture(t, Options{}, objs...)
			if err := c.SyncService(ctx, ns+"/svc"); err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if d := cmp.Diff(want, remaining(t, client)); d != "" {
				t.Errorf("remaining objects (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantEvent, events(rec)); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
		})
	}
}

// TestDryRun: nothing is deleted; each leftover is reported once (Event,
// metric) while it stays unchanged.
func TestDryRun(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c, client, rec, reg := fixture(t, Options{DryRun: true},
		service(func(s *corev1.Service) { s.Spec.Selector = nil }),
		slice("svc-kcm", "endpointslice-controller.k8s.io", "uid-svc"), endpoints(true))
	for range 2 {
		if err := c.SyncService(ctx, ns+"/svc"); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff([]string{"EndpointSlice/svc-kcm", "Endpoints/svc"}, remaining(t, client)); d != "" {
		t.Errorf("dry run deleted something (-want +got):\n%s", d)
	}
	ev := events(rec)
	if len(ev) != 2 || !strings.HasPrefix(ev[0], "Normal SelectorlessLeftoverFound Dry run: would delete EndpointSlice ns/svc-kcm") ||
		!strings.HasPrefix(ev[1], "Normal SelectorlessLeftoverFound Dry run: would delete Endpoints ns/svc") {
		t.Errorf("events = %q", ev)
	}
	want := fmt.Sprintf(`
# HELP %[1]s Leftovers of kube-controller-manager's endpoint controllers deleted (dry_run="true": found) for Services without selector or of type ExternalName (kubernetes#118376), by kind and reason.
# TYPE %[1]s counter
%[1]s{dry_run="true",kind="EndpointSlice",reason="no-selector"} 1
%[1]s{dry_run="true",kind="Endpoints",reason="no-selector"} 1
`, MetricName)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), MetricName); err != nil {
		t.Error(err)
	}
}

// TestPreconditions: a leftover that changed after the cache saw it (another
// resourceVersion) is not deleted, and that is not an error: its update
// event queues the Service again.
func TestPreconditions(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c, client, _, reg := fixture(t, Options{},
		service(func(s *corev1.Service) { s.Spec.Selector = nil }),
		slice("svc-kcm", "endpointslice-controller.k8s.io", "uid-svc"), endpoints(true))
	// Change both objects on the server behind the cache's back.
	s, _ := client.DiscoveryV1().EndpointSlices(ns).Get(ctx, "svc-kcm", metav1.GetOptions{})
	s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{"10.0.0.2"}})
	if _, err := client.DiscoveryV1().EndpointSlices(ns).Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	ep, _ := client.CoreV1().Endpoints(ns).Get(ctx, "svc", metav1.GetOptions{})
	ep.Subsets[0].Addresses = append(ep.Subsets[0].Addresses, corev1.EndpointAddress{IP: "10.0.0.2"})
	if _, err := client.CoreV1().Endpoints(ns).Update(ctx, ep, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.SyncService(ctx, ns+"/svc"); err != nil {
		t.Fatalf("SyncService = %v, want nil (a failed precondition is retried on the next event)", err)
	}
	if d := cmp.Diff([]string{"EndpointSlice/svc-kcm", "Endpoints/svc"}, remaining(t, client)); d != "" {
		t.Errorf("changed objects were deleted (-want +got):\n%s", d)
	}
	if n, _ := testutil.GatherAndCount(reg, MetricName); n != 0 {
		t.Errorf("%d deletions counted, want 0", n)
	}
}
