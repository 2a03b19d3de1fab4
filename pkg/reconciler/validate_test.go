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

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ktypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
)

// A caller's mistake is an error wrapping ErrInvalidInput, before any
// write; never a panic, and never a plan that deletes the owner's slices.
// Each case panicked, or planned the deletion of every slice, or sent a
// slice the API server refuses, before these checks.
func TestInvalidInput(t *testing.T) {
	ctx := context.Background()
	http := []discovery.EndpointPort{tcpPort("http", 80)}
	var nilService *corev1.Service
	withAddr := func(at discovery.AddressType, addrs ...string) *Desired {
		e := ep("10.0.0.1", true)
		e.Addresses = addrs
		return &Desired{AddressTypes: []discovery.AddressType{at}, Groups: []EndpointGroup{{AddressType: at, Ports: http, Endpoints: []discovery.Endpoint{e}}}}
	}
	withHostname := func(h string) *Desired {
		d := withAddr(discovery.AddressTypeIPv4, "10.0.0.1")
		d.Groups[0].Endpoints[0].Hostname = ptr.To(h)
		return d
	}
	withEndpoint := func(edit func(*discovery.Endpoint)) *Desired {
		d := withAddr(discovery.AddressTypeIPv4, "10.0.0.1")
		edit(&d.Groups[0].Endpoints[0])
		return d
	}
	withPorts := func(ports ...discovery.EndpointPort) *Desired {
		d := withAddr(discovery.AddressTypeIPv4, "10.0.0.1")
		d.Groups[0].Ports = ports
		return d
	}
	ipv6 := discovery.AddressTypeIPv6
	fqdn := discovery.AddressTypeFQDN
	ip4 := discovery.AddressTypeIPv4
	cases := []struct {
		name    string
		owner   Owner
		desired *Desired
		wantErr string // "" for a valid input
	}{
		{"valid IPv4", testService(), withAddr(ip4, "10.0.0.1"), ""},
		{"valid IPv6 canonical", testService(), withAddr(ipv6, "fd00::1"), ""},
		{"valid FQDN", testService(), withAddr(fqdn, "db.example.com"), ""},
		{"legacy IPv4 with leading zero (non-strict servers accept it)", testService(), withAddr(ip4, "010.0.0.1"), ""},
		{"no address types: the owner has no slices", testService(), &Desired{}, ""},
		{"endpoint without addresses is ignored", testService(), withAddr(ip4), ""},
		{"group of an address type not listed is ignored", testService(), &Desired{AddressTypes: []discovery.AddressType{ip4}, Groups: []EndpointGroup{{AddressType: ipv6, Endpoints: []discovery.Endpoint{{Addresses: []string{"not-an-ip"}}}}}}, ""},

		{"nil owner", nil, withAddr(ip4, "10.0.0.1"), "owner is nil"},
		{"typed nil owner", nilService, withAddr(ip4, "10.0.0.1"), "owner is nil"},
		{"owner without name", &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", UID: "u"}}, withAddr(ip4, "10.0.0.1"), "needs a namespace and a name"},
		{"owner without namespace", &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "svc", UID: "u"}}, withAddr(ip4, "10.0.0.1"), "needs a namespace and a name"},
		{"nil desired", testService(), nil, "desired is nil"},
		{"unsupported address type", testService(), &Desired{AddressTypes: []discovery.AddressType{"Bogus"}}, `address type "Bogus"`},
		{"not an IP", testService(), withAddr(ip4, "not-an-ip"), "must be a valid IP address"},
		{"three octets", testService(), withAddr(ip4, "10.0.1"), "must be a valid IP address"},
		{"IPv6 in an IPv4 slice", testService(), withAddr(ip4, "fd00::1"), "must be an IPv4 address"},
		{"IPv4 in an IPv6 slice", testService(), withAddr(ipv6, "10.0.0.1"), "must be an IPv6 address"},
		{"IPv6 not canonical", testService(), withAddr(ipv6, "fd00::0"), "canonical form"},
		{"loopback", testService(), withAddr(ip4, "127.0.0.1"), "loopback"},
		{"IPv6 loopback", testService(), withAddr(ipv6, "::1"), "loopback"},
		{"unspecified", testService(), withAddr(ip4, "0.0.0.0"), "unspecified"},
		{"link-local", testService(), withAddr(ip4, "169.254.1.1"), "link-local"},
		{"link-local multicast", testService(), withAddr(ip4, "224.0.0.5"), "link-local multicast"},
		{"FQDN not a domain name", testService(), withAddr(fqdn, "Not_A_Name"), "fqdn"},
		{"hostname not a DNS label", testService(), withHostname("a.b"), "hostname"},
		// Each below was written (or planned) and refused by the API
		// server, or deleted every slice, before it was refused here.
		{"group without address type", testService(), &Desired{AddressTypes: []discovery.AddressType{ip4}, Groups: []EndpointGroup{{Ports: http, Endpoints: []discovery.Endpoint{ep("10.0.0.1", true)}}}}, `group 0: address type ""`},
		{"group address type misspelt", testService(), &Desired{AddressTypes: []discovery.AddressType{ip4}, Groups: []EndpointGroup{{AddressType: "IPV4", Endpoints: []discovery.Endpoint{ep("10.0.0.1", true)}}}}, `address type "IPV4"`},
		{"owner without UID", &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}}, withAddr(ip4, "10.0.0.1"), "has no UID"},
		{"owner name longer than a label value", &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: strings.Repeat("a", 64), UID: "u"}}, withAddr(ip4, "10.0.0.1"), "not a label value"},
		{"node name not a DNS subdomain", testService(), withEndpoint(func(e *discovery.Endpoint) { e.NodeName = ptr.To("Bad_Node!") }), "nodeName"},
		{"101 addresses", testService(), withEndpoint(func(e *discovery.Endpoint) {
			e.Addresses = nil
			for i := range 101 {
				e.Addresses = append(e.Addresses, fmt.Sprintf("10.0.%d.%d", i/200, i%200+1))
			}
		}), "addresses: Too many: 101"},
		{"nine zone hints", testService(), withEndpoint(func(e *discovery.Endpoint) {
			e.Hints = &discovery.EndpointHints{}
			for i := range 9 {
				e.Hints.ForZones = append(e.Hints.ForZones, discovery.ForZone{Name: fmt.Sprintf("z%d", i)})
			}
		}), "hints.forZones: Too many"},
		{"zone hint twice", testService(), withEndpoint(func(e *discovery.Endpoint) {
			e.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "a"}, {Name: "a"}}}
		}), "Duplicate value"},
		{"node hint not a node name", testService(), withEndpoint(func(e *discovery.Endpoint) {
			e.Hints = &discovery.EndpointHints{ForNodes: []discovery.ForNode{{Name: "Bad_Node"}}}
		}), "hints.forNodes[0].name"},
		{"port name not a DNS label", testService(), withPorts(discovery.EndpointPort{Name: ptr.To("HTTP_X"), Port: ptr.To[int32](80)}), "ports[0].name"},
		{"port name twice", testService(), withPorts(tcpPort("http", 80), tcpPort("http", 81)), "ports[1].name: Duplicate value"},
		{"two unnamed ports", testService(), withPorts(discovery.EndpointPort{Port: ptr.To[int32](80)}, discovery.EndpointPort{Name: ptr.To(""), Port: ptr.To[int32](81)}), "ports[1].name: Duplicate value"},
		{"port protocol not supported", testService(), withPorts(discovery.EndpointPort{Name: ptr.To("p"), Protocol: ptr.To(corev1.Protocol("BOGUS"))}), "ports[0].protocol: Unsupported value"},
		{"appProtocol not a qualified name", testService(), withPorts(discovery.EndpointPort{Name: ptr.To("p"), AppProtocol: ptr.To("bad proto")}), "ports[0].appProtocol"},
		{"existing slice of another namespace", testService(), withAddr(ip4, "10.0.0.1"), "is in another namespace"},
		{"valid ports and hints", testService(), func() *Desired {
			d := withPorts(tcpPort("http", 80), discovery.EndpointPort{Port: ptr.To[int32](70000), AppProtocol: ptr.To("kubernetes.io/h2c")})
			d.Groups[0].Endpoints[0].NodeName = ptr.To("node-1.example")
			d.Groups[0].Endpoints[0].Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}, ForNodes: []discovery.ForNode{{Name: "node-1.example"}}}
			return d
		}(), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := newExtReconciler(t, Config{})
			sliceNS := "ns"
			if strings.Contains(tc.name, "another namespace") {
				sliceNS = "other"
			}
			existing := []*discovery.EndpointSlice{{
				ObjectMeta: metav1.ObjectMeta{Name: "svc-abc", Namespace: sliceNS, Labels: map[string]string{
					discovery.LabelServiceName: "svc", discovery.LabelManagedBy: testController}},
				AddressType: discovery.AddressTypeIPv4,
			}}
			plan, err := r.Plan(ctx, tc.owner, tc.desired, existing)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Plan: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Plan returned no error (plan: %d writes), want one containing %q", plan.Writes(), tc.wantErr)
			}
			if !errors.Is(err, ErrInvalidInput) || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.wantErr)) {
				t.Fatalf("Plan error %q: want one wrapping ErrInvalidInput containing %q", err, tc.wantErr)
			}
			// Reconcile refuses it the same way, before any write.
			if err := r.Reconcile(ctx, tc.owner, tc.desired, existing, time.Time{}); !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("Reconcile error %v: want ErrInvalidInput", err)
			}
		})
	}
}

