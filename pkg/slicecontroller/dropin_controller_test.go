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

package slicecontroller

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestListOwnSlicesStripsManagedFields: slices handed to the reconciler
// carry no managedFields, and the cached ones keep theirs.
func TestListOwnSlicesStripsManagedFields(t *testing.T) {
	f := newDropInFixture(t, dropInOptions{})
	s := newSlice("svc-1", "svc", self)
	s.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "x"}}
	f.add(s)
	mc := newMutationCheck(s)
	got, err := f.c.ownSlices(newService("svc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ManagedFields != nil || got[0].Name != "svc-1" {
		t.Errorf("listOwnSlices = %+v", got)
	}
	mc.check(t)
}
