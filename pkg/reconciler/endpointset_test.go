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
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/utils/ptr"
)

func TestEndpointIdentity(t *testing.T) {
	h := "h"
	a := discovery.Endpoint{Addresses: []string{"10.0.0.2", "10.0.0.1"}, Hostname: &h, TargetRef: &corev1.ObjectReference{Namespace: "ns", Name: "p", UID: "1"}}
	b := discovery.Endpoint{Addresses: []string{"10.0.0.1", "10.0.0.2"}, Hostname: &h, TargetRef: &corev1.ObjectReference{Namespace: "ns", Name: "p", UID: "2"},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(false)}}
	if EndpointIdentity(&a) != EndpointIdentity(&b) {
		t.Errorf("identities differ for endpoints differing only beyond identity")
	}
	c := b
	c.Hostname = nil
	if EndpointIdentity(&a) == EndpointIdentity(&c) {
		t.Errorf("hostname is not part of the identity")
	}
	if a.Addresses[0] != "10.0.0.2" {
		t.Errorf("EndpointIdentity sorted its input in place")
	}
}
