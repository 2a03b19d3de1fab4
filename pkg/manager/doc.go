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
// AddFlags, Complete and Validate. ControllerOptions is the part that
// `slicekit render` shares.
//
// # Controllers
//
// Controllers are registered by name in a registry (registry.go): a
// Registration names the controller for --controllers, says whether "*"
// enables it, how many workers it gets, and how to construct it from an
// InitContext (client, shared informer factory, options, metrics registerer,
// event recorder). The constructed Controller runs with Run(ctx, workers)
// and, for `slicekit render`, syncs everything once with SyncAll. Adding a
// controller is adding one Registration.
//
// # Manager
//
// New builds the clients (QPS 20, burst 30, protobuf, user agent
// slicekit/<version>), one informer factory shared by all controllers, a
// Prometheus registry injected into every controller (no global metrics),
// and binds the /metrics and probe listeners. Run starts the informers,
// competes for a Lease (coordination.k8s.io, client-go leaderelection) when
// --leader-elect is set and runs the controllers while leading, and stops in
// order on shutdown: controllers, Lease release, informers, servers. See
// Manager for the meaning of /healthz and /readyz.
package manager
