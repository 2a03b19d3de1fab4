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

// Package inputkinds is the one table of the kinds of objects slicekit
// reads, which `slicekit run` (informers and their transforms), `slicekit
// render` (the in-memory API server it seeds and the caches it fills),
// internal/inputfile (the -f reader of render and check) and `slicekit
// check` (the lists of a live cluster) all consult.
//
// The built-in kinds (Namespace, Node, Service, Pod, Endpoints,
// EndpointSlice) are listed by Builtin. A source that reads another kind
// (for example ResourceClaims, pkg/controllers/dranetwork) declares a Kind
// in its own package and names it in its registration's Reads
// (informertransform.Reads.Kinds); the manager gathers every
// registration's kinds into the table (builtin.InputKinds), so that a new
// kind needs no change anywhere else.
package inputkinds
