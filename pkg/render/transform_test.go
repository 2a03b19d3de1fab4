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

package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestCachesApplyTheRunTransforms checks that render's caches hold the
// objects as `slicekit run` caches them (the informer transforms composed
// from the enabled controllers' Reads), while the result keeps them whole.
func TestCachesApplyTheRunTransforms(t *testing.T) {
	const other = "example.com/other"
	annotated := func() *corev1.Pod {
		p := scene(1)[2].(*corev1.Pod).DeepCopy()
		p.Annotations = map[string]string{
			wellknown.AnnotationNetworkStatus: `[{"name":"net1","interface":"net1","ips":["10.0.1.1"]}]`,
			other:                             "x",
		}
		p.Spec.Containers = []corev1.Container{{Name: "app", Image: "registry.example/app:1"}}
		return p
	}
	for _, tc := range []struct {
		name string
		args []string
		// wantAnnotations are the cached Pod's annotation keys.
		wantAnnotations []string
	}{
		{name: "endpointslice only", args: []string{"--controllers=endpointslice"}},
		{name: "with secondary-network", args: []string{"--controllers=*,secondary-network"},
			wantAnnotations: []string{wellknown.AnnotationNetworkStatus}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t)
			copts := builtin.NewControllerOptions()
			fs := newFlagSet()
			copts.AddRenderFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if err := copts.Validate(); err != nil {
				t.Fatal(err)
			}
			transforms, err := copts.Transforms()
			if err != nil {
				t.Fatal(err)
			}
			kinds, err := builtin.InputKinds()
			if err != nil {
				t.Fatal(err)
			}
			seed, held, err := prepareSeed(append(scene(0), annotated()), kinds)
			if err != nil {
				t.Fatal(err)
			}
			client := memapi.NewClientset(seed...)
			c := newCaches(client, informers.NewSharedInformerFactory(client, 0), transforms, kinds, held)
			if _, err := c.refresh(ctx); err != nil {
				t.Fatal(err)
			}
			var cached *corev1.Pod
			for _, s := range c.sources {
				if s.kind == "Pod" {
					cached, _ = podcache.FromObject(s.indexer.List()[0])
				}
			}
			var got []string
			for k := range cached.Annotations {
				got = append(got, k)
			}
			if d := cmp.Diff(tc.wantAnnotations, got); d != "" {
				t.Errorf("cached Pod annotations (-want +got):\n%s", d)
			}
			if img := cached.Spec.Containers[0].Image; img != "" {
				t.Errorf("cached Pod keeps the container image %q; the run transform drops it", img)
			}
			_, others, err := c.result(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range others {
				if p, ok := o.(*corev1.Pod); ok {
					if d := cmp.Diff(annotated().Annotations, p.Annotations); d != "" {
						t.Errorf("result Pod annotations (-want +got):\n%s", d)
					}
					if p.Spec.Containers[0].Image == "" {
						t.Error("result Pod lost its container image")
					}
				}
			}
			if _, err := Render(ctx, append(scene(0), annotated()), Options{Controllers: copts}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
