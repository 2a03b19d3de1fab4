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

// Package manager is the controller manager behind `slicekit run`: it runs
// slicekit's controllers the way kube-controller-manager (KCM) runs its own,
// so that slicekit can replace KCM's EndpointSlice controllers.
//
// # Options
//
// Options holds every flag of `slicekit run`, with KCM's names and defaults
// where KCM has the flag (--controllers, --concurrent-service-endpoint-syncs,
// --max-endpoints-per-slice, --endpoint-updates-batch-period, --leader-elect
// and the --leader-elect-* flags, --feature-gates, --kube-api-qps,
// --kube-api-burst, --min-resync-period), plus --controller-name (the
// managed-by value), --metrics-bind-address, --health-probe-bind-address and
// the logging flags of k8s.io/component-base/logs/api/v1. Use NewOptions,
// AddFlags, Complete and Validate. The embedded builtin.ControllerOptions
// is the part that `slicekit render` shares.
//
// # Controllers
//
// Each controller package exports its Registration
// (pkg/registry): the name for --controllers and aliases,
// whether "*" enables it, how many workers it gets, how to construct it
// from a registry.InitContext (client, shared informer factory, shared
// settings, its own options, metrics registerer, event recorder), its RBAC
// rules, the informers and fields it reads (informertransform.Reads), the
// managed-by values it writes and its own command-line options. The
// list of them is pkg/controllers/builtin: adding a controller is one
// package plus one line there.
//
// builtin.ControllerOptions compose --controllers, the shared settings
// (registry.Shared) and every registered controller's own options; their
// Validate asks each controller to validate its own, then checks across
// the enabled controllers what the registrations declare (distinct
// managed-by values, CheckManagedBy such as the CEL profile names).
//
// builtin.NewControllers installs, once and before it constructs the enabled
// controllers, the informer transforms composed from what they read
// (informertransform.Compose), so the shared caches keep what some enabled
// controller reads, in any order; controllers install none themselves. The
// constructed Controller runs with Run(ctx, workers) and, for `slicekit
// render`, syncs everything once with SyncAll.
//
// # Manager
//
// New builds the clients (QPS 20, burst 30, protobuf, user agent
// slicekit/<version>; the main client's rate limiter is a
// ratelimit.TokenBucket, which the controllers get as
// registry.InitContext.Pacer to plan their writes as late as it allows,
// while the preflight and leader election clients have limiters of their
// own), one informer factory shared by all controllers, a
// Prometheus registry injected into every controller (no global metrics),
// and binds the /metrics and probe listeners. Run starts the informers,
// competes for a Lease (coordination.k8s.io, client-go leaderelection) when
// --leader-elect is set and runs the controllers while leading, and stops in
// order on shutdown: controllers, Lease release, informers, servers. See
// Manager for the meaning of /healthz and /readyz.
package manager
