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

package delegation

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

func TestDelegatedExcept(t *testing.T) {
	const self = "slicekit"
	svc := func(labels map[string]string) *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc", Labels: labels}}
	}
	accepted := []string{"endpointslice-controller.k8s.io"}
	tests := []struct {
		name string
		svc  *corev1.Service
		gate bool
		want bool
	}{
		{"unlabelled", svc(nil), true, false},
		{"labelled for another", svc(map[string]string{wellknown.LabelEndpointControllerName: "other"}), true, true},
		{"labelled with an accepted name", svc(map[string]string{wellknown.LabelEndpointControllerName: accepted[0]}), true, false},
		{"labelled with our name", svc(map[string]string{wellknown.LabelEndpointControllerName: self}), true, false},
		{"gate off", svc(map[string]string{wellknown.LabelEndpointControllerName: "other"}), false, false},
	}
	for _, tc := range tests {
		if got := DelegatedExcept(tc.svc, self, tc.gate, accepted); got != tc.want {
			t.Errorf("%s: DelegatedExcept = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSweepDelegated(t *testing.T) {
	const self = "slicekit"
	svc := func(name string, labels map[string]string) *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: labels}}
	}
	slice := func(name, service, managedBy string) *discovery.EndpointSlice {
		return &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name,
			Labels: map[string]string{discovery.LabelServiceName: service, discovery.LabelManagedBy: managedBy}}}
	}
	delegatedLabel := map[string]string{wellknown.LabelEndpointControllerName: "other"}
	client := fake.NewClientset(
		svc("delegated", delegatedLabel), svc("mine", nil), svc("foreign-only", delegatedLabel),
		slice("d-1", "delegated", self), slice("d-2", "delegated", self),
		slice("m-1", "mine", self),
		slice("f-1", "foreign-only", "other"),
		slice("g-1", "gone", self),
		slice("n-1", "", self),
	)
	factory := informers.NewSharedInformerFactory(client, 0)
	sliceInf, svcInf := factory.Discovery().V1().EndpointSlices(), factory.Core().V1().Services()
	sliceInf.Informer()
	svcInf.Informer()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())

	var queued []string
	SweepDelegated(ctx, sliceInf.Lister(), svcInf.Lister(), self,
		func(s *corev1.Service) bool { return Delegated(s, self, true) },
		func(key string) { queued = append(queued, key) })
	if !slices.Equal(queued, []string{"ns/delegated"}) {
		t.Errorf("SweepDelegated queued %v, want [ns/delegated] once", queued)
	}
}
