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

package reconciler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/pkg/reconciler/metrics"
	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
)

// The API external controllers need: slice name prefix, tracker reset and
// replace, slice sets, the service-name label key, blockOwnerDeletion,
// metric labels, owner label changes.

const clusterLabel = "multicluster.kubernetes.io/source-cluster"

func newExtReconciler(t *testing.T, cfg Config, opts ...Option) (*Reconciler, *fake.Clientset) {
	t.Helper()
	client := reconcilertest.NewClientset()
	if cfg.ControllerName == "" {
		cfg.ControllerName = testController
	}
	cfg.OwnerGVK = ServiceGVK
	cfg.EnforceOwnership = true
	r, err := New(client, cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r, client
}

// syncOwner lists the owner's slices as an informer would and reconciles.
func syncOwner(t *testing.T, r *Reconciler, client *fake.Clientset, owner Owner, desired *Desired) {
	t.Helper()
	ctx := context.Background()
	lister, err := reconcilertest.Lister(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	existing, err := r.OwnerSlices(lister, owner.GetNamespace(), owner.GetName())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Reconcile(ctx, owner, desired, existing, time.Time{}); err != nil {
		t.Fatal(err)
	}
}

func allSlices(t *testing.T, client *fake.Clientset) []discovery.EndpointSlice {
	t.Helper()
	s, err := reconcilertest.Slices(context.Background(), client, "ns", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSliceNamePrefix(t *testing.T) {
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	r, client := newExtReconciler(t, Config{SliceNamePrefix: SliceNamePrefixFunc(func(o Owner, _ string) string { return "linkerd-external-" + o.GetName() + "-" })})
	syncOwner(t, r, client, svc, ipv4(http, eps(2, "10.0.0.")...))
	for _, s := range allSlices(t, client) {
		if !strings.HasPrefix(s.Name, "linkerd-external-svc-") {
			t.Errorf("slice %s: want the prefix linkerd-external-svc-", s.Name)
		}
	}
	bad, _ := newExtReconciler(t, Config{SliceNamePrefix: SliceNamePrefixFunc(func(Owner, string) string { return "Not_Valid-" })})
	if _, err := bad.Plan(context.Background(), svc, ipv4(http), nil); err == nil || !strings.Contains(err.Error(), "invalid prefix") {
		t.Errorf("Plan with an invalid prefix: err = %v, want an invalid prefix error", err)
	}
}

func TestTrackerResetAndReplace(t *testing.T) {
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	r, client := newExtReconciler(t, Config{})
	syncOwner(t, r, client, svc, ipv4(http, eps(2, "10.0.0.")...))
	// Another leader deleted the slice meanwhile: the tracker, which
	// remembers our write, reports a stale cache until it is reset.
	for _, s := range allSlices(t, client) {
		if err := client.DiscoveryV1().EndpointSlices("ns").Delete(context.Background(), s.Name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	lister, _ := reconcilertest.Lister(context.Background(), client)
	if _, err := r.OwnerSlices(lister, "ns", "svc"); !IsStaleInformerCache(err) {
		t.Fatalf("before Reset: err = %v, want a stale cache", err)
	}
	r.Tracker().Reset()
	if _, err := r.OwnerSlices(lister, "ns", "svc"); err != nil {
		t.Fatalf("after Reset: %v", err)
	}

	fresh := NewTracker()
	if err := r.ReplaceTracker(fresh); err != nil {
		t.Fatal(err)
	}
	syncOwner(t, r, client, svc, ipv4(http, eps(1, "10.0.0.")...))
	if r.Tracker() != fresh || !fresh.Has(&allSlices(t, client)[0]) {
		t.Error("writes after ReplaceTracker are not recorded in the new tracker")
	}
	if err := r.ReplaceTracker(NewTrackerForLabels("", clusterLabel)); err == nil {
		t.Error("ReplaceTracker accepted a tracker grouping by another label")
	}
	if err := r.ReplaceTracker(nil); err == nil {
		t.Error("ReplaceTracker accepted nil")
	}
	if _, err := New(client, Config{ControllerName: "x", OwnerGVK: ServiceGVK, SetLabel: clusterLabel}, WithTracker(NewTracker())); err == nil {
		t.Error("New accepted a tracker without the set label of its configuration")
	}
}

func TestSliceSets(t *testing.T) {
	ctx := context.Background()
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	r, client := newExtReconciler(t, Config{SetLabel: clusterLabel, Placeholder: true})
	a, err := r.ForSet("cluster-a")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.ForSet("cluster-b")
	syncOwner(t, a, client, svc, ipv4(http, eps(2, "10.1.0.")...))
	syncOwner(t, b, client, svc, ipv4(http, eps(3, "10.2.0.")...))
	syncOwner(t, a, client, svc, ipv4(http, eps(2, "10.1.0.")...)) // no-op

	perSet := map[string]int{}
	for _, s := range allSlices(t, client) {
		perSet[s.Labels[clusterLabel]] += len(s.Endpoints)
		if s.Labels[discovery.LabelServiceName] != "svc" || s.Labels[discovery.LabelManagedBy] != testController {
			t.Errorf("slice %s labels %v", s.Name, s.Labels)
		}
	}
	if diff := cmp.Diff(map[string]int{"cluster-a": 2, "cluster-b": 3}, perSet); diff != "" {
		t.Errorf("endpoints per set (-want +got):\n%s", diff)
	}
	if n := len(writeVerbs(client)); n != 2 {
		t.Errorf("%d writes, want 2 creates (the third sync is a no-op)", n)
	}

	lister, _ := reconcilertest.Lister(ctx, client)
	sets, err := r.OwnerSets(lister, "ns", "svc")
	if err != nil || fmt.Sprint(sets) != "[cluster-a cluster-b]" {
		t.Errorf("OwnerSets = %v, %v", sets, err)
	}
	all, _ := r.OwnerSlices(lister, "ns", "svc")
	onlyA, _ := a.OwnerSlices(lister, "ns", "svc")
	if len(all) != 2 || len(onlyA) != 1 || onlyA[0].Labels[clusterLabel] != "cluster-a" {
		t.Errorf("OwnerSlices: all %d, set a %d", len(all), len(onlyA))
	}

	// A set's plan never writes another set's slices handed to it.
	p, err := a.Plan(ctx, svc, ipv4(http), all)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ignored) != 1 || p.Ignored[0].Labels[clusterLabel] != "cluster-b" {
		t.Errorf("set a's plan ignores %d slices, want cluster-b's", len(p.Ignored))
	}
	for _, s := range append(p.AddressTypes[0].Update, p.AddressTypes[0].Delete...) {
		if s.Labels[clusterLabel] != "cluster-a" {
			t.Errorf("set a's plan writes %s of set %q", s.Name, s.Labels[clusterLabel])
		}
	}

	// Stale-cache detection per set: b's write not yet in the cache does
	// not hold up a.
	bSlice := onlyB(t, all)
	newer := bSlice.DeepCopy()
	newer.Generation = 9
	r.Tracker().Update(newer)
	if _, err := a.OwnerSlices(lister, "ns", "svc"); err != nil {
		t.Errorf("set a stale because of set b: %v", err)
	}
	if _, err := b.OwnerSlices(lister, "ns", "svc"); !IsStaleInformerCache(err) {
		t.Errorf("set b: err = %v, want a stale cache", err)
	}
	if _, err := r.OwnerSlices(lister, "ns", "svc"); !IsStaleInformerCache(err) {
		t.Errorf("every set: err = %v, want a stale cache", err)
	}
	r.Tracker().Update(bSlice)

	// Cleanup of one set leaves the other.
	if n, err := b.Release(ctx, lister, "ns", "svc"); err != nil || n != 1 {
		t.Fatalf("Release of set b = %d, %v", n, err)
	}
	left := allSlices(t, client)
	if len(left) != 1 || left[0].Labels[clusterLabel] != "cluster-a" {
		t.Errorf("after releasing set b: %d slices left", len(left))
	}

	// Planning needs a set; ForSet checks its input.
	if _, err := r.Plan(ctx, svc, ipv4(http), nil); err == nil {
		t.Error("Plan without a set accepted")
	}
	for _, v := range []string{"", "not a label value"} {
		if _, err := r.ForSet(v); err == nil {
			t.Errorf("ForSet(%q) accepted", v)
		}
	}
	if _, err := a.ForSet("x"); err == nil {
		t.Error("ForSet on a set accepted")
	}
	plain, _ := newExtReconciler(t, Config{})
	if _, err := plain.ForSet("x"); err == nil {
		t.Error("ForSet without SetLabel accepted")
	}
	for _, bad := range []Config{{SetLabel: discovery.LabelServiceName}, {SetLabel: "bad key!"}, {ServiceNameLabel: discovery.LabelManagedBy}, {ServiceNameLabel: "k8s.ovn.org/service-name", SetLabel: "k8s.ovn.org/service-name"}} {
		bad.ControllerName, bad.OwnerGVK = "x", ServiceGVK
		if _, err := New(client, bad); err == nil {
			t.Errorf("New accepted %+v", bad)
		}
	}
}

func onlyB(t *testing.T, slices []*discovery.EndpointSlice) *discovery.EndpointSlice {
	t.Helper()
	for _, s := range slices {
		if s.Labels[clusterLabel] == "cluster-b" {
			return s
		}
	}
	t.Fatal("no slice of set b")
	return nil
}

// TestSetPlansEqualDefault: a set's plan is the default reconciler's (whose
// rules test/differential compares with KCM's reconciler) plus the set
// label, on every TestPlan-like input.
func TestSetPlansEqualDefault(t *testing.T) {
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	old := testService()
	old.UID = "uid-old"
	cases := []struct {
		desired  *Desired
		existing []*discovery.EndpointSlice
	}{
		{ipv4(http), nil},
		{ipv4(http, eps(5, "10.0.0.")...), nil},
		{ipv4(http, eps(1, "10.0.0.")...), []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, eps(2, "10.0.0.")...)}},
		{ipv4(http, eps(4, "10.0.0.")...), []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, eps(1, "10.0.0.")...), existingSlice("svc-b", svc, http, ep("10.0.0.2", true), ep("10.0.0.3", true))}},
		{ipv4(http, ep("10.0.0.1", true)), []*discovery.EndpointSlice{existingSlice("svc-old", old, http, ep("10.0.0.1", true))}},
		{ipv4([]discovery.EndpointPort{tcpPort("http", 8080)}, ep("10.0.0.1", true)), []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, ep("10.0.0.1", true))}},
		{ipv4(http), []*discovery.EndpointSlice{existingSlice("svc-ph", svc, []discovery.EndpointPort{})}},
	}
	for i, tc := range cases {
		def, _ := newTestReconciler(t, 3)
		base, err := New(fake.NewClientset(), Config{ControllerName: testController, OwnerGVK: ServiceGVK, MaxEndpointsPerSlice: 3, Placeholder: true, EnforceOwnership: true, SetLabel: clusterLabel})
		if err != nil {
			t.Fatal(err)
		}
		set, _ := base.ForSet("c1")
		labelled := deepCopySlices(tc.existing)
		for _, s := range labelled {
			s.Labels[clusterLabel] = "c1"
		}
		want, err := def.Plan(context.Background(), svc, tc.desired, tc.existing)
		if err != nil {
			t.Fatal(err)
		}
		got, err := set.Plan(context.Background(), svc, tc.desired, labelled)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*Plan{got} {
			for _, at := range p.AddressTypes {
				for _, s := range append(append(append([]*discovery.EndpointSlice{}, at.Create...), at.Update...), at.Delete...) {
					if s.Labels[clusterLabel] != "c1" {
						t.Errorf("case %d: slice %s without the set label", i, s.Name)
					}
					delete(s.Labels, clusterLabel)
				}
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("case %d: the set's plan differs from the default one beyond the set label (-default +set):\n%s", i, diff)
		}
	}
}

