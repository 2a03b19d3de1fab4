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

package endpointsmirroring

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// FuzzParseIP checks the IP parsing of mirroring: whatever the input, a
// parsed address is canonical (parsing it again gives itself and the same
// address type), is accepted by net/netip, and has the address type of its
// form; an input net/netip accepts without a zone is always accepted.
func FuzzParseIP(f *testing.F) {
	for _, s := range []string{"10.0.0.1", "010.0.0.1", "::ffff:10.0.0.1", "fd00::1", "FD00:0::1", "", "1.2.3", "::", "fe80::1%eth0", "10.0.0.1/8", "1.2.3.04"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		canonical, at, ok := ParseIP(in)
		if addr, err := netip.ParseAddr(in); err == nil && addr.Zone() == "" && !ok {
			t.Fatalf("ParseIP(%q) rejected an address net/netip accepts", in)
		}
		if !ok {
			if canonical != "" || at != "" {
				t.Fatalf("ParseIP(%q) failed but returned %q, %q", in, canonical, at)
			}
			return
		}
		again, at2, ok2 := ParseIP(canonical)
		if !ok2 || again != canonical || at2 != at {
			t.Fatalf("ParseIP(%q) = %q (%s), not canonical: ParseIP of it = %q (%s), %v", in, canonical, at, again, at2, ok2)
		}
		addr, err := netip.ParseAddr(canonical)
		if err != nil {
			t.Fatalf("canonical form %q of %q is not an address: %v", canonical, in, err)
		}
		if (at == discovery.AddressTypeIPv4) != addr.Is4() {
			t.Fatalf("ParseIP(%q) = %q with address type %s", in, canonical, at)
		}
	})
}

// FuzzDesired builds an Endpoints object from fuzz input (addresses,
// readiness, subsets, ports, limit) and checks Desired's invariants: no
// group exceeds the limit, every endpoint address is canonical and of its
// group's address type, the skip accounting adds up, identities are unique
// per group, the input is not modified, and the result is deterministic.
func FuzzDesired(f *testing.F) {
	f.Add("10.0.0.1,10.0.0.2;!10.0.0.3;fd00::1", []byte{1, 2, 3}, uint16(2))
	f.Add("10.0.0.1;10.0.0.1;bogus;!010.0.0.1", []byte{0, 0, 9}, uint16(1000))
	f.Add("", []byte{}, uint16(0))
	f.Fuzz(func(t *testing.T, spec string, portSeeds []byte, limit uint16) {
		max := int32(limit%MaxEndpointsPerSubsetLimit) + 1
		ep := eps()
		for i, part := range strings.Split(spec, ";") {
			if i >= 8 {
				break
			}
			var ss corev1.EndpointSubset
			for j, ip := range strings.Split(part, ",") {
				if j >= 64 {
					break
				}
				a := corev1.EndpointAddress{IP: strings.TrimPrefix(ip, "!")}
				if j%3 == 1 {
					a.TargetRef = &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: ip, UID: types.UID(ip)}
				}
				if strings.HasPrefix(ip, "!") {
					ss.NotReadyAddresses = append(ss.NotReadyAddresses, a)
				} else {
					ss.Addresses = append(ss.Addresses, a)
				}
			}
			if i < len(portSeeds) && portSeeds[i] != 0 {
				ss.Ports = []corev1.EndpointPort{{Name: string(rune('a' + portSeeds[i]%4)), Port: int32(portSeeds[i]%3) + 1, Protocol: corev1.ProtocolTCP}}
			}
			ep.Subsets = append(ep.Subsets, ss)
		}
		before := ep.DeepCopy()
		res, err := Desired(ep, Options{MaxEndpointsPerSubset: max})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before, ep); diff != "" {
			t.Fatalf("input modified:\n%s", diff)
		}
		total, valid := 0, 0
		for _, s := range res.Subsets {
			total += len(s.Addresses) + len(s.NotReadyAddresses)
			n := 0
			for _, a := range append(append([]corev1.EndpointAddress{}, s.Addresses...), s.NotReadyAddresses...) {
				if _, _, ok := ParseIP(a.IP); ok {
					n++
				}
			}
			valid += min(n, int(max))
		}
		if res.AddressesSkipped < res.InvalidAddresses || res.AddressesSkipped > total {
			t.Fatalf("skipped %d, invalid %d, total %d", res.AddressesSkipped, res.InvalidAddresses, total)
		}
		if got := total - res.AddressesSkipped; got > valid {
			t.Fatalf("%d addresses added, at most %d valid within the limit", got, valid)
		}
		for _, g := range res.Desired.Groups {
			if len(g.Endpoints) == 0 || len(g.Endpoints) > int(max) {
				t.Fatalf("group %s/%s has %d endpoints, limit %d", g.AddressType, keyOf(g.Ports), len(g.Endpoints), max)
			}
			seen := map[string]bool{}
			for _, e := range g.Endpoints {
				if len(e.Addresses) != 1 {
					t.Fatalf("endpoint with %d addresses", len(e.Addresses))
				}
				c, at, ok := ParseIP(e.Addresses[0])
				if !ok || c != e.Addresses[0] || at != g.AddressType {
					t.Fatalf("endpoint address %q (canonical %q, %s) in a %s group", e.Addresses[0], c, at, g.AddressType)
				}
				id := reconciler.EndpointIdentity(&e)
				if seen[id] {
					t.Fatalf("identity %q twice in a group", id)
				}
				seen[id] = true
			}
		}
		again, _ := Desired(ep, Options{MaxEndpointsPerSubset: max})
		if diff := cmp.Diff(res, again); diff != "" {
			t.Fatalf("not deterministic:\n%s", diff)
		}
	})
}

func keyOf(ports []discovery.EndpointPort) string {
	var names []string
	for _, p := range ports {
		names = append(names, *p.Name)
	}
	return strings.Join(names, ",")
}
