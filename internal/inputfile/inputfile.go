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
// files, directories and standard input, as kubectl's -f does (Read,
// Documents), and decodes them into objects the one way both commands share
// (ReadObjects, DecodeObjects): strictly into the k8s.io/api types, validated
// as the API server would (Validate), objects of other kinds returned as
// Ignored, identical duplicates kept once.
package inputfile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-json-experiment/json/jsontext"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// StdinName is the name that reads standard input.
const StdinName = "-"

// StdinDisplayName is how standard input is named in File.Name and errors.
const StdinDisplayName = "<stdin>"

// File is one input file's name (its path, or StdinDisplayName) and content.
type File struct {
	Name string
	Data []byte
	// drop, for a large file mapped rather than read (readFile), drops
	// Data's pages from the process's memory; reading Data afterwards
	// brings them back.
	drop func()
}

// mapMin is the size from which a regular file is mapped into memory
// rather than read (Unix): a mapped file is outside the Go heap, so the
// garbage collector's heap goal does not grow with it (a 1.6 GB
// `kubectl get -o json` let the heap grow by as much again), and its
// pages can be dropped while it is decoded (decodeFile), so that a file
// larger than the memory its objects need is never held whole. A variable
// so that tests can map small files.
var mapMin int64 = 64 << 20

// readFile reads the file at path, or maps it when it is a regular file of
// at least mapMin bytes (f.drop set).
func readFile(f *File, path string) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close() // a mapping outlives the descriptor
	if fi, err := file.Stat(); err == nil && fi.Mode().IsRegular() {
		if data, drop, ok := mapFile(file, fi.Size()); ok {
			f.Data, f.drop = data, drop
			return nil
		}
	}
	f.Data, err = os.ReadFile(path)
	return err
}

// Error is a failure to read one input; File names it as File.Name would.
type Error struct {
	File string
	Err  error
}

func (e *Error) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Read reads the named inputs in order. StdinName reads stdin (os.Stdin when
// stdin is nil), at most once. A directory contributes its *.yaml, *.yml and
// *.json files in name order, not recursing into subdirectories. It returns
// an *Error for a missing or unreadable input, for standard input named
// twice or empty (only white space: the command before the pipe failed),
// and for no names at all (File "-f").
func Read(names []string, stdin io.Reader) ([]File, error) {
	if len(names) == 0 {
		return nil, &Error{File: "-f", Err: errors.New("no input file given")}
	}
	paths, err := expand(names)
	if err != nil {
		return nil, err
	}
	out := make([]File, 0, len(paths))
	readStdin := false
	for _, p := range paths {
		f := File{Name: p}
		var err error
		if p == StdinName {
			f.Name = StdinDisplayName
			if readStdin {
				return nil, &Error{File: f.Name, Err: errors.New("standard input given more than once")}
			}
			readStdin = true
			if stdin == nil {
				stdin = os.Stdin
			}
			f.Data, err = io.ReadAll(stdin)
			if err == nil && len(bytes.TrimSpace(f.Data)) == 0 {
				// kubectl prints a List even when nothing matches: empty
				// standard input means the command before the pipe failed,
				// and taking it as "no objects" would pass a CI gate.
				err = errors.New("standard input is empty: did the command before the pipe fail? (kubectl prints a List even when nothing matches)")
			}
		} else {
			err = readFile(&f, p)
		}
		if err != nil {
			return nil, &Error{File: f.Name, Err: err}
		}
		out = append(out, f)
	}
	return out, nil
}

// expand replaces each directory in names by its YAML and JSON files.
func expand(names []string) ([]string, error) {
	var paths []string
	for _, n := range names {
		if n == StdinName {
			paths = append(paths, n)
			continue
		}
		fi, err := os.Stat(n)
		if err != nil {
			return nil, &Error{File: n, Err: err}
		}
		if !fi.IsDir() {
			paths = append(paths, n)
			continue
		}
		entries, err := os.ReadDir(n) // sorted by name
		if err != nil {
			return nil, &Error{File: n, Err: err}
		}
		for _, e := range entries {
			if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
				paths = append(paths, filepath.Join(n, e.Name()))
			}
		}
	}
	return paths, nil
}

// Documents splits an input file's data into documents: YAML documents
// separated by "---" lines, and, inside a document that is JSON (it starts
// with '{'), every top-level object of a JSON stream, such as `jq -c` and
// `kubectl get -o json` piped through `jq '.items[]'` print. Each object of
// a stream is a document of its own, numbered in order. A document that
// starts with '{' but is not JSON (a YAML flow mapping) is kept whole.
// It returns the documents read before a malformed one together with the
// error, so the malformed one is number len(docs)+1.
func Documents(data []byte) ([][]byte, error) {
	var docs [][]byte
	err := documents(data, func(doc []byte) { docs = append(docs, doc) })
	return docs, err
}

