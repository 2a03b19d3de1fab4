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
	"path/filepath"
	"strings"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/render"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestPodAddressControllersLeftOutPods renders an example of a pod-address
// controller, then adds to its slice an endpoint for a selected Pod the
// controller leaves out (a forged or stale address): the check must report
// it (endpoint-address-not-pod-ip) and be clean without it.
func TestPodAddressControllersLeftOutPods(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		controller string
		files      []string
		pod        string
	}{
		// fabric-3's driver has reported no networkData yet.
		{"dra-network", dranetwork.RegistrationName, []string{"dra"}, "fabric-3"},
		// db-3 is not attached to the Service's network.
		{"secondary-network", secondarynetwork.RegistrationName, []string{"secondary-network/service.yaml"}, "db-3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			names := []string{filepath.Join(root, "examples", "00-namespace-and-node.yaml")}
			for _, f := range tc.files {
				names = append(names, filepath.Join(root, "examples", f))
			}
			objs, _, err := render.ReadFiles(names, nil)
			if err != nil {
				t.Fatal(err)
			}
			var in []runtime.Object
			for _, o := range objs {
				in = append(in, o.Object)
			}
			copts := builtin.NewControllerOptions()
			copts.Controllers = []string{"*", tc.controller}
			res, err := render.Render(ctx, in, render.Options{Controllers: copts})
			if err != nil {
				t.Fatal(err)
			}
			inventory := func(forge bool) *Inventory {
				inv := NewInventory(in)
				for _, s := range res.EndpointSlices {
					s = s.DeepCopy()
					if forge && s.AddressType == discovery.AddressTypeIPv4 && len(s.Endpoints) > 0 {
						e := *s.Endpoints[0].DeepCopy()
						e.Addresses = []string{"203.0.113.66"}
						e.TargetRef.Name, e.TargetRef.UID = tc.pod, ""
						e.Hostname = nil
						s.Endpoints = append(s.Endpoints, e)
						forge = false
					}
					inv.Add(s)
				}
				return inv
			}
			if rep := Check(ctx, inventory(false), builtinConfig(Config{})); rep.Errors() > 0 {
				t.Fatalf("the rendered state has errors:\n%s", findingLines(rep))
			}
			rep := Check(ctx, inventory(true), builtinConfig(Config{}))
			found := false
			for _, f := range rep.Findings {
				found = found || f.Rule == RuleEndpointAddress && strings.Contains(f.Reason, tc.pod) && strings.Contains(f.Reason, "203.0.113.66")
			}
			if !found {
				t.Errorf("the forged endpoint of %s is not reported:\n%s", tc.pod, findingLines(rep))
			}
		})
	}
}
