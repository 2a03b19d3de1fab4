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

// Package memapi is an in-memory API server for EndpointSlice controllers:
// client-go's fake clientset wrapped with the reactions of a real
// kube-apiserver that EndpointSlice controllers depend on and that the
// plain fake lacks: generateName, UIDs, resourceVersions, EndpointSlice
// generations, no-op updates, optimistic concurrency and delete
// preconditions. kube-controller-manager's own tests add the first few
// reactors by hand (k8s.io/kubernetes pkg/controller/endpointslice
// endpointslice_controller_test.go newController); this package does it
// once, with the API server's semantics.
//
// It is product code: `slicekit render` (pkg/render) runs the controllers
// against it. Tests and the test harness (test/harness/casefile) use it too, as
// do the write-inspection helpers (Writes, SliceWrites, CountSliceWrites).
package memapi
