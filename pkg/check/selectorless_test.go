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
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestSelectorRemovalLeftovers covers the fault class of kubernetes#118376
// as `slicekit check` sees it: every way a Service stops selecting Pods
// (selector removed, type ExternalName, selector removed while labelled for
// another controller) times every leftover kind (the default controller's
// slice, the Endpoints controller's Endpoints object, its mirrored slice).
// Each leftover is an error naming the upstream issue, except an Endpoints
// object nothing mirrors (a warning); the Endpoints object is recognised by
// the managed-by label or, unlabelled (KCM 1.32 and older), by
// kube-controller-manager's managedFields entry; hand-written Endpoints
// (neither) are never flagged.
func TestSelectorRemovalLeftovers(t *testing.T) {
	ways := []struct {
		name   string
		mutate func(*corev1.Service)
		// extra are the findings the way itself causes on the default slice.
		extraDefault []string
	}{
		{name: "selector removed", mutate: func(s *corev1.Service) { s.Spec.Selector = nil }},
		{name: "ExternalName", mutate: func(s *corev1.Service) {
			s.Spec.Type = corev1.ServiceTypeExternalName
			s.Spec.ExternalName = "example.com"
			s.Spec.ClusterIP = ""
		}},
		{name: "selector removed while labelled", mutate: func(s *corev1.Service) {
			s.Spec.Selector = nil
			s.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
		}, extraDefault: []string{"error delegated-builtin-slice EndpointSlice ns/web-abc"}},
	}
	leftoverEndpoints := func(labelled bool) *corev1.Endpoints {
		ep := &corev1.Endpoints{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns, UID: "uid-ep-web"},
			Subsets: []corev1.EndpointSubset{{
				Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}},
				Ports:     []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}},
			}},
		}
		if labelled {
			ep.Labels = map[string]string{"endpoints.kubernetes.io/managed-by": "endpoint-controller"}
		}
		return ep
	}
	// kcm132 is the leftover as kube-controller-manager 1.32 and older
	// write it: no label, their managedFields entry owning the subsets.
	kcm132 := func() *corev1.Endpoints {
		ep := leftoverEndpoints(false)
		ep.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
			APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:subsets":{}}`)}}
		return ep
	}
	mirrored := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "web-m", Namespace: ns,
			Labels:          map[string]string{discovery.LabelServiceName: "web", discovery.LabelManagedBy: mirrorMgr},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Endpoints", Name: "web", UID: "uid-ep-web", Controller: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.0.0.1"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}}},
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}
	kinds := []struct {
		name string
		// build changes the fixture: which leftovers exist.
		build func(f *fixture)
		want  func(way string) []string
	}{
		{name: "default slice", build: func(f *fixture) {}, want: func(way string) []string {
			if way == "ExternalName" {
				return []string{"error externalname-service-slice EndpointSlice ns/web-abc"}
			}
			return []string{"error default-for-selectorless-service EndpointSlice ns/web-abc"}
		}},
		{name: "Endpoints, not mirrored", build: func(f *fixture) {
			f.slice = nil
			f.extra = append(f.extra, leftoverEndpoints(true))
		}, want: func(string) []string { return []string{"warning endpoints-selector-leftover Endpoints ns/web"} }},
		{name: "Endpoints and its mirrored slice", build: func(f *fixture) {
			f.slice = nil
			f.extra = append(f.extra, leftoverEndpoints(true), mirrored.DeepCopy())
		}, want: func(way string) []string {
			w := []string{"error endpoints-selector-leftover Endpoints ns/web", "error mirror-of-selector-leftover EndpointSlice ns/web-m"}
			switch way {
			case "selector removed while labelled":
				w = append(w, "error delegated-builtin-slice EndpointSlice ns/web-m")
			case "ExternalName":
				// The ExternalName Service keeps its selector (case 02).
				w = append(w, "error mirror-for-selector-service EndpointSlice ns/web-m")
			}
			return w
		}},
		{name: "unlabelled Endpoints of KCM 1.32 (managedFields) and its mirrored slice", build: func(f *fixture) {
			f.slice = nil
			f.extra = append(f.extra, kcm132(), mirrored.DeepCopy())
		}, want: func(way string) []string {
			w := []string{"error endpoints-selector-leftover Endpoints ns/web", "error mirror-of-selector-leftover EndpointSlice ns/web-m"}
			switch way {
			case "selector removed while labelled":
				w = append(w, "error delegated-builtin-slice EndpointSlice ns/web-m")
			case "ExternalName":
				w = append(w, "error mirror-for-selector-service EndpointSlice ns/web-m")
			}
			return w
		}},
		{name: "hand-written Endpoints and its mirrored slice: no leftover", build: func(f *fixture) {
			f.slice = nil
			f.extra = append(f.extra, leftoverEndpoints(false), mirrored.DeepCopy())
		}, want: func(way string) []string {
			switch way {
			case "selector removed while labelled":
				return []string{"error delegated-builtin-slice EndpointSlice ns/web-m"}
			case "ExternalName":
				return []string{"error mirror-for-selector-service EndpointSlice ns/web-m"}
			}
			return nil
		}},
	}
	for _, way := range ways {
		for _, kind := range kinds {
			t.Run(way.name+"/"+kind.name, func(t *testing.T) {
				_, ctx := ktesting.NewTestContext(t)
				f := newFixture()
				way.mutate(f.web)
				kind.build(f)
				if f.slice != nil && f.web.Labels != nil {
					f.slice.Labels[wellknown.LabelEndpointControllerName] = custom
				}
				rep := Check(ctx, NewInventory(f.objects()), builtinConfig(Config{}))
				var got []string
				for _, fd := range rep.Findings {
					if fd.Object.Name == "web" || strings.HasPrefix(fd.Object.Name, "web-") {
						got = append(got, fmt.Sprintf("%s %s %s", fd.Severity, fd.Rule, fd.Object))
						if (fd.Rule == RuleDefaultNoSelec || fd.Rule == RuleEndpointsLeftover || fd.Rule == RuleMirrorLeftover) &&
							!strings.Contains(fd.Reason, "kubernetes#118376") {
							t.Errorf("%s does not name kubernetes#118376: %s", fd.Rule, fd.Reason)
						}
					}
				}
				want := append(kind.want(way.name), way.extraDefault...)
				if f.slice == nil {
					want = kind.want(way.name)
				}
				slices.Sort(want)
				slices.Sort(got)
				if d := cmp.Diff(want, got, cmp.Transformer("nil", func(s []string) []string {
					if s == nil {
						return []string{}
					}
					return s
				})); d != "" {
					t.Errorf("findings (-want +got):\n%s\nall:\n%s", d, findingLines(rep))
				}
			})
		}
	}
}

// TestSelectorlessHint: a delegated Service that still has a selector gets
// the hint towards the selectorless form on its built-in slice; once the
// selector is gone (the selectorless form) the hint is not given.
func TestSelectorlessHint(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	for _, tc := range []struct {
		name     string
		selector map[string]string
		wantHint bool
	}{
		{"labelled, selector kept", map[string]string{"app": "web"}, true},
		{"labelled, selectorless form", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture()
			f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
			f.web.Spec.Selector = tc.selector
			f.slice.Labels[wellknown.LabelEndpointControllerName] = custom
			rep := Check(ctx, NewInventory(f.objects()), builtinConfig(Config{}))
			hint := false
			for _, fd := range rep.Findings {
				if fd.Rule == RuleDelegatedBuiltin && strings.Contains(fd.Reason, "slicekit.dev/selector") {
					hint = true
				}
			}
			if hint != tc.wantHint {
				t.Errorf("hint given = %v, want %v:\n%s", hint, tc.wantHint, findingLines(rep))
			}
		})
	}
}
