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

package app

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2/ktesting"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/internal/localapply"
	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/pkg/render"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestRenderMatchesLive applies examples/ to a real kube-apiserver (as
// `make apply-examples` and `make demo` do: Pod and Node status set, no
// kubelet) with `slicekit run`'s manager running, and compares the
// EndpointSlices it writes with `slicekit render -f examples/` (which
// TestRenderDirectory compares with testdata/examples.golden.yaml): same
// slices, labels, address types, ports and endpoints; only the generated
// names, uids, generations and annotations may differ. The test control
// plane has the demo's service IP ranges (IPv4 primary, dual-stack), so
// render's default --service-ip-families=IPv4 matches it.
func TestRenderMatchesLive(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	code, out, stderr := runMain(t, "", "render", "-f", "../../../examples")
	if code != ExitOK {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	rendered, _, err := render.Decode("render", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, o := range rendered {
		want = append(want, canonicalSlice(t, o.Object.(*discovery.EndpointSlice)))
	}
	slices.Sort(want)

	env := testenv.Shared(t)
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	o := manager.NewOptions()
	o.RESTConfig = env.Config
	o.LeaderElection.LeaderElect = false
	o.MetricsBindAddress = "127.0.0.1:0"
	o.HealthProbeBindAddress = "127.0.0.1:0"
	o.MinResyncPeriod = 0
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	m, err := manager.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})

	objs, _, err := render.ReadFiles([]string{"../../../examples"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(objs, func(a, b render.Object) int { return localapply.Compare(a.Object, b.Object) })
	for _, obj := range objs {
		if _, err := localapply.Apply(ctx, env.Client, obj.Object, io.Discard); err != nil {
			t.Fatalf("%s: %v", obj.Where(), err)
		}
	}

	var got []string
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		l, err := env.Client.DiscoveryV1().EndpointSlices("demo").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		got = got[:0]
		for i := range l.Items {
			got = append(got, canonicalSlice(t, &l.Items[i]))
		}
		slices.Sort(got)
		return cmp.Equal(want, got), nil
	})
	if err != nil {
		t.Fatalf("the live slices differ from render -f examples/ (-render +live):\n%s", cmp.Diff(want, got))
	}
}

// canonicalSlice renders what a consumer sees of a slice, without the
// generated name, uids, generation and annotations, endpoints sorted.
func canonicalSlice(t *testing.T, s *discovery.EndpointSlice) string {
	t.Helper()
	type endpoint struct {
		Addresses  []string
		Conditions string
		NodeName   string
		Zone       string
		Hostname   string
		TargetRef  string
	}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	bools := func(p *bool) string {
		if p == nil {
			return "nil"
		}
		return fmt.Sprint(*p)
	}
	var eps []endpoint
	for _, e := range s.Endpoints {
		ref := ""
		if e.TargetRef != nil {
			ref = e.TargetRef.Kind + " " + e.TargetRef.Namespace + "/" + e.TargetRef.Name
		}
		eps = append(eps, endpoint{e.Addresses, bools(e.Conditions.Ready) + "/" + bools(e.Conditions.Serving) + "/" + bools(e.Conditions.Terminating),
			deref(e.NodeName), deref(e.Zone), deref(e.Hostname), ref})
	}
	slices.SortFunc(eps, func(a, b endpoint) int {
		return strings.Compare(strings.Join(a.Addresses, ","), strings.Join(b.Addresses, ","))
	})
	owners := []string{}
	for _, o := range s.OwnerReferences {
		owners = append(owners, o.Kind+" "+o.Name)
	}
	b, err := yaml.Marshal(map[string]any{
		"labels": s.Labels, "addressType": s.AddressType, "ports": s.Ports, "endpoints": eps, "owners": owners,
		"generateName": s.GenerateName,
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
