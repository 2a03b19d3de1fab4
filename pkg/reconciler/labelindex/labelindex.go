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

// Package labelindex lists the objects of an informer's store that a label
// selector matches through an index of their labels (client-go
// cache.Indexers), at a cost proportional to the objects filed under the
// selector's most selective required key=value pair instead of to every
// object of the namespace (client-go's listers, cache.ListAllByNamespace,
// match the selector against each object of the namespace; so do KCM's
// EndpointSlice, mirroring and Endpoints controllers on every sync). The
// result is the same set as cache.ListAllByNamespace gives: candidates are
// confirmed with the full selector and the namespace.
package labelindex

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/tools/cache"
)

// Value returns the index value of the label key=value of an object in
// namespace: "namespace/key=value". A namespace has no "/" and a label key
// no "=", so distinct (namespace, key, value) triples of valid objects get
// distinct values; List confirms every candidate anyway.
func Value(namespace, key, value string) string {
	return namespace + "/" + key + "=" + value
}

// IndexFunc returns a cache.IndexFunc that files a namespaced object under
// Value of each of its labels whose key keep accepts (every label when keep
// is nil). Objects without metadata and cluster-scoped objects are not
// filed. It never fails (a failing index function makes the store panic).
func IndexFunc(keep func(key string) bool) cache.IndexFunc {
	return func(obj any) ([]string, error) {
		m, err := meta.Accessor(obj)
		if err != nil || m.GetNamespace() == "" {
			return nil, nil
		}
		lbls := m.GetLabels()
		if len(lbls) == 0 {
			return nil, nil
		}
		out := make([]string, 0, len(lbls))
		for k, v := range lbls {
			if keep == nil || keep(k) {
				out = append(out, Value(m.GetNamespace(), k, v))
			}
		}
		return out, nil
	}
}

// addMu serializes Add's check and add, so that controllers sharing an
// informer add its index once.
var addMu sync.Mutex

// Add adds the index name (index function fn) to informer unless the
// informer already has an index of that name (another controller sharing
// the informer added it). The informer may already be started (client-go
// indexes the objects it holds). It returns the informer's error (a
// stopped informer).
func Add(informer cache.SharedIndexInformer, name string, fn cache.IndexFunc) error {
	addMu.Lock()
	defer addMu.Unlock()
	if Has(informer.GetIndexer(), name) {
		return nil
	}
	if err := informer.AddIndexers(cache.Indexers{name: fn}); err != nil {
		return fmt.Errorf("adding the index %s: %w", name, err)
	}
	return nil
}

// Has reports whether indexer has the index name. It reads the index
// under the indexer's lock (cache.Indexer.GetIndexers hands out the map
// that a later AddIndexers writes to).
func Has(indexer cache.Indexer, name string) bool {
	_, err := indexer.IndexKeys(name, "")
	return err == nil
}

// Sizes remembers how many objects an index value held when List last
// read it, so that List reads the smallest of a selector's pairs without
// copying every pair's set to measure it (cache.Indexer has no size
// query: IndexKeys and ByIndex copy). A pair not read yet counts as empty,
// so each pair of a selector is read once before the sizes decide. The
// sizes only choose which pair is read; the result does not depend on
// them. It holds at most maxSizes values (then it starts over). The zero
// value is ready; safe for concurrent use.
type Sizes struct {
	mu sync.Mutex
	m  map[string]int
}

// maxSizes bounds Sizes (the pairs of Services deleted long ago are
// dropped when it starts over).
const maxSizes = 1 << 16

// pick returns the value of values with the fewest objects, an unread one
// first; the first of equals (selector requirements are sorted by key).
func (s *Sizes) pick(values []string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	best, bestN := values[0], -1
	for _, v := range values {
		n, ok := s.m[v]
		if !ok {
			return v
		}
		if bestN < 0 || n < bestN {
			best, bestN = v, n
		}
	}
	return best
}

// set records that value held n objects.
func (s *Sizes) set(value string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil || len(s.m) >= maxSizes {
		s.m = map[string]int{}
	}
	s.m[value] = n
}

// List calls fn for each object of indexer in namespace whose labels match
// selector, as cache.ListAllByNamespace does (the same objects, in no
// particular order), reading the index name (filed by Value, as IndexFunc
// does) when namespace is not empty, the indexer has the index and
// selector requires key=value (operator =, == or "in" with one value) for
// at least one key that indexed accepts (nil: every key): the objects of
// one such pair are the candidates, each confirmed with the whole selector
// and the namespace. The pair is the one with the fewest objects by sizes
// (see Sizes), or the first by key when sizes is nil. Otherwise List is
// cache.ListAllByNamespace. It returns the error of an object without
// metadata, as cache.ListAllByNamespace does.
func List(indexer cache.Indexer, name, namespace string, selector labels.Selector, indexed func(key string) bool, sizes *Sizes, fn cache.AppendFunc) error {
	values := indexValues(namespace, selector, indexed)
	if len(values) == 0 {
		return cache.ListAllByNamespace(indexer, namespace, selector, fn)
	}
	value := values[0]
	if sizes != nil && len(values) > 1 {
		value = sizes.pick(values)
	}
	objs, err := indexer.ByIndex(name, value)
	if err != nil {
		return cache.ListAllByNamespace(indexer, namespace, selector, fn) // no such index
	}
	if sizes != nil {
		sizes.set(value, len(objs))
	}
	for _, obj := range objs {
		m, err := meta.Accessor(obj)
		if err != nil {
			return err
		}
		if m.GetNamespace() == namespace && selector.Matches(labels.Set(m.GetLabels())) {
			fn(obj)
		}
	}
	return nil
}

// indexValues returns the index values of the key=value pairs selector
// requires of the keys indexed accepts, in namespace; none for the empty
// namespace (every namespace), a selector that matches nothing or
// everything, or one without such a pair.
func indexValues(namespace string, selector labels.Selector, indexed func(key string) bool) []string {
	if namespace == "" || selector == nil {
		return nil
	}
	reqs, selectable := selector.Requirements()
	if !selectable {
		return nil
	}
	var out []string
	for _, r := range reqs {
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
		default:
			continue
		}
		vals := r.ValuesUnsorted()
		if len(vals) != 1 || (indexed != nil && !indexed(r.Key())) {
			continue
		}
		out = append(out, Value(namespace, r.Key(), vals[0]))
	}
	return out
}