// PlanIndexed refuses an index never Reset (it would plan the deletion of
// every slice: it has no address types), one Reset with an unsupported
// address type, and one holding an item whose endpoint the API server
// would refuse, until that item is set again.
func TestPlanIndexedInvalidInput(t *testing.T) {
	ctx := context.Background()
	r, _ := newExtReconciler(t, Config{})
	svc := testService()
	ports := []discovery.EndpointPort{tcpPort("http", 80)}
	item := func(addr string) *Item {
		return &Item{Ports: ports, Endpoints: []ItemEndpoint{{AddressType: discovery.AddressTypeIPv4, Endpoint: ep(addr, true)}}}
	}
	existing := []*discovery.EndpointSlice{{
		ObjectMeta: metav1.ObjectMeta{Name: "svc-abc", Namespace: "ns", Labels: map[string]string{
			discovery.LabelServiceName: "svc", discovery.LabelManagedBy: testController}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{ep("10.0.0.1", true)},
		Ports:       ports,
	}}
	expectInvalid := func(x *Index, want string) {
		t.Helper()
		plan, _, _, err := r.PlanIndexed(ctx, svc, x, existing)
		if err == nil {
			t.Fatalf("PlanIndexed returned no error (plan: %d writes), want %q", plan.Writes(), want)
		}
		if !errors.Is(err, ErrInvalidInput) || !strings.Contains(err.Error(), want) {
			t.Fatalf("PlanIndexed error %q: want ErrInvalidInput containing %q", err, want)
		}
	}

	expectInvalid(NewIndex(), "never Reset")
	var zero Index
	zero.SetItem("ns/pod-a", item("10.0.0.1")) // must not panic
	expectInvalid(&zero, "never Reset")
	if _, _, _, err := r.PlanIndexed(ctx, svc, nil, existing); !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("nil index: %v", err)
	}
	var nilService *corev1.Service
	if _, _, _, err := r.PlanIndexed(ctx, nilService, NewIndex(), existing); !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("typed nil owner: %v", err)
	}

	bad := NewIndex()
	bad.Reset([]discovery.AddressType{"Bogus"}, Hints{}, "")
	expectInvalid(bad, `address type "Bogus"`)

	x := NewIndex()
	x.Reset([]discovery.AddressType{discovery.AddressTypeIPv4}, Hints{}, "")
	x.SetItem("ns/pod-a", item("10.0.0.1"))
	x.SetItem("ns/pod-b", item("127.0.0.1"))
	expectInvalid(x, `item "ns/pod-b"`)
	x.SetItem("ns/pod-b", item("10.0.0.2"))
	badPorts := item("10.0.0.3")
	badPorts.Ports = []discovery.EndpointPort{tcpPort("http", 80), tcpPort("http", 81)}
	x.SetItem("ns/pod-c", badPorts)
	expectInvalid(x, "ports[1].name: Duplicate value")
	x.SetItem("ns/pod-c", nil)
	plan, _, _, err := r.PlanIndexed(ctx, svc, x, existing)
	if err != nil {
		t.Fatalf("after the item was fixed: %v", err)
	}
	want, err := r.Plan(ctx, svc, x.Desired(), existing)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Writes() != want.Writes() || plan.Writes() == 0 {
		t.Fatalf("after the item was fixed: %d writes, Plan of the same Desired %d", plan.Writes(), want.Writes())
	}
}

