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

package reconciler

import (
	"sort"
	"strings"

	discovery "k8s.io/api/discovery/v1"
)

// EndpointIdentity returns the identity of ep under which endpoints are
// collapsed (the last one wins) and matched against existing slices: its
// sorted addresses, its hostname and its targetRef namespace and name. Two
// endpoints with the same identity that differ in readiness, nodeName, zone
// or targetRef UID are one endpoint in two versions (see
// EndpointsEqualBeyondIdentity). It is the identity KCM uses (k8s.io/endpointslice
// util/endpointset.go hashEndpoint), computed as a readable string instead of
// a deep hash, and without sorting ep's addresses in place (KCM sorts the
// addresses of cache objects; slicekit never mutates them). ep must not be
// nil.
func EndpointIdentity(ep *discovery.Endpoint) string {
	var b strings.Builder
	addrs := ep.Addresses
	if !sort.StringsAreSorted(addrs) {
		addrs = append([]string(nil), addrs...)
		sort.Strings(addrs)
	}
	for _, a := range addrs {
		b.WriteString(a)
		b.WriteByte(',')
	}
	b.WriteByte('|')
	if ep.Hostname != nil {
		b.WriteString(*ep.Hostname)
	}
	b.WriteByte('|')
	if ep.TargetRef != nil {
		b.WriteString(ep.TargetRef.Namespace)
	}
	b.WriteByte('/')
	if ep.TargetRef != nil {
		b.WriteString(ep.TargetRef.Name)
	}
	return b.String()
}

// endpointSet is an insertion-ordered set of desired endpoints keyed by
// EndpointIdentity. Unlike KCM's map-based EndpointSet, popping is deterministic
// (first inserted first), so the same inputs always give the same slices.
type endpointSet struct {
	byKey map[string]*discovery.Endpoint
	order []string
	next  int // index into order of the next candidate for pop
}

func newEndpointSet(capacity int) *endpointSet {
	return &endpointSet{byKey: make(map[string]*discovery.Endpoint, capacity), order: make([]string, 0, capacity)}
}

// insert adds ep (replacing an endpoint with the same identity, which keeps
// its original position). The addresses are stored sorted, as KCM stores them.
func (s *endpointSet) insert(ep *discovery.Endpoint) {
	if !sort.StringsAreSorted(ep.Addresses) {
		addrs := append([]string(nil), ep.Addresses...)
		sort.Strings(addrs)
		ep.Addresses = addrs
	}
	k := EndpointIdentity(ep)
	if _, ok := s.byKey[k]; !ok {
		s.order = append(s.order, k)
	}
	s.byKey[k] = ep
}

// getKey returns the endpoint stored under key k, or nil.
func (s *endpointSet) getKey(k string) *discovery.Endpoint { return s.byKey[k] }

// deleteKey removes the endpoint stored under key k.
func (s *endpointSet) deleteKey(k string) { delete(s.byKey, k) }

func (s *endpointSet) len() int { return len(s.byKey) }

// pop removes and returns the earliest inserted endpoint still in the set.
func (s *endpointSet) pop() *discovery.Endpoint {
	for s.next < len(s.order) {
		k := s.order[s.next]
		s.next++
		if ep, ok := s.byKey[k]; ok {
			delete(s.byKey, k)
			return ep
		}
	}
	return nil
}

// CopyPorts returns a deep copy of ports (nil stays nil, empty stays
// empty), so that groups and slices never share pointers.
func CopyPorts(ports []discovery.EndpointPort) []discovery.EndpointPort {
	if ports == nil {
		return nil
	}
	out := make([]discovery.EndpointPort, len(ports))
	for i := range ports {
		ports[i].DeepCopyInto(&out[i])
	}
	return out
}
