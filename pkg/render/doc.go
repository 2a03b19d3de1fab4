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

// Package render is `slicekit render`: it runs slicekit's controllers
// offline on objects read from YAML and returns the EndpointSlices they
// produce, with deterministic names and order.
//
// It drives the same controller code as `slicekit run`: the controllers
// are constructed from the one list of built-in controllers
// (github.com/slicekit/slicekit/pkg/controllers/builtin), which `slicekit
// run` reads too, with the same options
// (--controllers, --controller-name, --max-endpoints-per-slice,
// --feature-gates), on a client-go fake clientset that behaves like an API
// server for their writes, and each controller's SyncAll hook is called
// pass after pass, with the informer caches of what was written refilled
// from the clientset before every call, until a pass writes nothing. No informer, queue or
// other goroutine runs.
//
// Input (Decode, ReadFiles): multi-document YAML or JSON of Services, Pods
// (with status, as there is no kubelet), Nodes, Endpoints, EndpointSlices
// and Namespaces, decoded strictly into the k8s.io/api types; a v1 List is
// read as its items. Errors name the file and document (InputError).
//
// Output (WriteYAML): every EndpointSlice that exists afterwards, foreign
// ones included, sorted by namespace and name, as multi-document YAML that
// is valid input for the next render: rendering the output together with
// the other input objects changes nothing.
package render
