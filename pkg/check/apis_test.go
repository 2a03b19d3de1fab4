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

package check

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestAPIFindings: a Service that asks for the dra-network controller on a
// server without resource.k8s.io/v1 (Kubernetes 1.33 and older) is a
// warning naming the API and its release; none where the server serves it
// or when no Service asks for the controller (then no discovery request).
func TestAPIFindings(t *testing.T) {
	svc := func(controller string) *corev1.Service {
		s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"}}
		if controller != "" {
			s.Labels = map[string]string{wellknown.LabelEndpointControllerName: controller}
		}
		return s
	}
	claims := &metav1.APIResourceList{GroupVersion: "resource.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "resourceclaims"}}}
	for _, tc := range []struct {
		name      string
		service   *corev1.Service
		served    bool
		wantFound bool
		wantAsked bool
	}{
		{name: "asked for, not served", service: svc(wellknown.DRANetworkControllerName), wantFound: true, wantAsked: true},
		{name: "asked for, served", service: svc(wellknown.DRANetworkControllerName), served: true, wantAsked: true},
		{name: "not asked for", service: svc("")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dc := fake.NewClientset().Discovery().(*fakediscovery.FakeDiscovery)
			if tc.served {
				dc.Resources = []*metav1.APIResourceList{claims}
			}
			inv := NewInventory([]runtime.Object{tc.service})
			got := APIFindings(dc, inv, builtin.Registrations(), nil)
			if asked := len(dc.Actions()) > 0; asked != tc.wantAsked {
				t.Errorf("asked discovery: %v, want %v", asked, tc.wantAsked)
			}
			if !tc.wantFound {
				if len(got) != 0 {
					t.Errorf("findings %v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Rule != RuleControllerAPIMissing || got[0].Severity != SeverityWarning || got[0].Object.Name != "web" ||
				!strings.Contains(got[0].Reason, "resource.k8s.io/v1 resourceclaims (Kubernetes 1.34+)") {
				t.Errorf("findings %v, want one %s warning on Service ns/web naming resource.k8s.io/v1 resourceclaims (Kubernetes 1.34+)", got, RuleControllerAPIMissing)
			}
		})
	}
}
