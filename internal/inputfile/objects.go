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
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/internal/createvalidation"
	"github.com/slicekit/slicekit/pkg/inputkinds"
)

// InputError is one problem in the input: a file that cannot be read, a
// document that is not valid YAML or JSON, lacks apiVersion or kind, does
// not decode strictly into its type, an object the API server would reject
// (Field names the field), or an object given twice with different
// content. `slicekit render` and `slicekit check` exit with status 2 for it.
type InputError struct {
	// File is the file name (StdinDisplayName for standard input), or
	// where else the objects came from ("cluster").
	File string
	// Document is the 1-based index of the YAML document in File; 0 when
	// the error is about the whole file.
	Document int
	// Item is the 1-based index of the object within a List document; 0
	// when the document is not a List.
	Item int
	// Object is "Kind namespace/name" once known, else "".
	Object string
	// Field is the path of the invalid field (spec.ports[0].port), or "".
	Field string
	// Err is the cause.
	Err error
}

// Error returns "FILE: document N[, item M]: [Kind ns/name: ]cause"; a
// field error's cause starts with the field path.
func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Document > 0 {
		fmt.Fprintf(&b, ": document %d", e.Document)
	}
	if e.Item > 0 {
		fmt.Fprintf(&b, ", item %d", e.Item)
	}
	b.WriteString(": ")
	if e.Object != "" {
		b.WriteString(e.Object)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// IsInputError reports whether err is, or wraps (errors.Join included), an
// *InputError.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Object is a decoded, validated input object and where it came from.
type Object struct {
	// Object is the typed object (*corev1.Namespace, *corev1.Node,
	// *corev1.Service, *corev1.Pod, *corev1.Endpoints or
	// *discovery.EndpointSlice) with its TypeMeta set.
	runtime.Object
	// File, Document and Item locate the object as in InputError.
	File     string
	Document int
	Item     int
	// NamespaceDefaulted: the object gave no namespace and was put in
	// "default".
	NamespaceDefaulted bool
}

// Where returns "FILE document N[ item M]".
func (o Object) Where() string { return where(o.File, o.Document, o.Item) }

func where(file string, doc, item int) string {
	s := fmt.Sprintf("%s document %d", file, doc)
	if item > 0 {
		s += fmt.Sprintf(" item %d", item)
	}
	return s
}

// Ignored is an input object of a kind slicekit does not read (a
// Deployment, a custom resource such as a CELProfiles file given by
// mistake). Both commands list them with Ignored.String, in the same
// words.
type Ignored struct {
	File           string
	Document, Item int
	// APIVersion, Kind, Namespace and Name identify the object (Name may
	// be empty).
	APIVersion, Kind, Namespace, Name string
	// reads says what is read instead, computed from the kinds table
	// the object was decoded with; "" means the built-in kinds.
	reads string
}

// String returns "ignored FILE document N: APIVERSION KIND ns/name: not a
// kind slicekit reads (...)".
func (i Ignored) String() string {
	id := i.Name
	if i.Namespace != "" {
		id = i.Namespace + "/" + i.Name
	}
	if id != "" {
		id = " " + id
	}
	reads := i.reads
	if reads == "" {
		reads = readsNote(nil, i.Kind)
	}
	return fmt.Sprintf("ignored %s: %s %s%s: %s", where(i.File, i.Document, i.Item), i.APIVersion, i.Kind, id, reads)
}

// readsNote says what slicekit reads instead of an object of kind: the
// same kind in its version, or the kinds of table (nil: the built-in
// kinds).
func readsNote(table inputkinds.Table, kind string) string {
	table = tableOrBuiltin(table)
	if k, ok := table.ByKind(kind); ok {
		// The right kind in another version (discovery.k8s.io/v1beta1).
		return fmt.Sprintf("slicekit reads %s only in %s", k.GVK.Kind, k.GVK.GroupVersion())
	}
	return fmt.Sprintf("not a kind slicekit reads (%s)", strings.Join(kindNames(table), ", "))
}

// tableOrBuiltin returns table, or the built-in kinds when table is nil.
func tableOrBuiltin(table inputkinds.Table) inputkinds.Table {
	if table == nil {
		t, _ := inputkinds.NewTable()
		return t
	}
	return table
}

// listGVK is the kind of kubectl's generic list (kubectl get -o yaml).
var listGVK = corev1.SchemeGroupVersion.WithKind("List")

// kindNames returns the kinds of table, sorted.
func kindNames(table inputkinds.Table) []string {
	var out []string
	for _, k := range table {
		out = append(out, k.GVK.Kind)
	}
	slices.Sort(out)
	return out
}

// SupportedKinds returns the "apiVersion Kind" strings of table (nil: the
// built-in kinds), plus their typed lists and v1 List.
func SupportedKinds(table inputkinds.Table) []string {
	var out []string
	for _, k := range tableOrBuiltin(table) {
		gv := k.GVK.GroupVersion().String()
		out = append(out, gv+" "+k.GVK.Kind, gv+" "+k.GVK.Kind+"List")
	}
	slices.Sort(out)
	return append(out, "v1 List")
}

// ReadObjects reads the named inputs in order and decodes each as
// DecodeObjects does. StdinName reads stdin (os.Stdin when stdin is nil),
// at most once; a directory contributes its *.yaml, *.yml and *.json files
// in name order, not recursing into subdirectories. No names, a missing or
// unreadable input, standard input named twice or empty (only white
// space: the command before the pipe failed) are errors. An object
// (apiVersion, kind, namespace, name) given more than once is kept once
// when every copy is semantically equal (a render output given with its
// inputs) and is an error otherwise. Every problem of every input is
// returned, joined; each is an *InputError.
func ReadObjects(names []string, stdin io.Reader, kinds inputkinds.Table) ([]Object, []Ignored, error) {
	return ReadObjectsWith(names, stdin, kinds, ReadOptions{})
}

// ReadOptions configure ReadObjectsWith.
type ReadOptions struct {
	// Compact, when set, replaces each decoded and validated object by
	// what it returns, as soon as the object is decoded (on the decoding
	// goroutines, so it must be safe for concurrent use): render drops
	// what it never reads of a Pod there, so that the whole Pods of a
	// large input are never held at once. Copies of an object given
	// twice are then compared as Compact returned them.
	Compact func(runtime.Object) runtime.Object
}

// ReadObjectsWith is ReadObjects with opts.
func ReadObjectsWith(names []string, stdin io.Reader, kinds inputkinds.Table, opts ReadOptions) ([]Object, []Ignored, error) {
	if len(names) == 0 {
		return nil, nil, &InputError{File: "-f", Err: errors.New("no input file given")}
	}
	paths, err := expand(names)
	if err != nil {
		return nil, nil, err
	}
	var (
		out, objs []Object
		ignored   []Ignored
		errs      []error
		readStdin bool
	)
	for _, p := range paths {
		var ign []Ignored
		if p == StdinName {
			if readStdin {
				return nil, nil, &InputError{File: StdinDisplayName, Err: errors.New("standard input given more than once")}
			}
			readStdin = true
			if stdin == nil {
				stdin = os.Stdin
			}
			in := &seenText{r: stdin}
			objs, ign, err = decodeStream(StdinDisplayName, in, kinds, opts.Compact)
			if !in.text {
				err = &InputError{File: StdinDisplayName, Err: errEmptyStdin}
			}
		} else {
			var f *os.File
			if f, err = os.Open(p); err != nil {
				return nil, nil, &InputError{File: p, Err: err}
			}
			objs, ign, err = decodeStream(p, f, kinds, opts.Compact)
			f.Close()
		}
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, objs...)
		ignored = append(ignored, ign...)
	}
	out, err = dedupe(out)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	return out, ignored, nil
}

