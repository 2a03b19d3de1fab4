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

package networkdata

import (
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/source"
)

func TestParseClaimRef(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    ClaimRef
		wantErr string
	}{
		{in: "net", want: ClaimRef{PodClaim: "net"}},
		{in: " net/nic ", want: ClaimRef{PodClaim: "net", Request: "nic"}},
		{in: "net/nic/fast", want: ClaimRef{PodClaim: "net", Request: "nic/fast"}},
		{in: "", wantErr: "empty"},
		{in: "net/", wantErr: "request name"},
		{in: "/nic", wantErr: "pod claim name"},
		{in: "Net", wantErr: "pod claim name"},
		{in: "net/nic/a/b", wantErr: "4 parts"},
		{in: "net/nic_1", wantErr: "request name"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseClaimRef(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseClaimRef(%q) = %v, %v; want error containing %q", tc.in, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseClaimRef(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
			if back, err := ParseClaimRef(got.String()); err != nil || back != got {
				t.Errorf("round trip of %q: %+v, %v", got.String(), back, err)
			}
		})
	}
}

// FuzzParseClaimRef: never panics; a parsed value prints back to a value
// that parses to itself, and every part is a DNS-1123 label.
func FuzzParseClaimRef(f *testing.F) {
	for _, s := range []string{"net", "net/nic", "net/nic/fast", "", "/", "a//b", "A", " net ", "net/nic/a/b", "x\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseClaimRef(s)
		if err != nil {
			return
		}
		if ref.PodClaim == "" {
			t.Fatalf("%q parsed without a pod claim name", s)
		}
		back, err := ParseClaimRef(ref.String())
		if err != nil || back != ref {
			t.Fatalf("%q: %+v prints as %q, which parses to %+v, %v", s, ref, ref.String(), back, err)
		}
	})
}

func TestInterfaceAddress(t *testing.T) {
	for in, want := range map[string]string{
		"192.168.60.31/24":    "192.168.60.31",
		"fd00:60::31/64":      "fd00:60::31",
		" 10.0.0.1/32 ":       "10.0.0.1",
		"::ffff:10.1.2.3/128": "10.1.2.3",
		"10.0.0.1":            "",
		"10.0.0.1/33":         "",
		"garbage":             "",
	} {
		got, err := InterfaceAddress(in)
		if want == "" {
			if err == nil {
				t.Errorf("InterfaceAddress(%q) = %v, want an error", in, got)
			}
			continue
		}
		if err != nil || got.String() != want {
			t.Errorf("InterfaceAddress(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
}

// FuzzInterfaceAddress: never panics; an accepted value's address is
// valid and prints as an address that parses again.
func FuzzInterfaceAddress(f *testing.F) {
	for _, s := range []string{"192.168.60.31/24", "fd00::1/64", "10.0.0.1", "::ffff:1.2.3.4/96", "", "/", "1.2.3.4/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := InterfaceAddress(s)
		if err != nil {
			return
		}
		if !a.IsValid() || a.Is4In6() {
			t.Fatalf("%q gave %v", s, a)
		}
		if _, err := InterfaceAddress(a.String() + "/32"); a.Is4() && err != nil {
			t.Fatalf("%q: %v does not parse back: %v", s, a, err)
		}
	})
}

// scene builds a Pod and a claim for Resolve.
type scene struct {
	pod    *corev1.Pod
	claims map[string]*resourceapi.ResourceClaim
}

func (s scene) get(namespace, name string) (*resourceapi.ResourceClaim, error) {
	if c, ok := s.claims[namespace+"/"+name]; ok {
		return c, nil
	}
	return nil, apierrors.NewNotFound(resourceapi.Resource("resourceclaims"), name)
}

func pod(claims ...corev1.PodResourceClaim) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-p"},
		Spec:       corev1.PodSpec{ResourceClaims: claims},
	}
}

// claim returns an allocated claim reserved for the Pod p with one device
// per request (eth-<request>) and the given addresses per device.
func claim(name string, ips map[string][]string) *resourceapi.ResourceClaim {
	c := &resourceapi.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID("uid-" + name)},
		Status: resourceapi.ResourceClaimStatus{
			Allocation:  &resourceapi.AllocationResult{},
			ReservedFor: []resourceapi.ResourceClaimConsumerReference{{Resource: "pods", Name: "p", UID: "uid-p"}},
		},
	}
	for _, req := range []string{"nic", "mgmt", "nic/fast"} {
		addrs, ok := ips[req]
		if !ok {
			continue
		}
		dev := "eth-" + strings.ReplaceAll(req, "/", "-")
		c.Status.Allocation.Devices.Results = append(c.Status.Allocation.Devices.Results,
			resourceapi.DeviceRequestAllocationResult{Request: req, Driver: "dra.example.com", Pool: "node-a", Device: dev})
		if addrs != nil {
			c.Status.Devices = append(c.Status.Devices, resourceapi.AllocatedDeviceStatus{
				Driver: "dra.example.com", Pool: "node-a", Device: dev,
				Conditions:  []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue}},
				NetworkData: &resourceapi.NetworkDeviceData{IPs: addrs},
			})
		}
	}
	return c
}

