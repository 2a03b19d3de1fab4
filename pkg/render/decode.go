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

package render

import (
	"io"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/slicekit/slicekit/internal/inputfile"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/inputkinds"
)

// StdinName is the file name that reads standard input.
const StdinName = inputfile.StdinName

// InputError is an error in the input (see inputfile.InputError): a file
// that cannot be read, a document that is not valid YAML, does not decode
// strictly into its type, an object the API server would reject (with its
// field), or an object given twice with different content. The CLI exits
// with status 2 for it.
type InputError = inputfile.InputError

// IsInputError reports whether err is, or wraps, an *InputError.
func IsInputError(err error) bool { return inputfile.IsInputError(err) }

// Object is a decoded input object and where it came from.
type Object = inputfile.Object

// Ignored is an input object of a kind render does not read; the CLI lists
// each on standard error.
type Ignored = inputfile.Ignored

// SupportedKinds returns the "apiVersion Kind" strings render reads (the
// kinds of builtin.InputKinds), their typed lists and v1 List.
func SupportedKinds() []string { return inputfile.SupportedKinds(kinds()) }

// kinds returns the table of input kinds (builtin.InputKinds), or the
// built-in kinds alone if the registrations' kinds collide (a programming
// error the registry tests catch; NewControllers reports it).
func kinds() inputkinds.Table {
	t, err := builtin.InputKinds()
	if err != nil {
		return nil
	}
	return t
}

// ReadFiles reads and decodes the named files in order; StdinName reads
// stdin (at most once; os.Stdin when stdin is nil), and a directory
// contributes its *.yaml, *.yml and *.json files in name order. Objects of
// the kinds of builtin.InputKinds are
// decoded strictly and validated as the API server would
// (inputfile.ReadObjects); objects of other kinds come back as Ignored. An
// object given twice is kept once when both copies are equal and an error
// otherwise. Every problem is reported; each is an *InputError.
func ReadFiles(names []string, stdin io.Reader) ([]Object, []Ignored, error) {
	return inputfile.ReadObjects(names, stdin, kinds())
}

// Decode decodes multi-document YAML (or JSON) of the kinds of
// builtin.InputKinds from file (a name used in
// errors) with inputfile.DecodeObjects: supported kinds decoded strictly
// and validated, Lists replaced by their items, other kinds returned as
// Ignored. Errors are *InputError, joined.
func Decode(file string, data []byte) ([]Object, []Ignored, error) {
	return inputfile.DecodeObjects(file, data, kinds())
}

// ReadFilesCompact is ReadFiles for a render whose Result.Objects are not
// printed (`slicekit render` without --with-inputs): as soon as a Pod is
// decoded and validated, it gets the API server's port-protocol defaults
// (DefaultProtocols) and is replaced by what the Pod informer's transform
// of the controllers copts enables (nil: the defaults) keeps of it, a
// compact *podcache.Record, which is what Render caches anyway. The whole
// Pods of a large input are then never held at once: they are most of
// its memory. Render gives the same result for these objects as for the
// whole ones, except Result.Objects, which holds the records; a Pod given
// twice is compared on its records (what render reads of it). It returns
// the number of Pod ports it defaulted (DefaultProtocols counts the
// others); errors as ReadFiles'.
func ReadFilesCompact(names []string, stdin io.Reader, copts *builtin.ControllerOptions) ([]Object, []Ignored, int, error) {
	if copts == nil {
		copts = builtin.NewControllerOptions()
	}
	transforms, err := copts.Transforms()
	if err != nil {
		return nil, nil, 0, err
	}
	return readFilesCompact(names, stdin, kinds(), transforms)
}

// readFilesCompact is ReadFilesCompact with the kinds table and the
// controllers' informer transforms given.
func readFilesCompact(names []string, stdin io.Reader, kinds inputkinds.Table, transforms informertransform.Transforms) ([]Object, []Ignored, int, error) {
	transform := transforms[informertransform.Informer(inputkinds.Pods)]
	// defaulted counts the ports defaulted per compacted Pod, so that
	// copies dropped as duplicates are not counted.
	var defaulted sync.Map
	compact := func(obj runtime.Object) runtime.Object {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return obj
		}
		n := inputfile.DefaultProtocols([]runtime.Object{pod})
		out := runtime.Object(pod)
		if transform != nil {
			// On an error Render transforms the Pod again and reports it.
			if t, err := transform(pod); err == nil {
				if o, ok := t.(runtime.Object); ok {
					out = o
				}
			}
		}
		if n > 0 {
			defaulted.Store(out, n)
		}
		return out
	}
	objs, ignored, err := inputfile.ReadObjectsWith(names, stdin, kinds, inputfile.ReadOptions{Compact: compact})
	if err != nil {
		return nil, nil, 0, err
	}
	n := 0
	for _, o := range objs {
		if v, ok := defaulted.Load(o.Object); ok {
			n += v.(int)
		}
	}
	return objs, ignored, n, nil
}