// dedupe drops later copies equal to the first and reports copies that
// differ.
func dedupe(objs []Object) ([]Object, error) {
	seen := map[string]Object{}
	out := objs[:0:0]
	var errs []error
	for _, o := range objs {
		key := ObjectKey(o.Object)
		first, ok := seen[key]
		if !ok {
			seen[key] = o
			out = append(out, o)
			continue
		}
		if sameObject(first.Object, o.Object) {
			continue
		}
		errs = append(errs, &InputError{File: o.File, Document: o.Document, Item: o.Item, Object: displayKey(o.Object),
			Err: fmt.Errorf("given twice with different content (first in %s)", first.Where())})
	}
	return out, errors.Join(errs...)
}

// sameObject reports whether a and b are semantically equal
// (apiequality.Semantic); objects a ReadOptions.Compact made, which it
// cannot compare (unexported fields), are compared by reflect.DeepEqual.
func sameObject(a, b runtime.Object) (equal bool) {
	defer func() {
		if recover() != nil {
			equal = reflect.DeepEqual(a, b)
		}
	}()
	return apiequality.Semantic.DeepEqual(a, b)
}

// ObjectKey is "apiVersion Kind namespace/name" ("apiVersion Kind name"
// for cluster-scoped objects).
func ObjectKey(obj runtime.Object) string {
	gvk := obj.GetObjectKind().GroupVersionKind()
	return gvk.GroupVersion().String() + " " + displayKey(obj)
}

