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

package informertransform

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/podcache"
)

// Informer names one informer of a shared factory.
type Informer string

// The informers of the built-in kinds (pkg/inputkinds); the informer of a
// kind a source declares (Reads.Kinds) is Informer(kind.Resource).
const (
	Pods           Informer = inputkinds.Pods
	Services       Informer = inputkinds.Services
	EndpointSlices Informer = inputkinds.EndpointSlices
	Nodes          Informer = inputkinds.Nodes
	Endpoints      Informer = inputkinds.Endpoints
)

// Reads is what one controller reads from the shared informers. The zero
// value uses no informer.
type Reads struct {
	// Informers are the informers the controller uses. Install touches
	// only informers some controller uses, so that declaring reads never
	// starts a watch nobody needs.
	Informers []Informer
	// PodAnnotations are the Pod annotation keys the controller reads
	// (for example the Multus network-status annotations); every other
	// annotation is dropped from cached Pods.
	PodAnnotations []string
	// PodFields are the Pod fields beyond the endpoint rules' that the
	// controller reads (for example podcache.ResourceClaims for a source
	// that follows a Pod to its ResourceClaims); the cached Pods keep
	// exactly those.
	PodFields []podcache.Field
	// Kinds are the kinds other than the built-in ones (pkg/inputkinds)
	// whose informers the controller reads, each with its own transform
	// (inputkinds.Kind.Transform). Their informers count as used.
	Kinds []inputkinds.Kind
	// AllPodFields: the controller may read any field of a Pod (a CEL
	// expression can); Pods are then cached whole.
	AllPodFields bool
	// AllServiceFields: the controller may read any field of a Service;
	// Services are then cached whole.
	AllServiceFields bool
	// AllEndpointsFields: the controller may read any field of an
	// Endpoints object, or writes cached Endpoints back with an update
	// (the Endpoints controller does: without its last-applied annotation
	// in the cache, an update would delete it); Endpoints are then cached
	// whole.
	AllEndpointsFields bool
	// NodeAddresses: the controller reads Nodes' status.addresses (the
	// address guard of pod-address sources refuses Node addresses,
	// pkg/source/addressguard); they are then kept in cached Nodes.
	NodeAddresses bool
}

// Transforms holds the composed transform of each used informer; an
// informer missing from the map is not used by any controller.
type Transforms map[Informer]cache.TransformFunc

// Compose returns the transforms that keep the union of what reads
// declare: for each informer some declaration uses, a transform keeping the
// fields listed in the package doc plus the declared Pod annotations, or
// nil (no transform: objects cached whole) when a declaration reads all
// fields of that kind (AllPodFields, AllServiceFields, AllEndpointsFields). The result does not depend on the order of reads.
func Compose(reads ...Reads) Transforms {
	used := map[Informer]bool{}
	annotations := map[string]bool{}
	podFields := map[podcache.Field]bool{}
	extra := map[Informer]cache.TransformFunc{}
	allPod, allService, allEndpoints, nodeAddresses := false, false, false, false
	for _, r := range reads {
		for _, inf := range r.Informers {
			used[inf] = true
		}
		for _, k := range r.PodAnnotations {
			annotations[k] = true
		}
		for _, f := range r.PodFields {
			podFields[f] = true
		}
		for _, k := range r.Kinds {
			used[Informer(k.Resource)] = true
			extra[Informer(k.Resource)] = k.Transform
		}
		allPod = allPod || r.AllPodFields
		allService = allService || r.AllServiceFields
		allEndpoints = allEndpoints || r.AllEndpointsFields
		nodeAddresses = nodeAddresses || r.NodeAddresses
	}
	t := Transforms{}
	for inf := range used {
		switch inf {
		case Pods:
			if !allPod {
				t[inf] = PodTransformKeeping(slices.Sorted(maps.Keys(annotations)), slices.Sorted(maps.Keys(podFields)))
			} else {
				t[inf] = nil
			}
		case Services:
			if !allService {
				t[inf] = TransformService
			} else {
				t[inf] = nil
			}
		case EndpointSlices:
			t[inf] = TransformEndpointSlice
		case Nodes:
			t[inf] = TransformNode
			if nodeAddresses {
				t[inf] = TransformNodeWithAddresses
			}
		case Endpoints:
			if !allEndpoints {
				t[inf] = TransformEndpoints
			} else {
				t[inf] = nil
			}
		default:
			t[inf] = extra[inf]
		}
	}
	return t
}

