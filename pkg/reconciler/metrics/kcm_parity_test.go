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

package metrics

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	k8smetrics "k8s.io/component-base/metrics"
	kcm "k8s.io/endpointslice/metrics"
	endpointsliceutil "k8s.io/endpointslice/util"
	"k8s.io/utils/ptr"
)

// TestKCMParity drives KCM's metrics (k8s.io/endpointslice/metrics, its
// global collectors registered on a fresh component-base KubeRegistry) and
// this package's Metrics and Cache with the same random operations, and
// compares the complete text expositions: names, help texts, types, labels,
// buckets and values.
//
// KCM's collectors are process globals: this must stay the only test that
// registers them.
func TestKCMParity(t *testing.T) {
	requireKCMOfThisPort(t)
	kcmRegistry := k8smetrics.NewKubeRegistry()
	kcmRegistry.MustRegister(
		kcm.EndpointsAddedPerSync,
		kcm.EndpointsRemovedPerSync,
		kcm.EndpointsDesired,
		kcm.NumEndpointSlices,
		kcm.DesiredEndpointSlices,
		kcm.EndpointSliceChanges,
		kcm.EndpointSlicesChangedPerSync,
		kcm.EndpointSliceSyncs,
		kcm.ServicesCountByTrafficDistribution,
	)
	kcmCache := kcm.NewCache(100)

	reg := prometheus.NewRegistry()
	m, err := New(reg, Options{})
	if err != nil {
		t.Fatalf("New() error: %v", err)
	}
	cache := NewCache(100, m)

	r := rand.New(rand.NewPCG(1, 2))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	services := []types.NamespacedName{{Namespace: "a", Name: "s1"}, {Namespace: "a", Name: "s2"}, {Namespace: "b", Name: "s1"}}
	portLists := [][]discovery.EndpointPort{
		nil,
		{{Port: ptr.To[int32](80)}},
		{{Port: ptr.To[int32](80)}, {Port: ptr.To[int32](443)}},
	}

	for i := range 2000 {
		switch r.IntN(8) {
		case 0:
			n := r.IntN(100000)
			kcm.EndpointsAddedPerSync.WithLabelValues().Observe(float64(n))
			m.ObserveEndpointsAddedPerSync(n)
		case 1:
			n := r.IntN(100)
			kcm.EndpointsRemovedPerSync.WithLabelValues().Observe(float64(n))
			m.ObserveEndpointsRemovedPerSync(n)
		case 2:
			op := pick(OperationCreate, OperationUpdate, OperationDelete)
			kcm.EndpointSliceChanges.WithLabelValues(op).Inc()
			m.IncEndpointSliceChanges(op)
		case 3:
			topology, td, n := pick(TopologyAuto, TopologyDisabled), pick("", "PreferClose", "PreferSameNode"), r.IntN(20)
			kcm.EndpointSlicesChangedPerSync.WithLabelValues(topology, td).Observe(float64(n))
			m.ObserveEndpointSlicesChangedPerSync(topology, td, n)
		case 4:
			result := pick(SyncResultSuccess, SyncResultStale, SyncResultError)
			kcm.EndpointSliceSyncs.WithLabelValues(result).Inc()
			m.IncEndpointSliceSyncs(result)
		case 5:
			svc := services[r.IntN(len(services))]
			kcmSPC, spc := kcm.NewServicePortCache(), NewServicePortCache()
			for range r.IntN(3) {
				key := endpointsliceutil.NewPortMapKey(portLists[r.IntN(len(portLists))])
				info := EfficiencyInfo{Endpoints: r.IntN(350), Slices: r.IntN(6)}
				kcmSPC.Set(key, kcm.EfficiencyInfo{Endpoints: info.Endpoints, Slices: info.Slices})
				spc.Set(string(key), info)
			}
			kcmCache.UpdateServicePortCache(svc, kcmSPC)
			cache.UpdateServicePortCache(svc, spc)
		case 6:
			svc := services[r.IntN(len(services))]
			var td *string
			if v := pick("", "PreferClose", "PreferSameZone", "Other", "-"); v != "-" {
				td = &v
			}
			kcmCache.UpdateTrafficDistributionForService(svc, td)
			cache.UpdateTrafficDistributionForService(svc, td)
		case 7:
			svc := services[r.IntN(len(services))]
			kcmCache.DeleteService(svc)
			cache.DeleteService(svc)
		}

		if i%50 == 0 || i == 1999 {
			want, err := exposition(kcmRegistry)
			if err != nil {
				t.Fatalf("gathering KCM metrics: %v", err)
			}
			if err := testutil.GatherAndCompare(reg, bytes.NewReader(want)); err != nil {
				t.Fatalf("step %d: exposition differs from KCM's:\n%v", i, err)
			}
		}
	}
}

func exposition(g prometheus.Gatherer) ([]byte, error) {
	families, err := g.Gather()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range families {
		if err := enc.Encode(mf); err != nil {
			return nil, fmt.Errorf("encoding %s: %w", mf.GetName(), err)
		}
	}
	return buf.Bytes(), nil
}

// requireKCMOfThisPort skips the test when the KCM this test binary was
// built with (k8s.io/endpointslice) exposes other help texts than the one
// this package follows, v0.37.2: endpoints_added_per_sync and its siblings
// are ALPHA in older KCMs (v0.34: help "[ALPHA] ..."), BETA in v0.37. The
// library's go.mod requires the oldest k8s.io it supports;
// `make test-library-matrix` runs this test at newer versions.
func requireKCMOfThisPort(t *testing.T) {
	t.Helper()
	if got := kcm.EndpointsAddedPerSync.StabilityLevel; got != k8smetrics.BETA {
		t.Skipf("this build's KCM has endpoints_added_per_sync at %s; this package follows k8s.io/endpointslice v0.37.2 (BETA)", got)
	}
}
