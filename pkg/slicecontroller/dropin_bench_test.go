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

package slicecontroller

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

// BenchmarkSyncServiceSteadyState measures a no-op sync (the common case:
// a Service whose slices are up to date) of a Service with 1000 Pods in 10
// slices.
func BenchmarkSyncServiceSteadyState(b *testing.B) {
	f := newDropInFixture(b, dropInOptions{})
	f.add(newNode("node-1", "zone-a"), newService("svc"))
	for i := range 1000 {
		p := newPod(i, "svc", true)
		ip := fmt.Sprintf("10.1.%d.%d", i/256, i%256)
		p.Status.PodIP, p.Status.PodIPs = ip, []corev1.PodIP{{IP: ip}}
		f.add(p)
	}
	ctx := klog.NewContext(b.Context(), klog.Background().V(10))
	if err := f.c.SyncService(ctx, "ns/svc"); err != nil {
		b.Fatal(err)
	}
	if n := len(f.ownSlices(testNS, "svc")); n != 10 {
		b.Fatalf("slices = %d, want 10", n)
	}
	f.client.ClearActions()
	b.ReportAllocs()
	for b.Loop() {
		if err := f.c.SyncService(ctx, "ns/svc"); err != nil {
			b.Fatal(err)
		}
	}
	if w := f.writes(); len(w) != 0 {
		b.Fatalf("steady state wrote %d times", len(w))
	}
}

// BenchmarkSyncServiceDelegated measures the sync of a delegated Service
// with 1000 Pods and no slice left: it must not look at the Pods.
func BenchmarkSyncServiceDelegated(b *testing.B) {
	f := newDropInFixture(b, dropInOptions{})
	f.add(newNode("node-1", "zone-a"), newService("svc", labelled(custom)))
	for i := range 1000 {
		f.add(newPod(i, "svc", true))
	}
	ctx := klog.NewContext(b.Context(), klog.Background().V(10))
	b.ReportAllocs()
	for b.Loop() {
		if err := f.c.SyncService(ctx, "ns/svc"); err != nil {
			b.Fatal(err)
		}
	}
}