// displayKey is "Kind namespace/name" or "Kind name".
func displayKey(obj runtime.Object) string {
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	m, err := meta.Accessor(obj)
	if err != nil {
		return kind
	}
	if m.GetNamespace() == "" {
		return kind + " " + m.GetName()
	}
	return kind + " " + m.GetNamespace() + "/" + m.GetName()
}

// DecodeObjects decodes the documents of data, read from file (a name used
// in errors), split as kubectl's -f splits them: YAML documents separated
// by "---" lines, or a stream of JSON objects (`kubectl get -o json`, `jq
// -c`). Every document must be an object with apiVersion and kind.
// Namespaces, Nodes, Services, Pods, Endpoints and EndpointSlices (the
// kinds of kinds; nil: the built-in kinds), their typed lists and v1 List
// are decoded as the API server decodes a request body with strict field
// validation (k8s.io/apimachinery/pkg/runtime/serializer/json: YAML
// converted by sigs.k8s.io/yaml, duplicate keys refused; JSON decoded by
// sigs.k8s.io/json's UnmarshalStrict: case-sensitive, unknown and duplicate
// fields refused) and validated as the API server would on create
// (Validate); lists are replaced by their items. A namespaced object
// without a namespace is put in "default"; a cluster-scoped one loses its
// namespace. Objects of other kinds are returned as Ignored. Empty and
// comment-only documents are skipped. Every invalid document or object is
// reported: the error joins one *InputError per problem, and the valid
// objects are returned beside it.
func DecodeObjects(file string, data []byte, kinds inputkinds.Table) ([]Object, []Ignored, error) {
	return decodeStream(file, bytes.NewReader(data), kinds, nil)
}

// batch is consecutive pieces of one input decoded by one worker.
type batch struct {
	pieces []piece
	group  *listGroup
	d      decoder
}

// decodeStream is DecodeObjects reading r, each valid object replaced by
// compact(object) when compact is set (ReadOptions.Compact).
func decodeStream(file string, r io.Reader, kinds inputkinds.Table, compact func(runtime.Object) runtime.Object) ([]Object, []Ignored, error) {
	table := tableOrBuiltin(kinds)
	// Documents are independent: decode them on every CPU while the rest
	// are still being read, in batches of consecutive pieces (one channel
	// send per batch), and merge the results in input order.
	jobs := make(chan *batch, 16)
	var (
		batches []*batch
		cur     = &batch{}
	)
	flush := func() {
		if len(cur.pieces) > 0 {
			batches = append(batches, cur)
			jobs <- cur
		}
		cur = &batch{}
	}
	base := decoder{file: file, kinds: table, compact: compact}
	s := &splitter{listKind: base.listKind, emit: func(p piece) {
		if p.group != cur.group {
			flush()
			cur.group = p.group
		}
		cur.pieces = append(cur.pieces, p)
		if len(cur.pieces) == decodeBatch {
			flush()
			cur.group = p.group
		}
	}}
	var splitErr error
	go func() {
		defer close(jobs)
		splitErr = s.split(r)
		flush()
	}()
	var wg sync.WaitGroup
	for range goruntime.GOMAXPROCS(0) {
		wg.Go(func() {
			for b := range jobs {
				b.d = base
				for _, p := range b.pieces {
					b.d.piece(p)
				}
				b.pieces = nil
			}
		})
	}
	wg.Wait() // the workers end when jobs is closed: batches, ndocs and splitErr are final
	out := base
	for _, b := range batches {
		if b.group != nil && !b.group.keep {
			continue
		}
		out.objs = append(out.objs, b.d.objs...)
		out.ignored = append(out.ignored, b.d.ignored...)
		out.errs = append(out.errs, b.d.errs...)
		for _, h := range b.d.held { // items of a typed list read before its kind
			out.doc = h.doc
			out.object(h.raw, nil, h.item, b.group.itemGVK, nil)
		}
	}
	if splitErr != nil {
		out.errs = append(out.errs, &InputError{File: file, Document: s.ndocs + 1, Err: splitErr})
	}
	return out.objs, out.ignored, errors.Join(out.errs...)
}

