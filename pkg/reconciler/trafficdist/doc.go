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

// Package trafficdist sets the hints of EndpointSlice endpoints according to
// a Service's spec.trafficDistribution (PreferClose, PreferSameZone,
// PreferSameNode), or removes them.
//
// It is a port of k8s.io/endpointslice@v0.37.2/trafficdist/trafficdist.go,
// the code used by kube-controller-manager's EndpointSlice controller, with
// the same API and behaviour. Unlike KCM, it never writes into the backing
// arrays of the []*EndpointSlice values it is given.
package trafficdist
