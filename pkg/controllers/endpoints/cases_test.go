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

package endpoints

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/slicekit/slicekit/test/harness/casefile"
)

// TestCase18 is the Endpoints-controller side of case 18 (KEP-4770), which
// the case leaves out of its slice comparison: the labelled svc-a gets no
// Endpoints object, the control svc-b gets one, and svc-c's hand-written
// Endpoints (labelled, selectorless Service) is neither written nor deleted.
func TestCase18(t *testing.T) {
	c := casefile.MustLoad(t, "18")
	var objs []runtime.Object
	for _, o := range c.Input {
		switch o.(type) {
		case *corev1.Service, *corev1.Pod, *corev1.Endpoints:
			objs = append(objs, o)
		}
	}
	f := newFixture(t, Options{}, objs...)
	before := f.endpoints("svc-c")
	if err := f.c.SyncAll(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.refresh()
	if ep := f.endpoints("svc-a"); ep != nil {
		t.Errorf("Endpoints written for the labelled svc-a: %v", ep.Subsets)
	}
	if ep := f.endpoints("svc-b"); ep == nil || len(ep.Subsets) != 1 || ep.Subsets[0].Addresses[0].IP != "10.0.0.11" {
		t.Errorf("svc-b: want Endpoints with 10.0.0.11, got %+v", ep)
	}
	after := f.endpoints("svc-c")
	if after == nil || after.ResourceVersion != before.ResourceVersion {
		t.Errorf("svc-c's hand-written Endpoints was written or deleted")
	}
}
