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

package manager

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestNewControllersComposesTransforms checks that NewControllers installs
// the transforms composed from the enabled controllers' Reads: each cache
// keeps what some enabled controller reads, whatever the order of
// --controllers, and informers no enabled controller uses are not started.
func TestNewControllersComposesTransforms(t *testing.T) {
	meta := func(ns, name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: ns, Name: name,
			Annotations: map[string]string{
				corev1.LastAppliedConfigAnnotation: "{}",
				wellknown.AnnotationNetworkStatus:  "[]",
				"other":                            "x",
			},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1("{}")}}}
	}
	// annotations names what a cached object kept of meta's annotations.
	annotations := func(m metav1.Object) string {
		a := m.GetAnnotations()
		_, last := a[corev1.LastAppliedConfigAnnotation]
		_, status := a[wellknown.AnnotationNetworkStatus]
		_, other := a["other"]
		switch {
		case last && status && other:
			return "whole"
		case status && other:
			return "no last-applied"
		case status:
			return "status"
		case len(a) == 0:
			return "none"
		}
		return "unexpected"
	}
	type kept struct{ Pod, Service, Node, Endpoints, EndpointSlice string }
	for _, tc := range []struct {
		name        string
		controllers []string
		want        kept
	}{
		{"default", []string{"*"}, kept{"none", "no last-applied", "none", "no last-applied", "whole, fieldsV1 dropped"}},
		{"mirroring only", []string{"endpointslice-mirroring"}, kept{"unused", "no last-applied", "unused", "no last-applied", "whole, fieldsV1 dropped"}},
		{"secondary network beside", []string{"*", "secondary-network"}, kept{"status", "no last-applied", "none", "no last-applied", "whole, fieldsV1 dropped"}},
		{"secondary network first", []string{"secondary-network", "*"}, kept{"status", "no last-applied", "none", "no last-applied", "whole, fieldsV1 dropped"}},
		{"cel beside", []string{"*", "cel", "secondary-network"}, kept{"whole", "whole", "none", "no last-applied", "whole, fieldsV1 dropped"}},
		{"endpoints controller", []string{"*", "endpoints"}, kept{"none", "no last-applied", "none", "whole", "whole, fieldsV1 dropped"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			ctx, cancel := context.WithCancel(ctx)
			client := memapi.NewClientset(
				&corev1.Pod{ObjectMeta: meta("ns", "p"), Spec: corev1.PodSpec{NodeName: "n", Containers: []corev1.Container{{Name: "c", Image: "img"}}}},
				&corev1.Service{ObjectMeta: meta("ns", "s")},
				&corev1.Node{ObjectMeta: meta("", "n")},
				&corev1.Endpoints{ObjectMeta: meta("ns", "s")}, //nolint:staticcheck // v1 Endpoints are what the mirroring and Endpoints controllers read
				&discovery.EndpointSlice{ObjectMeta: meta("ns", "s-1"), AddressType: discovery.AddressTypeIPv4},
			)
			factory := informers.NewSharedInformerFactory(client, 0)
			defer func() { cancel(); factory.Shutdown() }()
			o := builtin.NewControllerOptions()
			o.Controllers = tc.controllers
			if slices.Contains(tc.controllers, celprofiles.RegistrationName) {
				o.For(celprofiles.RegistrationName).(*celprofiles.Options).ConfigFile = "../../examples/cel/profiles.yaml"
			}
			if err := o.Validate(); err != nil {
				t.Fatal(err)
			}
			if _, err := builtin.NewControllers(ctx, builtin.InitContext{Client: client, InformerFactory: factory, Options: o}); err != nil {
				t.Fatal(err)
			}
			factory.Start(ctx.Done())
			started := factory.WaitForCacheSync(ctx.Done())
			for typ, ok := range started {
				if !ok {
					t.Fatalf("%v did not sync", typ)
				}
			}
			got := kept{"unused", "unused", "unused", "unused", "unused"}
			if started[reflect.TypeOf(&corev1.Pod{})] {
				indexer := factory.Core().V1().Pods().Informer().GetIndexer()
				p, err := podcache.NewLister(indexer).Pods("ns").Get("p")
				if err != nil {
					t.Fatal(err)
				}
				// Trimmed Pods are cached as compact records, whole ones as Pods.
				cachedObj, _, _ := indexer.GetByKey("ns/p")
				if _, isRecord := cachedObj.(*podcache.Record); isRecord != (tc.want.Pod != "whole") {
					t.Errorf("Pod cached as %T with kept annotations %q", cachedObj, tc.want.Pod)
				}
				got.Pod = annotations(p)
				if tc.want.Pod == "whole" && p.Spec.Containers[0].Image != "img" {
					t.Errorf("Pod cached whole but without its container image")
				}
			}
			if started[reflect.TypeOf(&corev1.Service{})] {
				s, err := factory.Core().V1().Services().Lister().Services("ns").Get("s")
				if err != nil {
					t.Fatal(err)
				}
				got.Service = annotations(s)
			}
			if started[reflect.TypeOf(&corev1.Node{})] {
				n, err := factory.Core().V1().Nodes().Lister().Get("n")
				if err != nil {
					t.Fatal(err)
				}
				got.Node = annotations(n)
			}
			if started[reflect.TypeOf(&corev1.Endpoints{})] { //nolint:staticcheck // as above
				e, err := factory.Core().V1().Endpoints().Lister().Endpoints("ns").Get("s") //nolint:staticcheck // as above
				if err != nil {
					t.Fatal(err)
				}
				got.Endpoints = annotations(e)
			}
			if started[reflect.TypeOf(&discovery.EndpointSlice{})] {
				s, err := factory.Discovery().V1().EndpointSlices().Lister().EndpointSlices("ns").Get("s-1")
				if err != nil {
					t.Fatal(err)
				}
				got.EndpointSlice = annotations(s)
				if len(s.ManagedFields) == 1 && s.ManagedFields[0].FieldsV1 == nil {
					got.EndpointSlice += ", fieldsV1 dropped"
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("cached (-want +got):\n%s", d)
			}
		})
	}
}
