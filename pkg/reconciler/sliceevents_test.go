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

package reconciler

import (
	"testing"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
)

// TestSliceEvents covers SliceAdded, SliceUpdated and SliceDeleted (KCM
// onEndpointSliceAdd, Update, Delete; C7).
func TestSliceEvents(t *testing.T) {
	r, err := New(fake.NewClientset(), Config{ControllerName: testController, OwnerGVK: ServiceGVK})
	if err != nil {
		t.Fatal(err)
	}
	slice := func(managedBy string, uid string, gen int64) *discovery.EndpointSlice {
		return &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns", Name: "s-" + uid, UID: types.UID("uid-" + uid), Generation: gen,
			Labels: map[string]string{discovery.LabelManagedBy: managedBy, discovery.LabelServiceName: "svc"},
		}}
	}
	ours, foreign := slice(testController, "a", 1), slice("other", "a", 1)
	if !r.SliceAdded(ours) || r.SliceAdded(foreign) {
		t.Errorf("SliceAdded(untracked ours, foreign) = %v, %v; want true, false", r.SliceAdded(ours), r.SliceAdded(foreign))
	}
	r.Tracker().Update(ours)
	if r.SliceAdded(ours) {
		t.Error("SliceAdded of the echo of our write = true, want false")
	}
	newer := slice(testController, "a", 2)
	if !r.SliceUpdated(ours, newer) || r.SliceUpdated(ours, ours) {
		t.Errorf("SliceUpdated(newer generation, echo) = %v, %v; want true, false", r.SliceUpdated(ours, newer), r.SliceUpdated(ours, ours))
	}
	if !r.SliceUpdated(foreign, ours) || !r.SliceUpdated(ours, foreign) || r.SliceUpdated(foreign, foreign) {
		t.Error("SliceUpdated: a managed-by change must sync, a foreign slice must not")
	}
	if !r.SliceDeleted(ours) {
		t.Error("SliceDeleted of a tracked slice we did not delete = false, want true")
	}
	if r.SliceDeleted(ours) {
		t.Error("SliceDeleted twice = true: the first call must forget the slice")
	}
	b := slice(testController, "b", 1)
	r.Tracker().ExpectDeletion(b)
	if r.SliceDeleted(b) {
		t.Error("SliceDeleted of a slice we deleted = true, want false")
	}
	if r.SliceDeleted(foreign) {
		t.Error("SliceDeleted of a foreign slice = true, want false")
	}
}
