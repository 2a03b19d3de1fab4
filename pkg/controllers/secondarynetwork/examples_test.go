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

package secondarynetwork_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/test/harness/casefile"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestExamples renders examples/secondary-network offline with the default
// controllers and checks the outcome its comments promise.
func TestExamples(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	for _, f := range []string{"00-namespace-and-node.yaml", "secondary-network/service.yaml", "secondary-network/headless-dual-stack.yaml", "secondary-network/network-attachment-definition.yaml"} {
		o, err := casefile.ReadObjects(filepath.Join(root, "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, o...)
	}
	client := memapi.NewClientset()
	w := casefile.NewWorld(objs)
	factory := informers.NewSharedInformerFactory(client, 0)
	o := &offline{client: client, factory: factory, recorder: record.NewFakeRecorder(100)}
	if o.def, err = endpointslice.New(ctx, client, factory, endpointslice.Options{EventRecorder: o.recorder}); err != nil {
		t.Fatal(err)
	}
	if o.secondary, err = secondarynetwork.New(ctx, client, factory, secondarynetwork.Options{Common: slicecontroller.Common{EventRecorder: o.recorder}}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := o.pass(ctx, w); err != nil {
			t.Fatal(err)
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
	sort.Strings(got)
	want := []string{
		"db secondary-network.slicekit.dev IPv4: db-1=192.168.50.11 db-2=192.168.50.12(notready)",
		"db-ds secondary-network.slicekit.dev IPv4: dbds-1=192.168.60.31",
		"db-ds secondary-network.slicekit.dev IPv6: dbds-1=fd00:60::31 dbds-2=fd00:60::32",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p := o.secondary.Problems("demo", "db"); len(p) != 1 || p[0].Pod.Name != "db-3" || p[0].Reason != "NetworkNotAttached" {
		t.Errorf("problems of db: %v", p)
	}
}
