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
	"fmt"
	"os"
	"path/filepath"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/render"
	"github.com/slicekit/slicekit/test/harness/casefile"
)

// caseSecondaryName is the secondary-network controller name the
// regression cases use (cases 19, 31, 36).
const caseSecondaryName = "secondary.example.com"

// TestRenderedCasesCheckClean renders every regression case with
// `slicekit render` (pkg/render: the default controllers plus the
// secondary-network one named as the cases name it) at its input and after
// the steps before each checkpoint (optional ones included), and checks
// each rendered state with the objects it was rendered from: no error is
// allowed. Warnings are logged (legal states such as a foreign slice beside
// the controller's).
func TestRenderedCasesCheckClean(t *testing.T) {
	dir := casefile.MustCasesDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			c, err := casefile.Load(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			copts := builtin.NewControllerOptions()
			copts.Controllers = []string{"*", secondarynetwork.RegistrationName, dranetwork.RegistrationName}
			copts.For(secondarynetwork.RegistrationName).(*secondarynetwork.Options).ControllerName = caseSecondaryName
			w := casefile.NewWorld(c.Input)
			renderAndCheck := func(state string) {
				t.Helper()
				// The controllers read no other kind (NetworkAttachmentDefinitions
				// of the secondary-network cases only document the network; the
				// ResourceClaimTemplate of case 45 documents the claim), as
				// render's file reader leaves them out.
				kinds, err := builtin.InputKinds()
				if err != nil {
					t.Fatal(err)
				}
				var objs []runtime.Object
				for _, o := range w.Objects() {
					if _, other := o.(*unstructured.Unstructured); other {
						continue
					}
					if gvk, err := casefile.KindOf(o); err == nil {
						if _, read := kinds.ByGVK(gvk); read {
							objs = append(objs, o)
						}
					}
				}
				res, err := render.Render(ctx, objs, render.Options{Controllers: copts})
				if err != nil {
					t.Fatalf("%s: render: %v", state, err)
				}
				slices := make([]discovery.EndpointSlice, len(res.EndpointSlices))
				for i, s := range res.EndpointSlices {
					slices[i] = *s
				}
				w.SetEndpointSlices(slices)
				rep := Check(ctx, NewInventory(w.Objects()), secondaryConfig(caseSecondaryName))
				n++
				for _, f := range rep.Findings {
					if f.Severity == SeverityError {
						t.Errorf("%s: rendered state: %s", state, f)
					} else {
						t.Logf("%s: rendered state: %s", state, f)
					}
				}
			}
			renderAndCheck("input")
			for i := range c.Steps {
				a := &c.Steps[i]
				var err error
				switch {
				case a.Patch != nil:
					err = w.Patch(a.Patch)
				case a.Delete != nil:
					err = w.Delete(*a.Delete)
				case a.Apply != nil:
					err = w.ApplyFromMap(a.Apply)
				case a.Checkpoint != nil || a.Run != nil:
					renderAndCheck(fmt.Sprintf("step %d", i+1))
				}
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
			}
		})
	}
	t.Logf("%d rendered states checked", n)
}
