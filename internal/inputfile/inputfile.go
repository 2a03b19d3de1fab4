/*
Copyright 2026 The slicekit Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package inputfile reads the -f inputs of slicekit render and slicekit check:
// files, directories and standard input, as kubectl's -f does. Decoding is
// left to the caller.
package inputfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

// StdinName is the name that reads standard input.
const StdinName = "-"

// StdinDisplayName is how standard input is named in File.Name and errors.
const StdinDisplayName = "<stdin>"

// File is one input file's name (its path, or StdinDisplayName) and content.
type File struct {
	Name string
	Data []byte
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
// twice, and for no names at all (File "-f").
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
		} else {
			f.Data, err = os.ReadFile(p)
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
