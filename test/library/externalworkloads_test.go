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

package library

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	confk8s "github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/examples/library/externalworkloads"
	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestExternalWorkloads: the slices of Services selecting virtual machines
// (a custom resource), for a Service labelled for the example controller
// (KEP-4770), as the conformance suite hands Services to a controller that
// is not the default one.
func TestExternalWorkloads(t *testing.T) {
	ctx := context.Background()
	svc := service("web", map[string]string{wellknown.LabelEndpointControllerName: externalworkloads.ControllerName},
		map[string]string{"app": "web"}, corev1.IPv4Protocol, corev1.IPv6Protocol)
	svc.Spec.Ports[0].TargetPort = intstr.FromString("http")
	client := reconcilertest.NewClientset(namespace(), svc)
	c, err := externalworkloads.New(client)
	if err != nil {
		t.Fatal(err)
	}
	vm := func(name, addr string, ready bool, app string) externalworkloads.ExternalWorkload {
		return externalworkloads.ExternalWorkload{Namespace: ns, Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{"app": app},
			Addresses: []string{addr}, Ports: map[string]int32{"http": 8080}, Ready: ready, Changed: changed}
	}
	sync := func(ws ...externalworkloads.ExternalWorkload) []discovery.EndpointSlice {
		t.Helper()
		lister, err := reconcilertest.Lister(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Sync(ctx, lister, svc, ws); err != nil {
			t.Fatal(err)
		}
		got, err := confk8s.ServiceSlices(ctx, client, ns, svc.Name, externalworkloads.ControllerName)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	got := sync(vm("vm-1", "10.0.0.1", true, "web"), vm("vm-2", "fd00::2", false, "web"), vm("vm-3", "10.0.0.3", true, "other"))
	endpointsMustBe(t, got, []confk8s.Endpoint{
		{Address: "10.0.0.1", Ready: ready(true), Serving: ready(true), Terminating: ready(false)},
		{Address: "fd00::2", Ready: ready(false), Serving: ready(false), Terminating: ready(false)},
	})
	triggerTimeMustBe(t, got)
	if errs := ownershipErrors(got, svc, externalworkloads.ControllerName); errs != nil {
		t.Errorf("ownership: %v", errs)
	}
	judge(t, client, check.Config{}, nil)

	// Workloads come and go, the Service gains a label: the slices follow
	// at the next sync, and still pass.
	svc.Labels["team"] = "a"
	got = sync(vm("vm-2", "fd00::2", true, "web"), vm("vm-4", "10.0.0.4", true, "web"))
	endpointsMustBe(t, got, []confk8s.Endpoint{
		{Address: "fd00::2", Ready: ready(true)},
		{Address: "10.0.0.4", Ready: ready(true)},
	})
	for _, s := range got {
		if !labels.SelectorFromSet(labels.Set{"team": "a"}).Matches(labels.Set(s.Labels)) {
			t.Errorf("slice %s: labels %v lack the Service's team=a", s.Name, s.Labels)
		}
	}
	judge(t, client, check.Config{}, nil)
}
