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

package check

import (
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/endpointsmirroring"
)

// Defaults of the Config fields that describe how the controllers are
// configured.
const (
	// DefaultMaxEndpointsPerSlice is KCM's default
	// --max-endpoints-per-slice (pkg/controller/endpointslice/config/
	// v1alpha1 defaults.go), also slicekit run's.
	DefaultMaxEndpointsPerSlice = reconciler.DefaultMaxEndpointsPerSlice
	// DefaultMirroringMaxEndpointsPerSubset is KCM's default
	// --mirroring-max-endpoints-per-subset (mirroring rule b4).
	DefaultMirroringMaxEndpointsPerSubset = endpointsmirroring.DefaultMaxEndpointsPerSubset
)

// Rules that compare the slices with the desired state of the controller
// that writes them (oracle rules; completeness.go, mirrordrift.go).
const (
	// RuleEndpointMissing: a Pod the responsible controller publishes is
	// missing from the Service's slices (completeness).
	RuleEndpointMissing RuleID = "endpoint-missing"
	// RuleMaxEndpointsPerSlice: a built-in controller's slice holds more
	// endpoints than the controller's configured maximum.
	RuleMaxEndpointsPerSlice RuleID = "max-endpoints-per-slice"
)

// checkCapacity applies max-endpoints-per-slice to the slices of the
// built-in controllers.
func (c *checker) checkCapacity(ref ObjectRef, s *discovery.EndpointSlice, r role) {
	n := len(s.Endpoints)
	switch {
	case r == roleDefault && n > int(c.cfg.MaxEndpointsPerSlice):
		c.add(SeverityWarning, RuleMaxEndpointsPerSlice, ref,
			"%d endpoints, more than the default controller's --max-endpoints-per-slice=%d: it never fills a slice beyond that (edited by hand?)", n, c.cfg.MaxEndpointsPerSlice)
	case r == roleMirror && n > int(c.cfg.MirroringMaxEndpointsPerSubset):
		c.add(SeverityWarning, RuleMaxEndpointsPerSlice, ref,
			"%d endpoints, more than the mirroring controller's --mirroring-max-endpoints-per-subset=%d: it never fills a slice beyond that (edited by hand?)", n, c.cfg.MirroringMaxEndpointsPerSubset)
	}
}
