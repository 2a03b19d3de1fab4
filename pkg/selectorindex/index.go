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

// Package selectorindex finds the objects whose label selector matches a
// set of labels without matching every selector of the namespace: the
// Pod → Services lookup of the Service controllers (KCM
// util.GetPodServiceMemberships lists and matches every Service of the
// Pod's namespace on each Pod event, which costs in proportion to the
// namespace's Services; kubernetes PR #134739).
//
// Each selector is filed under one of its requirements, its anchor: an
// Equals or In requirement under each of its (key, value) pairs, else an
// Exists requirement under its key; a selector with neither (empty, or
// only NotIn, DoesNotExist, Gt, Lt) is checked on every lookup. A
// matching selector satisfies its anchor, so the labels hold the anchor's
// key (and value): a lookup visits only the selectors filed under one of
// the labels' keys and pairs, and confirms each with Matches. The anchor
// chosen is the requirement whose bucket is the smallest when the
// selector is added, so that selectors sharing a common label (tier=web)
// spread over their distinguishing one (app=...).
//
// Selectors are built by the caller once per object version (Set is
// given the object's resourceVersion and does nothing when it did not
// change). An Index is safe for concurrent use.
//
// Services is the lookup the Service controllers use (pkg/slicecontroller,
// pkg/controllers/endpoints): an index of the Service informer's store,
// which the store keeps up to date on every change, with or without
// informer events; each selector is filed under one anchor chosen from the
// selector alone (Anchor), as a store's index function must be
// deterministic.
package selectorindex

import (
	"sync"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/sets"
)

// Index maps keys (namespace/name of Services) to label selectors, per
// namespace. The zero value is not usable; call New.
type Index struct {
	mu  sync.RWMutex
	nss map[string]*namespaceIndex
}

// New returns an empty Index.
func New() *Index { return &Index{nss: map[string]*namespaceIndex{}} }

// entry is one object's selector and where it is filed.
type entry struct {
	version  string
	selector labels.Selector
	// anchor is where the entry is filed: kind anchorPairs (key, values),
	// anchorKey (key), or anchorNone (checked on every lookup).
	kind   anchorKind
	key    string
	values []string
}

type anchorKind int

const (
	anchorNone anchorKind = iota
	anchorPairs
	anchorKey
)

// namespaceIndex holds the selectors of one namespace.
type namespaceIndex struct {
	entries map[string]*entry
	// pairs[label key][label value] are the entries anchored on that pair.
	pairs map[string]map[string]sets.Set[string]
	// keys[label key] are the entries anchored on the key's existence.
	keys map[string]sets.Set[string]
	// always are the entries without an indexable requirement.
	always sets.Set[string]
}

func newNamespaceIndex() *namespaceIndex {
	return &namespaceIndex{
		entries: map[string]*entry{},
		pairs:   map[string]map[string]sets.Set[string]{},
		keys:    map[string]sets.Set[string]{},
		always:  sets.New[string](),
	}
}

// Set files the selector of key (a namespace/name) in namespace for
// version (the object's resourceVersion). A nil selector (an object that
// selects nothing: no selector, or not this controller's) removes key. It
// does nothing when key is already filed at version (a selector depends
// only on its object), so a caller builds the selector only when version
// changed (Has); an empty version always files. A selector matching
// everything (labels.Everything) is checked on every lookup.
func (x *Index) Set(namespace, key, version string, selector labels.Selector) {
	x.mu.Lock()
	defer x.mu.Unlock()
	ns := x.nss[namespace]
	if ns == nil {
		if selector == nil {
			return
		}
		ns = newNamespaceIndex()
		x.nss[namespace] = ns
	}
	if e := ns.entries[key]; e != nil {
		if e.version == version && version != "" {
			return
		}
		ns.remove(key, e)
	}
	if selector == nil {
		if len(ns.entries) == 0 {
			delete(x.nss, namespace)
		}
		return
	}
	e := ns.anchor(selector)
	e.version = version
	ns.add(key, e)
}

// Has reports whether key is filed in namespace at version, so that the
// caller can skip building its selector.
func (x *Index) Has(namespace, key, version string) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ns := x.nss[namespace]
	if ns == nil {
		return false
	}
	e := ns.entries[key]
	return e != nil && version != "" && e.version == version
}

// Delete removes key from namespace.
func (x *Index) Delete(namespace, key string) { x.Set(namespace, key, "", nil) }

// Match returns the keys in namespace whose selector matches set, as a new
// set (empty when none).
func (x *Index) Match(namespace string, set labels.Set) sets.Set[string] {
	out := sets.New[string]()
	x.mu.RLock()
	defer x.mu.RUnlock()
	ns := x.nss[namespace]
	if ns == nil {
		return out
	}
	check := func(key string) {
		if out.Has(key) {
			return
		}
		if e := ns.entries[key]; e != nil && e.selector.Matches(set) {
			out.Insert(key)
		}
	}
	for k, v := range set {
		for key := range ns.pairs[k][v] {
			check(key)
		}
		for key := range ns.keys[k] {
			check(key)
		}
	}
	for key := range ns.always {
		check(key)
	}
	return out
}

// Len returns the number of keys filed.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := 0
	for _, ns := range x.nss {
		n += len(ns.entries)
	}
	return n
}

// anchor chooses where to file selector: the Equals/In requirement whose
// buckets are the smallest now, else an Exists requirement, else none.
func (ns *namespaceIndex) anchor(selector labels.Selector) *entry {
	e := &entry{selector: selector}
	reqs, selectable := selector.Requirements()
	if !selectable {
		// labels.Nothing: never matches; file it nowhere but keep it.
		e.kind = anchorNone
		return e
	}
	best := -1
	for _, r := range reqs {
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
			vals := r.Values().UnsortedList()
			size := 0
			for _, v := range vals {
				size += ns.pairs[r.Key()][v].Len()
			}
			if best < 0 || e.kind != anchorPairs || size < best {
				e.kind, e.key, e.values, best = anchorPairs, r.Key(), vals, size
			}
		case selection.Exists:
			if e.kind == anchorNone {
				e.kind, e.key = anchorKey, r.Key()
			}
		}
	}
	return e
}

// add files e under key.
func (ns *namespaceIndex) add(key string, e *entry) {
	ns.entries[key] = e
	switch e.kind {
	case anchorPairs:
		m := ns.pairs[e.key]
		if m == nil {
			m = map[string]sets.Set[string]{}
			ns.pairs[e.key] = m
		}
		for _, v := range e.values {
			if m[v] == nil {
				m[v] = sets.New[string]()
			}
			m[v].Insert(key)
		}
	case anchorKey:
		if ns.keys[e.key] == nil {
			ns.keys[e.key] = sets.New[string]()
		}
		ns.keys[e.key].Insert(key)
	default:
		ns.always.Insert(key)
	}
}

// remove unfiles e, filed under key.
func (ns *namespaceIndex) remove(key string, e *entry) {
	delete(ns.entries, key)
	switch e.kind {
	case anchorPairs:
		m := ns.pairs[e.key]
		for _, v := range e.values {
			if s := m[v]; s != nil {
				s.Delete(key)
				if s.Len() == 0 {
					delete(m, v)
				}
			}
		}
		if len(m) == 0 {
			delete(ns.pairs, e.key)
		}
	case anchorKey:
		if s := ns.keys[e.key]; s != nil {
			s.Delete(key)
			if s.Len() == 0 {
				delete(ns.keys, e.key)
			}
		}
	default:
		ns.always.Delete(key)
	}
}