// Nil arguments of the other entry points: errors or "no slice", never a
// panic.
func TestNilArguments(t *testing.T) {
	ctx := context.Background()
	r, client := newExtReconciler(t, Config{})
	svc := testService()
	var nilService *corev1.Service

	if err := r.Apply(ctx, svc, nil, nil, time.Time{}); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Apply(nil plan): %v", err)
	}
	if err := r.Apply(ctx, nilService, &Plan{}, nil, time.Time{}); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Apply(typed nil owner): %v", err)
	}
	if _, err := r.OwnerSlices(nil, "ns", "svc"); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("OwnerSlices(nil lister): %v", err)
	}
	if _, err := r.Release(ctx, nil, "ns", "svc"); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Release(nil lister): %v", err)
	}
	lister, err := reconcilertest.Lister(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.OwnerSlices(lister, "ns", ""); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("OwnerSlices(empty name): %v", err)
	}
	if _, _, _, ok := r.SliceOwner(nil); ok {
		t.Error("SliceOwner(nil) reported an owner")
	}
	if r.SliceAdded(nil) || r.SliceDeleted(nil) || r.SliceUpdated(nil, nil) {
		t.Error("a nil slice needs no sync")
	}
	if _, err := New(client, Config{ControllerName: "x.example.com", OwnerGVK: ServiceGVK}, nil); err == nil {
		t.Error("New with a nil Option: no error")
	}

	// The zero Tracker is NewTracker's.
	var tr Tracker
	s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "svc-1", Namespace: "ns", UID: "u1", Generation: 2,
		Labels: map[string]string{discovery.LabelServiceName: "svc"}}}
	tr.Update(s)
	if !tr.Has(s) || tr.ShouldSync(s) || !tr.StaleSlices("ns", "svc", nil) {
		t.Error("zero Tracker: an updated slice is not tracked under its service-name label")
	}
	tr.Update(nil)
	tr.ExpectDeletion(nil)
	if tr.Has(nil) || tr.ShouldSync(nil) || !tr.HandleDeletion(nil) {
		t.Error("Tracker: nil slice")
	}
	if l, _ := tr.Labels(); l != discovery.LabelServiceName {
		t.Errorf("zero Tracker labels %q", l)
	}
}

