// Copyright 2015 The Kubernetes Authors.
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
//
// Modified for slicekit: ported from k8s.io/kubernetes@v1.37.2
// pkg/api/v1/endpoints/util.go (RepackSubsets, SortSubsets,
// LessEndpointAddress) and pkg/util/hash/hash.go (DeepHashObject), so that the
// product module does not depend on k8s.io/kubernetes. The algorithm and the
// hashes are unchanged, so subsets, addresses and ports come out in exactly
// KCM's order; sorting computes each hash once instead of twice per
// comparison; the result never aliases the input's slices; documentation
// added.

package endpointsmirroring

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/fnv"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/dump"
)

// RepackSubsets returns subsets in the canonical layout KCM uses for
// Endpoints objects (k8s.io/kubernetes pkg/api/v1/endpoints util.go
// RepackSubsets): it expands subsets to (port, address, ready) triples and
// packs them again so that
//   - each distinct port maps to the set of addresses that offer it; an
//     address is identified by its IP and its targetRef UID, and the first
//     occurrence supplies the other fields (hostname, nodeName, targetRef);
//   - an address that is not ready for a port in any subset is not ready for
//     that port (not-ready wins over ready);
//   - ports whose address sets (with readiness) are equal share one subset;
//   - subsets without ports keep their addresses in a subset without ports,
//     merged into a subset with ports that has the same address set;
//   - addresses are sorted by IP (bytewise) then targetRef UID, ports and
//     subsets by the FNV-128a hash of their k8s.io/utils/dump.ForHash form.
//
// Ports are told apart as Go values, as in KCM: two ports with equal name,
// number and protocol but a non-nil appProtocol are different ports unless
// they share the same appProtocol pointer (which never happens for objects
// decoded from the API), so such a port listed in two subsets with
// different address sets yields two subsets with the same port list. The
// result is newly allocated and non-nil (empty when subsets hold no
// address). subsets is not modified; the returned addresses share their
// targetRef and nodeName pointers with it.
func RepackSubsets(subsets []corev1.EndpointSubset) []corev1.EndpointSubset {
	// First map each unique port definition to the sets of hosts that
	// offer it.
	allAddrs := map[addressKey]*corev1.EndpointAddress{}
	portToAddrReadyMap := map[corev1.EndpointPort]addressSet{}
	for i := range subsets {
		if len(subsets[i].Ports) == 0 {
			// Don't discard endpoints with no ports defined, use a sentinel.
			mapAddressesByPort(&subsets[i], corev1.EndpointPort{Port: -1}, allAddrs, portToAddrReadyMap)
		} else {
			for _, port := range subsets[i].Ports {
				mapAddressesByPort(&subsets[i], port, allAddrs, portToAddrReadyMap)
			}
		}
	}

	// Next, map the sets of hosts to the sets of ports they offer.
	type keyString string
	keyToAddrReadyMap := map[keyString]addressSet{}
	addrReadyMapKeyToPorts := map[keyString][]corev1.EndpointPort{}
	for port, addrs := range portToAddrReadyMap {
		key := keyString(hashAddresses(addrs))
		keyToAddrReadyMap[key] = addrs
		if port.Port > 0 { // avoid sentinels
			addrReadyMapKeyToPorts[key] = append(addrReadyMapKeyToPorts[key], port)
		} else if _, found := addrReadyMapKeyToPorts[key]; !found {
			// Force it to be present in the map.
			addrReadyMapKeyToPorts[key] = nil
		}
	}

	// Next, build the N-to-M association the API wants.
	final := []corev1.EndpointSubset{}
	for key, ports := range addrReadyMapKeyToPorts {
		var readyAddrs, notReadyAddrs []corev1.EndpointAddress
		for addr, ready := range keyToAddrReadyMap[key] {
			if ready {
				readyAddrs = append(readyAddrs, *addr)
			} else {
				notReadyAddrs = append(notReadyAddrs, *addr)
			}
		}
		final = append(final, corev1.EndpointSubset{Addresses: readyAddrs, NotReadyAddresses: notReadyAddrs, Ports: ports})
	}

	// Finally, sort it.
	return SortSubsets(final)
}

// addressKey identifies an address: two addresses with the same IP but
// different targetRef UIDs (for instance pods sharing the node's IP) are
// different addresses.
type addressKey struct {
	ip  string
	uid types.UID
}

// mapAddressesByPort adds all ready and not-ready addresses of subset into
// portToAddrReadyMap under port.
func mapAddressesByPort(subset *corev1.EndpointSubset, port corev1.EndpointPort, allAddrs map[addressKey]*corev1.EndpointAddress, portToAddrReadyMap map[corev1.EndpointPort]addressSet) {
	for k := range subset.Addresses {
		mapAddressByPort(&subset.Addresses[k], port, true, allAddrs, portToAddrReadyMap)
	}
	for k := range subset.NotReadyAddresses {
		mapAddressByPort(&subset.NotReadyAddresses[k], port, false, allAddrs, portToAddrReadyMap)
	}
}