// Install sets each non-nil transform of t on the factory's informer,
// requesting only informers present in t. The informers of the built-in
// kinds are known; kinds holds the other kinds t may use (the Kinds of the
// composed Reads; builtin.InputKinds gives them all). It must be called
// before the factory starts (client-go refuses to change a running
// informer's transform); it returns the refusals and unknown informers
// joined, naming the informers. The controllers work without the
// transforms, with more memory.
func (t Transforms) Install(factory informers.SharedInformerFactory, kinds ...inputkinds.Kind) error {
	table, err := inputkinds.NewTable(kinds...)
	errs := []error{err}
	for _, inf := range slices.Sorted(maps.Keys(t)) {
		fn := t[inf]
		if fn == nil {
			continue
		}
		k, ok := table.ByResource(string(inf))
		if !ok {
			errs = append(errs, fmt.Errorf("informer transform: unknown informer %q", inf))
			continue
		}
		informer := k.Informer(factory)
		if err := informer.SetTransform(fn); err != nil {
			errs = append(errs, fmt.Errorf("installing the %s informer transform: %w", inf, err))
		}
	}
	return errors.Join(errs...)
}

// trimmedMeta keeps the identity, labels, version and lifecycle timestamps
// of an object, without annotations, owner references, finalizers or
// managedFields.
func trimmedMeta(m *metav1.ObjectMeta) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:              m.Name,
		Namespace:         m.Namespace,
		UID:               m.UID,
		ResourceVersion:   m.ResourceVersion,
		Generation:        m.Generation,
		CreationTimestamp: m.CreationTimestamp,
		DeletionTimestamp: m.DeletionTimestamp,
		Labels:            m.Labels,
	}
}

// PodTransform returns a Pod transform keeping what the endpoint rules read
// (package doc) plus the given annotations, as a compact *podcache.Record
// instead of a *corev1.Pod (read the cache with podcache.NewLister and
// podcache.FromObject, which give the Pod back as a *corev1.Pod). Like
// every transform here it never modifies its argument, returns objects of
// other types (cache.DeletedFinalStateUnknown, a record already made) as
// they are, and is idempotent, as client-go requires.
func PodTransform(annotations ...string) cache.TransformFunc {
	return PodTransformKeeping(annotations, nil)
}

// PodTransformKeeping is PodTransform keeping also the given Pod fields
// beyond the endpoint rules' (podcache.Field).
func PodTransformKeeping(annotations []string, fields []podcache.Field) cache.TransformFunc {
	keep := podcache.Keep{Annotations: slices.Clone(annotations), Fields: slices.Clone(fields)}
	return func(obj any) (any, error) {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return obj, nil
		}
		return podcache.NewKeeping(pod, keep), nil
	}
}

// withoutLastApplied returns annotations without kubectl's last-applied
// configuration: a as it is when it has none, else a new map.
func withoutLastApplied(a map[string]string) map[string]string {
	if _, ok := a[corev1.LastAppliedConfigAnnotation]; !ok {
		return a
	}
	out := make(map[string]string, len(a)-1)
	for k, v := range a {
		if k != corev1.LastAppliedConfigAnnotation {
			out[k] = v
		}
	}
	return out
}

// TransformService keeps a Service without managedFields and without the
// last-applied-configuration annotation (package doc).
func TransformService(obj any) (any, error) {
	svc, ok := obj.(*corev1.Service)
	if !ok {
		return obj, nil
	}
	out := &corev1.Service{TypeMeta: svc.TypeMeta, ObjectMeta: svc.ObjectMeta, Spec: svc.Spec}
	out.ManagedFields = nil
	out.Annotations = withoutLastApplied(svc.Annotations)
	return out, nil
}