func TestServiceNameLabel(t *testing.T) {
	const key = "k8s.ovn.org/service-name"
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	r, client := newExtReconciler(t, Config{ServiceNameLabel: key})
	syncOwner(t, r, client, svc, ipv4(http, eps(2, "10.0.0.")...))
	syncOwner(t, r, client, svc, ipv4(http, eps(2, "10.0.0.")...))
	slices := allSlices(t, client)
	if len(slices) != 1 {
		t.Fatalf("%d slices, want 1", len(slices))
	}
	if s := slices[0]; s.Labels[key] != "svc" || s.Labels[discovery.LabelServiceName] != "" || s.Labels["app"] != "web" {
		t.Errorf("labels %v: want %s=svc, no %s, the Service's labels", s.Labels, key, discovery.LabelServiceName)
	}
	if n := len(writeVerbs(client)); n != 1 {
		t.Errorf("%d writes, want 1 (the second sync is a no-op)", n)
	}
	if sn, _ := r.Tracker().Labels(); sn != key || !r.Tracker().Has(&slices[0]) {
		t.Errorf("the tracker groups by %q or misses the slice", sn)
	}
	if _, _, _, ok := r.SliceOwner(&slices[0]); !ok {
		t.Error("SliceOwner does not find the owner by the custom key")
	}
}

