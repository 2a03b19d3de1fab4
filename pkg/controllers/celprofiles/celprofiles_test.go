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

package celprofiles_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/celpods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const profiles = `
profiles:
- name: storage.example.com
  addresses: pod.metadata.annotations['example.com/storage-ips'].split(',')
  maxEndpointsPerSlice: 1
- name: v6.example.com
  addresses: pod.status.podIPs.map(p, p.ip).filter(ip, ip.contains(':'))
  ready: "'example.com/drain' in pod.metadata.?annotations.orValue({}) ? false : true"
`

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "profiles.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNewErrors(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := memapi.NewClientset()
	newC := func(opts celprofiles.Options) error {
		_, err := celprofiles.New(ctx, client, informers.NewSharedInformerFactory(client, 0), opts)
		return err
	}
	if err := newC(celprofiles.Options{}); !errors.Is(err, celpods.ErrInvalidConfig) {
		t.Errorf("no config: %v", err)
	}
	if err := newC(celprofiles.Options{ConfigFile: filepath.Join(t.TempDir(), "missing")}); err == nil || errors.Is(err, celpods.ErrInvalidConfig) {
		t.Errorf("missing file: %v, want an I/O error", err)
	}
	bad := writeConfig(t, "profiles:\n- {name: good.example.com, addresses: '[]'}\n- {name: bad.example.com, addresses: 'pod.status.podIPs.map(p,'}\n")
	err := newC(celprofiles.Options{ConfigFile: bad})
	if !errors.Is(err, celpods.ErrInvalidConfig) || !strings.Contains(err.Error(), `profile "bad.example.com"`) || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad expression: %v", err)
	}
	if err := newC(celprofiles.Options{Config: &celpods.Config{Profiles: []celpods.Profile{{Name: "x", Addresses: "1"}}}}); !errors.Is(err, celpods.ErrInvalidConfig) {
		t.Errorf("bad Config: %v", err)
	}
}

func TestSyncService(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := memapi.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	rec := record.NewFakeRecorder(100)
	c, err := celprofiles.New(ctx, client, factory, celprofiles.Options{ConfigFile: writeConfig(t, profiles), Common: slicecontroller.Common{EventRecorder: rec, Registerer: prometheus.NewRegistry()}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Controllers()) != 2 || len(c.Programs()) != 2 || c.Controllers()[1].ControllerName() != "v6.example.com" {
		t.Fatalf("controllers: %v", c.Controllers())
	}

	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc", UID: "uid-svc",
			Labels: map[string]string{wellknown.LabelEndpointControllerName: "storage.example.com"}},
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone, IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol},
			Selector: map[string]string{"app": "a"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
		},
	}
	pod := func(name, storage, v6 string, drain bool) *corev1.Pod {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"app": "a"},
				Annotations: map[string]string{"example.com/storage-ips": storage}},
			Spec: corev1.PodSpec{NodeName: "node-a"},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1",
				PodIPs:     []corev1.PodIP{{IP: "10.0.0.1"}, {IP: v6}},
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
		}
		if drain {
			p.Annotations["example.com/drain"] = ""
		}
		return p
	}
	pods := []*corev1.Pod{pod("p1", "10.5.0.1,fd05::1", "fd00::1", false), pod("p2", "10.5.0.2", "fd00::2", true)}

	sync := func() {
		t.Helper()
		svcs := []any{svc}
		var ps []any
		for _, p := range pods {
			ps = append(ps, p)
		}
		list, err := client.DiscoveryV1().EndpointSlices("").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var slices []any
		for i := range list.Items {
			slices = append(slices, &list.Items[i])
		}
		for _, r := range []struct {
			replace func([]any, string) error
			objs    []any
		}{
			{factory.Core().V1().Services().Informer().GetIndexer().Replace, svcs},
			{factory.Core().V1().Pods().Informer().GetIndexer().Replace, ps},
			{factory.Core().V1().Nodes().Informer().GetIndexer().Replace, []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a"}}}},
			{factory.Discovery().V1().EndpointSlices().Informer().GetIndexer().Replace, slices},
		} {
			if err := r.replace(r.objs, ""); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.SyncService(ctx, "ns/svc"); err != nil {
			t.Fatalf("SyncService: %v", err)
		}
	}
	view := func() []string {
		list, err := client.DiscoveryV1().EndpointSlices("ns").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range list.Items {
			var addrs []string
			for _, e := range s.Endpoints {
				addrs = append(addrs, e.Addresses[0]+map[bool]string{true: "", false: "(notready)"}[*e.Conditions.Ready])
			}
			sort.Strings(addrs)
			out = append(out, s.Labels[discovery.LabelManagedBy]+" "+string(s.AddressType)+": "+strings.Join(addrs, " "))
		}
		sort.Strings(out)
		return out
	}

	sync()
	sync()
	want := []string{
		"storage.example.com IPv4: 10.5.0.1",
		"storage.example.com IPv4: 10.5.0.2",
		"storage.example.com IPv6: fd05::1",
	}
	if diff := cmp.Diff(want, view()); diff != "" {
		t.Errorf("storage profile, one endpoint per slice (-want +got):\n%s", diff)
	}

	svc = svc.DeepCopy()
	svc.Labels[wellknown.LabelEndpointControllerName] = "v6.example.com"
	sync()
	sync()
	want = []string{
		"v6.example.com IPv4: ",
		"v6.example.com IPv6: fd00::1 fd00::2(notready)",
	}
	if diff := cmp.Diff(want, view()); diff != "" {
		t.Errorf("moved to the v6 profile (-want +got):\n%s", diff)
	}
}

// The aggregate implements the manager's Controller interface
// (pkg/manager registry.go).
var _ interface {
	Run(ctx context.Context, workers int) error
	HasSynced() bool
	SyncAll(ctx context.Context) error
} = (*celprofiles.Controller)(nil)