// TransformEndpoints keeps an Endpoints object without the
// last-applied-configuration annotation and with each managedFields entry
// reduced to its manager, operation, API version, subresource and the
// top-level fields it owns (package doc).
func TransformEndpoints(obj any) (any, error) {
	ep, ok := obj.(*corev1.Endpoints) //nolint:staticcheck // v1 Endpoints are what the mirroring and Endpoints controllers read
	if !ok {
		return obj, nil
	}
	out := &corev1.Endpoints{TypeMeta: ep.TypeMeta, ObjectMeta: ep.ObjectMeta, Subsets: ep.Subsets} //nolint:staticcheck // as above
	out.ManagedFields = nil
	if len(ep.ManagedFields) > 0 {
		out.ManagedFields = make([]metav1.ManagedFieldsEntry, len(ep.ManagedFields))
		for i := range ep.ManagedFields {
			e := &ep.ManagedFields[i]
			out.ManagedFields[i] = metav1.ManagedFieldsEntry{
				Manager:     e.Manager,
				Operation:   e.Operation,
				APIVersion:  e.APIVersion,
				Subresource: e.Subresource,
				FieldsType:  e.FieldsType,
				FieldsV1:    topLevelFields(e.FieldsV1),
			}
		}
	}
	out.Annotations = withoutLastApplied(ep.Annotations)
	return out, nil
}

// topLevelFields returns the fieldsV1 set f reduced to its top-level
// fields, each with an empty set ({"f:metadata":{},"f:subsets":{}}), or f
// itself when it is nil, already reduced or does not parse. The result is
// a new value; f is never modified.
func topLevelFields(f *metav1.FieldsV1) *metav1.FieldsV1 {
	if f == nil || len(f.GetRawBytes()) == 0 {
		return f
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(f.GetRawBytes(), &top); err != nil {
		return f
	}
	reduced := true
	for _, v := range top {
		if string(v) != "{}" {
			reduced = false
			break
		}
	}
	if reduced {
		return f
	}
	empty := make(map[string]struct{}, len(top))
	for k := range top {
		empty[k] = struct{}{}
	}
	raw, err := json.Marshal(empty)
	if err != nil {
		return f
	}
	return metav1.NewFieldsV1(string(raw))
}

// TransformEndpointSlice keeps an EndpointSlice whole except the
// managedFields entries' fieldsV1 (package doc).
func TransformEndpointSlice(obj any) (any, error) {
	s, ok := obj.(*discovery.EndpointSlice)
	if !ok {
		return obj, nil
	}
	out := &discovery.EndpointSlice{
		TypeMeta:    s.TypeMeta,
		ObjectMeta:  s.ObjectMeta,
		AddressType: s.AddressType,
		Endpoints:   s.Endpoints,
		Ports:       s.Ports,
	}
	if len(s.ManagedFields) > 0 {
		mf := make([]metav1.ManagedFieldsEntry, len(s.ManagedFields))
		for i := range s.ManagedFields {
			e := &s.ManagedFields[i]
			mf[i] = metav1.ManagedFieldsEntry{
				Manager:     e.Manager,
				Operation:   e.Operation,
				APIVersion:  e.APIVersion,
				Time:        e.Time,
				Subresource: e.Subresource,
			}
		}
		out.ManagedFields = mf
	}
	return out, nil
}

// TransformNodeWithAddresses is TransformNode keeping status.addresses
// too (Reads.NodeAddresses).
func TransformNodeWithAddresses(obj any) (any, error) {
	out, err := TransformNode(obj)
	node, ok := obj.(*corev1.Node)
	if err != nil || !ok {
		return out, err
	}
	trimmed := out.(*corev1.Node)
	trimmed.Status.Addresses = node.Status.Addresses
	return trimmed, nil
}

// TransformNode keeps a Node's identity, labels, allocatable resources and
// condition types and statuses (package doc).
func TransformNode(obj any) (any, error) {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return obj, nil
	}
	out := &corev1.Node{
		TypeMeta:   node.TypeMeta,
		ObjectMeta: trimmedMeta(&node.ObjectMeta),
		Status:     corev1.NodeStatus{Allocatable: node.Status.Allocatable},
	}
	if len(node.Status.Conditions) > 0 {
		out.Status.Conditions = make([]corev1.NodeCondition, len(node.Status.Conditions))
		for i := range node.Status.Conditions {
			c := &node.Status.Conditions[i]
			out.Status.Conditions[i] = corev1.NodeCondition{Type: c.Type, Status: c.Status}
		}
	}
	return out, nil
}
