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

package servicepods

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// Source returns KCM's own source as a source.Source: endpoints from
// status.podIPs by Desired with opts, the source of the drop-in
// EndpointSlice controller. It reports no Problems (KCM reports none) and
// no Pod update beyond KCM's fields matters. It is a
// source.IncrementalSource whose per-Pod step is PodItem.
func Source(opts podendpoint.Options) source.IncrementalSource { return podIPs{opts: opts} }

// podIPs is the source Source returns.
type podIPs struct{ opts podendpoint.Options }

// Desired returns Desired(ctx, svc, pods, nodes, opts) and no Problems.
func (p podIPs) Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Desired, []source.Problem, error) {
	d, err := Desired(ctx, svc, pods, nodes, p.opts)
	return d, nil, err
}

// PodEndpoints returns PodItem(ctx, svc, pod, nodes), the per-Pod step of
// Desired.
func (podIPs) PodEndpoints(ctx context.Context, svc *corev1.Service, pod *corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Item, error) {
	return PodItem(ctx, svc, pod, nodes)
}

// SliceLayout returns podendpoint.AddressTypes(svc) and
// podendpoint.Hints(svc, opts), as Desired does.
func (p podIPs) SliceLayout(svc *corev1.Service) ([]discovery.AddressType, reconciler.Hints) {
	return podendpoint.AddressTypes(svc), podendpoint.Hints(svc, p.opts)
}

// PodUpdateMatters returns false: KCM's fields are all that matter.
func (podIPs) PodUpdateMatters(_, _ *corev1.Pod) bool { return false }
