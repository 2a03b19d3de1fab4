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
	"fmt"
	"maps"
	"slices"
	"strings"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// endpointIdentity is KCM's identity of an endpoint (k8s.io/endpointslice
// util/endpointset.go hashEndpoint, as pkg/reconciler
// EndpointIdentity spells it): the set of its addresses, its hostname and
// its targetRef namespace and name. Addresses are compared in KCM's
// canonical form (canonicalIP). Two endpoints with one IP but different
// targets are two endpoints (a Pod IP reused, an Endpoints object listing
// one IP for two targets); one target listed twice is one endpoint.
func endpointIdentity(e *discovery.Endpoint) string {
	addrs := make([]string, len(e.Addresses))
	for i, a := range e.Addresses {
		addrs[i] = canonicalIP(a)
	}
	slices.Sort(addrs)
	return reconciler.EndpointIdentity(&discovery.Endpoint{Addresses: addrs, Hostname: e.Hostname, TargetRef: e.TargetRef})
}

// describeEndpoint names an endpoint for a finding: its addresses and its
// target.
func describeEndpoint(e *discovery.Endpoint) string {
	s := strings.Join(e.Addresses, ",")
	if s == "" {
		s = "(no address)"
	}
	if t := e.TargetRef; t != nil {
		s += fmt.Sprintf(" (%s %s/%s)", t.Kind, t.Namespace, t.Name)
	}
	if e.Hostname != nil {
		s += fmt.Sprintf(" hostname %q", *e.Hostname)
	}
	return s
}

// portsKey is the sorted port set of a slice.
func portsKey(s *discovery.EndpointSlice) string {
	return portListKey(s.Ports)
}

func portListKey(ports []discovery.EndpointPort) string {
	ps := make([]string, 0, len(ports))
	for _, p := range ports {
		ps = append(ps, fmt.Sprintf("%s:%d/%s", deref(p.Name), deref(p.Port), protocolOf(p.Protocol)))
	}
	slices.Sort(ps)
	return "[" + strings.Join(ps, " ") + "]"
}

// checkDuplicates applies duplicate-endpoint to the slices of one Service,
// with KCM's endpoint identity (endpointIdentity):
//   - across all slices of the Service, of any controllers: the same
//     endpoint twice with the same address type and port set (an
//     EndpointSet per port group in KCM holds each identity once; the
//     mirroring controller collapses repeated addresses the same way);
//     with declared slice sets (Config.SliceSetLabels), each set is judged
//     on its own: twice within one set (or within the slices outside any
//     set) is an error, once in each of two sets a warning (consumers
//     merge them; no writer published it twice);
//   - across the default controller's slices of one address type, whatever
//     their ports: each Pod lands in exactly one port group (its resolved
//     ports), so it is published once.
//
// The same endpoint with two different port sets is legitimate elsewhere
// (an Endpoints object serving one address on ports of two subsets).
func (c *checker) checkDuplicates(k types.NamespacedName, ss []*discovery.EndpointSlice) {
	type where struct {
		desc   string
		slices []string
		ports  map[string]bool
		// scopes counts the endpoint's slices by slice set ("" outside
		// any declared set).
		scopes map[string]int
	}
	group := func() (map[string]*where, *[]string) {
		m := map[string]*where{}
		var order []string
		return m, &order
	}
	byPorts, byPortsOrder := group()
	byDefault, byDefaultOrder := group()
	note := func(m map[string]*where, order *[]string, key string, e *discovery.Endpoint, slice, pk, scope string) {
		w := m[key]
		if w == nil {
			w = &where{desc: describeEndpoint(e), ports: map[string]bool{}, scopes: map[string]int{}}
			m[key] = w
			*order = append(*order, key)
		}
		w.slices = append(w.slices, slice)
		w.ports[pk] = true
		w.scopes[scope]++
	}
	for _, s := range ss {
		pk := portsKey(s)
		name := sliceRef(s).Name
		def := c.role(s.Labels[discovery.LabelManagedBy]) == roleDefault
		scope, _ := c.cfg.sliceSet(s)
		for i := range s.Endpoints {
			e := &s.Endpoints[i]
			if len(e.Addresses) == 0 {
				continue // api-limits
			}
			id := endpointIdentity(e)
			note(byPorts, byPortsOrder, string(s.AddressType)+"\x00"+pk+"\x00"+id, e, name, pk, scope)
			if def {
				note(byDefault, byDefaultOrder, string(s.AddressType)+"\x00"+id, e, name, pk, "")
			}
		}
	}
	ref := serviceRef(k.Namespace, k.Name)
	for _, key := range *byPortsOrder {
		w := byPorts[key]
		if len(w.slices) < 2 {
			continue
		}
		at, pk, _ := strings.Cut(key, "\x00")
		pk, _, _ = strings.Cut(pk, "\x00")
		if len(w.scopes) == len(w.slices) {
			// Once in each of several slice sets.
			var sets []string
			for _, sc := range slices.Sorted(maps.Keys(w.scopes)) {
				if sc == "" {
					sc = "the slices outside any set"
				}
				sets = append(sets, sc)
			}
			c.add(SeverityWarning, RuleDuplicateEndpoint, ref, "%s endpoint %s is published once in each of %d slice sets with ports %s (%s; slices %s): consumers merge them",
				at, w.desc, len(w.scopes), pk, strings.Join(sets, ", "), strings.Join(w.slices, ", "))
			continue
		}
		c.add(SeverityError, RuleDuplicateEndpoint, ref, "%s endpoint %s is published %d times with ports %s, in slices %s",
			at, w.desc, len(w.slices), pk, strings.Join(w.slices, ", "))
	}
	for _, key := range *byDefaultOrder {
		w := byDefault[key]
		if len(w.slices) < 2 || len(w.ports) < 2 {
			continue // once, or reported above
		}
		at, _, _ := strings.Cut(key, "\x00")
		c.add(SeverityError, RuleDuplicateEndpoint, ref,
			"%s endpoint %s is published %d times by the default controller with different port sets %s (slices %s); a Pod belongs to exactly one port group",
			at, w.desc, len(w.slices), strings.Join(slices.Sorted(maps.Keys(w.ports)), " "), strings.Join(w.slices, ", "))
	}
}
