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

package celpods_test

import (
	"net/netip"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/celpods"
)

// fuzzProfiles are evaluated on every fuzzed pod.
var fuzzProfiles = []celpods.Profile{
	{Name: "split", Addresses: "pod.metadata.annotations['example.com/ips'].split(',')", Ready: "pod.status.phase == 'Running'"},
	{Name: "podips", Addresses: "pod.status.podIPs.map(p, p.ip)"},
	{Name: "json", Addresses: "parseJSON(pod.metadata.annotations['example.com/ips'])", Ready: "parseJSON(pod.metadata.annotations['example.com/ready'])"},
	{Name: "filtered", Addresses: "pod.metadata.?annotations[?'example.com/ips'].orValue('').split(',').filter(s, isIP(s) && ip(s).isGlobalUnicast())"},
	{Name: "dyn", Addresses: "dyn(pod.metadata.name)"},
	{Name: "cheap", Addresses: "pod.metadata.annotations['example.com/ips'].split(',').map(a, a.split(',').map(b, b + '')).flatten()", CostLimit: 50},
}

// FuzzCELEvaluation evaluates the fuzz profiles on random pods: evaluation
// never panics, an accepted result is a list of at most
// MaxAddressesPerPod strings, and Desired only publishes valid, canonical
// addresses of the result, one per endpoint, in a group of their family,
// or reports the pod with a known reason.
func FuzzCELEvaluation(f *testing.F) {
	f.Add("p", "10.1.0.1,fd01::1", "true", "10.0.0.1", "fd00::1", "Running", true)
	f.Add("p", `["10.1.0.1","fd01::1"]`, "false", "10.0.0.1", "", "Pending", false)
	f.Add("q", `[1, null, {"a": [true]}]`, `"x"`, "", "", "", true)
	f.Add("", `"10.0.0.1"`, "[", "not-an-ip", "::1", "Failed", false)
	f.Add("r", "0.0.0.0,127.0.0.1,fe80::1,::ffff:10.0.0.1,010.0.0.1", "null", "10.0.0.1", "10.0.0.1", "Running", true)
	progs := make([]*celpods.Program, len(fuzzProfiles))
	for i, p := range fuzzProfiles {
		prog, err := celpods.Compile(p)
		if err != nil {
			f.Fatalf("Compile(%s): %v", p.Name, err)
		}
		progs[i] = prog
	}
	known := map[string]bool{
		celpods.ReasonEvaluationFailed: true, celpods.ReasonCostLimitExceeded: true, celpods.ReasonInvalidResult: true,
		source.ReasonInvalidAddress: true, source.ReasonDuplicateAddress: true, source.ReasonAddressFamilyMismatch: true,
	}
	f.Fuzz(func(t *testing.T, name, ips, ready, ip1, ip2, phase string, withAnnotations bool) {
		_, ctx := ktesting.NewTestContext(t)
		ctx = klog.NewContext(ctx, klog.Background().V(10)) // quiet
		p := pod(name)
		p.Status.Phase = corev1.PodPhase(phase)
		p.Status.PodIP = ip1
		p.Status.PodIPs = nil
		for _, ip := range []string{ip1, ip2} {
			if ip != "" {
				p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: ip})
			}
		}
		if withAnnotations {
			p.Annotations = map[string]string{"example.com/ips": ips, "example.com/ready": ready}
		} else {
			p.Annotations = nil
		}
		other := pod(name + "-2") // a second pod with the same addresses
		other.Annotations = p.Annotations
		other.Status = p.Status
		for i, prog := range progs {
			res, err := prog.Addresses(ctx, svc(), p)
			if err == nil && len(res) > celpods.MaxAddressesPerPod {
				t.Fatalf("%s: %d addresses accepted", fuzzProfiles[i].Name, len(res))
			}
			_, _ = prog.Serving(ctx, svc(), p)

			d, problems, err := prog.Desired(ctx, svc(), []*corev1.Pod{p, other}, nodes{})
			if err != nil || d == nil {
				t.Fatalf("%s: Desired: %v", fuzzProfiles[i].Name, err)
			}
			for _, pr := range problems {
				if !known[pr.Reason] {
					t.Fatalf("%s: unknown problem reason %q", fuzzProfiles[i].Name, pr.Reason)
				}
			}
			allowed := map[netip.Addr]bool{}
			for _, s := range res {
				if a, err := source.ParseEndpointIP(s); err == nil {
					allowed[a] = true
				}
			}
			seen := map[netip.Addr]bool{}
			for _, g := range d.Groups {
				for _, e := range g.Endpoints {
					if len(e.Addresses) != 1 {
						t.Fatalf("endpoint with %d addresses", len(e.Addresses))
					}
					a, err := netip.ParseAddr(e.Addresses[0])
					if err != nil || a.String() != e.Addresses[0] {
						t.Fatalf("%s: address %q not canonical", fuzzProfiles[i].Name, e.Addresses[0])
					}
					if !allowed[a] {
						t.Fatalf("%s: address %s not in the result %q", fuzzProfiles[i].Name, a, res)
					}
					if seen[a] {
						t.Fatalf("%s: address %s published twice", fuzzProfiles[i].Name, a)
					}
					seen[a] = true
					if (g.AddressType == discovery.AddressTypeIPv4) != a.Is4() {
						t.Fatalf("%s: %s in a %s group", fuzzProfiles[i].Name, a, g.AddressType)
					}
				}
			}
		}
	})
}
