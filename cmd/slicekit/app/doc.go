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

// Package app is the slicekit command line (cobra): `slicekit run` (the
// controller manager, github.com/slicekit/slicekit/pkg/manager), `slicekit
// render` (offline rendering, github.com/slicekit/slicekit/pkg/render),
// `slicekit check` and `slicekit version`.
//
// Main returns the exit code: ExitOK, ExitFailure for run-time failures,
// ExitUsage for an unknown command or flag, an invalid flag value or
// option, invalid render input, or a permission that `slicekit run`'s
// preflight found missing.
//
// Started under the name kubectl-slicekit (IsPlugin, MainArgv), the binary
// is the kubectl plugin `kubectl slicekit` (NewPluginCommand): check,
// render and version.
package app
