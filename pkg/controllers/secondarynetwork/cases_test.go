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
	"errors"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/casefile"
)

// caseControllerName is the secondary controller's configured name in
// case 19.
const caseControllerName = "secondary.example.com"

// offline runs the default EndpointSlice controller and the
// secondary-network controller on one informer factory whose informers
// never run: before each controller's pass, the indexers are filled with
// the world's Services, Pods and Nodes and the clientset's EndpointSlices
// (as `slicekit render` does); a pass syncs every Service in both.
type offline struct {
	factory   informers.SharedInformerFactory
	client    kubernetes.Interface
	def       *endpointslice.Controller
	secondary *slicecontroller.Controller
	recorder  *record.FakeRecorder
}

func newOffline(ctx context.Context, client kubernetes.Interface) (*offline, error) {
	o := &offline{client: client, factory: informers.NewSharedInformerFactory(client, 0), recorder: record.NewFakeRecorder(1000)}
	var err error
	if o.def, err = endpointslice.New(ctx, client, o.factory, endpointslice.Options{EventRecorder: o.recorder}); err != nil {
		return nil, err
	}
	if o.secondary, err = secondarynetwork.New(ctx, client, o.factory, secondarynetwork.Options{
		ControllerName: caseControllerName, Common: slicecontroller.Common{EventRecorder: o.recorder},
	}); err != nil {
		return nil, err
	}
	return o, nil
}

// fill replaces the indexers' contents.
func (o *offline) fill(ctx context.Context, w *casefile.World) error {
	replace := func(inf cache.SharedIndexInformer, objs []any) error { return inf.GetIndexer().Replace(objs, "") }
	var svcs, pods, nodes, slices []any
	for _, s := range w.Services() {
		svcs = append(svcs, s)
	}
	for _, p := range w.Pods() {
		pods = append(pods, p)
	}
	for _, n := range w.Nodes() {
		nodes = append(nodes, n)
	}
	list, err := o.client.DiscoveryV1().EndpointSlices("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range list.Items {
		slices = append(slices, &list.Items[i])
	}
	return errors.Join(
		replace(o.factory.Core().V1().Services().Informer(), svcs),
		replace(o.factory.Core().V1().Pods().Informer(), pods),
		replace(o.factory.Core().V1().Nodes().Informer(), nodes),
		replace(o.factory.Discovery().V1().EndpointSlices().Informer(), slices),
	)
}

