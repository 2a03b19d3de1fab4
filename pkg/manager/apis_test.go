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

package manager_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/pkg/registry"
)

// fakeDiscovery returns a discovery client serving lists.
func fakeDiscovery(lists ...*metav1.APIResourceList) *fakediscovery.FakeDiscovery {
	dc := fake.NewClientset().Discovery().(*fakediscovery.FakeDiscovery)
	dc.Resources = lists
	return dc
}

func TestUnservedAPIs(t *testing.T) {
	core := &metav1.APIResourceList{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "pods"}, {Name: "services"}}}
	claimsV1 := &metav1.APIResourceList{GroupVersion: "resource.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "resourceclaims"}, {Name: "resourceclaims/status"}}}
	claimsBeta := &metav1.APIResourceList{GroupVersion: "resource.k8s.io/v1beta2", APIResources: []metav1.APIResource{{Name: "resourceclaims"}}}
	statusOnly := &metav1.APIResourceList{GroupVersion: "resource.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "deviceclasses"}}}
	for _, tc := range []struct {
		name  string
		lists []*metav1.APIResourceList
		want  []string // disabled controllers
	}{
		{name: "1.34+: served", lists: []*metav1.APIResourceList{core, claimsV1}},
		{name: "1.33: no resource.k8s.io/v1", lists: []*metav1.APIResourceList{core, claimsBeta}, want: []string{dranetwork.RegistrationName}},
		{name: "group version without the resource", lists: []*metav1.APIResourceList{core, statusOnly}, want: []string{dranetwork.RegistrationName}},
		{name: "nothing served", want: []string{dranetwork.RegistrationName}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := manager.UnservedAPIs(fakeDiscovery(tc.lists...), []registry.Registration{endpointslice.Registration, dranetwork.Registration})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, d := range got {
				names = append(names, d.Name)
				if d.Reason != manager.ReasonMissingAPI || d.API != dranetwork.ResourceClaimAPI {
					t.Errorf("%+v: want reason %s and API %s", d, manager.ReasonMissingAPI, dranetwork.ResourceClaimAPI)
				}
				if want := "dra-network needs resource.k8s.io/v1 resourceclaims (Kubernetes 1.34+); the server does not serve it"; d.Message != want {
					t.Errorf("message %q, want %q", d.Message, want)
				}
			}
			if strings.Join(names, ",") != strings.Join(tc.want, ",") {
				t.Errorf("disabled %v, want %v", names, tc.want)
			}
		})
	}
}

// TestUnservedAPIsAsksOnlyWhenNeeded: registrations that need no API cost
// no discovery request; otherwise one ServerGroupsAndResources.
func TestUnservedAPIsAsksOnlyWhenNeeded(t *testing.T) {
	dc := fakeDiscovery()
	if got, err := manager.UnservedAPIs(dc, []registry.Registration{endpointslice.Registration}); err != nil || got != nil {
		t.Errorf("no needs: %v, %v; want nothing", got, err)
	}
	if n := len(dc.Actions()); n != 0 {
		t.Errorf("%d discovery requests for registrations that need no API", n)
	}
	if _, err := manager.UnservedAPIs(dc, []registry.Registration{endpointslice.Registration, dranetwork.Registration}); err != nil {
		t.Fatal(err)
	}
	if len(dc.Actions()) == 0 {
		t.Error("no discovery request for a registration that needs an API")
	}
}
