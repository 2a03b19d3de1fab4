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
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// PodProjectionKey is what a Pod event means for Services: the Pod's
// namespace and labels, its old labels when they changed, and whether the
// Pod changed in a way that matters to its endpoint. Controllers queue it
// instead of the Pod and map it to Services later (KCM behaviour C6;
// k8s.io/endpointslice util/controller_utils.go PodProjectionKey).
type PodProjectionKey struct {
	Namespace string
	// Labels are the Pod's current labels.
	Labels labels.Set
	// OldLabels are set when an update changed the labels (or the
	// hostname/subdomain, which KCM treats alike).
	OldLabels labels.Set
	// PodChanged is true when the Pod changed in a way that may change its
	// endpoint (deletionTimestamp, readiness, Pod IPs).
	PodChanged bool
}

// PodUpdateProjectionKey turns a Pod informer event into a projection key,
// or nil when the event does not matter: a resync (same resourceVersion) or
// an update that changes neither labels, hostname, subdomain,
// deletionTimestamp, readiness nor Pod IPs. oldObj is nil for an add, newObj
// nil for a delete; either may be a cache.DeletedFinalStateUnknown
// tombstone. Same rules as KCM's util.GetPodUpdateProjectionKey.
func PodUpdateProjectionKey(oldObj, newObj any) *PodProjectionKey {
	newPod, oldPod := podFromObject(newObj), podFromObject(oldObj)
	switch {
	case newPod == nil && oldPod == nil:
		utilruntime.HandleError(fmt.Errorf("unexpected Pod event with both old and new values nil, ignoring"))
		return nil
	case oldPod == nil:
		return &PodProjectionKey{Namespace: newPod.Namespace, Labels: labels.Set(newPod.Labels)}
	case newPod == nil:
		return &PodProjectionKey{Namespace: oldPod.Namespace, Labels: labels.Set(oldPod.Labels)}
	}
	if newPod.ResourceVersion == oldPod.ResourceVersion {
		return nil
	}
	podChanged, labelsChanged := podEndpointsChanged(oldPod, newPod)
	if !podChanged && !labelsChanged {
		return nil
	}
	if !labelsChanged {
		return &PodProjectionKey{Namespace: newPod.Namespace, Labels: labels.Set(newPod.Labels)}
	}
	return &PodProjectionKey{
		Namespace:  newPod.Namespace,
		Labels:     labels.Set(newPod.Labels),
		OldLabels:  labels.Set(oldPod.Labels),
		PodChanged: podChanged,
	}
}

// ServicesToUpdate returns the keys ("namespace/name") of the Services a
// projection key affects: Services in its namespace whose non-nil selector
// matches its labels; when the labels changed, the union of old and new
// matches if the Pod also changed, else their symmetric difference (KCM
// util.GetServicesToUpdate). skip, when non-nil, drops Services the caller
// does not handle (for example Services delegated to another controller
// under KEP-4770). It returns the lister's error.
func ServicesToUpdate(services corelisters.ServiceLister, key *PodProjectionKey, skip func(*corev1.Service) bool) (sets.Set[string], error) {
	return ServicesToUpdateBySelector(services, key, func(svc *corev1.Service) labels.Selector {
		// A nil selector selects nothing, not everything.
		if svc.Spec.Selector == nil || (skip != nil && skip(svc)) {
			return nil
		}
		return labels.ValidatedSetSelector(svc.Spec.Selector)
	})
}

// ServicesToUpdateBySelector is ServicesToUpdate with the caller's choice of
// each Service's Pod selector: selectorOf returns it, or nil for a Service
// that selects no Pod (or that the caller does not handle). Custom
// controllers use it for Services whose selector comes from elsewhere than
// spec.selector (pkg/slicecontroller PodSelector).
func ServicesToUpdateBySelector(services corelisters.ServiceLister, key *PodProjectionKey, selectorOf func(*corev1.Service) labels.Selector) (sets.Set[string], error) {
	return ServicesToUpdateByLookup(key, func(namespace string, set labels.Set) (sets.Set[string], error) {
		return ServicesForLabels(services, namespace, set, selectorOf)
	})
}

