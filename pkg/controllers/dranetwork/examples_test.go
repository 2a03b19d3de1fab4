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

package dranetwork_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/render"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestExample renders examples/dra as its README says and checks the
// slices it promises.
func TestExample(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	objs, _, err := render.ReadFiles([]string{filepath.Join(root, "examples", "00-namespace-and-node.yaml"), filepath.Join(root, "examples", "dra")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var in []runtime.Object
	for _, o := range objs {
		in = append(in, o.Object)
	}
	copts := builtin.NewControllerOptions()
	copts.Controllers = []string{"*", dranetwork.RegistrationName}
	res, err := render.Render(ctx, in, render.Options{Controllers: copts})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.EndpointSlices {
		var eps []string
		for _, e := range s.Endpoints {
			eps = append(eps, e.TargetRef.Name+"="+strings.Join(e.Addresses, ","))
		}
		slices.Sort(eps)
		got = append(got, s.Labels[discovery.LabelServiceName]+" "+s.Labels[discovery.LabelManagedBy]+" "+string(s.AddressType)+": "+strings.Join(eps, " "))
	}
	slices.Sort(got)
	want := []string{
		"fabric dra-network.slicekit.dev IPv4: fabric-1=192.168.90.21 fabric-2=192.168.90.22",
		"fabric dra-network.slicekit.dev IPv6: fabric-1=fd00:90::21",
	}
	if !slices.Equal(got, want) {
		t.Errorf("slices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var missing bool
	for _, e := range res.Events {
		missing = missing || e.Reason == "NetworkDataMissing" && strings.Contains(e.Message, "fabric-3")
	}
	if !missing {
		t.Errorf("no NetworkDataMissing event for fabric-3: %+v", res.Events)
	}
}
