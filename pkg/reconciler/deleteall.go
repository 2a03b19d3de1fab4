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
	"errors"
	"fmt"
	"slices"
	"strings"

	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DeleteAll deletes every slice of existing that carries this reconciler's
// managed-by value, for an owner the controller stops writing for (a
// Service handed over to another controller by the KEP-4770 label, a
// Service whose selector was removed, an Endpoints object that is no
// longer mirrored). It first forgets the owner namespace/name (DeleteOwner),
// then deletes the slices in name order, each with a UID precondition so
// that a slice recreated under the same name is never removed; NotFound
// counts as already deleted. Each deletion is recorded in the tracker as
// expected (so its informer event does not trigger a re-sync) and counted in
// endpoint_slice_controller_changes{operation="delete"}. Slices with another
// managed-by value, of another owner (namespace or service-name label), or
// already pending deletion, are skipped: this never deletes another
// controller's or another owner's slice.
//
// A Reconciler of a slice set (ForSet) deletes only the slices of its set,
// and forgets only that set.
//
// It returns the number of slices deleted by this call and the failures,
// joined and wrapped with the slice names. The caller checks the tracker
// for a stale cache (Tracker.StaleSlices) before calling, and records its
// own Events: the reason differs per caller.
func (r *Reconciler) DeleteAll(ctx context.Context, namespace, name string, existing []*discovery.EndpointSlice) (int, error) {
	r.DeleteOwner(namespace, name)
	own := make([]*discovery.EndpointSlice, 0, len(existing))
	for _, s := range existing {
		if s == nil || s.DeletionTimestamp != nil || s.Labels[discovery.LabelManagedBy] != r.cfg.ControllerName || !r.inSet(s) ||
			s.Namespace != namespace || s.Labels[r.cfg.ServiceNameLabel] != name {
			continue
		}
		own = append(own, s)
	}
	slices.SortFunc(own, func(a, b *discovery.EndpointSlice) int { return strings.Compare(a.Name, b.Name) })
	var errs []error
	deleted := 0
	for _, s := range own {
		opts := metav1.DeleteOptions{}
		if s.UID != "" {
			uid := s.UID
			opts.Preconditions = &metav1.Preconditions{UID: &uid}
		}
		err := r.client.DiscoveryV1().EndpointSlices(s.Namespace).Delete(ctx, s.Name, opts)
		switch {
		case err == nil:
			deleted++
			r.trk().ExpectDeletion(s)
			r.metrics.IncEndpointSliceChanges("delete")
		case apierrors.IsNotFound(err):
			r.trk().ExpectDeletion(s)
		default:
			errs = append(errs, fmt.Errorf("deleting EndpointSlice %s/%s: %w", s.Namespace, s.Name, err))
		}
	}
	return deleted, errors.Join(errs...)
}
