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

// Package inputfile reads the -f inputs of slicekit render and slicekit check:
// files, directories and standard input, split into documents as kubectl's
// -f splits them (k8s.io/apimachinery/pkg/util/yaml), and decodes them into
// objects the one way both commands share (ReadObjects, DecodeObjects): as
// the API server decodes a request body with strict field validation
// (sigs.k8s.io/yaml and sigs.k8s.io/json, the functions of
// k8s.io/apimachinery's JSON serializer), validated as the API server would
// (Validate), objects of other kinds returned as Ignored, identical
// duplicates kept once. Inputs are streamed: a file or standard input is
// never held whole, and the items of a large JSON List are decoded while
// the rest is read.
package inputfile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// StdinName is the name that reads standard input.
const StdinName = "-"

// StdinDisplayName is how standard input is named in errors and in
// Object.File.
const StdinDisplayName = "<stdin>"

// expand replaces each directory in names by its *.yaml, *.yml and *.json
// files in name order (not recursing into subdirectories).
func expand(names []string) ([]string, error) {
	var paths []string
	for _, n := range names {
		if n == StdinName {
			paths = append(paths, n)
			continue
		}
		fi, err := os.Stat(n)
		if err != nil {
			return nil, &InputError{File: n, Err: err}
		}
		if !fi.IsDir() {
			paths = append(paths, n)
			continue
		}
		entries, err := os.ReadDir(n) // sorted by name
		if err != nil {
			return nil, &InputError{File: n, Err: err}
		}
		for _, e := range entries {
			if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
				paths = append(paths, filepath.Join(n, e.Name()))
			}
		}
	}
	return paths, nil
}

// seenText wraps standard input and records whether it held anything but
// white space.
type seenText struct {
	r    io.Reader
	text bool
}

func (s *seenText) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if !s.text && len(bytes.TrimSpace(p[:n])) > 0 {
		s.text = true
	}
	return n, err
}

// errEmptyStdin: kubectl prints a List even when nothing matches, so empty
// standard input means the command before the pipe failed, and taking it
// as "no objects" would pass a CI gate.
var errEmptyStdin = errors.New("standard input is empty: did the command before the pipe fail? (kubectl prints a List even when nothing matches)")

// piece is one unit of decoding work, in input order: a YAML document, a
// JSON object (a document of a JSON stream), an item of a JSON List, or an
// error found while splitting.
type piece struct {
	doc, item int
	raw       []byte
	// yaml: raw is a YAML document (converted on the decoding goroutine).
	yaml bool
	// typeMeta, when set, holds raw's top-level members whose names
	// match apiVersion or kind case-insensitively (what the serializer's
	// Interpret reads), so that the whole object is not read for them.
	typeMeta []byte
	// itemGVK is the item kind of the List an item belongs to (typed
	// lists); group the List (nil for a document).
	itemGVK schema.GroupVersionKind
	group   *listGroup
	err     error
}

// listGroup is a JSON List whose items are decoded while it is read. Its
// kind may come after its items (kubectl prints members in name order):
// the items are then decoded as a v1 List's (each naming its kind), an
// item naming none is held until the List's kind is known, and keep says
// once it is known whether the items are the List's (its envelope decoded)
// or dropped (not a List, or an invalid one).
type listGroup struct {
	kindKnown bool // the List's kind was known when its items began
	keep      bool
	itemGVK   schema.GroupVersionKind
}

// splitter splits one input into pieces, as kubectl's -f reads it
// (utilyaml.YAMLOrJSONDecoder): a stream whose first 4,096 bytes start with
// '{' after white space is a stream of JSON values; it turns into YAML for
// the rest when its first or second value is not JSON; anything else is
// YAML documents separated by "---" lines (utilyaml.YAMLReader), each
// converted by sigs.k8s.io/yaml as the API server converts a YAML body.
type splitter struct {
	emit     func(piece)
	listKind func(schema.GroupVersionKind) (schema.GroupVersionKind, bool)
	ndocs    int
}

// maxRewind bounds what is kept of a JSON stream's first two values to
// read them again as YAML (YAMLOrJSONDecoder's rule); a longer one that
// is not JSON is an error.
const maxRewind = 64 << 20

func (s *splitter) split(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4096) // kubectl: NewYAMLOrJSONDecoder(r, 4096)
	if utilyaml.IsJSONBuffer(head) {
		rest, err := s.json(br)
		if err != nil || rest == nil {
			return err
		}
		br = bufio.NewReaderSize(rest, 64<<10)
	}
	yr := utilyaml.NewYAMLReader(br)
	for {
		doc, err := yr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		s.ndocs++
		s.emit(piece{doc: s.ndocs, raw: doc, yaml: true})
	}
}

// rewinder records what is read through it while on, up to maxRewind.
type rewinder struct {
	r    io.Reader
	buf  []byte
	on   bool
	rerr error
}

func (w *rewinder) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if w.on {
		w.buf = append(w.buf, p[:n]...)
		if len(w.buf) > maxRewind {
			w.on, w.buf = false, nil
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		w.rerr = err
	}
	return n, err
}

