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
	"fmt"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/reconciler/labelindex"
)

// ServiceNameIndex is the name of the index AddServiceNameIndex adds to an
// EndpointSlice informer: every slice filed under
// "namespace/kubernetes.io/service-name=name" by its
// kubernetes.io/service-name label (discovery.LabelServiceName).
const ServiceNameIndex = "slicekit.dev/endpointslice-service-name"

// isServiceNameLabel reports whether key is the label ServiceNameIndex
// files slices by.
func isServiceNameLabel(key string) bool { return key == discovery.LabelServiceName }

// AddServiceNameIndex adds ServiceNameIndex to informer (the shared
// EndpointSlice informer; its store holds *discovery.EndpointSlice)
// unless it has it already, so that a lister of NewSliceLister over its
// indexer lists an owner's slices (OwnerSlices, Release) from the slices
// labelled with the owner's name instead of matching every slice of the
// namespace (KCM's EndpointSlice and mirroring controllers list by label
// selector on every sync). The informer may already be started. It
// returns the informer's error (a stopped informer).
func AddServiceNameIndex(informer cache.SharedIndexInformer) error {
	if err := labelindex.Add(informer, ServiceNameIndex, labelindex.IndexFunc(isServiceNameLabel)); err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	return nil
}

// NewSliceLister returns a client-go EndpointSliceLister over indexer (an
// EndpointSlice informer's) that gives the same results as
// discoverylisters.NewEndpointSliceLister(indexer), and whose namespaced
// List reads ServiceNameIndex (AddServiceNameIndex) when the indexer has
// it and the selector requires kubernetes.io/service-name=name, as
// OwnerSlices' does: a cost proportional to the owner's slices, not to the
// namespace's. Without the index it matches every slice of the namespace,
// as client-go's lister does; entries of other types are skipped (client-go's
// lister would panic). Get returns a NotFound API error for a
// missing slice, as client-go's lister.
func NewSliceLister(indexer cache.Indexer) discoverylisters.EndpointSliceLister {
	return &sliceLister{EndpointSliceLister: discoverylisters.NewEndpointSliceLister(indexer), indexer: indexer}
}

// sliceLister is client-go's lister with an indexed namespaced List.
type sliceLister struct {
	discoverylisters.EndpointSliceLister
	indexer cache.Indexer
}

func (l *sliceLister) EndpointSlices(namespace string) discoverylisters.EndpointSliceNamespaceLister {
	return sliceNamespaceLister{EndpointSliceNamespaceLister: l.EndpointSliceLister.EndpointSlices(namespace), indexer: l.indexer, namespace: namespace}
}

// sliceNamespaceLister is client-go's namespaced lister (Get) with an
// indexed List.
type sliceNamespaceLister struct {
	discoverylisters.EndpointSliceNamespaceLister
	indexer   cache.Indexer
	namespace string
}

func (l sliceNamespaceLister) List(selector labels.Selector) ([]*discovery.EndpointSlice, error) {
	var out []*discovery.EndpointSlice
	err := labelindex.List(l.indexer, ServiceNameIndex, l.namespace, selector, isServiceNameLabel, nil, func(obj any) {
		if s, ok := obj.(*discovery.EndpointSlice); ok {
			out = append(out, s)
		}
	})
	return out, err
}
