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
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"
)

const testController = "endpointslice-controller.k8s.io"

func testService() *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: "ns", UID: "uid-svc", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.ServiceSpec{ClusterIP: "10.96.0.10", Selector: map[string]string{"app": "web"}},
	}
}

func tcpPort(name string, port int32) discovery.EndpointPort {
	return discovery.EndpointPort{Name: ptr.To(name), Port: ptr.To(port), Protocol: ptr.To(corev1.ProtocolTCP)}
}

func ep(ip string, ready bool) discovery.Endpoint {
	return discovery.Endpoint{
		Addresses:  []string{ip},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(ready), Serving: ptr.To(ready), Terminating: ptr.To(false)},
		TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "pod-" + ip},
	}
}

func eps(n int, prefix string) []discovery.Endpoint {
	out := make([]discovery.Endpoint, n)
	for i := range out {
		out[i] = ep(fmt.Sprintf("%s%d", prefix, i+1), true)
	}
	return out
}

func ipv4(ports []discovery.EndpointPort, endpoints ...discovery.Endpoint) *Desired {
	return &Desired{
		AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4},
		Groups:       []EndpointGroup{{AddressType: discovery.AddressTypeIPv4, Ports: ports, Endpoints: endpoints}},
	}
}

// existingSlice builds a slice as our reconciler would have written it.
func existingSlice(name string, svc *corev1.Service, ports []discovery.EndpointPort, endpoints ...discovery.Endpoint) *discovery.EndpointSlice {
	labels, _ := ServiceMetadata{}.Labels(context.Background(), svc, nil)
	labels[discovery.LabelManagedBy] = testController
	if endpoints == nil {
		endpoints = []discovery.Endpoint{}
	}
	return &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: svc.Namespace, UID: types.UID("uid-" + name), Generation: 1, Labels: labels,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(svc, ServiceGVK)},
		},
		AddressType: discovery.AddressTypeIPv4,
		Ports:       ports,
		Endpoints:   endpoints,
	}
}

func newTestReconciler(t testing.TB, max int32, objs ...*discovery.EndpointSlice) (*Reconciler, *fake.Clientset) {
	t.Helper()
	client := fake.NewClientset()
	// The fake clientset neither names generateName objects nor bumps
	// generation; the apiserver does both (KCM's tests add the same).
	n := 0
	client.PrependReactor("create", "endpointslices", func(a k8stesting.Action) (bool, runtime.Object, error) {
		s := a.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice)
		if s.Name == "" && s.GenerateName != "" {
			n++
			s.Name = fmt.Sprintf("%s%05d", s.GenerateName, n)
		}
		s.Generation = 1
		return false, nil, nil
	})
	client.PrependReactor("update", "endpointslices", func(a k8stesting.Action) (bool, runtime.Object, error) {
		s := a.(k8stesting.UpdateAction).GetObject().(*discovery.EndpointSlice)
		s.Generation++
		return false, nil, nil
	})
	for _, o := range objs {
		if err := client.Tracker().Add(o.DeepCopy()); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(client, Config{ControllerName: testController, OwnerGVK: ServiceGVK, MaxEndpointsPerSlice: max, Placeholder: true, EnforceOwnership: true})
	if err != nil {
		t.Fatal(err)
	}
	return r, client
}

type planShape struct {
	Create, Update, Delete []int // endpoint counts per slice
	UpdateNames            []string
	DeleteNames            []string
	Unsupported            []string
	Ignored                []string
}

func shapeOf(p *Plan) planShape {
	var s planShape
	for _, at := range p.AddressTypes {
		for _, c := range at.Create {
			s.Create = append(s.Create, len(c.Endpoints))
		}
		for _, u := range at.Update {
			s.Update = append(s.Update, len(u.Endpoints))
			s.UpdateNames = append(s.UpdateNames, u.Name)
		}
		for _, d := range at.Delete {
			s.Delete = append(s.Delete, len(d.Endpoints))
			s.DeleteNames = append(s.DeleteNames, d.Name)
		}
	}
	for _, d := range p.DeleteUnsupported {
		s.Unsupported = append(s.Unsupported, d.Name)
	}
	for _, d := range p.Ignored {
		s.Ignored = append(s.Ignored, d.Name)
	}
	return s
}

