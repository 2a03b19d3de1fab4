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

package check_test

import (
	"context"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// A Service handed to another controller (KEP-4770) still has a slice of
// the default EndpointSlice controller: the slice is stale.
func ExampleCheck() {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "uid-web",
			Labels: map[string]string{"service.kubernetes.io/endpoint-controller-name": "custom.example.com"}},
		Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.10", Selector: map[string]string{"app": "web"}},
	}
	slice := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "web-abc", Namespace: "shop",
			Labels: map[string]string{
				discovery.LabelServiceName: "web",
				discovery.LabelManagedBy:   wellknown.EndpointSliceControllerName,
			},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: "web", UID: "uid-web", Controller: ptr.To(true)}},
		},
		AddressType: discovery.AddressTypeIPv4,
	}
	rep := check.Check(context.Background(), check.NewInventory([]runtime.Object{svc, slice}), check.Config{})
	_ = check.WriteText(os.Stdout, rep, "example", 0)
	fmt.Println("exit status", rep.ExitCode())
	// Output:
	// SEVERITY  RULE                     OBJECT                      REASON
	// error     delegated-builtin-slice  EndpointSlice shop/web-abc  stale: Service web is labelled service.kubernetes.io/endpoint-controller-name="custom.example.com" (KEP-4770) but this slice is still managed by endpointslice-controller.k8s.io; hint: if the built-in controllers cannot be turned off (managed clusters), use the selectorless form: move spec.selector into the annotation slicekit.dev/selector and remove spec.selector (docs/managed-clusters.md)
	//
	// 1 error, 0 warnings: 1 EndpointSlice of 1 Service checked (read 0 Pods, 0 Nodes, 0 Endpoints objects) from example.
	// Skipped endpoint-pod-missing, endpoint-pod-not-selected, endpoint-pod-terminal, endpoint-address-not-pod-ip, endpoint-conditions, endpoint-nodename, endpoint-zone, endpoint-hostname, endpoint-missing, empty-slice-stale, slices-missing: no Pods in the input (per-Pod port checks skipped too).
	// Skipped mirror-ineligible, mirror-drift: no Endpoints in the input.
	// exit status 1
}
