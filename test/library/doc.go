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

// Package library holds the conformance checks of the reconciler library's
// example controllers (examples/library): each example runs on the fake
// clientset of package reconcilertest (which names generateName objects and
// bumps generation, as the API server does), and the slices it writes are
// judged by slicekit check (package pkg/check, read from the clientset as
// `slicekit check` reads a cluster) and by the conformance suite's
// assertions on slices (conformance/utils/kubernetes). The suite's own
// tests create Pods and wait for a controller that publishes them; these
// examples publish other sources, so they are held to the part of the
// suite that judges slices whatever their source.
package library