func TestPlan(t *testing.T) {
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	other := testService()
	other.UID = "uid-old"
	placeholder := existingSlice("svc-ph", svc, []discovery.EndpointPort{})
	foreign := existingSlice("svc-foreign", svc, http, ep("10.0.0.9", true))
	foreign.Labels[discovery.LabelManagedBy] = "custom-ctrl.example.com"
	ipv6 := existingSlice("svc-v6", svc, http, ep("fd00::1", true))
	ipv6.AddressType = discovery.AddressTypeIPv6
	drifted := existingSlice("svc-a", svc, http, ep("10.0.0.1", true))
	drifted.Labels["app"] = "old"

	tests := []struct {
		name     string
		max      int32
		desired  *Desired
		existing []*discovery.EndpointSlice
		want     planShape
	}{
		{name: "no endpoints: one placeholder (C27)", max: 100, desired: ipv4(http), want: planShape{Create: []int{0}}},
		{name: "dual stack, no endpoints: two placeholders (E13)", max: 100,
			desired: &Desired{AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}},
			want:    planShape{Create: []int{0, 0}}},
		{name: "identical placeholder kept", max: 100, desired: ipv4(http), existing: []*discovery.EndpointSlice{placeholder}},
		{name: "placeholder of a deleted Service of the same name replaced (upstream PR #141593; KCM v1.37.2 keeps it)", max: 100, desired: ipv4(http),
			existing: []*discovery.EndpointSlice{existingSlice("svc-ph-old", other, []discovery.EndpointPort{})},
			want:     planShape{Create: []int{0}, Delete: []int{0}, DeleteNames: []string{"svc-ph-old"}}},
		{name: "placeholder recycled when endpoints appear (C27, C32)", max: 100, desired: ipv4(http, eps(2, "10.0.0.")...),
			existing: []*discovery.EndpointSlice{placeholder}, want: planShape{Update: []int{2}, UpdateNames: []string{"svc-ph"}}},
		{name: "packing: 5 endpoints at max 2 → 3 creates (C30)", max: 2, desired: ipv4(http, eps(5, "10.0.0.")...),
			want: planShape{Create: []int{2, 2, 1}}},
		{name: "unchanged slice: no writes", max: 100, desired: ipv4(http, eps(2, "10.0.0.")...),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, eps(2, "10.0.0.")...)}},
		{name: "endpoint removed: update (C28)", max: 100, desired: ipv4(http, eps(1, "10.0.0.")...),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, eps(2, "10.0.0.")...)},
			want:     planShape{Update: []int{1}, UpdateNames: []string{"svc-a"}}},
		{name: "condition changed: update in place (C21)", max: 100, desired: ipv4(http, ep("10.0.0.1", false)),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, ep("10.0.0.1", true))},
			want:     planShape{Update: []int{1}, UpdateNames: []string{"svc-a"}}},
		{name: "slice emptied while another remains: delete (C28)", max: 100, desired: ipv4(http, ep("10.0.0.2", true)),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, ep("10.0.0.1", true)), existingSlice("svc-b", svc, http, ep("10.0.0.2", true))},
			want:     planShape{Delete: []int{1}, DeleteNames: []string{"svc-a"}}},
		{name: "new endpoint fills the closest-to-full unchanged slice (C30)", max: 3, desired: ipv4(http, eps(4, "10.0.0.")...),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, eps(1, "10.0.0.")...), existingSlice("svc-b", svc, http, ep("10.0.0.2", true), ep("10.0.0.3", true))},
			want:     planShape{Update: []int{3}, UpdateNames: []string{"svc-b"}}},
		{name: "new endpoints fill slices already updated, fullest first (C29)", max: 3,
			desired: ipv4(http, ep("10.0.0.1", false), ep("10.0.0.2", true), ep("10.0.0.3", true), ep("10.0.0.4", true), ep("10.0.0.9", true)),
			existing: []*discovery.EndpointSlice{
				existingSlice("svc-a", svc, http, ep("10.0.0.1", true)),
				existingSlice("svc-b", svc, http, ep("10.0.0.2", true), ep("10.0.0.3", true), ep("10.0.0.5", true))},
			want: planShape{Update: []int{3, 2}, UpdateNames: []string{"svc-b", "svc-a"}}},
		{name: "labels drifted: update (C24)", max: 100, desired: ipv4(http, ep("10.0.0.1", true)),
			existing: []*discovery.EndpointSlice{drifted}, want: planShape{Update: []int{1}, UpdateNames: []string{"svc-a"}}},
		{name: "stale owner UID: deleted, not recycled (C23, E16)", max: 100, desired: ipv4(http, ep("10.0.0.1", true)),
			existing: []*discovery.EndpointSlice{existingSlice("svc-old", other, http, ep("10.0.0.1", true))},
			want:     planShape{Create: []int{1}, Delete: []int{1}, DeleteNames: []string{"svc-old"}}},
		{name: "port group gone: create+delete recycled into update (C31, C32)", max: 100, desired: ipv4([]discovery.EndpointPort{tcpPort("http", 8080)}, ep("10.0.0.1", true)),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, ep("10.0.0.1", true))},
			want:     planShape{Update: []int{1}, UpdateNames: []string{"svc-a"}}},
		{name: "unsupported address type deleted (C15)", max: 100, desired: ipv4(http, ep("10.0.0.1", true)),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, ep("10.0.0.1", true)), ipv6},
			want:     planShape{Unsupported: []string{"svc-v6"}}},
		{name: "foreign managed-by never written", max: 100, desired: ipv4(http, ep("10.0.0.1", true)),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, ep("10.0.0.1", true)), foreign},
			want:     planShape{Ignored: []string{"svc-foreign"}}},
		{name: "duplicate endpoint across slices: the second copy goes", max: 100, desired: ipv4(http, ep("10.0.0.1", true)),
			existing: []*discovery.EndpointSlice{existingSlice("svc-a", svc, http, ep("10.0.0.1", true)), existingSlice("svc-b", svc, http, ep("10.0.0.1", true))},
			want:     planShape{Delete: []int{1}, DeleteNames: []string{"svc-b"}}},
		{name: "endpoint without addresses ignored", max: 100, desired: ipv4(http, discovery.Endpoint{}),
			want: planShape{Create: []int{0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := newTestReconciler(t, tc.max)
			before := deepCopySlices(tc.existing)
			p, err := r.Plan(context.Background(), svc, tc.desired, tc.existing)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, shapeOf(p)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tc.existing, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Plan mutated its input slices (-before +after):\n%s", diff)
			}
			again, _ := r.Plan(context.Background(), svc, tc.desired, tc.existing)
			if diff := cmp.Diff(p, again); diff != "" {
				t.Errorf("Plan is not deterministic:\n%s", diff)
			}
		})
	}
}

