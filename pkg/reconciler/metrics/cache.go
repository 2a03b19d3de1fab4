// Copyright 2019 The Kubernetes Authors.
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
// Modified for slicekit: ported from k8s.io/endpointslice@v0.37.2
// metrics/cache.go; the Cache sets the gauges of an injected *Metrics instead
// of globals; port groups are keyed by a caller-chosen string instead of
// util.PortMapKey; documentation added; nil *Cache methods are no-ops.

package metrics

import (
	"math"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// NewCache returns an empty Cache that sets the gauges of m.
// maxEndpointsPerSlice is the maximum number of endpoints per EndpointSlice
// of the reconciler (KCM default 100); it is used to compute the desired
// number of slices. m may be nil: the Cache then only keeps its counts.
// Use one Cache per Metrics: each Cache sets the gauges to its own totals.
//
// Source: k8s.io/endpointslice metrics/cache.go.
func NewCache(maxEndpointsPerSlice int32, m *Metrics) *Cache {
	return &Cache{
		maxEndpointsPerSlice:          maxEndpointsPerSlice,
		metrics:                       m,
		cache:                         map[types.NamespacedName]*ServicePortCache{},
		servicesByTrafficDistribution: make(map[string]map[types.NamespacedName]bool),
	}
}

// Cache tracks, over all owners (Services in KCM), the total number of
// desired endpoints, of EndpointSlices and of EndpointSlices that would exist
// with perfect endpoint allocation, and the number of owners per
// trafficDistribution value, and publishes them on the gauges of its
// Metrics. Create it with NewCache. Its methods are safe for concurrent use
// and are no-ops on a nil *Cache.
//
// Source: k8s.io/endpointslice metrics/cache.go.
type Cache struct {
	// maxEndpointsPerSlice references the maximum number of endpoints that
	// should be added to an EndpointSlice.
	maxEndpointsPerSlice int32

	// metrics receives the values of this Cache; may be nil.
	metrics *Metrics

	// lock protects changes to numEndpoints, numSlicesActual, numSlicesDesired,
	// cache and servicesByTrafficDistribution
	lock sync.Mutex
	// numEndpoints represents the total number of endpoints stored in
	// EndpointSlices.
	numEndpoints int
	// numSlicesActual represents the total number of EndpointSlices.
	numSlicesActual int
	// numSlicesDesired represents the desired number of EndpointSlices.
	numSlicesDesired int
	// cache stores a ServicePortCache grouped by NamespacedNames representing
	// Services.
	cache map[types.NamespacedName]*ServicePortCache
	// Tracks all services partitioned by their trafficDistribution field.
	//
	// The type should be read as map[trafficDistribution]setOfServices
	servicesByTrafficDistribution map[string]map[types.NamespacedName]bool
}

// ServicePortCache holds, for one owner, the EfficiencyInfo of each group of
// EndpointSlices that share a port list (and, in KCM's use, an address
// type). Create it with NewServicePortCache. It is not safe for concurrent
// use; once passed to Cache.UpdateServicePortCache it must not be modified.
//
// Source: k8s.io/endpointslice metrics/cache.go.
type ServicePortCache struct {
	items map[string]EfficiencyInfo
}

// EfficiencyInfo is the number of desired endpoints of a port group and the
// number of EndpointSlices it will have after the sync.
//
// Source: k8s.io/endpointslice metrics/cache.go.
type EfficiencyInfo struct {
	// Endpoints is the number of desired endpoints.
	Endpoints int
	// Slices is the number of EndpointSlices (existing + created - deleted).
	Slices int
}

// NewServicePortCache returns an empty ServicePortCache.
//
// Source: k8s.io/endpointslice metrics/cache.go.
func NewServicePortCache() *ServicePortCache {
	return &ServicePortCache{
		items: map[string]EfficiencyInfo{},
	}
}

// Set records eInfo for the port group identified by key, replacing any
// previous value for key. key is chosen by the caller; it must identify the
// port list as KCM's util.NewPortMapKey does (two port lists that KCM maps to
// the same PortMapKey must map to the same key here), otherwise the counts
// differ from KCM's.
//
// Source: k8s.io/endpointslice metrics/cache.go.
func (spc *ServicePortCache) Set(key string, eInfo EfficiencyInfo) {
	spc.items[key] = eInfo
}

// totals returns the total number of endpoints and slices represented by a
// ServicePortCache.
func (spc *ServicePortCache) totals(maxEndpointsPerSlice int) (int, int, int) {
	var actualSlices, desiredSlices, endpoints int
	for _, eInfo := range spc.items {
		endpoints += eInfo.Endpoints
		actualSlices += eInfo.Slices
		desiredSlices += numDesiredSlices(eInfo.Endpoints, maxEndpointsPerSlice)
	}
	// there is always a placeholder slice
	if desiredSlices == 0 {
		desiredSlices = 1
	}
	return actualSlices, desiredSlices, endpoints
}

// UpdateServicePortCache replaces the ServicePortCache of the owner serviceNN
// with spCache (which must not be nil, and is stored, not copied), updates
// the totals and sets the gauges endpoints_desired, num_endpoint_slices,
// desired_endpoint_slices and services_count_by_traffic_distribution. An
// owner whose port groups add up to 0 desired slices counts for 1 (its
// placeholder slice).
//
// As in KCM, each call replaces the whole entry of the owner: KCM calls it
// once per address type, so an owner with two address types is counted with
// the port groups of the last one.
//
// Source: k8s.io/endpointslice metrics/cache.go.
func (c *Cache) UpdateServicePortCache(serviceNN types.NamespacedName, spCache *ServicePortCache) {
	if c == nil {
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()

	var prevActualSlices, prevDesiredSlices, prevEndpoints int
	if existingSPCache, ok := c.cache[serviceNN]; ok {
		prevActualSlices, prevDesiredSlices, prevEndpoints = existingSPCache.totals(int(c.maxEndpointsPerSlice))
	}

	currActualSlices, currDesiredSlices, currEndpoints := spCache.totals(int(c.maxEndpointsPerSlice))
	// To keep numEndpoints up to date, add the difference between the number of
	// endpoints in the provided spCache and any spCache it might be replacing.
	c.numEndpoints = c.numEndpoints + currEndpoints - prevEndpoints

	c.numSlicesDesired += currDesiredSlices - prevDesiredSlices
	c.numSlicesActual += currActualSlices - prevActualSlices

	c.cache[serviceNN] = spCache
	c.updateMetrics()
}

// UpdateTrafficDistributionForService records that the owner serviceNN uses
// the given trafficDistribution (nil: none; any non-nil value is recorded as
// is, including unknown values) and sets the gauges, so that
// services_count_by_traffic_distribution{traffic_distribution} is the number
// of owners per value. A value keeps its series, at 0, after its last owner
// left it (KCM behaviour).
//
// Source: k8s.io/endpointslice metrics/cache.go.
func (c *Cache) UpdateTrafficDistributionForService(serviceNN types.NamespacedName, trafficDistributionPtr *string) {
	if c == nil {
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()

	defer c.updateMetrics()

	for _, serviceSet := range c.servicesByTrafficDistribution {
		delete(serviceSet, serviceNN)
	}

	if trafficDistributionPtr == nil {
		return
	}

	trafficDistribution := *trafficDistributionPtr
	serviceSet, ok := c.servicesByTrafficDistribution[trafficDistribution]
	if !ok {
		serviceSet = make(map[types.NamespacedName]bool)
		c.servicesByTrafficDistribution[trafficDistribution] = serviceSet
	}
	serviceSet[serviceNN] = true
}

// DeleteService forgets the owner serviceNN: its port groups and its
// trafficDistribution. As in KCM, the gauges are set only if the owner had
// port groups (UpdateServicePortCache); otherwise the removal from
// services_count_by_traffic_distribution shows at the next update.
//
// Source: k8s.io/endpointslice metrics/cache.go.
func (c *Cache) DeleteService(serviceNN types.NamespacedName) {
	if c == nil {
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()

	for _, serviceSet := range c.servicesByTrafficDistribution {
		delete(serviceSet, serviceNN)
	}

	if spCache, ok := c.cache[serviceNN]; ok {
		actualSlices, desiredSlices, endpoints := spCache.totals(int(c.maxEndpointsPerSlice))
		c.numEndpoints = c.numEndpoints - endpoints
		c.numSlicesDesired -= desiredSlices
		c.numSlicesActual -= actualSlices
		c.updateMetrics()
		delete(c.cache, serviceNN)
	}
}

// DeleteServices is DeleteService for every owner key match accepts (the
// slice sets of one owner, which a reconciler with sets keys
// "namespace/name/set").
func (c *Cache) DeleteServices(match func(types.NamespacedName) bool) {
	if c == nil {
		return
	}
	c.lock.Lock()
	var keys []types.NamespacedName
	for k := range c.cache {
		if match(k) {
			keys = append(keys, k)
		}
	}
	for _, serviceSet := range c.servicesByTrafficDistribution {
		for k := range serviceSet {
			if match(k) && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	c.lock.Unlock()
	for _, k := range keys {
		c.DeleteService(k)
	}
}

// updateMetrics updates metrics with the values from this Cache.
// Must be called holding lock.
func (c *Cache) updateMetrics() {
	c.metrics.setCacheGauges(c.numSlicesActual, c.numSlicesDesired, c.numEndpoints, c.servicesByTrafficDistribution)
}

// numDesiredSlices calculates the number of EndpointSlices that would exist
// with ideal endpoint distribution.
func numDesiredSlices(numEndpoints, maxEndpointsPerSlice int) int {
	if numEndpoints == 0 {
		return 0
	}
	if numEndpoints <= maxEndpointsPerSlice {
		return 1
	}
	return int(math.Ceil(float64(numEndpoints) / float64(maxEndpointsPerSlice)))
}
