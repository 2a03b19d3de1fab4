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
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

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

// ReadObjects reads the named inputs with Read and decodes each with
// DecodeObjects. An object (apiVersion, kind, namespace, name) given more
// than once is kept once when every copy is semantically equal (a
// render output given with its inputs) and is an error otherwise. Every
// problem of every file is returned, joined; each is an *InputError.
func ReadObjects(names []string, stdin io.Reader, kinds inputkinds.Table) ([]Object, []Ignored, error) {
	objs, ignored, _, err := ReadObjectsWith(names, stdin, kinds, ReadOptions{})
	return objs, ignored, err
}

// ReadOptions configure ReadObjectsWith.
type ReadOptions struct {
	// Compact, when set, replaces each decoded and validated object by
	// what it returns, as soon as the object is decoded (on the decoding
	// goroutines, so it must be safe for concurrent use): render drops
	// what it never reads of a Pod there, so that the whole Pods of a
	// large input are never held at once. When an object is given twice,
	// the input is decoded again without Compact, so that the copies are
	// compared whole.
	Compact func(runtime.Object) runtime.Object
}

// ReadObjectsWith is ReadObjects with opts; compacted reports whether the
// objects returned went through opts.Compact (false without it, or when
// an object given twice made it decode the input again whole).
func ReadObjectsWith(names []string, stdin io.Reader, kinds inputkinds.Table, opts ReadOptions) (objs []Object, ignored []Ignored, compacted bool, err error) {
	files, err := Read(names, stdin)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) {
			return nil, nil, false, &InputError{File: fe.File, Err: fe.Err}
		}
		return nil, nil, false, err
	}
	var (
		out  []Object
		errs []error
	)
	for _, f := range files {
		objs, ign, err := decodeFile(f, kinds, opts.Compact)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, objs...)
		ignored = append(ignored, ign...)
	}
	if opts.Compact != nil && repeats(out) {
		return ReadObjectsWith(names, bytes.NewReader(stdinData(files)), kinds, ReadOptions{})
	}
	compacted = opts.Compact != nil
	out, err = dedupe(out)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, false, err
	}
	return out, ignored, compacted, nil
}

// repeats reports whether an object is given more than once.
func repeats(objs []Object) bool {
	seen := make(map[string]bool, len(objs))
	for _, o := range objs {
		key := ObjectKey(o.Object)
		if seen[key] {
			return true
		}
		seen[key] = true
	}
	return false
}

// stdinData returns the data read from standard input, if any, so that the
// input can be decoded again.
func stdinData(files []File) []byte {
	for _, f := range files {
		if f.Name == StdinDisplayName {
			return f.Data
		}
	}
	return nil
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
		if apiequality.Semantic.DeepEqual(first.Object, o.Object) {
			continue
		}
		errs = append(errs, &InputError{File: o.File, Document: o.Document, Item: o.Item, Object: displayKey(o.Object),
			Err: fmt.Errorf("given twice with different content (first in %s)", first.Where())})
	}
	return out, errors.Join(errs...)
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

// DecodeObjects decodes multi-document YAML, or JSON (one object or a
// stream of them), read from file (a name used in errors). Every document
// must be an object with apiVersion and kind. Namespaces, Nodes, Services,
// Pods, Endpoints and EndpointSlices, their typed lists and v1 List are
// decoded strictly into their k8s.io/api types (unknown or duplicate
// fields and case mismatches are errors, as the API server's strict field
// validation) and validated as the API server would on create (Validate);
// lists are replaced by their items. A namespaced object without a
// namespace is put in "default"; a cluster-scoped one loses its namespace.
// Objects of other kinds are returned as Ignored. Empty and comment-only
// documents are skipped. Every invalid document or object is reported: the
// error joins one *InputError per problem, and the valid objects are
// returned beside it.
func DecodeObjects(file string, data []byte, kinds inputkinds.Table) ([]Object, []Ignored, error) {
	return decodeObjects(file, data, kinds, nil)
}