// SliceOf unwraps delete tombstones.
func TestSliceOf(t *testing.T) {
	s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "a"}}
	for _, tc := range []struct {
		name string
		obj  any
		want *discovery.EndpointSlice
	}{
		{"slice", s, s},
		{"tombstone", cache.DeletedFinalStateUnknown{Key: "ns/a", Obj: s}, s},
		{"tombstone of another kind", cache.DeletedFinalStateUnknown{Key: "ns/a", Obj: &corev1.Pod{}}, nil},
		{"nil", nil, nil},
		{"other kind", &corev1.Service{}, nil},
	} {
		if got := SliceOf(tc.obj); got != tc.want {
			t.Errorf("%s: SliceOf = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// DeleteAll deletes only the named owner's slices, even when the caller
// hands it another owner's.
func TestDeleteAllOnlyTheOwner(t *testing.T) {
	ctx := context.Background()
	r, client := newExtReconciler(t, Config{})
	mk := func(name, owner string) *discovery.EndpointSlice {
		s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: ktypes.UID("uid-" + name),
			Labels: map[string]string{discovery.LabelServiceName: owner, discovery.LabelManagedBy: testController}}, AddressType: discovery.AddressTypeIPv4}
		if _, err := client.DiscoveryV1().EndpointSlices("ns").Create(ctx, s, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	mine, other := mk("svc-1", "svc"), mk("web-1", "web")
	n, err := r.DeleteAll(ctx, "ns", "svc", []*discovery.EndpointSlice{mine, other})
	if err != nil || n != 1 {
		t.Fatalf("DeleteAll: %d deleted, %v; want 1", n, err)
	}
	if _, err := client.DiscoveryV1().EndpointSlices("ns").Get(ctx, "web-1", metav1.GetOptions{}); err != nil {
		t.Fatalf("another owner's slice was deleted: %v", err)
	}
}

// The fake clientset gives every object a UID, as the API server does (an
// owner needs one), without changing the caller's objects.
func TestFakeUIDs(t *testing.T) {
	ctx := context.Background()
	given := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "given"}}
	client := reconcilertest.NewClientset(given)
	if given.UID != "" {
		t.Fatalf("the caller's object was changed: uid %q", given.UID)
	}
	created, err := client.CoreV1().Services("ns").Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "created"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := client.CoreV1().Services("ns").Get(ctx, "given", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stored.UID == "" || created.UID == "" || stored.UID == created.UID {
		t.Fatalf("uids %q and %q: want two different ones", stored.UID, created.UID)
	}
}

// The fake clientset names a long generateName as the API server does: cut
// to 58 characters, then 5 more (63, a valid name).
func TestFakeGenerateNameLength(t *testing.T) {
	client := reconcilertest.NewClientset()
	s := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{GenerateName: strings.Repeat("a", 70) + "-", Namespace: "ns"}, AddressType: discovery.AddressTypeIPv4}
	got, err := client.DiscoveryV1().EndpointSlices("ns").Create(context.Background(), s, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Name) != 63 {
		t.Fatalf("name %q has %d characters, want 63", got.Name, len(got.Name))
	}
}

// Validating a valid endpoint allocates nothing: Index.SetItem does it for
// every Pod event.
func TestValidateEndpointAllocs(t *testing.T) {
	v4, v6 := ep("10.0.0.1", true), ep("fd00::1", true)
	v4.NodeName, v6.NodeName = ptr.To("node-1"), ptr.To("node-1.example")
	v4.Hints = &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
	if n := testing.AllocsPerRun(100, func() {
		_ = ValidateEndpoint(discovery.AddressTypeIPv4, &v4)
		_ = ValidateEndpoint(discovery.AddressTypeIPv6, &v6)
	}); n != 0 {
		t.Fatalf("%v allocations per valid endpoint pair, want 0", n)
	}
	// (An appProtocol costs one: apimachinery's IsQualifiedName splits it.)
	ports := []discovery.EndpointPort{tcpPort("http", 80), tcpPort("https", 443), {Port: ptr.To[int32](53)}}
	if n := testing.AllocsPerRun(100, func() { _ = validatePorts(ports) }); n != 0 {
		t.Fatalf("%v allocations per valid port list, want 0", n)
	}
}
