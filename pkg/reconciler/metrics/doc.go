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

// Package metrics provides the Prometheus metrics of kube-controller-manager's
// EndpointSlice controller, without globals.
//
// It is a port of k8s.io/endpointslice@v0.37.2 metrics/metrics.go and
// metrics/cache.go. KCM defines its metrics as package globals with
// k8s.io/component-base/metrics and registers them once on the legacy
// registry; here New builds them with github.com/prometheus/client_golang and
// registers them on the prometheus.Registerer it is given (for example
// controller-runtime's metrics.Registry), with a configurable subsystem. The
// exposed names, help texts (including component-base's "[ALPHA] " and
// "[BETA] " prefixes), types, label names, buckets and values are KCM's.
//
// A nil *Metrics is valid and records nothing, so the reconciler can run
// without metrics. The Cache (NewCache) tracks the per-owner, per-port-group
// endpoint and EndpointSlice counts and sets the gauges, as KCM's Cache does;
// port groups are keyed by a string chosen by the caller instead of KCM's
// util.PortMapKey.
//
// # Extending for the mirroring controller
//
// KCM's EndpointSliceMirroring controller (k8s.io/kubernetes
// pkg/controller/endpointslicemirroring/metrics) uses the subsystem
// "endpoint_slice_mirroring_controller", ALPHA stability for every metric,
// "Endpoints sync" instead of "Service sync" in its help texts, three more
// histograms (endpoints_updated_per_sync, addresses_skipped_per_sync,
// endpoints_sync_duration), no syncs, endpointslices_changed_per_sync or
// services_count_by_traffic_distribution, and a different cache (no
// placeholder slice). The design leaves room for it: a new Options field
// selects the metric set (zero value: this one), New builds only the
// metrics of the set, the Metrics fields of metrics outside the set stay nil
// and every method checks its field, and a separate cache type can drive
// the shared gauges.
package metrics
