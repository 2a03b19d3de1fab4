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
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	confk8s "github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/examples/library/remoteclusters"
	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/reconciler/reconcilertest"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestRemoteClusters: the slices of remote clusters beside the local
// controller's under one unlabelled Service, one slice set per cluster.
// slicekit check told the set label (--slice-set-label) finds nothing; not
// told, it warns that two controllers write
// the Service's slices (multiple-managers), which is the point of the
// shape.
func TestRemoteClusters(t *testing.T) {
	ctx := context.Background()
	svc := service("db", nil, map[string]string{"app": "db"}, corev1.IPv4Protocol)
	// The local EndpointSlice controller's placeholder (no Pod selected).
	local := &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db-local", Labels: map[string]string{
		discovery.LabelServiceName: "db", discovery.LabelManagedBy: wellknown.EndpointSliceControllerName},
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(svc, corev1.SchemeGroupVersion.WithKind("Service"))}},
		AddressType: discovery.AddressTypeIPv4, Endpoints: []discovery.Endpoint{}}
	client := reconcilertest.NewClientset(namespace(), svc, local)
	c, err := remoteclusters.New(client)
	if err != nil {
		t.Fatal(err)
	}
	remote := func(prefix string, n int) ([]remoteclusters.RemoteEndpoints, []confk8s.Endpoint) {
		port, name, proto := int32(8080), "http", corev1.ProtocolTCP
		re := remoteclusters.RemoteEndpoints{AddressType: discovery.AddressTypeIPv4, Ports: []discovery.EndpointPort{{Name: &name, Port: &port, Protocol: &proto}}, Changed: changed}
		var want []confk8s.Endpoint
		for i := 1; i <= n; i++ {
			a := fmt.Sprintf("%s%d", prefix, i)
			re.Endpoints = append(re.Endpoints, discovery.Endpoint{Addresses: []string{a}, Conditions: discovery.EndpointConditions{Ready: ready(true), Serving: ready(true), Terminating: ready(false)}})
			want = append(want, confk8s.Endpoint{Address: a, Ready: ready(true)})
		}
		return []remoteclusters.RemoteEndpoints{re}, want
	}
	sync := func(in map[string][]remoteclusters.RemoteEndpoints) []discovery.EndpointSlice {
		t.Helper()
		lister, err := reconcilertest.Lister(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Sync(ctx, lister, svc, in); err != nil {
			t.Fatal(err)
		}
		got, err := confk8s.ServiceSlices(ctx, client, ns, svc.Name, remoteclusters.ControllerName)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	sets := check.Config{SliceSetLabels: map[string]string{remoteclusters.ControllerName: remoteclusters.ClusterLabel}}

	east, wantEast := remote("10.1.0.", 3)
	west, wantWest := remote("10.2.0.", 150)
	got := sync(map[string][]remoteclusters.RemoteEndpoints{"east": east, "west": west})
	endpointsMustBe(t, got, append(slices.Clone(wantEast), wantWest...))
	triggerTimeMustBe(t, got)
	if errs := ownershipErrors(got, svc, remoteclusters.ControllerName); errs != nil {
		t.Errorf("ownership: %v", errs)
	}
	judge(t, client, sets, nil)
	// Without the set label, the remote clusters' slices are a second
	// manager of the Service's slices.
	rep := judge(t, client, check.Config{}, byDesign{check.RuleMultipleManagers: "sets not declared"})
	if !slices.Contains(rules(rep), string(check.RuleMultipleManagers)) {
		t.Errorf("without --slice-set-label: findings %v, want multiple-managers", rules(rep))
	}

	// west leaves; one of east's endpoints moves to a third cluster (a
	// workload migrating: in two sets for a while, a warning only).
	moved, _ := remote("10.1.0.", 1)
	got = sync(map[string][]remoteclusters.RemoteEndpoints{"east": east, "north": moved})
	if d := confk8s.EndpointsDiff(got, wantEast); d != "10.1.0.1 published 2 times" {
		t.Errorf("endpoints: %q, want 10.1.0.1 twice", d)
	}
	rep = judge(t, client, sets, byDesign{check.RuleDuplicateEndpoint: "one endpoint in two clusters' sets"})
	for _, f := range rep.Findings {
		if f.Rule == check.RuleDuplicateEndpoint && f.Severity != check.SeverityWarning {
			t.Errorf("an endpoint in two sets: %s, want a warning", f)
		}
	}
}
