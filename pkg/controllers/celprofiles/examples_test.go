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
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/test/harness/casefile"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestExamples runs examples/cel offline and checks the outcome its
// comments promise.
func TestExamples(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	for _, f := range []string{"00-namespace-and-node.yaml", "cel/service.yaml"} {
		o, err := casefile.ReadObjects(filepath.Join(root, "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, o...)
	}
	client := memapi.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	rec := record.NewFakeRecorder(100)
	c, err := celprofiles.New(ctx, client, factory, celprofiles.Options{ConfigFile: filepath.Join(root, "examples", "cel", "profiles.yaml"), Common: slicecontroller.Common{EventRecorder: rec}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Controllers()) != 3 {
		t.Fatalf("%d profiles", len(c.Controllers()))
	}
	for _, prog := range c.Programs() {
		if err := prog.UndeclaredReads(); err != nil {
			t.Errorf("example profile %s: %v", prog.Profile().Name, err)
		}
	}
	// The other two profiles on one Pod.
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"k8s.v1.cni.cncf.io/network-status": `[
			{"name":"cluster","ips":["10.244.0.1"],"default":true},
			{"name":"demo/storage","interface":"net1","ips":["192.168.50.1","fd00:50::1"]},
			{"name":"demo/l2","interface":"net2"}]`}},
		Status: corev1.PodStatus{PodIPs: []corev1.PodIP{{IP: "10.244.0.1"}, {IP: "fd00::1"}}},
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"example.com/network": "demo/storage"}}}
	for i, want := range map[int]string{1: "fd00::1", 2: "192.168.50.1 fd00:50::1"} {
		got, err := c.Programs()[i].Addresses(ctx, svc, pod)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("profile %s: %v, %v; want %s", c.Programs()[i].Profile().Name, got, err, want)
		}
	}
	svc.Annotations["example.com/network"] = "demo/l2"
	if got, err := c.Programs()[2].Addresses(ctx, svc, pod); err != nil || len(got) != 0 {
		t.Errorf("network without ips: %v, %v", got, err)
	}
	w := casefile.NewWorld(objs)
	for range 2 {
		var svcs, pods, nodes, slices []any
		for _, s := range w.Services() {
			svcs = append(svcs, s)
		}
		for _, p := range w.Pods() {
			pods = append(pods, p)
		}
		for _, n := range w.Nodes() {
			nodes = append(nodes, n)
		}
		list, err := client.DiscoveryV1().EndpointSlices("").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range list.Items {
			slices = append(slices, &list.Items[i])
		}
		must(t, factory.Core().V1().Services().Informer().GetIndexer().Replace(svcs, ""))
		must(t, factory.Core().V1().Pods().Informer().GetIndexer().Replace(pods, ""))
		must(t, factory.Core().V1().Nodes().Informer().GetIndexer().Replace(nodes, ""))
		must(t, factory.Discovery().V1().EndpointSlices().Informer().GetIndexer().Replace(slices, ""))
		for _, s := range w.Services() {
			must(t, c.SyncService(ctx, s.Namespace+"/"+s.Name))
		}
	}
	list, err := client.DiscoveryV1().EndpointSlices("demo").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range list.Items {
		var eps []string
		for _, e := range s.Endpoints {
			eps = append(eps, e.TargetRef.Name+"="+e.Addresses[0]+map[bool]string{true: "", false: "(notready)"}[*e.Conditions.Ready])
		}
		sort.Strings(eps)
		got = append(got, s.Labels[discovery.LabelServiceName]+" "+s.Labels[discovery.LabelManagedBy]+" "+string(s.AddressType)+": "+strings.Join(eps, " "))
	}
	want := []string{"cache storage-ips.example.com IPv4: cache-1=172.16.0.1 cache-1=172.16.0.2 cache-2=172.16.0.3(notready)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	warned := false
	for len(rec.Events) > 0 {
		if e := <-rec.Events; strings.HasPrefix(e, corev1.EventTypeWarning+" InvalidAddress") && strings.Contains(e, "cache-3") {
			warned = true
		}
	}
	if !warned {
		t.Error("no InvalidAddress event for cache-3")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