func TestDisableBlockOwnerDeletion(t *testing.T) {
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	for _, disable := range []bool{false, true} {
		r, client := newExtReconciler(t, Config{DisableBlockOwnerDeletion: disable})
		syncOwner(t, r, client, svc, ipv4(http, eps(1, "10.0.0.")...))
		ref := allSlices(t, client)[0].OwnerReferences[0]
		if got := ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion; got == disable {
			t.Errorf("DisableBlockOwnerDeletion=%v: blockOwnerDeletion %v", disable, ref.BlockOwnerDeletion)
		}
		if ref.Controller == nil || !*ref.Controller || ref.UID != svc.UID {
			t.Errorf("owner reference %+v", ref)
		}
	}
}

// TestOwnerLabelChangeReachesSlices: a label removed from the owner leaves
// its slices at the next sync, though no endpoint changed (KCM C24; the
// differential test randomizes Service labels against KCM's reconciler),
// with the full and the incremental planner, which plans in full when the
// owner's resourceVersion changed even if the caller kept its index.
func TestOwnerLabelChangeReachesSlices(t *testing.T) {
	ctx := context.Background()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	svc := testService()
	svc.ResourceVersion = "1"
	svc.Labels["team"] = "a"
	r, client := newExtReconciler(t, Config{})
	syncOwner(t, r, client, svc, ipv4(http, eps(2, "10.0.0.")...))
	svc2 := svc.DeepCopy()
	svc2.ResourceVersion = "2"
	delete(svc2.Labels, "team")
	syncOwner(t, r, client, svc2, ipv4(http, eps(2, "10.0.0.")...))
	if l := allSlices(t, client)[0].Labels; l["team"] != "" {
		t.Errorf("full planner: label team still on the slice: %v", l)
	}

	// Incremental: the index is set up once and not reset.
	r2, client2 := newExtReconciler(t, Config{})
	x := NewIndex()
	x.Reset([]discovery.AddressType{discovery.AddressTypeIPv4}, Hints{}, "")
	for i, e := range eps(2, "10.0.0.") {
		x.SetItem(fmt.Sprintf("ns/pod-%d", i), &Item{Ports: http, Endpoints: []ItemEndpoint{{AddressType: discovery.AddressTypeIPv4, Endpoint: e}}})
	}
	plan := func(owner Owner) string {
		lister, _ := reconcilertest.Lister(ctx, client2)
		existing, err := r2.OwnerSlices(lister, "ns", "svc")
		if err != nil {
			t.Fatal(err)
		}
		p, d, reason, err := r2.PlanIndexed(ctx, owner, x, existing)
		if err != nil {
			t.Fatal(err)
		}
		if err := r2.Apply(ctx, owner, p, d, time.Time{}); err != nil {
			t.Fatal(err)
		}
		return reason
	}
	plan(svc)
	if reason := plan(svc); reason != "" {
		t.Errorf("unchanged owner planned in full (%s)", reason)
	}
	if reason := plan(svc2); reason != FullReasonOwner {
		t.Errorf("changed owner: reason %q, want %q", reason, FullReasonOwner)
	}
	if l := allSlices(t, client2)[0].Labels; l["team"] != "" {
		t.Errorf("incremental planner: label team still on the slice: %v", l)
	}
}

