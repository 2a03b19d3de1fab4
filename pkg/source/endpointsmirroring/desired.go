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

package endpointsmirroring

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

const (
	// DefaultMaxEndpointsPerSubset is KCM's default for
	// --mirroring-max-endpoints-per-subset (pkg/controller/
	// endpointslicemirroring/config/v1alpha1 defaults.go; the flag's help
	// text says 100, the code sets 1000: spec (e) O8).
	DefaultMaxEndpointsPerSubset = 1000
	// MaxEndpointsPerSubsetLimit is the largest value KCM accepts for
	// --mirroring-max-endpoints-per-subset (cmd/kube-controller-manager/app/
	// options endpointslicemirroringcontroller.go), which is also the most
	// endpoints an EndpointSlice may hold.
	MaxEndpointsPerSubsetLimit = 1000
)

// Options tunes Desired. The zero value is KCM's default.
type Options struct {
	// MaxEndpointsPerSubset is the most addresses mirrored per re-packed
	// subset, 1..1000 (KCM --mirroring-max-endpoints-per-subset, rule b4).
	// 0 means DefaultMaxEndpointsPerSubset.
	MaxEndpointsPerSubset int32
}

// Result is the outcome of Desired.
type Result struct {
	// Desired holds the address types IPv4 and IPv6 (a mirrored Endpoints
	// object supports both; slices of any other type are deleted) and one
	// group per address type and port list that has at least one endpoint,
	// in the order of the re-packed subsets (IPv4 before IPv6 within a
	// subset). Each group holds at most MaxEndpointsPerSubset distinct
	// endpoints, so it fits into one EndpointSlice when the reconciler packs
	// up to that many endpoints per slice. Hints are empty.
	Desired *reconciler.Desired
	// Subsets are the re-packed subsets the groups were computed from
	// (RepackSubsets of the input).
	Subsets []corev1.EndpointSubset
	// AddressesSkipped is KCM's count of addresses not mirrored: per
	// re-packed subset, its addresses minus the ones added, i.e. addresses
	// beyond MaxEndpointsPerSubset plus invalid ones (KCM observes it in the
	// addresses_skipped_per_sync histogram).
	AddressesSkipped int
	// InvalidAddresses counts the addresses skipped because their IP does
	// not parse (KCM records the InvalidIPAddress Warning event when it is
	// not zero). Invalid addresses beyond the limit are not parsed, so not
	// counted here, as in KCM.
	InvalidAddresses int
	// InvalidIPs are the IPs counted in InvalidAddresses, in order.
	InvalidIPs []string
	// Truncated counts endpoints dropped because several re-packed subsets
	// map to the same address type and port list (only possible with ports
	// carrying an appProtocol, see RepackSubsets) and together hold more
	// than MaxEndpointsPerSubset distinct endpoints. KCM then keeps an
	// arbitrary MaxEndpointsPerSubset of them and counts nothing; this keeps
	// the first ones in subset order.
	Truncated int
}

// TooManyAddresses reports whether addresses were skipped for exceeding
// the per-subset limit (KCM records the TooManyAddressesToMirror Warning
// event then: more addresses skipped than invalid ones).
func (r *Result) TooManyAddresses() bool { return r.AddressesSkipped > r.InvalidAddresses }

// Desired computes the desired endpoints of ep as KCM's mirroring
// controller does (pkg/controller/endpointslicemirroring reconciler.go
// reconcile and reconciler_helpers.go desiredCalc; rules b3 to b7, b10):
//
//  1. The subsets are re-packed (RepackSubsets).
//  2. Per re-packed subset, its ready addresses and then its not-ready
//     addresses are converted (AddressToEndpoint) until
//     MaxEndpointsPerSubset addresses were added; an address that does not
//     parse is skipped, counted and does not count toward the limit. Every
//     valid address counts, even one that collapses with an earlier one
//     into the same endpoint.
//  3. Endpoints are grouped by address type and port list (EndpointPorts of
//     the subset); within a group an endpoint replaces an earlier one with
//     the same identity (reconciler.EndpointIdentity): the last one wins, as in KCM's
//     EndpointSet.
//
// An Endpoints object without valid addresses gives no group, so every
// mirrored slice is deleted (no placeholder, rule b10). ep is not modified.
// It returns an error when ep is nil or the options are invalid.
func Desired(ep *corev1.Endpoints, opts Options) (*Result, error) {
	if ep == nil {
		return nil, errors.New("endpoints: Endpoints is nil")
	}
	limit := int(opts.MaxEndpointsPerSubset)
	if limit == 0 {
		limit = DefaultMaxEndpointsPerSubset
	}
	if limit < 1 || limit > MaxEndpointsPerSubsetLimit {
		return nil, fmt.Errorf("endpoints: MaxEndpointsPerSubset %d is outside 1..%d", opts.MaxEndpointsPerSubset, MaxEndpointsPerSubsetLimit)
	}

	res := &Result{
		Desired: &reconciler.Desired{
			AddressTypes: []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6},
		},
		Subsets: RepackSubsets(ep.Subsets),
	}

	type group struct {
		addressType discovery.AddressType
		ports       []discovery.EndpointPort
		byID        map[string]int // identity -> index in endpoints
		endpoints   []discovery.Endpoint
	}
	var groups []*group
	groupByKey := map[string]*group{}
	groupFor := func(at discovery.AddressType, subsetPorts []corev1.EndpointPort, portKey string) *group {
		key := string(at) + "\x00" + portKey
		g, ok := groupByKey[key]
		if !ok {
			// Each group gets its own copy of the ports.
			g = &group{addressType: at, ports: EndpointPorts(subsetPorts), byID: map[string]int{}}
			groupByKey[key] = g
			groups = append(groups, g)
		}
		return g
	}

	for i := range res.Subsets {
		subset := &res.Subsets[i]
		portKey := reconciler.PortMapKey(EndpointPorts(subset.Ports))
		total := len(subset.Addresses) + len(subset.NotReadyAddresses)
		added := 0
		add := func(addrs []corev1.EndpointAddress, ready bool) {
			for j := range addrs {
				if added >= limit {
					return
				}
				endpoint, at, ok := AddressToEndpoint(&addrs[j], ready)
				if !ok {
					res.InvalidAddresses++
					res.InvalidIPs = append(res.InvalidIPs, addrs[j].IP)
					continue
				}
				added++
				g := groupFor(at, subset.Ports, portKey)
				id := reconciler.EndpointIdentity(&endpoint)
				if k, ok := g.byID[id]; ok {
					g.endpoints[k] = endpoint
					continue
				}
				g.byID[id] = len(g.endpoints)
				g.endpoints = append(g.endpoints, endpoint)
			}
		}
		add(subset.Addresses, true)
		add(subset.NotReadyAddresses, false)
		res.AddressesSkipped += total - added
	}

	for _, g := range groups {
		eps := g.endpoints
		if len(eps) > limit {
			res.Truncated += len(eps) - limit
			eps = eps[:limit]
		}
		res.Desired.Groups = append(res.Desired.Groups, reconciler.EndpointGroup{
			AddressType: g.addressType,
			Ports:       g.ports,
			Endpoints:   eps,
		})
	}
	return res, nil
}
