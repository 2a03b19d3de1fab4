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

package podcache

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/reconciler/labelindex"
)

// LabelIndex is the name of the index AddLabelIndex adds to a Pod
// informer: every Pod filed under "namespace/key=value" for each of its
// labels.
const LabelIndex = "slicekit.dev/pod-labels"

// AddLabelIndex adds LabelIndex to informer (the shared Pod informer;
// *Record or *corev1.Pod entries) unless it has it already, so that the
// namespaced listers of NewLister over its indexer list a selector's Pods
// from the Pods carrying the selector's most selective required label
// instead of matching every Pod of the namespace (KCM's controllers list
// by selector on every Service sync). The informer may already be
// started. It returns the informer's error (a stopped informer).
func AddLabelIndex(informer cache.SharedIndexInformer) error {
	if err := labelindex.Add(informer, LabelIndex, labelindex.IndexFunc(nil)); err != nil {
		return fmt.Errorf("podcache: %w", err)
	}
	return nil
}

// NewLister returns a client-go PodLister over indexer, the indexer of a
// shared Pod informer whose entries are *Record (the Pod transform's
// output) or *corev1.Pod (no transform). Label selectors match the cached
// labels; only matching entries are turned into Pods (FromObject), so a
// List allocates one Pod per match and a Get one Pod. Entries of any other
// type are skipped. The namespaced lister uses the informer's namespace
// index (cache.NamespaceIndex) when it has one, as client-go's listers do.
// Get returns a NotFound API error (resource "pod", as client-go's listers) for a missing Pod.
func NewLister(indexer cache.Indexer) corelisters.PodLister {
	return &lister{indexer: indexer, sizes: &labelindex.Sizes{}}
}

type lister struct {
	indexer cache.Indexer
	// sizes are the LabelIndex pairs' sizes seen, shared by the
	// namespaced listers (which pair of a selector to read).
	sizes *labelindex.Sizes
}

func (l *lister) List(selector labels.Selector) ([]*corev1.Pod, error) {
	var out []*corev1.Pod
	err := cache.ListAll(l.indexer, selector, func(obj any) {
		if pod, ok := FromObject(obj); ok {
			out = append(out, pod)
		}
	})
	return out, err
}

func (l *lister) Pods(namespace string) corelisters.PodNamespaceLister {
	return namespaceLister{indexer: l.indexer, namespace: namespace, sizes: l.sizes}
}

type namespaceLister struct {
	indexer   cache.Indexer
	namespace string
	sizes     *labelindex.Sizes
}

func (l namespaceLister) List(selector labels.Selector) ([]*corev1.Pod, error) {
	var out []*corev1.Pod
	err := labelindex.List(l.indexer, LabelIndex, l.namespace, selector, nil, l.sizes, func(obj any) {
		if pod, ok := FromObject(obj); ok {
			out = append(out, pod)
		}
	})
	return out, err
}

func (l namespaceLister) Get(name string) (*corev1.Pod, error) {
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	pod, ok := FromObject(obj)
	if !exists || !ok {
		return nil, apierrors.NewNotFound(corev1.Resource("pod"), name)
	}
	return pod, nil
}

// Names returns the names of the cached Pods of the lister's namespace
// whose labels match selector, in no particular order, without making Pod
// objects: a caller that needs every Pod of a large Service gets them one
// at a time with Get, so that they are not all live at once
// (the Service controller's per-Service index rebuilds this way). Pods are identified as by
// List; entries of other types are skipped.
func (l namespaceLister) Names(selector labels.Selector) ([]string, error) {
	var out []string
	err := labelindex.List(l.indexer, LabelIndex, l.namespace, selector, nil, l.sizes, func(obj any) {
		switch o := obj.(type) {
		case *Record:
			out = append(out, o.Name)
		case *corev1.Pod:
			out = append(out, o.Name)
		}
	})
	return out, err
}
