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
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestSlicesMissing: a Service whose controller publishes ready endpoints
// and that has no slice at all draws a slices-missing warning; Services
// KCM writes no slice for, or that another controller serves, do not.
func TestSlicesMissing(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	missing := []string{"warning slices-missing " + webSvc}
	tests := []struct {
		name   string
		mutate func(f *fixture)
		want   []string
	}{
		{"web's slice is there", func(*fixture) {}, nil},
		{"no slice for web", func(f *fixture) { f.slice = nil }, missing},
		{"labelled with the default controller's name", func(f *fixture) {
			f.slice = nil
			f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: wellknown.EndpointSliceControllerName}
		}, missing},
		{"headless", func(f *fixture) {
			f.slice = nil
			f.web.Spec.ClusterIP, f.web.Spec.ClusterIPs = corev1.ClusterIPNone, []string{corev1.ClusterIPNone}
		}, missing},
		{"no ready Pod", func(f *fixture) {
			f.slice = nil
			f.pod = newPod("web-1", "10.0.0.1", false)
		}, nil},
		{"labelled for a controller the check does not know", func(f *fixture) {
			f.slice = nil
			f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
		}, nil},
		{"labelled for the secondary-network controller, Pod not attached", func(f *fixture) {
			f.slice = nil
			f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: wellknown.SecondaryNetworkControllerName}
		}, nil},
		{"without selector", func(f *fixture) {
			f.slice = nil
			f.web.Spec.Selector = nil
		}, nil},
		{"ExternalName", func(f *fixture) {
			f.slice = nil
			f.web.Spec = corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "example.com", Selector: f.web.Spec.Selector}
		}, nil},
		{"being deleted", func(f *fixture) {
			f.slice = nil
			f.web.DeletionTimestamp = &metav1.Time{}
		}, nil},
		{"only a foreign slice", func(f *fixture) {
			f.slice = newSlice("web-x", "web", custom)
			f.slice.OwnerReferences = nil
		}, nil},
		{"no EndpointSlice in the input at all", func(f *fixture) { f.slice, f.mirror = nil, nil }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture()
			tc.mutate(f)
			rep := Check(ctx, NewInventory(f.objects()), Config{})
			var got []string
			for _, fd := range rep.Findings {
				if fd.Rule == RuleSlicesMissing {
					got = append(got, fmt.Sprintf("%s %s %s", fd.Severity, fd.Rule, fd.Object))
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("slices-missing findings (-want +got):\n%s\nall: %v", d, findingKeys(rep))
			}
		})
	}
}