// decodeBatch is how many consecutive pieces a worker takes at a time.
const decodeBatch = 32

// decoder collects the objects, ignored objects and errors of one input.
type decoder struct {
	// compact, when set, replaces each valid object (ReadOptions.Compact).
	compact func(runtime.Object) runtime.Object
	kinds   inputkinds.Table
	file    string
	doc     int
	objs    []Object
	ignored []Ignored
	errs    []error
	// held are List items without a kind read before the List's kind.
	held []piece
}

func (d *decoder) fail(item int, object string, err error) {
	ie := &InputError{File: d.file, Document: d.doc, Item: item, Object: object, Err: err}
	var fe *field.Error
	if errors.As(err, &fe) {
		ie.Field = fe.Field
	}
	d.errs = append(d.errs, ie)
}

// piece decodes one piece of the input.
func (d *decoder) piece(p piece) {
	d.doc = p.doc
	switch {
	case p.err != nil:
		d.fail(p.item, "", p.err)
	case p.yaml:
		// As the API server's strict decoding of a YAML body: the
		// document converted to JSON, duplicate keys refused.
		j, err := yaml.YAMLToJSONStrict(p.raw)
		if err != nil {
			if _, err2 := yaml.YAMLToJSON(p.raw); err2 != nil {
				err = err2 // not YAML: go-yaml's error rather than the strict one
			}
			d.fail(0, "", fmt.Errorf("invalid YAML: %w", err))
			return
		}
		d.object(j, nil, 0, schema.GroupVersionKind{}, nil)
	default:
		d.object(p.raw, p.typeMeta, p.item, p.itemGVK, p.group)
	}
}

