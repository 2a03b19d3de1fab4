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

// Package delegation implements the KEP-4770 ("EndpointSlice Controller
// Flexibility") rule that decides whether a Service is left to another
// controller: a Service carrying the label
// service.kubernetes.io/endpoint-controller-name is delegated to the
// controller that label names, and the default endpoint controllers
// (EndpointSlice, EndpointSlice mirroring, Endpoints) stay out of it.
//
// The KEP was never merged (kubernetes/enhancements PR #4771); its final text
// and the stored implementation branch exclude a labelled Service from the
// controllers' Service informer with a DoesNotExist label requirement, behind
// the alpha feature gate ExternalEndpointController. This package keeps the
// same presence-only rule (rules (a)1, (a)6 and (a)9 of
// docs/kep4770.md) but evaluates it per Service instead of
// in an informer filter, so one Service informer can serve every controller
// and a controller sees the label being added (and can clean up, which the
// KEP promised but its branch did not do; spec (e) O1, O2) instead of a
// synthetic delete.
//
// One slicekit extension: a Service whose label value is the controller's own
// name is not delegated away from that controller, so a slicekit controller
// running under a custom name can be pointed at explicitly.
package delegation