// pass syncs every Service of w in the default controller, then in the
// secondary one.
func (o *offline) pass(ctx context.Context, w *casefile.World) error {
	var errs []error
	for _, sync := range []func(context.Context, string) error{o.def.SyncService, o.secondary.SyncService} {
		if err := o.fill(ctx, w); err != nil {
			return err
		}
		for _, s := range w.Services() {
			if err := sync(ctx, s.Namespace+"/"+s.Name); err != nil {
				errs = append(errs, fmt.Errorf("service %s/%s: %w", s.Namespace, s.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// offlineBackend returns a casefile backend whose passes run the offline
// controllers (built on the first Settle) and a function returning them.
func offlineBackend() (*casefile.FakeBackend, func() *offline) {
	var o *offline
	b := &casefile.FakeBackend{Sync: func(ctx context.Context, w *casefile.World, client kubernetes.Interface) error {
		if o == nil {
			var err error
			if o, err = newOffline(ctx, client); err != nil {
				return err
			}
		}
		return o.pass(ctx, w)
	}}
	return b, func() *offline { return o }
}

// TestCase19 runs testdata/cases/19-secondary-network-multus: the default
// EndpointSlice controller and the secondary-network controller until
// idle, then compares with expected.yaml and checks the case's assertions
// (no default slice for svc-a, no primary address anywhere).
func TestCase19(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c := casefile.MustLoad(t, "19")
	b, offlineOf := offlineBackend()
	res := casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true})
	casefile.Report(t, res)
	if b.Passes > 2 {
		t.Errorf("the last settle needed %d passes; want at most 2", b.Passes)
	}
	// The problems of the case are reported: pod-a2 has no net-a
	// attachment, pod-a4 no network-status yet.
	o := offlineOf()
	var got []string
	for _, p := range o.secondary.Problems("ns-a", "svc-a") {
		got = append(got, p.Pod.Name+":"+p.Reason)
	}
	want := "pod-a2:NetworkNotAttached pod-a4:NetworkStatusMissing"
	if strings.Join(got, " ") != want {
		t.Errorf("problems = %v, want %s", got, want)
	}
	var warnings int
	for len(o.recorder.Events) > 0 {
		if e := <-o.recorder.Events; strings.HasPrefix(e, corev1.EventTypeWarning) {
			warnings++
		}
	}
	if warnings != 2 {
		t.Errorf("%d Warning events, want 2 (one per problem, once)", warnings)
	}
}

// TestCase19HandOver moves svc-a back to the default controller (label
// removed): the secondary slices go, default slices with primary
// addresses come, and no slice ever holds both; then back again.
func TestCase19HandOver(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c := casefile.MustLoad(t, "19")
	b, _ := offlineBackend()
	if err := b.Load(ctx, c.Input); err != nil {
		t.Fatal(err)
	}
	ref := casefile.Ref{Kind: "Service", Namespace: "ns-a", Name: "svc-a"}
	check := func(step string, wantManagedBy string, wantAddrs string) {
		t.Helper()
		if err := b.Settle(ctx); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		slices, err := b.Slices(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var addrs []string
		for _, s := range slices {
			if s.Labels[discovery.LabelServiceName] != "svc-a" {
				continue
			}
			if mb := s.Labels[discovery.LabelManagedBy]; mb != wantManagedBy {
				t.Errorf("%s: slice %s managed by %s, want only %s", step, s.Name, mb, wantManagedBy)
			}
			primary, secondary := 0, 0
			for _, e := range s.Endpoints {
				for _, a := range e.Addresses {
					addrs = append(addrs, a)
					if strings.HasPrefix(a, "10.0.0.") {
						primary++
					} else {
						secondary++
					}
				}
			}
			if primary > 0 && secondary > 0 {
				t.Errorf("%s: slice %s mixes primary and secondary addresses", step, s.Name)
			}
		}
		sortStrings(addrs)
		if got := strings.Join(addrs, " "); got != wantAddrs {
			t.Errorf("%s: addresses %q, want %q", step, got, wantAddrs)
		}
	}
	check("initial", caseControllerName, "10.0.1.11 10.0.1.13")
	if err := b.Patch(ctx, &casefile.Patch{Ref: ref, Type: "json", Patch: []byte(`[{"op":"remove","path":"/metadata/labels/service.kubernetes.io~1endpoint-controller-name"}]`)}); err != nil {
		t.Fatal(err)
	}
	check("label removed", wellknown.EndpointSliceControllerName, "10.0.0.11 10.0.0.12 10.0.0.13 10.0.0.14")
	if err := b.Patch(ctx, &casefile.Patch{Ref: ref, Patch: []byte(`{"metadata":{"labels":{"service.kubernetes.io/endpoint-controller-name":"secondary.example.com"}}}`)}); err != nil {
		t.Fatal(err)
	}
	check("label back", caseControllerName, "10.0.1.11 10.0.1.13")
	// pod-a4 gets its attachment, pod-a1 loses its.
	if err := b.Patch(ctx, &casefile.Patch{Ref: casefile.Ref{Kind: "Pod", Namespace: "ns-a", Name: "pod-a4"}, Patch: []byte(
		`{"metadata":{"annotations":{"k8s.v1.cni.cncf.io/network-status":"[{\"name\":\"ns-a/net-a\",\"interface\":\"net1\",\"ips\":[\"10.0.1.14\"]}]"}}}`)}); err != nil {
		t.Fatal(err)
	}
	if err := b.Patch(ctx, &casefile.Patch{Ref: casefile.Ref{Kind: "Pod", Namespace: "ns-a", Name: "pod-a1"}, Patch: []byte(
		`{"metadata":{"annotations":{"k8s.v1.cni.cncf.io/network-status":"[{\"name\":\"cluster-default\",\"ips\":[\"10.0.0.11\"],\"default\":true}]"}}}`)}); err != nil {
		t.Fatal(err)
	}
	check("attachments changed", caseControllerName, "10.0.1.13 10.0.1.14")
	// Label set to another controller: nobody of ours writes for svc-a.
	if err := b.Patch(ctx, &casefile.Patch{Ref: ref, Patch: []byte(`{"metadata":{"labels":{"service.kubernetes.io/endpoint-controller-name":"other.example.com"}}}`)}); err != nil {
		t.Fatal(err)
	}
	check("handed to another controller", "none", "")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestCase36 runs testdata/cases/36-selectorless-secondary-network-beside-kcm
// offline with slicekit's EndpointSlice controller and the secondary-network
// controller: after the selector is removed and the Service is labelled and
// annotated (slicekit.dev/selector: app=m), only the secondary-network
// slice remains, with the secondary addresses of the Pods the annotation
// selects.
func TestCase36(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c := casefile.MustLoad(t, "36")
	b, _ := offlineBackend()
	res := casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true})
	casefile.Report(t, res)
	if len(res.Checks) == 0 {
		t.Fatal("no check ran")
	}
}
