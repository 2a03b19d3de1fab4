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

package inputfile

import (
	"bytes"
	"encoding/json"
	goruntime "runtime"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// listSplitMin is the size from which a JSON document is tried as a List
// whose items are decoded on every CPU (listFast). A variable so that tests
// can send every List through listFast.
var listSplitMin = 1 << 20

// listChunk is how many consecutive items of a List one worker decodes
// before it takes the next ones.
const listChunk = 256

// listFast decodes a large JSON List (`kubectl get -o json` of a whole
// cluster is one List document, often hundreds of megabytes) with its
// items split without copying and decoded on every CPU while the rest is
// being split. It does so only when that reads exactly what decoding the
// whole document would (fastJSON, documentJSON, list): the List's own
// members, with its items left out, are taken by fastJSON and decode
// strictly; every item is taken by fastJSON and decodes without a problem
// (jsonFast); and the text between them is what fastJSON takes. Those are
// the checks fastJSON makes of the whole document, made piece by piece. It
// reports false, leaving nothing recorded, otherwise (not a List, or any
// problem): then the caller decodes the document whole as before, which
// reports every error as before.
//
// The List's kind often comes after its items (kubectl prints members in
// name order), so items are first decoded as a generic List's, each naming
// its kind; only when an item names none and the List turns out to be a
// typed list ("PodList" from the API) are they decoded again with the
// list's item kind.
func (d *decoder) listFast(raw []byte) bool {
	type chunk struct {
		first int // index of items[0] in the List
		items [][]byte
		sub   decoder
	}
	var (
		chunks  []*chunk
		header  []byte
		splitOK bool
		failed  atomic.Bool
		wg      sync.WaitGroup
	)
	work := make(chan *chunk, 16)
	fs := d.faults
	if fs == nil {
		fs = new(faults)
	}
	decode := func(c *chunk, itemGVK schema.GroupVersionKind) {
		defer fs.catch(func() { failed.Store(true) })
		c.sub = decoder{compact: d.compact, kinds: d.kinds, file: d.file, doc: d.doc}
		for i, item := range c.items {
			if failed.Load() || !c.sub.jsonFast(item, c.first+i+1, itemGVK) {
				failed.Store(true)
				return
			}
		}
	}
	for range goruntime.GOMAXPROCS(0) {
		wg.Go(func() {
			fs.guard()
			for c := range work {
				decode(c, schema.GroupVersionKind{})
			}
		})
	}
	func() {
		// A fault splitting goes on to the caller: the workers end.
		defer close(work)
		header, splitOK = splitJSONList(bytes.TrimSpace(raw), func(items [][]byte) {
			c := &chunk{first: listChunk * len(chunks), items: items}
			chunks = append(chunks, c)
			if !failed.Load() {
				work <- c
			}
		})
	}()
	wg.Wait()
	if !splitOK {
		return false
	}
	j, apiVersion, kind, typeMeta, ok := fastJSON(header)
	if !ok || !typeMeta || apiVersion == "" || kind == "" {
		return false
	}
	itemGVK, isList := d.listKind(schema.FromAPIVersionAndKind(apiVersion, kind))
	if !isList {
		return false
	}
	var l struct {
		metav1.TypeMeta `json:",inline"`
		metav1.ListMeta `json:"metadata,omitempty"`
		Items           []json.RawMessage `json:"items"`
	}
	if err := strictUnmarshal(j, &l); err != nil {
		return false
	}
	if failed.Load() {
		if itemGVK.Empty() {
			return false
		}
		// A typed list: decode again, items without a kind taking its item kind.
		failed.Store(false)
		var next atomic.Int64
		for range min(goruntime.GOMAXPROCS(0), len(chunks)) {
			wg.Go(func() {
				fs.guard()
				for c := int(next.Add(1) - 1); c < len(chunks) && !failed.Load(); c = int(next.Add(1) - 1) {
					decode(chunks[c], itemGVK)
				}
			})
		}
		wg.Wait()
		if failed.Load() {
			return false
		}
	}
	for _, c := range chunks {
		d.objs = append(d.objs, c.sub.objs...)
		d.ignored = append(d.ignored, c.sub.ignored...)
	}
	return true
}

// splitJSONList splits doc, a JSON object with a top-level "items" array,
// into its items (slices of doc), given to emit listChunk at a time (the
// last batch may be shorter), and a header: the object with "items" given
// as [] and every other member as written. The text outside the items
// must be what plainJSONText takes (no tabs, carriage returns or other
// characters fastJSON leaves to go-yaml). It reports false for anything
// else: not such an object, malformed JSON, "items" twice, text after the
// object; some items may have been emitted by then.
func splitJSONList(doc []byte, emit func(items [][]byte)) (header []byte, ok bool) {
	if len(doc) == 0 || doc[0] != '{' {
		return nil, false
	}
	var items [][]byte
	// Duplicate names and UTF-8 are checked by fastJSON, piece by piece.
	// A bytes.Buffer is read in place (a bytes.Reader would be copied).
	dec := jsontext.NewDecoder(bytes.NewBuffer(doc), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	// last is where the text not yet checked starts: everything but the
	// items is checked by plainJSONText here (and by fastJSON in header).
	var last int64
	outside := func(upTo int64) bool {
		ok := plainJSONText(doc[last:upTo])
		last = upTo
		return ok
	}
	header = append(make([]byte, 0, 512), '{')
	seenItems := false
	for {
		switch dec.PeekKind() {
		case '}':
			if _, err := dec.ReadToken(); err != nil || dec.InputOffset() != int64(len(doc)) || !outside(int64(len(doc))) || !seenItems {
				return nil, false
			}
			return append(header, '}'), true
		case '"':
		default:
			return nil, false // malformed
		}
		name, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		if len(header) > 1 {
			header = append(header, ',')
		}
		header = append(append(header, name...), ':')
		if string(name) != `"items"` || dec.PeekKind() != '[' {
			value, err := dec.ReadValue()
			if err != nil {
				return nil, false
			}
			header = append(header, value...)
			continue
		}
		if seenItems {
			return nil, false
		}
		seenItems = true
		header = append(header, "[]"...)
		if _, err := dec.ReadToken(); err != nil {
			return nil, false
		}
		for dec.PeekKind() != ']' {
			item, err := dec.ReadValue()
			if err != nil {
				return nil, false
			}
			end := dec.InputOffset()
			if !outside(end - int64(len(item))) {
				return nil, false
			}
			items = append(items, doc[end-int64(len(item)):end])
			last = end
			if len(items) == listChunk {
				emit(items)
				items = nil
			}
		}
		if len(items) > 0 {
			emit(items)
			items = nil
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, false
		}
	}
}
