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

package servicepods

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/test/harness/testobjects"
)

func TestEndpointAddresses(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		at   discovery.AddressType
		want []string
	}{
		{name: "v4 of dual-stack", pod: testobjects.RulePod("p", testobjects.WithPodIPs("fd00::11", "10.0.0.11")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.11"}},
		{name: "v6 of dual-stack", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.11", "fd00::11")), at: discovery.AddressTypeIPv6, want: []string{"fd00::11"}},
		{name: "no address of the family", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.11")), at: discovery.AddressTypeIPv6, want: []string{}},
		{name: "canonical IPv6", pod: testobjects.RulePod("p", testobjects.WithPodIPs("FD00:10:244:0:0:0:0:011")), at: discovery.AddressTypeIPv6, want: []string{"fd00:10:244::11"}},
		{name: "IPv4 with leading zeros", pod: testobjects.RulePod("p", testobjects.WithPodIPs("010.000.000.011")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.11"}},
		{name: "IPv4-mapped IPv6 is IPv4", pod: testobjects.RulePod("p", testobjects.WithPodIPs("::ffff:10.0.0.11")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.11"}},
		{name: "status.podIP alone is not read", pod: testobjects.RulePod("p", func(p *corev1.Pod) { p.Status.PodIP = "10.0.0.11" }), at: discovery.AddressTypeIPv4, want: []string{}},
		{name: "several of one family, in order", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.2", "10.0.0.1")), at: discovery.AddressTypeIPv4, want: []string{"10.0.0.2", "10.0.0.1"}},
		{name: "FQDN gets nothing", pod: testobjects.RulePod("p", testobjects.WithPodIPs("10.0.0.11")), at: discovery.AddressTypeFQDN, want: []string{}},
		{name: "unparsable counts as IPv4 (as in KCM)", pod: testobjects.RulePod("p", testobjects.WithPodIPs("bogus")), at: discovery.AddressTypeIPv4, want: []string{"<nil>"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EndpointAddresses(tc.pod, tc.at)
			if got == nil {
				t.Fatal("EndpointAddresses returned nil")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("EndpointAddresses (-want +got):\n%s", diff)
			}
		})
	}
}
