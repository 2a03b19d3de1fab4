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
	"context"
	"maps"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/klog/v2"
)

// MetadataPolicy decides the labels and annotations of an owner's
// EndpointSlices. The reconciler always overwrites the managed-by label
// (endpointslice.kubernetes.io/managed-by) with its controller name and adds
// or removes the trigger-time annotation itself; everything else is the
// policy's. Implementations must not modify current and must return maps the
// caller may keep and modify.
type MetadataPolicy interface {
	// Labels takes the owner and a slice's current labels (nil for a new
	// slice) and returns the labels the slice must carry (including
	// kubernetes.io/service-name) and whether the slice needs an update
	// because of them. Labels alone can make an unchanged slice an update.
	Labels(ctx context.Context, owner Owner, current map[string]string) (labels map[string]string, changed bool)
	// Annotations does the same for annotations. The trigger-time
	// annotation in current may be ignored: the reconciler manages it.
	Annotations(ctx context.Context, owner Owner, current map[string]string) (annotations map[string]string, changed bool)
}

// ServiceMetadata is the metadata policy of KCM's EndpointSlice controller
// (KCM behaviour C24; k8s.io/endpointslice utils.go setEndpointSliceLabels):
// every Service label is copied except the reserved keys
// kubernetes.io/service-name, endpointslice.kubernetes.io/managed-by and
// service.kubernetes.io/headless; kubernetes.io/service-name is the owner's
// name; service.kubernetes.io/headless is "" when the Service's clusterIP is
// None or empty. A slice needs an update only when its non-reserved labels
// differ from the Service's non-reserved labels (a drifted headless label
// alone does not trigger an update, as in KCM). Annotations are left as they
// are (KCM writes only the trigger-time annotation).
//
// The owner must be a *corev1.Service for the headless rule; for any other
// owner the headless label is never set.
type ServiceMetadata struct{}

var _ MetadataPolicy = ServiceMetadata{}

// Labels implements MetadataPolicy.
func (ServiceMetadata) Labels(ctx context.Context, owner Owner, current map[string]string) (map[string]string, bool) {
	want := make(map[string]string, len(owner.GetLabels())+3)
	for k, v := range owner.GetLabels() {
		if isReservedServiceLabel(k) {
			klog.FromContext(ctx).V(4).Info("Service using reserved EndpointSlice label", "service", klog.KObj(owner), "skipping", k, "label", v)
			continue
		}
		want[k] = v
	}
	changed := !nonReservedEqual(current, want)
	if svc, ok := owner.(*corev1.Service); ok && (svc.Spec.ClusterIP == corev1.ClusterIPNone || svc.Spec.ClusterIP == "") {
		want[corev1.IsHeadlessService] = ""
	}
	want[discovery.LabelServiceName] = owner.GetName()
	return want, changed
}

// Annotations implements MetadataPolicy: current annotations are kept.
func (ServiceMetadata) Annotations(_ context.Context, _ Owner, current map[string]string) (map[string]string, bool) {
	out := make(map[string]string, len(current)+1)
	maps.Copy(out, current)
	return out, false
}

func isReservedServiceLabel(k string) bool {
	return k == discovery.LabelServiceName || k == discovery.LabelManagedBy || k == corev1.IsHeadlessService
}

// nonReservedEqual reports whether the non-reserved labels of current equal
// want (which holds no reserved key). nil and empty are equal.
func nonReservedEqual(current, want map[string]string) bool {
	n := 0
	for k, v := range current {
		if isReservedServiceLabel(k) {
			continue
		}
		n++
		if w, ok := want[k]; !ok || w != v {
			return false
		}
	}
	return n == len(want)
}

// EndpointsMetadata is the metadata policy of KCM's EndpointSlice mirroring
// controller (mirroring rule b8; pkg/controller/endpointslicemirroring
// utils.go newEndpointSlice and reconciler.go reconcileByPortMapping): every
// label of the owner (an Endpoints object) is copied and
// kubernetes.io/service-name is set to the owner's name; every annotation is
// copied except endpoints.kubernetes.io/last-change-trigger-time and
// kubectl.kubernetes.io/last-applied-configuration. A slice needs an update
// when its labels (ignoring managed-by and service-name) or its annotations
// (ignoring the trigger time) differ.
type EndpointsMetadata struct{}

var _ MetadataPolicy = EndpointsMetadata{}

// Labels implements MetadataPolicy.
func (EndpointsMetadata) Labels(_ context.Context, owner Owner, current map[string]string) (map[string]string, bool) {
	want := make(map[string]string, len(owner.GetLabels())+2)
	maps.Copy(want, owner.GetLabels())
	want[discovery.LabelServiceName] = owner.GetName()
	return want, !equalIgnoring(current, want, discovery.LabelManagedBy, discovery.LabelServiceName)
}

// Annotations implements MetadataPolicy.
func (EndpointsMetadata) Annotations(_ context.Context, owner Owner, current map[string]string) (map[string]string, bool) {
	want := make(map[string]string, len(owner.GetAnnotations()))
	for k, v := range owner.GetAnnotations() {
		if k == corev1.EndpointsLastChangeTriggerTime || k == corev1.LastAppliedConfigAnnotation {
			continue
		}
		want[k] = v
	}
	return want, !equalIgnoring(current, want, corev1.EndpointsLastChangeTriggerTime)
}

// equalIgnoring reports whether a and b are equal once the keys in ignore
// are removed from both. nil and empty are equal.
func equalIgnoring(a, b map[string]string, ignore ...string) bool {
	count := func(m map[string]string) int {
		n := len(m)
		for _, k := range ignore {
			if _, ok := m[k]; ok {
				n--
			}
		}
		return n
	}
	if count(a) != count(b) {
		return false
	}
	for k, v := range a {
		if isIn(k, ignore) {
			continue
		}
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func isIn(k string, list []string) bool {
	for _, s := range list {
		if s == k {
			return true
		}
	}
	return false
}
