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

package tests

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

// draDriver is the driver the test plays.
const draDriver = "conformance.dra.slicekit.dev"

func init() {
	register(suite.ConformanceTest{
		ShortName: "DRANetworkData",
		Description: "A Service annotated slicekit.dev/dra-claim net/nic has the addresses of the Pods' claim net, request nic, from " +
			"status.devices[].networkData.ips: never status.podIPs nor another request's, nothing until the driver writes networkData, " +
			"nothing for a claim reserved for two Pods; a status write to a claim alone changes the slices.",
		Features:  []suite.Feature{suite.SupportDRANetworkData},
		Manifests: []string{"dra-network-data.yaml"},
		Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
			if s.PodMode != suite.PodModeStatusSubresource {
				t.Skipf("the test plays the DRA driver and scheduler; it needs the %s mode", suite.PodModeStatusSubresource)
			}
			ctx := t.Context()
			claims := s.Client.ResourceV1().ResourceClaims(ns)
			pod := func(name string) *corev1.Pod {
				p, err := s.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					t.Fatalf("getting Pod %s: %v", name, err)
				}
				return p
			}
			// allocate creates claim name for request nic (device
			// eth-nic) and mgmt (eth-mgmt), allocated and reserved for
			// the Pods, with networkData when ips are given.
			allocate := func(name string, nicIPs []string, reservedFor ...*corev1.Pod) {
				t.Helper()
				c := &resourceapi.ResourceClaim{
					ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
					Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{Requests: []resourceapi.DeviceRequest{
						{Name: "nic", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: "net.example.com"}},
						{Name: "mgmt", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: "net.example.com"}},
					}}},
				}
				c, err := claims.Create(ctx, c, metav1.CreateOptions{})
				if err != nil {
					t.Fatalf("creating ResourceClaim %s: %v", name, err)
				}
				c.Status.Allocation = &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
					{Request: "nic", Driver: draDriver, Pool: "pool", Device: name + "-nic"},
					{Request: "mgmt", Driver: draDriver, Pool: "pool", Device: name + "-mgmt"},
				}}}
				for _, p := range reservedFor {
					c.Status.ReservedFor = append(c.Status.ReservedFor, resourceapi.ResourceClaimConsumerReference{Resource: "pods", Name: p.Name, UID: p.UID})
				}
				c.Status.Devices = []resourceapi.AllocatedDeviceStatus{{Driver: draDriver, Pool: "pool", Device: name + "-mgmt",
					NetworkData: &resourceapi.NetworkDeviceData{IPs: []string{"198.51.100.99/24"}}}}
				if nicIPs != nil {
					c.Status.Devices = append(c.Status.Devices, resourceapi.AllocatedDeviceStatus{Driver: draDriver, Pool: "pool", Device: name + "-nic",
						NetworkData: &resourceapi.NetworkDeviceData{IPs: nicIPs}})
				}
				if _, err := claims.UpdateStatus(ctx, c, metav1.UpdateOptions{}); err != nil {
					t.Fatalf("writing the status of ResourceClaim %s: %v", name, err)
				}
			}
			// setNIC is the driver writing the nic device's networkData.
			setNIC := func(name string, ips ...string) {
				t.Helper()
				err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
					c, err := claims.Get(ctx, name, metav1.GetOptions{})
					if err != nil {
						return err
					}
					dev := resourceapi.AllocatedDeviceStatus{Driver: draDriver, Pool: "pool", Device: name + "-nic",
						NetworkData: &resourceapi.NetworkDeviceData{IPs: ips}}
					found := false
					for i := range c.Status.Devices {
						if c.Status.Devices[i].Device == dev.Device {
							c.Status.Devices[i], found = dev, true
						}
					}
					if !found {
						c.Status.Devices = append(c.Status.Devices, dev)
					}
					_, err = claims.UpdateStatus(ctx, c, metav1.UpdateOptions{})
					return err
				})
				if err != nil {
					t.Fatalf("writing networkData of ResourceClaim %s: %v", name, err)
				}
			}

			web1, web2, web3, other := pod("web-1"), pod("web-2"), pod("web-3"), pod("other-1")
			allocate("web-1-net", []string{"192.0.2.11/24", "2001:db8::11/64"}, web1)
			allocate("web-2-net", nil, web2)
			allocate("web-3-net", []string{"192.0.2.13/24"}, web3, other)
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny("192.0.2.11", "web-1")})

			// The driver reports web-2's address: it joins with no change
			// to the Pod or the Service.
			setNIC("web-2-net", "192.0.2.12/24")
			kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny("192.0.2.11", "web-1"), epAny("192.0.2.12", "web-2")})

			// web-1's address changes: the endpoint follows.
			setNIC("web-1-net", "192.0.2.21/24")
			slices := kubernetes.SlicesMustHaveEndpoints(t, s.Client, s.TimeoutConfig, ns, "web", s.ControllerName,
				[]kubernetes.Endpoint{epAny("192.0.2.21", "web-1"), epAny("192.0.2.12", "web-2")})
			for _, sl := range slices {
				for _, e := range sl.Endpoints {
					for _, a := range e.Addresses {
						for _, p := range []*corev1.Pod{web1, web2, web3, other} {
							if a == p.Status.PodIP {
								t.Errorf("slice %s lists %s, the status.podIPs of Pod %s", sl.Name, a, p.Name)
							}
						}
					}
				}
			}
		},
	})
}