// documents is Documents calling emit with each document in turn, as it
// is found (decodeObjects decodes the first documents while the rest are
// split).
func documents(data []byte, emit func([]byte)) error {
	raws, ok := splitDocuments(data)
	if !ok {
		return yamlReaderDocuments(data, emit)
	}
	for _, raw := range raws {
		if err := jsonStream(raw, emit); err != nil {
			return err
		}
	}
	return nil
}

// separator starts a line that separates YAML documents.
var separator = []byte("---")

// splitDocuments splits data into YAML documents as
// k8s.io/apimachinery's YAMLReader does, without copying them: on lines
// starting with "---" (followed by nothing but spaces or a comment), a
// separator with nothing before it kept as the next document's first line,
// the last line given its newline. It returns ok false
// for data it leaves to YAMLReader: carriage returns (YAMLReader drops the
// one before each newline) and a malformed separator (YAMLReader's error).
func splitDocuments(data []byte) ([][]byte, bool) {
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, false
	}
	var docs [][]byte
	start := 0
	for pos := 0; pos < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			next = pos + i + 1
		}
		if line := data[pos:next]; bytes.HasPrefix(line, separator) {
			if rest := bytes.TrimSpace(line[len(separator):]); len(rest) > 0 && rest[0] != '#' {
				return nil, false
			}
			// A separator ends a document; one that would end an empty
			// document is kept as its first line, as YAMLReader keeps it.
			if pos > start {
				docs = append(docs, data[start:pos])
				start = next
			}
		}
		pos = next
	}
	if start < len(data) {
		last := data[start:]
		if last[len(last)-1] != '\n' {
			last = append(bytes.Clone(last), '\n')
		}
		docs = append(docs, last)
	}
	return docs, true
}

// yamlReaderDocuments is documents with k8s.io/apimachinery's YAMLReader.
func yamlReaderDocuments(data []byte, emit func([]byte)) error {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		raw, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := jsonStream(raw, emit); err != nil {
			return err
		}
	}
}

// jsonStream emits raw's top-level JSON objects when it is a stream of
// them, and raw whole otherwise. The objects are slices of raw, found by
// jsontext's validating reader; a stream it does not read to the end goes
// to jsonStreamDecoder, the encoding/json split, whose results and errors
// are the reference. The objects before a malformed one are emitted before
// the error is returned.
func jsonStream(raw []byte, emit func([]byte)) error {
	// A byte order mark (editors on Windows write one) is not JSON: without
	// this, go-yaml read the first object of such a stream and silently
	// dropped the rest.
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(raw, []byte("\ufeff")))
	if len(trimmed) == 0 || trimmed[0] != '{' {
		emit(raw)
		return nil
	}
	// encoding/json's Decoder takes duplicate names and invalid UTF-8 in
	// a RawMessage; so does this reader. The objects are emitted only once
	// the stream is known to be read to the end without error, or when it
	// is large (then an error sends the rest to jsonStreamDecoder).
	// A bytes.Buffer is read in place (a bytes.Reader would be copied).
	dec := jsontext.NewDecoder(bytes.NewBuffer(trimmed), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var pending [][]byte
	var start, emitted int64
	for {
		_, err := dec.ReadValue()
		if errors.Is(err, io.EOF) {
			for _, o := range pending {
				emit(o)
			}
			return nil
		}
		if err != nil {
			objs, err := jsonStreamDecoder(raw, trimmed)
			// The first objects were emitted already: emit the rest.
			for _, o := range objs[min(len(objs), int(emitted)):] {
				emit(o)
			}
			return err
		}
		end := dec.InputOffset()
		pending = append(pending, bytes.TrimLeft(trimmed[start:end], " \t\r\n"))
		start = end
		// Emit in batches once the stream has more than one object: a
		// single document that is not JSON after all (a YAML flow mapping
		// read whole) must not have been emitted in pieces.
		if len(pending) >= streamBatch {
			for _, o := range pending {
				emit(o)
			}
			emitted += int64(len(pending))
			pending = pending[:0]
		}
	}
}

// jsonStreamDecoder splits a JSON stream with encoding/json's Decoder (each
// object copied): its objects, or raw whole when the first is not JSON (a
// YAML flow mapping), and the error after the objects read.
func jsonStreamDecoder(raw, trimmed []byte) ([][]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var objs [][]byte
	for {
		var m json.RawMessage
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			if len(objs) == 0 {
				return [][]byte{raw}, nil // not JSON: a YAML flow mapping
			}
			return objs, fmt.Errorf("invalid JSON after object %d of a JSON stream: %w", len(objs), err)
		}
		objs = append(objs, m)
	}
}

// streamBatch is how many objects of a JSON stream jsonStream holds before
// it emits them.
const streamBatch = 64

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