// mapAddressByPort adds one address into portToAddrReadyMap under port,
// registering the address with a unique pointer (a copy: the input is never
// written), and preserving a not-ready state already recorded.
func mapAddressByPort(addr *corev1.EndpointAddress, port corev1.EndpointPort, ready bool, allAddrs map[addressKey]*corev1.EndpointAddress, portToAddrReadyMap map[corev1.EndpointPort]addressSet) {
	key := addressKey{ip: addr.IP}
	if addr.TargetRef != nil {
		key.uid = addr.TargetRef.UID
	}
	existingAddress := allAddrs[key]
	if existingAddress == nil {
		existingAddress = &corev1.EndpointAddress{}
		*existingAddress = *addr
		allAddrs[key] = existingAddress
	}
	if _, found := portToAddrReadyMap[port]; !found {
		portToAddrReadyMap[port] = addressSet{}
	}
	// If we have not yet recorded this port for this address, or if the
	// previous state was ready, write the current ready state: not ready
	// always trumps ready.
	if wasReady, found := portToAddrReadyMap[port][existingAddress]; !found || wasReady {
		portToAddrReadyMap[port][existingAddress] = ready
	}
}

type addressSet map[*corev1.EndpointAddress]bool

// addrReady is hashed by hashAddresses. Its name and field names are KCM's,
// so that the dump.ForHash text, and hence the hash, is KCM's too.
type addrReady struct {
	addr  *corev1.EndpointAddress
	ready bool
}

func hashAddresses(addrs addressSet) string {
	// Flatten the set into a sorted slice so it can be hashed
	// deterministically.
	slice := make([]addrReady, 0, len(addrs))
	for k, ready := range addrs {
		slice = append(slice, addrReady{k, ready})
	}
	sort.Slice(slice, func(i, j int) bool { return LessEndpointAddress(slice[i].addr, slice[j].addr) })
	hasher := fnv.New128a()
	deepHashObject(hasher, slice)
	return hex.EncodeToString(hasher.Sum(nil)[0:])
}

// LessEndpointAddress orders addresses by IP (bytewise), then by targetRef
// UID, an address without targetRef first (KCM pkg/api/v1/endpoints
// util.go LessEndpointAddress).
func LessEndpointAddress(a, b *corev1.EndpointAddress) bool {
	ipComparison := bytes.Compare([]byte(a.IP), []byte(b.IP))
	if ipComparison != 0 {
		return ipComparison < 0
	}
	if b.TargetRef == nil {
		return false
	}
	if a.TargetRef == nil {
		return true
	}
	return a.TargetRef.UID < b.TargetRef.UID
}

// SortSubsets sorts subsets in place as KCM does (pkg/api/v1/endpoints
// util.go SortSubsets): the addresses and not-ready addresses of each subset
// with LessEndpointAddress, its ports by hash, and the subsets by hash. It
// returns subsets. Callers must own subsets: the elements' slices are
// sorted in place.
func SortSubsets(subsets []corev1.EndpointSubset) []corev1.EndpointSubset {
	for i := range subsets {
		ss := &subsets[i]
		sort.Slice(ss.Addresses, func(a, b int) bool { return LessEndpointAddress(&ss.Addresses[a], &ss.Addresses[b]) })
		sort.Slice(ss.NotReadyAddresses, func(a, b int) bool {
			return LessEndpointAddress(&ss.NotReadyAddresses[a], &ss.NotReadyAddresses[b])
		})
		sortByHash(ss.Ports)
	}
	sortByHash(subsets)
	return subsets
}

// sortByHash sorts items by the FNV-128a hash of their dump.ForHash text
// (KCM's portsByHash and subsetsByHash), hashing each item once.
func sortByHash[T any](items []T) {
	if len(items) < 2 {
		return
	}
	hasher := fnv.New128a()
	keys := make([][]byte, len(items))
	for i := range items {
		deepHashObject(hasher, items[i])
		keys[i] = hasher.Sum(nil)
	}
	sort.Sort(&byKey[T]{items: items, keys: keys})
}

type byKey[T any] struct {
	items []T
	keys  [][]byte
}

func (s *byKey[T]) Len() int { return len(s.items) }
func (s *byKey[T]) Swap(i, j int) {
	s.items[i], s.items[j] = s.items[j], s.items[i]
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
}
func (s *byKey[T]) Less(i, j int) bool { return bytes.Compare(s.keys[i], s.keys[j]) < 0 }

// deepHashObject writes obj to hasher in the dump.ForHash form, which
// follows pointers, so that the hash does not depend on pointer values (KCM
// pkg/util/hash DeepHashObject).
func deepHashObject(hasher hash.Hash, obj any) {
	hasher.Reset()
	fmt.Fprintf(hasher, "%v", dump.ForHash(obj))
}
