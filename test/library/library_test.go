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
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	confk8s "github.com/slicekit/slicekit/conformance/utils/kubernetes"
	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/registry"
)

const ns = "ns"

// byDesign are the findings an example is allowed, by rule, with the reason
// (documented in docs/library.md).
type byDesign map[check.RuleID]string

// changed is the time of the sources' last change in the tests, as the
// examples' sources report it.
var changed = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// triggerTimeMustBe fails t unless some slice carries changed as its
// endpoints.kubernetes.io/last-change-trigger-time (the conformance
// suite's ConsumerRules test asks a slice of each Service for a readable
// one: kube-proxy's and CoreDNS's programming latency read it).
func triggerTimeMustBe(t *testing.T, got []discovery.EndpointSlice) {
	t.Helper()
	want := changed.Format(time.RFC3339Nano)
	for _, s := range got {
		if s.Annotations[corev1.EndpointsLastChangeTriggerTime] == want {
			return
		}
	}
	t.Errorf("no slice carries %s=%s", corev1.EndpointsLastChangeTriggerTime, want)
}

// judge runs slicekit check over namespace ns of client, read as
// `slicekit check -n ns` reads a cluster, with cfg and the built-in
// controllers' oracles, and fails t on every finding whose rule allowed
// does not name: errors and warnings alike, as the conformance suite's
// ConsumerRules test holds a controller's slices to no finding at all.
func judge(t *testing.T, client kubernetes.Interface, cfg check.Config, allowed byDesign) *check.Report {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	kinds, err := builtin.InputKinds()
	if err != nil {
		t.Fatal(err)
	}
	inv, err := check.LoadCluster(ctx, client, ns, kinds)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Oracles = registry.Oracles(builtin.Registrations(), nil)
	rep := check.Check(ctx, inv, cfg)
	for _, f := range rep.Findings {
		if why, ok := allowed[f.Rule]; ok {
			t.Logf("slicekit check (by design: %s): %s", why, f)
		} else {
			t.Errorf("slicekit check: %s", f)
		}
	}
	t.Logf("slicekit check: %d findings on %d EndpointSlices, %d Services, %d Pods", len(rep.Findings), len(inv.EndpointSlices), len(inv.Services), len(inv.Pods))
	return rep
}

// rules returns the rules of rep's findings, sorted, once each.
func rules(rep *check.Report) []string {
	var out []string
	for _, f := range rep.Findings {
		if !slices.Contains(out, string(f.Rule)) {
			out = append(out, string(f.Rule))
		}
	}
	slices.Sort(out)
	return out
}

// endpointsMustBe fails t unless the slices hold exactly want (the
// conformance suite's SlicesMustHaveEndpoints, without waiting: the fake
// clientset has no controller running behind it).
func endpointsMustBe(t *testing.T, got []discovery.EndpointSlice, want []confk8s.Endpoint) {
	t.Helper()
	if d := confk8s.EndpointsDiff(got, want); d != "" {
		t.Errorf("endpoints: %s", d)
	}
}

func service(name string, labels, selector map[string]string, families ...corev1.IPFamily) *corev1.Service {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), Labels: labels,
			CreationTimestamp: metav1.Now()}, // as the API server sets it: trigger-time is judged
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, Selector: selector, IPFamilies: families,
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}}},
	}
	for i, f := range families {
		ip := fmt.Sprintf("10.96.0.%d", 10+i)
		if f == corev1.IPv6Protocol {
			ip = fmt.Sprintf("fd00:96::%d", 10+i)
		}
		svc.Spec.ClusterIPs = append(svc.Spec.ClusterIPs, ip)
	}
	svc.Spec.ClusterIP = svc.Spec.ClusterIPs[0]
	return svc
}

func ready(v bool) *bool { return ptr.To(v) }

// ownershipErrors returns the lines of the conformance suite's ownership
// assertion (SlicesOwnedByService) on got.
func ownershipErrors(got []discovery.EndpointSlice, svc *corev1.Service, managedBy string) []string {
	if err := confk8s.OwnershipError(got, svc, managedBy); err != nil {
		return strings.Split(err.Error(), "\n")
	}
	return nil
}

func mustList(t *testing.T, client kubernetes.Interface, selector string) []discovery.EndpointSlice {
	t.Helper()
	l, err := client.DiscoveryV1().EndpointSlices(ns).List(context.Background(), metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// namespace is the namespace of the tests (slicekit check refuses to read
// a namespace that does not exist).
func namespace() *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}
}