// object decodes one document or List item j (JSON). A List item without
// apiVersion and kind takes itemGVK (the kind of a typed list), or is held
// when it is an item of group whose kind is not known yet. typeMeta, when
// set, holds j's members that name its apiVersion and kind.
func (d *decoder) object(j, typeMeta []byte, item int, itemGVK schema.GroupVersionKind, group *listGroup) {
	j = bytes.TrimSpace(j)
	if len(j) == 0 || string(j) == "null" {
		if item > 0 {
			d.fail(item, "", errors.New("a List item must be an object"))
		}
		return
	}
	if j[0] != '{' {
		d.fail(item, "", errors.New("not an object"))
		return
	}
	if typeMeta == nil {
		typeMeta = j
	}
	// The API server's serializer reads apiVersion and kind so
	// (encoding/json, names matched case-insensitively).
	found, err := serjson.DefaultMetaFactory.Interpret(typeMeta)
	if err != nil {
		d.fail(item, "", fmt.Errorf("reading apiVersion and kind: %w", err))
		return
	}
	gvk := *found
	if gvk.Empty() && group != nil && !group.kindKnown {
		d.held = append(d.held, piece{doc: d.doc, item: item, raw: j})
		return
	}
	if gvk.Empty() && !itemGVK.Empty() {
		gvk = itemGVK
	}
	if gvk.Version == "" || gvk.Kind == "" {
		d.fail(item, "", fmt.Errorf("apiVersion and kind are required (got apiVersion %q, kind %q)", gvk.GroupVersion().String(), gvk.Kind))
		return
	}
	if itemGVK, ok := d.listKind(gvk); ok {
		// A List inside a List is flattened too, as kubectl's resource
		// builder does (FlattenListVisitor).
		d.list(j, gvk, itemGVK, item)
		return
	}
	k, ok := d.kinds.ByGVK(gvk)
	if !ok && clientgoscheme.Scheme.IsVersionRegistered(gvk.GroupVersion()) && !clientgoscheme.Scheme.Recognizes(gvk) {
		// A built-in API version without that kind (a typo such as
		// "Servce"): the API server would reject it, so do not ignore it.
		d.fail(item, gvk.Kind, fmt.Errorf("apiVersion %s has no kind %q (the API server would reject it; slicekit reads %s)",
			gvk.GroupVersion(), gvk.Kind, strings.Join(SupportedKinds(d.kinds), ", ")))
		return
	}
	if !ok {
		d.ignore(j, item, gvk)
		return
	}
	obj := k.New()
	if err := strictUnmarshal(j, obj); err != nil {
		d.fail(item, gvk.Kind, err)
		return
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	normalize(obj)
	m, err := meta.Accessor(obj)
	if err != nil {
		d.fail(item, gvk.Kind, err)
		return
	}
	defaulted := false
	switch {
	case k.Namespaced && m.GetNamespace() == "":
		m.SetNamespace(metav1.NamespaceDefault)
		defaulted = true
	case !k.Namespaced:
		m.SetNamespace("")
	}
	errs := createvalidation.Validate(obj)
	if k.Validate != nil {
		errs = append(errs, k.Validate(obj)...)
	}
	if len(errs) > 0 {
		for _, e := range errs {
			d.fail(item, displayKey(obj), e)
		}
		return
	}
	if d.compact != nil {
		obj = d.compact(obj)
	}
	d.objs = append(d.objs, Object{Object: obj, File: d.file, Document: d.doc, Item: item, NamespaceDefaulted: defaulted})
}

// listKind reports whether a document of kind gvk is a List, whose items
// are objects of their own: kubectl's generic List (itemGVK empty: each
// item names its kind) or a typed list of a kind read ("PodList": itemGVK
// is Pod, for items without apiVersion and kind, as the API server lists
// them).
func (d *decoder) listKind(gvk schema.GroupVersionKind) (itemGVK schema.GroupVersionKind, ok bool) {
	if gvk == listGVK {
		return schema.GroupVersionKind{}, true
	}
	if base, ok := strings.CutSuffix(gvk.Kind, "List"); ok {
		if _, read := d.kinds.ByGVK(gvk.GroupVersion().WithKind(base)); read {
			return gvk.GroupVersion().WithKind(base), true
		}
	}
	return schema.GroupVersionKind{}, false
}

// listEnvelope is a List as decoded strictly, its items kept as JSON.
type listEnvelope struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []json.RawMessage `json:"items"`
}

// decodeListEnvelope decodes a List without its items strictly.
func decodeListEnvelope(j []byte) error {
	var l listEnvelope
	return strictUnmarshal(j, &l)
}

// list decodes a List (any item kinds) or a typed list (items of itemGVK)
// held whole (a YAML document, or JSON without an items array). item is
// the List's own item number when it is an item of another List: its
// items are then reported under that number.
func (d *decoder) list(j []byte, gvk, itemGVK schema.GroupVersionKind, item int) {
	var l listEnvelope
	if err := strictUnmarshal(j, &l); err != nil {
		d.fail(item, gvk.Kind, err)
		return
	}
	for i, it := range l.Items {
		n := item
		if n == 0 {
			n = i + 1
		}
		d.object(it, nil, n, itemGVK, nil)
	}
}

// ignore records an object of a kind that is not read.
func (d *decoder) ignore(j []byte, item int, gvk schema.GroupVersionKind) {
	var p struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(j, &p) // best effort: the name only labels the note
	d.ignored = append(d.ignored, Ignored{File: d.file, Document: d.doc, Item: item,
		APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Namespace: p.Metadata.Namespace, Name: p.Metadata.Name,
		reads: readsNote(d.kinds, gvk.Kind)})
}

// strictUnmarshal decodes JSON into a typed object as the API server's
// serializer does with strict field validation
// (k8s.io/apimachinery/pkg/runtime/serializer/json, Strict: the default
// options of sigs.k8s.io/json's UnmarshalStrict: names matched
// case-sensitively, integers kept, unknown and duplicate fields refused).
func strictUnmarshal(j []byte, into any) error {
	strictErrs, err := kjson.UnmarshalStrict(j, into)
	if err != nil {
		return err
	}
	return errors.Join(strictErrs...)
}
