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

package reconciler_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// revisionMetadata is the label policy of a Knative-like controller: the
// slices of a Revision belong to the Revision's private Service (the label
// kube-proxy, CoreDNS and gateways look up) and carry the Revision's name.
type revisionMetadata struct{ service string }

func (p revisionMetadata) Labels(_ context.Context, owner reconciler.Owner, current map[string]string) (map[string]string, bool) {
	want := map[string]string{
		discovery.LabelServiceName:     p.service,
		"serving.knative.dev/revision": owner.GetName(),
	}
	changed := current[discovery.LabelServiceName] != p.service || current["serving.knative.dev/revision"] != owner.GetName()
	return want, changed
}

func (revisionMetadata) Annotations(_ context.Context, _ reconciler.Owner, current map[string]string) (map[string]string, bool) {
	out := map[string]string{}
	for k, v := range current {
		out[k] = v
	}
	return out, false
}

// Example_knative shows how a project like Knative writes EndpointSlices
// directly from its own desired endpoints with the reconciler: the owner is
// its own custom resource (here a serving.knative.dev/v1 Revision, as an
// unstructured object), the endpoints come from its own state (the
// activator or the Revision's pods), and no Endpoints object exists at all,
// so nothing needs mirroring. The Service the slices belong to should be
// labelled service.kubernetes.io/endpoint-controller-name (KEP-4770), so that
// the default controllers leave it alone.
func Example_knative() {
	ctx := context.Background()
	client := fake.NewClientset()
	// A real API server fills in generateName; the fake clientset does not.
	n := 0
	client.PrependReactor("create", "endpointslices", func(a k8stesting.Action) (bool, runtime.Object, error) {
		s := a.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice)
		if s.Name == "" {
			n++
			s.Name = fmt.Sprintf("%s%05d", s.GenerateName, n)
		}
		return false, nil, nil
	})

	revision := &unstructured.Unstructured{}
	revision.SetAPIVersion("serving.knative.dev/v1")
	revision.SetKind("Revision")
	revision.SetNamespace("default")
	revision.SetName("hello-00001")
	revision.SetUID("uid-hello-00001")

	r, err := reconciler.New(client, reconciler.Config{
		ControllerName:       "serving.knative.dev",
		OwnerGVK:             schema.GroupVersionKind{Group: "serving.knative.dev", Version: "v1", Kind: "Revision"},
		MaxEndpointsPerSlice: 3,
		Placeholder:          false,
		EnforceOwnership:     true,
		Metadata:             revisionMetadata{service: "hello-00001-private"},
	})
	if err != nil {
		panic(err)
	}

	// Knative's own view of the Revision's backends.
	endpoint := func(ip string, ready bool) discovery.Endpoint {
		return discovery.Endpoint{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{
			Ready: ptr.To(ready), Serving: ptr.To(ready), Terminating: ptr.To(false)}}
	}
	desired := func(eps ...discovery.Endpoint) *reconciler.Desired {
		return &reconciler.Desired{
			AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4},
			Groups: []reconciler.EndpointGroup{{
				AddressType: discovery.AddressTypeIPv4,
				Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8012), Protocol: ptr.To(corev1.ProtocolTCP)}},
				Endpoints:   eps,
			}},
		}
	}
	existing := func() []*discovery.EndpointSlice {
		list, err := client.DiscoveryV1().EndpointSlices("default").List(ctx, metav1.ListOptions{
			LabelSelector: discovery.LabelManagedBy + "=serving.knative.dev"})
		if err != nil {
			panic(err)
		}
		out := make([]*discovery.EndpointSlice, 0, len(list.Items))
		for i := range list.Items {
			out = append(out, &list.Items[i])
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	show := func(step string) {
		fmt.Println(step)
		for _, s := range existing() {
			var eps []string
			for _, e := range s.Endpoints {
				state := "ready"
				if !*e.Conditions.Ready {
					state = "not-ready"
				}
				eps = append(eps, e.Addresses[0]+" "+state)
			}
			fmt.Printf("  %s owner=%s/%s service=%s: %s\n", s.Name, s.OwnerReferences[0].Kind, s.OwnerReferences[0].Name,
				s.Labels[discovery.LabelServiceName], strings.Join(eps, ", "))
		}
	}

	// Scale to four pods, one not ready yet.
	if err := r.Reconcile(ctx, revision, desired(
		endpoint("10.0.0.1", true), endpoint("10.0.0.2", true), endpoint("10.0.0.3", true), endpoint("10.0.0.4", false),
	), existing(), time.Time{}); err != nil {
		panic(err)
	}
	show("four pods:")

	// The fourth pod becomes ready and the first one goes away: only the
	// slices that change are written.
	before := len(client.Actions())
	if err := r.Reconcile(ctx, revision, desired(
		endpoint("10.0.0.2", true), endpoint("10.0.0.3", true), endpoint("10.0.0.4", true),
	), existing(), time.Time{}); err != nil {
		panic(err)
	}
	writes := 0
	for _, a := range client.Actions()[before:] {
		if a.GetVerb() != "list" {
			writes++
		}
	}
	show(fmt.Sprintf("after churn (%d writes):", writes))

	// Scale to zero: no placeholder, no slice.
	if err := r.Reconcile(ctx, revision, desired(), existing(), time.Time{}); err != nil {
		panic(err)
	}
	show("scaled to zero:")

	// Output:
	// four pods:
	//   hello-00001-00001 owner=Revision/hello-00001 service=hello-00001-private: 10.0.0.1 ready, 10.0.0.2 ready, 10.0.0.3 ready
	//   hello-00001-00002 owner=Revision/hello-00001 service=hello-00001-private: 10.0.0.4 not-ready
	// after churn (2 writes):
	//   hello-00001-00001 owner=Revision/hello-00001 service=hello-00001-private: 10.0.0.2 ready, 10.0.0.3 ready
	//   hello-00001-00002 owner=Revision/hello-00001 service=hello-00001-private: 10.0.0.4 ready
	// scaled to zero:
}