func deepCopySlices(in []*discovery.EndpointSlice) []*discovery.EndpointSlice {
	out := make([]*discovery.EndpointSlice, len(in))
	for i, s := range in {
		out[i] = s.DeepCopy()
	}
	return out
}

func TestNewValidates(t *testing.T) {
	client := fake.NewClientset()
	for _, cfg := range []Config{
		{OwnerGVK: ServiceGVK},
		{ControllerName: "x", OwnerGVK: ServiceGVK, MaxEndpointsPerSlice: 1001},
		{ControllerName: "x"},
		{ControllerName: "not a label value!", OwnerGVK: ServiceGVK},
	} {
		if _, err := New(client, cfg); err == nil {
			t.Errorf("New(%+v) = nil error, want error", cfg)
		}
	}
	if _, err := New(nil, Config{ControllerName: "x", OwnerGVK: ServiceGVK}); err == nil {
		t.Error("New(nil client) = nil error")
	}
}

func writeVerbs(client *fake.Clientset) []string {
	var out []string
	for _, a := range client.Actions() {
		if a.GetResource().Resource != "endpointslices" {
			continue
		}
		switch a.GetVerb() {
		case "create", "update", "delete":
			name := ""
			switch a.GetVerb() {
			case "create":
				name = a.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice).GenerateName
			case "update":
				name = a.(k8stesting.UpdateAction).GetObject().(*discovery.EndpointSlice).Name
			case "delete":
				name = a.(k8stesting.DeleteAction).GetName()
			}
			out = append(out, a.GetVerb()+" "+name)
		}
	}
	return out
}