// json splits a JSON stream. It returns, when the stream turns into YAML,
// the rest of the input to read as YAML.
func (s *splitter) json(br *bufio.Reader) (io.Reader, error) {
	rw := &rewinder{r: br, on: true}
	dec := jsontext.NewDecoder(rw, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	values := 0
	var end int64
	for {
		if dec.PeekKind() == 0 {
			if _, err := dec.ReadToken(); errors.Is(err, io.EOF) {
				return nil, nil
			}
		}
		err := s.jsonValue(dec)
		if err == nil {
			values++
			end = dec.InputOffset()
			if values == 2 {
				rw.on, rw.buf = false, nil
			}
			continue
		}
		if rw.rerr != nil {
			return nil, rw.rerr
		}
		if values > 1 || !rw.on {
			return nil, fmt.Errorf("invalid JSON after object %d of a JSON stream: %w", values, err)
		}
		// Not JSON: YAML from the end of the last value on, without the
		// white space up to and including the first newline.
		s.ndocs = values
		rest := rw.buf[end:]
		switch i := bytes.IndexFunc(rest, func(r rune) bool { return r == '\n' || !unicode.IsSpace(r) }); {
		case i < 0:
			rest = nil
		case rest[i] == '\n':
			rest = rest[i+1:]
		default:
			rest = rest[i:]
		}
		return io.MultiReader(bytes.NewReader(rest), br), nil
	}
}

// jsonValue reads one value of a JSON stream and emits its pieces. An
// object is read member by member, so that the items of a List are
// emitted one by one and the List is never held whole.
func (s *splitter) jsonValue(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '{' {
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		s.ndocs++
		s.emit(piece{doc: s.ndocs, raw: bytes.Clone(v)})
		return nil
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	doc := s.ndocs + 1
	header, typeMeta := []byte{'{'}, []byte{'{'}
	var group *listGroup
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue()
		if err != nil {
			return err
		}
		unquoted, _ := jsontext.AppendUnquote(nil, name)
		if len(header) > 1 {
			header = append(header, ',')
		}
		nameStart := len(header)
		header = append(append(header, name...), ':')
		name = header[nameStart : len(header)-1] // name is overwritten by the next read
		if group == nil && string(unquoted) == "items" && dec.PeekKind() == '[' {
			if group, err = s.items(dec, doc, typeMeta); err != nil {
				return err
			}
			if group != nil {
				header = append(header, "[]"...)
				continue
			}
		}
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		header = append(header, v...)
		if strings.EqualFold(string(unquoted), "apiVersion") || strings.EqualFold(string(unquoted), "kind") {
			if len(typeMeta) > 1 {
				typeMeta = append(typeMeta, ',')
			}
			typeMeta = append(append(append(typeMeta, name...), ':'), v...)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	header, typeMeta = append(header, '}'), append(typeMeta, '}')
	s.ndocs = doc
	if group == nil {
		s.emit(piece{doc: doc, raw: header, typeMeta: typeMeta})
		return nil
	}
	// A List whose items were emitted: keep them if it is one, and valid.
	gvk, err := serjson.DefaultMetaFactory.Interpret(typeMeta)
	itemGVK, isList := schema.GroupVersionKind{}, false
	if err == nil {
		itemGVK, isList = s.listKind(*gvk)
	}
	switch {
	case !isList:
		// Not a List after all: what the API server reads of it, items
		// aside (an unknown field of the kinds read; an ignored kind).
		s.emit(piece{doc: doc, raw: header, typeMeta: typeMeta})
	case group.kindKnown && itemGVK != group.itemGVK:
		s.emit(piece{doc: doc, err: errors.New("apiVersion or kind of the List changes after its items")})
	default:
		if err := decodeListEnvelope(header); err != nil {
			s.emit(piece{doc: doc, err: err})
			return nil
		}
		group.keep, group.itemGVK = true, itemGVK
	}
	return nil
}

// items emits the items of a List's "items" array, or returns nil without
// reading anything when the object's kind, known already, is not a List.
func (s *splitter) items(dec *jsontext.Decoder, doc int, typeMeta []byte) (*listGroup, error) {
	g := &listGroup{}
	if gvk, err := serjson.DefaultMetaFactory.Interpret(append(bytes.Clone(typeMeta), '}')); err == nil && gvk.Kind != "" {
		var isList bool
		if g.itemGVK, isList = s.listKind(*gvk); !isList {
			return nil, nil
		}
		g.kindKnown = true
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	for n := 1; dec.PeekKind() != ']'; n++ {
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		s.emit(piece{doc: doc, item: n, raw: bytes.Clone(v), itemGVK: g.itemGVK, group: g})
	}
	_, err := dec.ReadToken()
	return g, err
}

// WithContext runs read and returns its result, or an error wrapping ctx's
// cause as soon as ctx is done: a read of a terminal, pipe or FIFO cannot be
// interrupted otherwise, so without this a Ctrl-C while slicekit waits for
// standard input would be ignored. After an early return read goes on in
// the background until it returns; callers are expected to exit.
func WithContext[T any](ctx context.Context, read func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := read()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("interrupted while reading input: %w", context.Cause(ctx))
	}
}