func TestResolve(t *testing.T) {
	direct := corev1.PodResourceClaim{Name: "net", ResourceClaimName: ptr.To("c1")}
	fromTemplate := corev1.PodResourceClaim{Name: "net", ResourceClaimTemplateName: ptr.To("tmpl")}
	with := func(p *corev1.Pod, f func(*corev1.Pod)) *corev1.Pod { f(p); return p }
	withClaim := func(c *resourceapi.ResourceClaim, f func(*resourceapi.ResourceClaim)) *resourceapi.ResourceClaim {
		f(c)
		return c
	}
	owned := func(c *resourceapi.ResourceClaim) {
		c.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "uid-p", Controller: ptr.To(true)}}
	}
	for _, tc := range []struct {
		name       string
		pod        *corev1.Pod
		claim      *resourceapi.ResourceClaim
		ref        ClaimRef
		want       string // addresses joined by spaces
		wantReason string
		notReady   bool
	}{
		{name: "direct claim, one request", pod: pod(direct), claim: claim("c1", map[string][]string{"nic": {"192.168.60.31/24", "fd00:60::31/64"}, "mgmt": {"192.168.61.1/24"}}),
			ref: ClaimRef{PodClaim: "net", Request: "nic"}, want: "192.168.60.31 fd00:60::31"},
		{name: "every request", pod: pod(direct), claim: claim("c1", map[string][]string{"nic": {"192.168.60.31/24"}, "mgmt": {"192.168.61.1/24"}}),
			ref: ClaimRef{PodClaim: "net"}, want: "192.168.60.31 192.168.61.1"},
		{name: "firstAvailable subrequest", pod: pod(direct), claim: claim("c1", map[string][]string{"nic/fast": {"10.9.0.1/16"}}),
			ref: ClaimRef{PodClaim: "net", Request: "nic"}, want: "10.9.0.1"},
		{name: "template claim owned by the Pod",
			pod: with(pod(fromTemplate), func(p *corev1.Pod) {
				p.Status.ResourceClaimStatuses = []corev1.PodResourceClaimStatus{{Name: "net", ResourceClaimName: ptr.To("p-net-x")}}
			}),
			claim: withClaim(claim("p-net-x", map[string][]string{"nic": {"192.168.60.32/24"}}), owned),
			ref:   ClaimRef{PodClaim: "net", Request: "nic"}, want: "192.168.60.32"},
		{name: "template claim of another Pod",
			pod: with(pod(fromTemplate), func(p *corev1.Pod) {
				p.Status.ResourceClaimStatuses = []corev1.PodResourceClaimStatus{{Name: "net", ResourceClaimName: ptr.To("p-net-x")}}
			}),
			claim: claim("p-net-x", map[string][]string{"nic": {"192.168.60.32/24"}}),
			ref:   ClaimRef{PodClaim: "net"}, wantReason: ReasonClaimNotForPod},
		{name: "template claim not created yet", pod: pod(fromTemplate), claim: claim("x", nil), ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonClaimNotCreated},
		{name: "template claim not needed",
			pod: with(pod(fromTemplate), func(p *corev1.Pod) {
				p.Status.ResourceClaimStatuses = []corev1.PodResourceClaimStatus{{Name: "net"}}
			}),
			claim: claim("x", nil), ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonClaimNotCreated},
		{name: "no such pod claim", pod: pod(direct), claim: claim("c1", map[string][]string{"nic": {"10.0.0.1/8"}}), ref: ClaimRef{PodClaim: "other"}, wantReason: ReasonPodClaimMissing},
		{name: "claim missing", pod: pod(direct), claim: claim("c2", nil), ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonClaimNotFound},
		{name: "not allocated",
			pod:   pod(direct),
			claim: withClaim(claim("c1", nil), func(c *resourceapi.ResourceClaim) { c.Status = resourceapi.ResourceClaimStatus{} }),
			ref:   ClaimRef{PodClaim: "net"}, wantReason: ReasonClaimNotReserved},
		{name: "reserved for another Pod only",
			pod: pod(direct),
			claim: withClaim(claim("c1", map[string][]string{"nic": {"10.0.0.1/8"}}), func(c *resourceapi.ResourceClaim) {
				c.Status.ReservedFor[0].UID = "uid-q"
			}),
			ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonClaimNotReserved},
		{name: "shared",
			pod: pod(direct),
			claim: withClaim(claim("c1", map[string][]string{"nic": {"10.0.0.1/8"}}), func(c *resourceapi.ResourceClaim) {
				c.Status.ReservedFor = append(c.Status.ReservedFor, resourceapi.ResourceClaimConsumerReference{Resource: "pods", Name: "q", UID: "uid-q"})
			}),
			ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonClaimShared},
		{name: "request not allocated", pod: pod(direct), claim: claim("c1", map[string][]string{"mgmt": {"10.0.0.1/8"}}), ref: ClaimRef{PodClaim: "net", Request: "nic"}, wantReason: ReasonRequestNotAllocated},
		{name: "no networkData yet", pod: pod(direct), claim: claim("c1", map[string][]string{"nic": nil}), ref: ClaimRef{PodClaim: "net", Request: "nic"}, wantReason: ReasonNetworkDataMissing},
		{name: "networkData without ips", pod: pod(direct), claim: claim("c1", map[string][]string{"nic": {}}), ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonNetworkDataMissing},
		{name: "bare IP", pod: pod(direct), claim: claim("c1", map[string][]string{"nic": {"10.0.0.1"}}), ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonNetworkDataInvalid},
		{name: "device not ready",
			pod: pod(direct),
			claim: withClaim(claim("c1", map[string][]string{"nic": {"10.0.0.1/8"}}), func(c *resourceapi.ResourceClaim) {
				c.Status.Devices[0].Conditions[0].Status = metav1.ConditionFalse
			}),
			ref: ClaimRef{PodClaim: "net"}, want: "10.0.0.1", notReady: true},
		{name: "status of another shareID is not the device's",
			pod: pod(direct),
			claim: withClaim(claim("c1", map[string][]string{"nic": {"10.0.0.1/8"}}), func(c *resourceapi.ResourceClaim) {
				c.Status.Devices[0].ShareID = ptr.To("s1")
			}),
			ref: ClaimRef{PodClaim: "net"}, wantReason: ReasonNetworkDataMissing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := scene{pod: tc.pod, claims: map[string]*resourceapi.ResourceClaim{"ns/" + tc.claim.Name: tc.claim}}
			before := tc.claim.DeepCopy()
			res, err := Resolve(tc.pod, tc.ref, s.get)
			if tc.wantReason != "" {
				var se *source.SkipError
				if !errors.As(err, &se) || se.Reason != tc.wantReason {
					t.Fatalf("Resolve = %+v, %v; want a skip with reason %s", res, err, tc.wantReason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(res.Addresses, " "); got != tc.want {
				t.Errorf("addresses %q, want %q", got, tc.want)
			}
			if (len(res.NotReady) > 0) != tc.notReady {
				t.Errorf("NotReady = %v, want not ready %t", res.NotReady, tc.notReady)
			}
			if !apiequalityDeepEqual(before, tc.claim) {
				t.Error("Resolve modified the claim")
			}
		})
	}
}

func TestResolveCacheError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Resolve(pod(corev1.PodResourceClaim{Name: "net", ResourceClaimName: ptr.To("c1")}), ClaimRef{PodClaim: "net"},
		func(string, string) (*resourceapi.ResourceClaim, error) { return nil, boom })
	var se *source.SkipError
	if !errors.Is(err, boom) || errors.As(err, &se) {
		t.Fatalf("err = %v; want the cache error, not a skip", err)
	}
}

func TestClaimPods(t *testing.T) {
	c := claim("c1", nil)
	c.Status.ReservedFor = append(c.Status.ReservedFor,
		resourceapi.ResourceClaimConsumerReference{Resource: "pods", Name: "q", UID: "uid-q"},
		resourceapi.ResourceClaimConsumerReference{APIGroup: "scheduling.k8s.io", Resource: "podgroups", Name: "g", UID: "uid-g"})
	c.OwnerReferences = []metav1.OwnerReference{
		{APIVersion: "v1", Kind: "Pod", Name: "owner", UID: "uid-o", Controller: ptr.To(true)},
		{APIVersion: "v1", Kind: "Pod", Name: "not-controller", UID: "uid-n"},
	}
	var got []string
	for _, p := range ClaimPods(c) {
		got = append(got, p.String())
	}
	if want := "ns/p ns/q ns/owner"; strings.Join(got, " ") != want {
		t.Errorf("ClaimPods = %v, want %s", got, want)
	}
	if ClaimPods(&corev1.Pod{}) != nil || ClaimPods(nil) != nil {
		t.Error("ClaimPods of a non-claim is not empty")
	}
}

func apiequalityDeepEqual(a, b any) bool { return equality.Semantic.DeepEqual(a, b) }
