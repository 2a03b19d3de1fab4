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

// Package registry is the contract between slicekit's controllers and the
// manager that runs them (pkg/manager, `slicekit run` and `slicekit
// render`). It sits below both: each controller package exports its own
// Registration (name, aliases, workers, constructor, RBAC rules, the
// informers and fields it reads, the managed-by values it writes, and its
// command-line options), and the manager holds one list of them.
//
// Settings several controllers share (--controller-name,
// --max-endpoints-per-slice, --endpoint-updates-batch-period and KCM's alias
// --endpointslice-updates-batch-period, --concurrent-service-endpoint-syncs,
// --feature-gates) live in Shared, defaulted and validated once here;
// --controllers stays in the manager, which knows every registration. A
// controller's own flags are its Options (Registration.NewOptions), which
// it defaults, binds and validates itself.
//
// Adding a controller (for example a Pod-address source on
// pkg/slicecontroller) is one package that exports a
// Registration plus one line in the manager's list
// (pkg/manager/controllers.go).
package registry