// ServicesToUpdateByLookup is ServicesToUpdate with the caller's lookup of
// the Services of a namespace whose Pod selector matches a label set
// (match; for instance a selector index, pkg/selectorindex Services.Match,
// whose cost does not grow with the namespace's Services). It returns
// match's error.
func ServicesToUpdateByLookup(key *PodProjectionKey, match func(namespace string, set labels.Set) (sets.Set[string], error)) (sets.Set[string], error) {
	_, toUpdate, err := MatchProjectionKey(key, match)
	return toUpdate, err
}

// MatchProjectionKey looks up, with match, the Services the current and
// (when they changed) the old labels of key select, each label set once,
// and returns matched, the Services either selects (those whose view of
// the Pod may have changed), and toUpdate, the Services to sync by KCM's
// rule (ServicesToUpdate: the current matches; when the labels changed,
// the union if the Pod also changed, else the symmetric difference). Both
// are nil for a nil key. It returns match's error.
func MatchProjectionKey(key *PodProjectionKey, match func(namespace string, set labels.Set) (sets.Set[string], error)) (matched, toUpdate sets.Set[string], err error) {
	if key == nil {
		return nil, nil, nil
	}
	cur, err := match(key.Namespace, key.Labels)
	if err != nil {
		return nil, nil, err
	}
	if key.OldLabels == nil {
		return cur, cur, nil
	}
	old, err := match(key.Namespace, key.OldLabels)
	if err != nil {
		return nil, nil, err
	}
	matched = cur.Union(old)
	if key.PodChanged {
		return matched, matched, nil
	}
	return matched, cur.Difference(old).Union(old.Difference(cur)), nil
}

// ServicesForLabels returns the keys of the Services in namespace whose
// selector (selectorOf, nil for none) matches podLabels, listing and
// matching every Service of the namespace (KCM util getServicesForPod):
// the reference a selector index must agree with. It returns the lister's
// error.
func ServicesForLabels(lister corelisters.ServiceLister, namespace string, podLabels labels.Set, selectorOf func(*corev1.Service) labels.Selector) (sets.Set[string], error) {
	svcs, err := lister.Services(namespace).List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("listing Services in namespace %q: %w", namespace, err)
	}
	out := sets.New[string]()
	for _, svc := range svcs {
		if sel := selectorOf(svc); sel != nil && sel.Matches(podLabels) {
			out.Insert(svc.Namespace + "/" + svc.Name)
		}
	}
	return out, nil
}

// podEndpointsChanged reports whether the Pod changed in a way that may
// change its endpoint, and whether its labels (or hostname/subdomain)
// changed (KCM util podEndpointsChanged).
func podEndpointsChanged(oldPod, newPod *corev1.Pod) (podChanged, labelsChanged bool) {
	labelsChanged = !maps.Equal(newPod.Labels, oldPod.Labels) ||
		newPod.Spec.Hostname != oldPod.Spec.Hostname || newPod.Spec.Subdomain != oldPod.Spec.Subdomain
	if !newPod.DeletionTimestamp.Equal(oldPod.DeletionTimestamp) || (newPod.DeletionTimestamp == nil) != (oldPod.DeletionTimestamp == nil) {
		return true, labelsChanged
	}
	if podendpoint.IsPodReady(oldPod) != podendpoint.IsPodReady(newPod) {
		return true, labelsChanged
	}
	if len(oldPod.Status.PodIPs) != len(newPod.Status.PodIPs) {
		return true, labelsChanged
	}
	for i := range oldPod.Status.PodIPs {
		if oldPod.Status.PodIPs[i].IP != newPod.Status.PodIPs[i].IP {
			return true, labelsChanged
		}
	}
	return false, labelsChanged
}

func podFromObject(obj any) *corev1.Pod {
	switch o := obj.(type) {
	case nil:
		return nil
	case *corev1.Pod:
		return o
	case *podcache.Record:
		return o.Pod()
	case cache.DeletedFinalStateUnknown:
		if pod, ok := podcache.FromObject(o.Obj); ok {
			return pod
		}
		utilruntime.HandleError(fmt.Errorf("tombstone contained an object that is not a Pod: %#v", obj))
	default:
		utilruntime.HandleError(fmt.Errorf("unexpected object in a Pod event: %T", obj))
	}
	return nil
}