func TestMetricsConstLabelsTwoReconcilers(t *testing.T) {
	reg := prometheus.NewRegistry()
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	var rs []*Reconciler
	var clients []*fake.Clientset
	for _, name := range []string{"linkerd", "cilium"} {
		m, err := metrics.NewWithConstLabels(reg, metrics.Options{}, prometheus.Labels{"controller": name})
		if err != nil {
			t.Fatalf("metrics of %s: %v", name, err)
		}
		r, c := newExtReconciler(t, Config{ControllerName: name + ".example.com"}, WithMetrics(m))
		rs, clients = append(rs, r), append(clients, c)
	}
	syncOwner(t, rs[0], clients[0], svc, ipv4(http, eps(2, "10.0.0.")...))
	syncOwner(t, rs[1], clients[1], svc, ipv4(http, eps(250, "10.0.1.")...))
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "endpoint_slice_controller_endpoints_desired" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				got[l.GetValue()] = m.GetGauge().GetValue()
			}
		}
	}
	if diff := cmp.Diff(map[string]float64{"linkerd": 2, "cilium": 250}, got); diff != "" {
		t.Errorf("endpoints_desired per controller (-want +got):\n%s", diff)
	}
	if _, err := metrics.NewWithConstLabels(reg, metrics.Options{}, prometheus.Labels{"controller": "linkerd"}); !errors.As(err, new(prometheus.AlreadyRegisteredError)) {
		t.Errorf("same constant labels twice: err = %v, want AlreadyRegisteredError", err)
	}
}

var _ = corev1.ProtocolTCP