func TestApplyOrderAndTriggerTime(t *testing.T) {
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	a := existingSlice("svc-a", svc, http, eps(2, "10.0.0.")...)
	old := testService()
	old.UID = "uid-old"
	e := existingSlice("svc-e", old, http, ep("10.0.5.1", true))
	r, client := newTestReconciler(t, 2, a, e)
	// a keeps its endpoints (one changed) and is full; three new endpoints
	// need two new slices; e belongs to an older Service of the same name
	// and is deleted, not recycled. Order: creates, updates, deletes (C32).
	desired := ipv4(http, append(eps(2, "10.0.0."), eps(3, "10.0.9.")...)...)
	desired.Groups[0].Endpoints[0].Conditions.Ready = ptr.To(false)
	existingInput := []*discovery.EndpointSlice{a, e}
	trigger := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	if err := r.Reconcile(context.Background(), svc, desired, existingInput, trigger); err != nil {
		t.Fatal(err)
	}
	got := writeVerbs(client)
	want := []string{"create svc-", "create svc-", "update svc-a", "delete svc-e"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	list, _ := client.DiscoveryV1().EndpointSlices("ns").List(context.Background(), metav1.ListOptions{})
	for _, s := range list.Items {
		if s.Annotations[corev1.EndpointsLastChangeTriggerTime] != "2026-01-02T03:04:05.000000006Z" {
			t.Errorf("slice %s trigger time = %q", s.Name, s.Annotations[corev1.EndpointsLastChangeTriggerTime])
		}
	}

	// A zero trigger time clears the annotation on the next write.
	client.ClearActions()
	var existing []*discovery.EndpointSlice
	for i := range list.Items {
		existing = append(existing, &list.Items[i])
	}
	if err := r.Reconcile(context.Background(), svc, ipv4(http, eps(1, "10.0.0.")...), existing, time.Time{}); err != nil {
		t.Fatal(err)
	}
	list, _ = client.DiscoveryV1().EndpointSlices("ns").List(context.Background(), metav1.ListOptions{})
	for _, s := range list.Items {
		if _, ok := s.Annotations[corev1.EndpointsLastChangeTriggerTime]; ok {
			t.Errorf("slice %s still has a trigger time", s.Name)
		}
	}
}

func TestApplySkipsCreatesWhileOwnerDeleting(t *testing.T) {
	svc := testService()
	svc.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	r, client := newTestReconciler(t, 100)
	if err := r.Reconcile(context.Background(), svc, ipv4(nil, ep("10.0.0.1", true)), nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := writeVerbs(client); len(got) != 0 {
		t.Errorf("writes = %v, want none", got)
	}
}

func TestTrackerToleratesNoOpWrites(t *testing.T) {
	tr := NewTracker()
	s := existingSlice("svc-a", testService(), nil)
	s.Generation = 3
	tr.Update(s)
	// A no-op update returns the same generation: the cache holding it is
	// not stale (edge case E5).
	if tr.StaleSlices("ns", "svc", []*discovery.EndpointSlice{s}) {
		t.Error("same generation reported stale")
	}
	older := s.DeepCopy()
	older.Generation = 2
	if !tr.StaleSlices("ns", "svc", []*discovery.EndpointSlice{older}) {
		t.Error("older generation not reported stale")
	}
	if !tr.StaleSlices("ns", "svc", nil) {
		t.Error("missing tracked slice not reported stale")
	}
	if tr.ShouldSync(s) {
		t.Error("our own write should not need a sync")
	}
	newer := s.DeepCopy()
	newer.Generation = 4
	if !tr.ShouldSync(newer) {
		t.Error("a newer generation needs a sync")
	}
	tr.ExpectDeletion(s)
	if !tr.StaleSlices("ns", "svc", []*discovery.EndpointSlice{s}) {
		t.Error("a slice we deleted still listed must be stale")
	}
	if !tr.HandleDeletion(s) {
		t.Error("expected deletion reported unexpected")
	}
	tr.Update(newer)
	if tr.HandleDeletion(newer) {
		t.Error("deletion by someone else reported expected")
	}
}

func TestEndpointsMetadata(t *testing.T) {
	eps := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{
		Name: "svc", Namespace: "ns",
		Labels:      map[string]string{"a": "1"},
		Annotations: map[string]string{"x": "y", corev1.EndpointsLastChangeTriggerTime: "t", corev1.LastAppliedConfigAnnotation: "{}"},
	}}
	labels, changed := EndpointsMetadata{}.Labels(context.Background(), eps, map[string]string{"a": "1", discovery.LabelServiceName: "svc", discovery.LabelManagedBy: "m"})
	if changed || labels["a"] != "1" || labels[discovery.LabelServiceName] != "svc" {
		t.Errorf("labels = %v changed=%v", labels, changed)
	}
	ann, changed := EndpointsMetadata{}.Annotations(context.Background(), eps, map[string]string{"x": "y", corev1.EndpointsLastChangeTriggerTime: "old"})
	if changed || len(ann) != 1 || ann["x"] != "y" {
		t.Errorf("annotations = %v changed=%v", ann, changed)
	}
	if _, changed := (EndpointsMetadata{}).Annotations(context.Background(), eps, nil); !changed {
		t.Error("missing annotation not detected")
	}
}

func TestServiceMetadataHeadlessAndReserved(t *testing.T) {
	svc := testService()
	svc.Spec.ClusterIP = corev1.ClusterIPNone
	svc.Labels[discovery.LabelManagedBy] = "evil"
	svc.Labels[discovery.LabelServiceName] = "evil"
	labels, _ := ServiceMetadata{}.Labels(context.Background(), svc, nil)
	want := map[string]string{"app": "web", discovery.LabelServiceName: "svc", corev1.IsHeadlessService: ""}
	if diff := cmp.Diff(want, labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}

func TestPortMapKeyOrderInsensitive(t *testing.T) {
	a := []discovery.EndpointPort{tcpPort("a", 1), tcpPort("b", 2)}
	b := []discovery.EndpointPort{tcpPort("b", 2), tcpPort("a", 1)}
	if PortMapKey(a) != PortMapKey(b) {
		t.Error("order changed the key")
	}
	if PortMapKey(nil) != PortMapKey([]discovery.EndpointPort{}) {
		t.Error("nil and empty differ")
	}
	c := []discovery.EndpointPort{{Name: ptr.To("a"), Port: ptr.To[int32](1)}}
	if PortMapKey(c) == PortMapKey(a[:1]) {
		t.Error("nil protocol equals TCP")
	}
}

func TestPlanAdoptsStaleOwnerWithoutEnforcedOwnership(t *testing.T) {
	svc := testService()
	old := testService()
	old.UID = "uid-old"
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	r, err := New(fake.NewClientset(), Config{ControllerName: testController, OwnerGVK: ServiceGVK})
	if err != nil {
		t.Fatal(err)
	}
	stale := existingSlice("svc-old", old, http, ep("10.0.0.1", true))
	p, err := r.Plan(context.Background(), svc, ipv4(http, ep("10.0.0.1", true)), []*discovery.EndpointSlice{stale})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(planShape{Update: []int{1}, UpdateNames: []string{"svc-old"}}, shapeOf(p)); diff != "" {
		t.Fatalf("plan (-want +got):\n%s", diff)
	}
	refs := p.AddressTypes[0].Update[0].OwnerReferences
	if len(refs) != 1 || refs[0].UID != svc.UID || refs[0].Controller == nil || !*refs[0].Controller {
		t.Errorf("owner references = %+v, want one controller reference to %s", refs, svc.UID)
	}
	if stale.OwnerReferences[0].UID != "uid-old" {
		t.Error("input slice mutated")
	}
}

func TestPlanPlaceholderMissingLabelEqualsEmpty(t *testing.T) {
	svc := testService()
	svc.Spec.ClusterIP = corev1.ClusterIPNone
	ph := existingSlice("svc-ph", svc, []discovery.EndpointPort{})
	delete(ph.Labels, corev1.IsHeadlessService) // KCM: missing equals ""
	r, _ := newTestReconciler(t, 100)
	p, err := r.Plan(context.Background(), svc, ipv4(nil), []*discovery.EndpointSlice{ph})
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Writes(); n != 0 {
		t.Errorf("writes = %d, want 0 (placeholder kept as KCM keeps it): %+v", n, shapeOf(p))
	}
}

func TestPlanDropsManagedFieldsFromUpdates(t *testing.T) {
	svc := testService()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	s := existingSlice("svc-a", svc, http, eps(2, "10.0.0.")...)
	s.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "endpointslice-controller.k8s.io", Operation: metav1.ManagedFieldsOperationUpdate}}
	r, _ := newTestReconciler(t, 100)
	p, err := r.Plan(context.Background(), svc, ipv4(http, eps(1, "10.0.0.")...), []*discovery.EndpointSlice{s})
	if err != nil {
		t.Fatal(err)
	}
	if u := p.AddressTypes[0].Update; len(u) != 1 || u[0].ManagedFields != nil {
		t.Fatalf("update = %+v, want one update without managedFields", u)
	}
	if s.ManagedFields == nil {
		t.Error("input slice mutated")
	}
}
