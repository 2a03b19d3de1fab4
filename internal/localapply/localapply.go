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

// Package localapply creates objects on a control plane without kubelets
// (slicekit's `make up`, test/harness/testenv) as they would be on a real
// cluster: Pods and Nodes get the status a kubelet would report, written
// through the status subresource. `make apply-examples` (hack/demoapply),
// `make demo` and the tests that compare render with a live run use it.
package localapply

import (
	"context"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
)

// kindOrder is the creation order: what others refer to first.
var kindOrder = map[string]int{"Namespace": 0, "Node": 1, "Service": 2, "Endpoints": 3, "Pod": 4, "EndpointSlice": 5}

// Compare orders two objects for creation (Namespaces, Nodes, Services,
// Endpoints, Pods, EndpointSlices); use it with slices.SortStableFunc.
func Compare(a, b runtime.Object) int {
	return kindOrder[a.GetObjectKind().GroupVersionKind().Kind] - kindOrder[b.GetObjectKind().GroupVersionKind().Kind]
}

// Apply creates obj (or replaces the object of that name) with field
// manager slicekit-demo and then sets the status of Pods and Nodes through
// the status subresource, as a kubelet would report it. A Service asking
// for RequireDualStack on a single-stack control plane is skipped with a
// note. It writes one line per object to log and returns the stored object,
// or nil when the object was skipped; errors are the API server's.
func Apply(ctx context.Context, c kubernetes.Interface, obj runtime.Object, log io.Writer) (runtime.Object, error) {
	switch o := obj.(type) {
	case *corev1.Namespace:
		return upsert(ctx, log, o, c.CoreV1().Namespaces(), "Namespace "+o.Name)
	case *corev1.Node:
		status := o.Status
		n, err := upsert(ctx, log, o, c.CoreV1().Nodes(), "Node "+o.Name)
		if err != nil {
			return nil, err
		}
		n.Status = status
		return c.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{})
	case *corev1.Service:
		svc, err := upsert(ctx, log, o, c.CoreV1().Services(o.Namespace), "Service "+o.Namespace+"/"+o.Name)
		if apierrors.IsInvalid(err) && o.Spec.IPFamilyPolicy != nil && *o.Spec.IPFamilyPolicy == corev1.IPFamilyPolicyRequireDualStack {
			fmt.Fprintf(log, "  skipped Service %s/%s: this control plane has one service IP family (%v)\n", o.Namespace, o.Name, err)
			return nil, nil
		}
		return svc, err
	case *corev1.Endpoints:
		return upsert(ctx, log, o, c.CoreV1().Endpoints(o.Namespace), "Endpoints "+o.Namespace+"/"+o.Name)
	case *corev1.Pod:
		status := o.Status
		p, err := upsert(ctx, log, o, c.CoreV1().Pods(o.Namespace), "Pod "+o.Namespace+"/"+o.Name)
		if err != nil {
			return nil, err
		}
		p.Status = status
		return c.CoreV1().Pods(o.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
	case *discovery.EndpointSlice:
		return upsert(ctx, log, o, c.DiscoveryV1().EndpointSlices(o.Namespace), "EndpointSlice "+o.Namespace+"/"+o.Name)
	default:
		return nil, fmt.Errorf("unsupported %T", obj)
	}
}

// typedClient is the part of a client-go typed client upsert uses.
type typedClient[T any] interface {
	Create(context.Context, T, metav1.CreateOptions) (T, error)
	Update(context.Context, T, metav1.UpdateOptions) (T, error)
	Get(context.Context, string, metav1.GetOptions) (T, error)
}

// upsert creates obj, or replaces the existing object of that name.
func upsert[T interface {
	runtime.Object
	metav1.Object
}](ctx context.Context, log io.Writer, obj T, c typedClient[T], what string) (T, error) {
	obj.SetResourceVersion("")
	obj.SetUID("")
	created, err := c.Create(ctx, obj, metav1.CreateOptions{FieldManager: "slicekit-demo"})
	if err == nil {
		fmt.Fprintf(log, "  created %s\n", what)
		return created, nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return created, err
	}
	cur, err := c.Get(ctx, obj.GetName(), metav1.GetOptions{})
	if err != nil {
		return cur, err
	}
	obj.SetResourceVersion(cur.GetResourceVersion())
	updated, err := c.Update(ctx, obj, metav1.UpdateOptions{FieldManager: "slicekit-demo"})
	if err == nil {
		fmt.Fprintf(log, "  updated %s\n", what)
	}
	return updated, err
}
