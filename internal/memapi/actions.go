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

package memapi

import (
	k8stesting "k8s.io/client-go/testing"
)

// writeVerbs are the verbs that change stored objects.
var writeVerbs = map[string]bool{
	"create":            true,
	"update":            true,
	"patch":             true,
	"delete":            true,
	"delete-collection": true,
}

// IsWrite reports whether a is a write (create, update, patch, delete or
// delete-collection) on resource (for example "endpointslices"), in any
// namespace and on any subresource.
func IsWrite(a k8stesting.Action, resource string) bool {
	return writeVerbs[a.GetVerb()] && a.GetResource().Resource == resource
}

// Writes returns the writes on resource among actions, in order. A write
// counts as sent even when the fake refused it or it was a no-op.
func Writes(actions []k8stesting.Action, resource string) []k8stesting.Action {
	var out []k8stesting.Action
	for _, a := range actions {
		if IsWrite(a, resource) {
			out = append(out, a)
		}
	}
	return out
}

// SliceWrites returns the EndpointSlice writes recorded by c (see Writes).
// Use c.ClearActions() to start counting afresh.
func SliceWrites(c k8stesting.FakeClient) []k8stesting.Action {
	return Writes(c.Actions(), EndpointSlicesResource.Resource)
}

// CountSliceWrites returns the number of EndpointSlice writes recorded by c,
// by verb; verbs with no write are absent.
func CountSliceWrites(c k8stesting.FakeClient) map[string]int {
	out := map[string]int{}
	for _, a := range SliceWrites(c) {
		out[a.GetVerb()]++
	}
	return out
}
