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

package selectorindex

import (
	"fmt"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"
)

// SelectorFunc returns the Pod selector of a Service for one controller,
// or nil when the Service selects no Pod for it (no selector, type
// ExternalName, or not this controller's). It must depend only on the
// Service object (it is called once per Service version), must not modify
// it and must not read the Service informer's store.
type SelectorFunc func(svc *corev1.Service) labels.Selector

// Services is the Pod → Services lookup of a Service controller: the
// Services of a namespace whose Pod selector matches a set of labels, at a
// cost proportional to the Services filed under the labels' keys and
// pairs, not to the namespace's Services (KCM's
// util.GetServicesToUpdate lists and matches every Service of the
// namespace on each Pod event; kubernetes PR #134739).
//
// It is an index of the Service informer's store (cache.Indexer), so the
// store keeps it up to date on every change, with or without informer
// events (a store filled by Replace or Add, as `slicekit render` and test
// fixtures do, is indexed too). Each Service is filed under one anchor of
// its selector (Anchor); a lookup reads the buckets of the labels
// (LookupValues) and confirms each candidate with its selector, built
// once per Service version (resourceVersion). Safe for concurrent use.
type Services struct {
	indexer    cache.Indexer
	name       string // the index's name; "" when the index could not be added
	selectorOf SelectorFunc

	mu        sync.Mutex
	selectors map[string]versionedSelector // by namespace/name
}

// versionedSelector is a Service's selector at one resourceVersion.
type versionedSelector struct {
	uid, version string
	selector     labels.Selector
}

// indexSeq makes each Services' index name unique on a shared informer.
var indexSeq atomic.Uint64

// NewServices adds an index of the Pod selectors selectorOf gives to
// informer (the Service informer; its store must hold *corev1.Service) and
// returns the lookup over it. The informer may already be started. It
// returns an error when the index cannot be added (a stopped informer).
func NewServices(informer cache.SharedIndexInformer, selectorOf SelectorFunc) (*Services, error) {
	s := &Services{
		indexer:    informer.GetIndexer(),
		name:       fmt.Sprintf("slicekit.dev/pod-selector-%d", indexSeq.Add(1)),
		selectorOf: selectorOf,
		selectors:  map[string]versionedSelector{},
	}
	if err := informer.AddIndexers(cache.Indexers{s.name: s.indexFunc}); err != nil {
		return nil, fmt.Errorf("adding the Pod selector index to the Service informer: %w", err)
	}
	return s, nil
}

// indexFunc files a Service under the namespace and the anchor of its
// selector; nothing for a Service that selects no Pod. It never fails
// (a failing index function makes the store panic).
func (s *Services) indexFunc(obj any) ([]string, error) {
	svc, ok := obj.(*corev1.Service)
	if !ok || svc == nil {
		return nil, nil
	}
	sel := s.selectorOf(svc)
	if sel == nil {
		return nil, nil
	}
	anchors := Anchor(sel)
	for i := range anchors {
		anchors[i] = svc.Namespace + "/" + anchors[i]
	}
	return anchors, nil
}

// Match returns the keys (namespace/name) of the Services in namespace
// whose Pod selector matches set, as a new set (empty when none), with the
// same result as matching selectorOf of every Service of the namespace.
// It returns the indexer's error.
func (s *Services) Match(namespace string, set labels.Set) (sets.Set[string], error) {
	out := sets.New[string]()
	for _, v := range LookupValues(set) {
		objs, err := s.indexer.ByIndex(s.name, namespace+"/"+v)
		if err != nil {
			return nil, fmt.Errorf("looking up Services in namespace %q: %w", namespace, err)
		}
		for _, obj := range objs {
			svc, ok := obj.(*corev1.Service)
			if !ok {
				continue
			}
			key := svc.Namespace + "/" + svc.Name
			if out.Has(key) {
				continue
			}
			if sel := s.selector(key, svc); sel != nil && sel.Matches(set) {
				out.Insert(key)
			}
		}
	}
	return out, nil
}

// selector returns the selector of svc (key), built once per version.
func (s *Services) selector(key string, svc *corev1.Service) labels.Selector {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.selectors[key]; ok && v.version == svc.ResourceVersion && v.uid == string(svc.UID) && v.version != "" {
		return v.selector
	}
	sel := s.selectorOf(svc)
	s.selectors[key] = versionedSelector{uid: string(svc.UID), version: svc.ResourceVersion, selector: sel}
	return sel
}

// Forget drops the cached selector of the Service namespace/name; call it
// when the Service is deleted (the index itself follows the store).
func (s *Services) Forget(namespace, name string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	delete(s.selectors, namespace+"/"+name)
	s.mu.Unlock()
}

// Anchor returns where a selector is filed: the (key, value) pairs of its
// first Equals or In requirement (requirements are sorted by key) as
// "=key=value", else its first Exists requirement as "?key", else "*"
// (checked on every lookup: an empty selector, or only NotIn,
// DoesNotExist, Gt, Lt). A selector that matches nothing
// (labels.Nothing) is filed nowhere. Every label set the selector matches
// holds the anchor, so LookupValues(set) includes one of the returned
// values. The result depends only on the selector (an index function of a
// cache.Indexer must be deterministic).
func Anchor(selector labels.Selector) []string {
	reqs, selectable := selector.Requirements()
	if !selectable {
		return nil
	}
	exists := ""
	for _, r := range reqs {
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
			vals := r.Values().List()
			out := make([]string, 0, len(vals))
			for _, v := range vals {
				out = append(out, "="+r.Key()+"="+v)
			}
			return out
		case selection.Exists:
			if exists == "" {
				exists = "?" + r.Key()
			}
		}
	}
	if exists != "" {
		return []string{exists}
	}
	return []string{"*"}
}

// LookupValues returns the anchors (Anchor) a selector matching set may be
// filed under: "=key=value" and "?key" for each label, and "*".
func LookupValues(set labels.Set) []string {
	out := make([]string, 0, 2*len(set)+1)
	for k, v := range set {
		out = append(out, "="+k+"="+v, "?"+k)
	}
	return append(out, "*")
}
