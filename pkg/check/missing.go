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
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// RuleSlicesMissing: a Service for which its controller publishes ready
// endpoints has no EndpointSlice at all.
const RuleSlicesMissing RuleID = "slices-missing"

// checkMissingSlices applies slices-missing: a Service that the check can
// judge (oracle: a selector, not ExternalName, not being deleted, served by
// the default controller or a pod-address controller the check knows)
// whose controller publishes at least one ready endpoint, and that has no
// EndpointSlice at all (of any controller, by kubernetes.io/service-name).
// A running controller writes one on its first sync, so the controller is
// not running, is behind, or cannot write. A Service labelled for another
// controller, one without selector (its slices are written by hand or
// mirrored) and an ExternalName Service are not judged. It runs only when
// the inventory has the Services, the Pods and the EndpointSlices (a dump
// without any slice says nothing of them).
func (c *checker) checkMissingSlices() {
	if !c.inv.Have.Services || !c.inv.Have.Pods || !c.inv.Have.EndpointSlices {
		return
	}
	have := map[types.NamespacedName]bool{}
	for _, s := range c.inv.EndpointSlices {
		if name := s.Labels[discovery.LabelServiceName]; name != "" {
			have[nn(s.Namespace, name)] = true
		}
	}
	for _, svc := range c.inv.Services {
		if have[nn(svc.Namespace, svc.Name)] {
			continue
		}
		mgr, desired, _, ok := c.oracle(c.ctx, svc)
		if !ok {
			continue
		}
		if n := readyEndpoints(desired); n > 0 {
			c.add(SeverityWarning, RuleSlicesMissing, serviceRef(svc.Namespace, svc.Name),
				"%d ready endpoint(s) of selected Pods, but no EndpointSlice at all: %s writes at least one on its first sync (is it running? can it write?)", n, mgr)
		}
	}
}

// readyEndpoints counts the endpoints of d whose ready condition is true.
func readyEndpoints(d *reconciler.Desired) int {
	n := 0
	for _, g := range d.Groups {
		for i := range g.Endpoints {
			if r := g.Endpoints[i].Conditions.Ready; r != nil && *r {
				n++
			}
		}
	}
	return n
}
