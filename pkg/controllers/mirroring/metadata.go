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

package mirroring

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
)

// metadataPolicy is reconciler.EndpointsMetadata (rule b8) plus one rule of
// KCM's comparison that EndpointsMetadata leaves to the reconciler: a
// mirrored slice never carries the endpoints.kubernetes.io/last-change-
// trigger-time annotation, and KCM compares a slice's annotations with the
// Endpoints' ones exactly (reconciler.go reconcileByPortMapping), so a slice
// that carries it (set by hand) is rewritten without it. The reconciler
// removes the annotation on every write with a zero trigger time; this
// policy makes its presence count as drift.
type metadataPolicy struct {
	reconciler.EndpointsMetadata
}

var _ reconciler.MetadataPolicy = metadataPolicy{}

// Annotations implements reconciler.MetadataPolicy.
func (p metadataPolicy) Annotations(ctx context.Context, owner reconciler.Owner, current map[string]string) (map[string]string, bool) {
	want, changed := p.EndpointsMetadata.Annotations(ctx, owner, current)
	if _, ok := current[corev1.EndpointsLastChangeTriggerTime]; ok {
		changed = true
	}
	return want, changed
}