// decodeObjects is DecodeObjects, each valid object replaced by
// compact(object) when compact is set (ReadOptions.Compact).
func decodeObjects(file string, data []byte, kinds inputkinds.Table, compact func(runtime.Object) runtime.Object) ([]Object, []Ignored, error) {
	table := tableOrBuiltin(kinds)
	// Documents are independent: decode them on every CPU while the rest
	// are still being split, and merge the results in document order
	// (decoding and validation are most of a large render's or check's
	// time). They go to the workers in batches of consecutive documents,
	// each batch into its own decoder (one channel send and one decoder
	// per batch, not per document: a stream of 100,000 Pods spent more
	// time handing them over than splitting them).
	type job struct {
		d     *decoder
		first int // document number of raws[0]
		raws  [][]byte
	}
	jobs := make(chan job, 64)
	var (
		decoded  []*decoder
		splitErr error
		ndocs    int
		// Reading a mapped file that was truncated meanwhile faults.
		fs faults
	)
	go func() {
		defer close(jobs)
		fs.guard()
		defer fs.catch(nil)
		var batch [][]byte
		flush := func() {
			if len(batch) == 0 {
				return
			}
			d := &decoder{file: file, kinds: table, compact: compact, faults: &fs}
			decoded = append(decoded, d)
			jobs <- job{d: d, first: ndocs - len(batch) + 1, raws: batch}
			batch = nil
		}
		splitErr = documents(data, func(raw []byte) {
			ndocs++
			batch = append(batch, raw)
			if len(batch) == decodeBatch {
				flush()
			}
		})
		flush()
	}()
	var wg sync.WaitGroup
	for range goruntime.GOMAXPROCS(0) {
		wg.Go(func() {
			fs.guard()
			for j := range jobs {
				func() {
					defer fs.catch(nil)
					for i, raw := range j.raws {
						j.d.doc = j.first + i
						j.d.document(raw, 0, schema.GroupVersionKind{})
					}
				}()
			}
		})
	}
	wg.Wait() // the workers end when jobs is closed: decoded, ndocs and splitErr are final
	if err := fs.err(); err != nil {
		return nil, nil, &InputError{File: file, Err: err}
	}
	if splitErr != nil {
		return nil, nil, &InputError{File: file, Document: ndocs + 1, Err: splitErr}
	}
	var out decoder
	for _, d := range decoded {
		out.objs = append(out.objs, d.objs...)
		out.ignored = append(out.ignored, d.ignored...)
		out.errs = append(out.errs, d.errs...)
	}
	return out.objs, out.ignored, errors.Join(out.errs...)
}

// decodeBatch is how many consecutive documents decodeObjects hands a
// worker at a time.
const decodeBatch = 32

// decoder collects the objects, ignored objects and errors of one file.
type decoder struct {
	// compact, when set, replaces each valid object (ReadOptions.Compact).
	compact func(runtime.Object) runtime.Object
	// faults records memory faults of the goroutines listFast starts.
	faults *faults
	// kinds are the kinds read.
	kinds   inputkinds.Table
	file    string
	doc     int
	objs    []Object
	ignored []Ignored
	errs    []error
}

func (d *decoder) fail(item int, object string, err error) {
	ie := &InputError{File: d.file, Document: d.doc, Item: item, Object: object, Err: err}
	var fe *field.Error
	if errors.As(err, &fe) {
		ie.Field = fe.Field
	}
	d.errs = append(d.errs, ie)
}

// document decodes one YAML document (item 0) or List item. A List item
// without apiVersion and kind takes itemGVK (the kind of a typed list).
//
// JSON is taken as it is when fastJSON says go-yaml would read the same
// values (most of the decoding time saved: `kubectl get -o json` is the
// fast input), else the document is converted by
// sigs.k8s.io/yaml.YAMLToJSONStrict. A document with any problem is
// decoded again from go-yaml's JSON, so that every error is reported as
// before.
func (d *decoder) document(raw []byte, item int, itemGVK schema.GroupVersionKind) {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		if item == 0 && len(raw) >= listSplitMin && d.listFast(raw) {
			return
		}
		if d.jsonFast(raw, item, itemGVK) {
			return
		}
	}
	j, err := yaml.YAMLToJSONStrict(raw)
	if err != nil {
		d.fail(item, "", fmt.Errorf("invalid YAML: %w", err))
		return
	}
	d.documentJSON(j, nil, item, itemGVK, strictUnmarshal)
}

// jsonFast decodes raw when fastJSON takes it and it decodes without a
// problem (documentFast); else it reports false, leaving nothing recorded.
// A Pod (most of a cluster dump) is not checked for validity apart: it is
// taken only when encoding/json v2, which refuses what that check refuses,
// decodes it (strictPodOnly), saving a pass over the text.
func (d *decoder) jsonFast(raw []byte, item int, itemGVK schema.GroupVersionKind) bool {
	j, apiVersion, kind, typeMeta, ok := fastJSONText(raw)
	if !ok {
		return false
	}
	var tm *metav1.TypeMeta
	if typeMeta {
		tm = &metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
	}
	unmarshal := strictUnmarshal
	if typeMeta && apiVersion == "v1" && kind == "Pod" && d.readsPods() {
		unmarshal = strictPodOnly
	} else if !jsontext.Value(j).IsValid() {
		return false
	}
	return d.documentFast(j, tm, item, itemGVK, unmarshal)
}

// readsPods reports whether d's kinds include v1 Pods (a Pod of a kind
// not read is ignored undecoded, so it must be checked for validity).
func (d *decoder) readsPods() bool {
	_, ok := d.kinds.ByGVK(corev1.SchemeGroupVersion.WithKind("Pod"))
	return ok
}

// documentFast is documentJSON for JSON fastJSON took. It reports false,
// leaving nothing recorded, when the document has any problem: then the
// caller decodes it again from go-yaml's JSON, so that every error is
// reported as before.
func (d *decoder) documentFast(j []byte, tm *metav1.TypeMeta, item int, itemGVK schema.GroupVersionKind, unmarshal func([]byte, any) error) bool {
	nobjs, nignored, nerrs := len(d.objs), len(d.ignored), len(d.errs)
	d.documentJSON(j, tm, item, itemGVK, unmarshal)
	if len(d.errs) == nerrs {
		return true
	}
	clear(d.objs[nobjs:])
	clear(d.ignored[nignored:])
	clear(d.errs[nerrs:])
	d.objs, d.ignored, d.errs = d.objs[:nobjs], d.ignored[:nignored], d.errs[:nerrs]
	return false
}

