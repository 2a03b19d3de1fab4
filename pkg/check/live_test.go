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

package check

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/test/harness/casefile"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// load creates objs in namespace ns through client: Services, Endpoints
// and Nodes first (their uids are recorded), then Pods with their status,
// then EndpointSlices with owner uids mapped to the real ones.
func load(ctx context.Context, t *testing.T, client kubernetes.Interface, ns string, objs []runtime.Object) {
	t.Helper()
	uids := map[types.UID]types.UID{}
	var pods []*corev1.Pod
	var slicesToCreate []*discovery.EndpointSlice
	for _, o := range objs {
		switch v := o.DeepCopyObject().(type) {
		case *corev1.Service:
			old := v.UID
			v.Namespace, v.UID, v.ResourceVersion = ns, "", ""
			if v.Spec.ClusterIP != corev1.ClusterIPNone {
				// Let the API server allocate from its own range.
				v.Spec.ClusterIP, v.Spec.ClusterIPs = "", nil
			}
			out, err := client.CoreV1().Services(ns).Create(ctx, v, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			uids[old] = out.UID
		case *corev1.Endpoints:
			old := v.UID
			v.Namespace, v.UID = ns, ""
			out, err := client.CoreV1().Endpoints(ns).Create(ctx, v, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			uids[old] = out.UID
		case *corev1.Node:
			v.UID = ""
			if _, err := client.CoreV1().Nodes().Create(ctx, v, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		case *corev1.Pod:
			pods = append(pods, v)
		case *discovery.EndpointSlice:
			slicesToCreate = append(slicesToCreate, v)
		}
	}
	for _, p := range pods {
		status := p.Status
		p.Namespace, p.UID = ns, ""
		out, err := client.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out.Status = status
		if _, err := client.CoreV1().Pods(ns).UpdateStatus(ctx, out, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range slicesToCreate {
		s.Namespace = ns
		for i := range s.OwnerReferences {
			if u, ok := uids[s.OwnerReferences[i].UID]; ok {
				s.OwnerReferences[i].UID = u
			}
		}
		for i := range s.Endpoints {
			if r := s.Endpoints[i].TargetRef; r != nil && r.Namespace != "" {
				r.Namespace = ns
			}
		}
		if _, err := client.DiscoveryV1().EndpointSlices(ns).Create(ctx, s, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunLive checks case 18's input on a real kube-apiserver through a
// kubeconfig, in one namespace and in all of them (kube-apiserver's own
// default/kubernetes slice must not be reported).
func TestRunLive(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	ns := testenv.Namespace(t, env.Client)
	c := casefile.MustLoad(t, "18")
	load(ctx, t, env.Client, ns, c.Input)
	// kube-apiserver writes default/kubernetes, without managed-by.
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := env.Client.DiscoveryV1().EndpointSlices("default").Get(ctx, "kubernetes", metav1.GetOptions{})
		return err == nil, nil
	}); err != nil {
		t.Fatalf("kube-apiserver wrote no default/kubernetes EndpointSlice: %v", err)
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := env.WriteKubeConfig(kubeconfig, "test"); err != nil {
		t.Fatal(err)
	}

	want := []string{
		"error delegated-builtin-slice EndpointSlice " + ns + "/svc-a-default",
		"error delegated-builtin-slice EndpointSlice " + ns + "/svc-c-m1",
		// Consumer rules, as in TestCases: pod-a1's podIP and its
		// secondary address share svc-a's name...
		"warning merged-networks Service " + ns + "/svc-a",
		// svc-b selects a ready Pod of the default controller and has no
		// slice (no controller runs in this test).
		"warning slices-missing Service " + ns + "/svc-b",
		// ... and the hand-loaded custom slice has no trigger time while
		// its Service, stored by the API server, has a creationTimestamp.
		"warning trigger-time EndpointSlice " + ns + "/svc-a-custom",
	}
	for _, tc := range []struct {
		name string
		opts func(*Options)
		// slices is the least number of slices checked: with all
		// namespaces, kube-apiserver's default/kubernetes one too.
		slices int
	}{
		{"namespace", func(o *Options) { o.Namespace = ns }, 3},
		{"all namespaces", func(o *Options) { o.AllNamespaces = true }, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newBuiltinOptions()
			o.Kubeconfig = kubeconfig
			o.Output = OutputJSON
			tc.opts(o)
			var out bytes.Buffer
			code, err := Run(ctx, *o, &out)
			if err != nil || code != ExitFindings {
				t.Fatalf("Run = %d, %v; want %d\n%s", code, err, ExitFindings, out.String())
			}
			var doc struct {
				Findings []Finding
				Summary  struct{ Checked Counts }
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range doc.Findings {
				got = append(got, string(f.Severity)+" "+string(f.Rule)+" "+f.Object.String())
			}
			slices.Sort(got)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s\n%s", d, out.String())
			}
			if doc.Summary.Checked.Nodes == 0 || doc.Summary.Checked.Pods != 1 || doc.Summary.Checked.EndpointSlices < tc.slices {
				t.Errorf("checked %+v", doc.Summary.Checked)
			}
		})
	}
}