// documentJSON decodes one document or List item, converted to JSON, with
// unmarshal (strictUnmarshal; strictPodOnly for a Pod jsonFast did not
// check for validity). tm, when set, is its apiVersion and kind as
// encoding/json would read them (fastJSON); else they are read from j.
func (d *decoder) documentJSON(j []byte, tm *metav1.TypeMeta, item int, itemGVK schema.GroupVersionKind, unmarshal func([]byte, any) error) {
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
	if tm == nil {
		tm = new(metav1.TypeMeta)
		if err := jsonv1.Unmarshal(j, tm); err != nil {
			d.fail(item, "", fmt.Errorf("reading apiVersion and kind: %w", err))
			return
		}
	}
	if tm.APIVersion == "" && tm.Kind == "" && !itemGVK.Empty() {
		tm.APIVersion, tm.Kind = itemGVK.GroupVersion().String(), itemGVK.Kind
	}
	if tm.APIVersion == "" || tm.Kind == "" {
		d.fail(item, "", fmt.Errorf("apiVersion and kind are required (got apiVersion %q, kind %q)", tm.APIVersion, tm.Kind))
		return
	}
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	if item == 0 {
		if itemGVK, ok := d.listKind(gvk); ok {
			d.list(j, gvk, itemGVK)
			return
		}
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
	if err := unmarshal(j, obj); err != nil {
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
	errs := Validate(obj)
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
// is Pod, for items without apiVersion and kind).
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

// list decodes a List (any item kinds) or a typed list (items of itemGVK).
func (d *decoder) list(j []byte, gvk, itemGVK schema.GroupVersionKind) {
	var l struct {
		metav1.TypeMeta `json:",inline"`
		metav1.ListMeta `json:"metadata,omitempty"`
		Items           []json.RawMessage `json:"items"`
	}
	if err := strictUnmarshal(j, &l); err != nil {
		d.fail(0, gvk.Kind, err)
		return
	}
	for i, it := range l.Items {
		d.document(it, i+1, itemGVK)
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

// strictUnmarshal decodes JSON case-sensitively, rejecting unknown and
// duplicate fields, as the API server's strict field validation does
// (sigs.k8s.io/json, whose errors are reported). A Pod, the bulk of a
// cluster dump, is first decoded by encoding/json v2
// (github.com/go-json-experiment/json, about 1.6× faster on a Deployment's
// Pod) with the same rules: names matched case-sensitively, unknown and
// duplicate names refused; on any error it is decoded again by
// sigs.k8s.io/json. FuzzStrictUnmarshalPod checks that what v2 accepts,
// sigs.k8s.io/json accepts and reads as the same Pod.
func strictUnmarshal(j []byte, into any) error {
	if p, ok := into.(*corev1.Pod); ok {
		if err := jsonv2.Unmarshal(j, p, strictPodOptions); err == nil {
			return nil
		}
		*p = corev1.Pod{}
	}
	return strictUnmarshalReference(j, into)
}

// strictPodOnly is strictUnmarshal of a Pod by encoding/json v2 alone: it
// refuses malformed JSON, duplicate names (in every object, fieldsV1's
// included) and invalid UTF-8 as jsontext.Value.IsValid does, so that a
// Pod it decodes is valid JSON (jsonFast). Any other type is an error.
func strictPodOnly(j []byte, into any) error {
	p, ok := into.(*corev1.Pod)
	if !ok {
		return fmt.Errorf("strictPodOnly: %T is not a Pod", into)
	}
	return jsonv2.Unmarshal(j, p, strictPodOptions)
}

// strictPodOptions are strictUnmarshal's v2 options for a Pod: unknown
// names refused, and metav1.Time read without its UnmarshalJSON's
// encoding/json round trip (unmarshalTime).
var strictPodOptions = jsonv2.JoinOptions(jsonv2.RejectUnknownMembers(true),
	jsonv2.WithUnmarshalers(jsonv2.UnmarshalFromFunc(unmarshalTime)))

// unmarshalTime is metav1.Time.UnmarshalJSON (null is the zero time; a
// string is parsed as RFC 3339 and made local) reading the token straight
// from the decoder. Anything else is an error, which sends the Pod to
// sigs.k8s.io/json for the error it reports.
func unmarshalTime(dec *jsontext.Decoder, t *metav1.Time) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case 'n':
		t.Time = time.Time{}
		return nil
	case '"':
		pt, err := time.Parse(time.RFC3339, tok.String())
		if err != nil {
			return err
		}
		t.Time = pt.Local()
		return nil
	}
	return fmt.Errorf("a time must be a string or null, not %v", tok.Kind())
}

// strictUnmarshalReference is strictUnmarshal with sigs.k8s.io/json alone.
func strictUnmarshalReference(j []byte, into any) error {
	strictErrs, err := kjson.UnmarshalStrict(j, into, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	return errors.Join(strictErrs...)
}
