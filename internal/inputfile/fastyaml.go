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
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fastYAMLToJSON converts a YAML document to JSON the way
// sigs.k8s.io/yaml.YAMLToJSONStrict does (go.yaml.in/yaml/v2's YAML 1.1
// scalar resolution), for the block-style subset that `kubectl get -o
// yaml` and sigs.k8s.io/yaml.Marshal print: block mappings and sequences
// (a sequence may sit at its key's indentation), one-line plain,
// single-quoted and double-quoted scalars (common escapes only), {} and [].
// It returns ok false for anything else (comments, tabs, carriage returns,
// anchors, aliases, tags, flow collections, block and multi-line scalars,
// document markers, duplicate keys, keys that are not strings, numbers
// other than plain decimal integers, invalid UTF-8, ...): the caller then
// converts with sigs.k8s.io/yaml, which also reports the errors. For a
// document it accepts, the JSON it returns decodes to the same values as
// YAMLToJSONStrict's (keys in document order instead of sorted).
//
// go-yaml parses a document into nodes, decodes them into maps of
// interfaces and sigs.k8s.io/yaml marshals those to JSON: most of the CPU
// time of a large render or check. This reads the lines once.
//
// typeMeta is the document's apiVersion and kind as encoding/json would
// read them from the JSON into a metav1.TypeMeta, or nil when that is not
// plain (a key that matches only case-insensitively, a value that is not
// a string).
func fastYAMLToJSON(doc []byte) (j []byte, typeMeta *metav1.TypeMeta, ok bool) {
	if !plainText(doc) {
		return nil, nil, false
	}
	p := fastParser{out: make([]byte, 0, len(doc))}
	first := true
	for line := range bytes.SplitSeq(doc, []byte("\n")) {
		text := strings.TrimRight(string(line), " ")
		if text == "" {
			continue
		}
		if first && text == "---" {
			// A document's start marker (Documents keeps a file's first).
			first = false
			continue
		}
		first = false
		trimmed := strings.TrimLeft(text, " ")
		p.lines = append(p.lines, fastLine{indent: len(text) - len(trimmed), text: trimmed})
	}
	if len(p.lines) == 0 || p.lines[0].indent != 0 || isSeqItem(p.lines[0].text) {
		return nil, nil, false
	}
	p.typeMeta = &metav1.TypeMeta{}
	if !p.mapping(0) || p.cur != len(p.lines) {
		return nil, nil, false
	}
	return p.out, p.typeMeta, true
}

// plainText reports whether doc is valid UTF-8 of characters go-yaml
// accepts (its reader's printable set) other than tabs, carriage returns,
// the other line breaks (NEL, U+2028, U+2029), byte order marks and "#":
// what fastYAMLToJSON handles.
func plainText(doc []byte) bool {
	for i := 0; i < len(doc); {
		c := doc[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7f || c == '#' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(doc[i:])
		if r == utf8.RuneError || r < 0xA0 || (r >= 0xD800 && r < 0xE000) || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			return false
		}
		i += n
	}
	return true
}

// fastLine is one non-empty line: its indentation and the rest.
type fastLine struct {
	indent int
	text   string
}

// fastParser converts lines to JSON in out; cur is the next line.
type fastParser struct {
	lines []fastLine
	cur   int
	out   []byte
	// typeMeta collects the top-level apiVersion and kind; nil once they
	// are not plain.
	typeMeta *metav1.TypeMeta
	// nested is set below the top-level mapping.
	nested bool
}

// isSeqItem reports whether a line's text is a block sequence item.
func isSeqItem(text string) bool {
	return text == "-" || strings.HasPrefix(text, "- ")
}

// node converts the block node whose first line is the current one, at
// indentation ind.
func (p *fastParser) node(ind int) bool {
	if isSeqItem(p.lines[p.cur].text) {
		return p.sequence(ind)
	}
	return p.mapping(ind)
}

// mapping converts the block mapping at indentation ind.
func (p *fastParser) mapping(ind int) bool {
	p.out = append(p.out, '{')
	var keys []string
	for p.cur < len(p.lines) && p.lines[p.cur].indent == ind && !isSeqItem(p.lines[p.cur].text) {
		key, rest, ok := splitKey(p.lines[p.cur].text)
		if !ok || !plainOrQuotedKey(key) {
			return false
		}
		for _, k := range keys {
			if k == key.value {
				return false // duplicate: YAMLToJSONStrict reports it
			}
		}
		keys = append(keys, key.value)
		if len(keys) > 1 {
			p.out = append(p.out, ',')
		}
		p.out = appendJSONString(p.out, key.value)
		p.out = append(p.out, ':')
		if !p.nested && p.typeMeta != nil {
			if !p.topLevel(key.value, rest) {
				p.typeMeta = nil
			}
		}
		nested := p.nested
		p.nested = true
		if !p.value(ind, rest, true) {
			return false
		}
		p.nested = nested
	}
	p.out = append(p.out, '}')
	return p.cur == len(p.lines) || p.lines[p.cur].indent < ind
}

// topLevel records a top-level apiVersion or kind whose value (rest) is
// a string and returns false for one that is not plain.
func (p *fastParser) topLevel(key, rest string) bool {
	var field *string
	switch {
	case key == "apiVersion":
		field = &p.typeMeta.APIVersion
	case key == "kind":
		field = &p.typeMeta.Kind
	case strings.EqualFold(key, "apiVersion") || strings.EqualFold(key, "kind"):
		return false
	default:
		return true
	}
	if rest == "" {
		return false
	}
	if rest[0] == '"' || rest[0] == '\'' {
		q, after, ok := quoted(rest)
		*field = q
		return ok && after == ""
	}
	if kind, _ := resolvePlain(rest); kind != plainString {
		return false
	}
	*field = rest
	return true
}

// sequence converts the block sequence at indentation ind.
func (p *fastParser) sequence(ind int) bool { return p.sequenceAt(ind, false) }

// sequenceAt converts the block sequence at indentation ind; asValue is
// set for a mapping value at its key's indentation, which the mapping's
// next key may follow.
func (p *fastParser) sequenceAt(ind int, asValue bool) bool {
	p.out = append(p.out, '[')
	for n := 0; p.cur < len(p.lines) && p.lines[p.cur].indent == ind && isSeqItem(p.lines[p.cur].text); n++ {
		if n > 0 {
			p.out = append(p.out, ',')
		}
		text := p.lines[p.cur].text
		rest := strings.TrimLeft(text[1:], " ")
		col := ind + len(text) - len(rest)
		switch {
		case rest == "":
			if !p.value(ind, "", false) {
				return false
			}
		case isSeqItem(rest):
			p.lines[p.cur] = fastLine{indent: col, text: rest}
			if !p.sequence(col) {
				return false
			}
		case isMappingEntry(rest):
			p.lines[p.cur] = fastLine{indent: col, text: rest}
			if !p.mapping(col) {
				return false
			}
		default:
			if !p.scalar(rest) {
				return false
			}
			p.cur++
		}
	}
	p.out = append(p.out, ']')
	return p.cur == len(p.lines) || p.lines[p.cur].indent < ind || (asValue && p.lines[p.cur].indent == ind)
}

// value converts the value of a mapping entry (inMapping) or of a
// sequence item whose line (the current one, at indentation ind) ends
// with rest.
func (p *fastParser) value(ind int, rest string, inMapping bool) bool {
	if rest != "" {
		if !p.scalar(rest) {
			return false
		}
		p.cur++
		return true
	}
	p.cur++
	if p.cur < len(p.lines) {
		next := p.lines[p.cur]
		switch {
		case next.indent > ind:
			return p.node(next.indent)
		case inMapping && next.indent == ind && isSeqItem(next.text):
			// kubectl's style: a mapping's sequence at the key's indentation.
			return p.sequenceAt(ind, true)
		}
	}
	p.out = append(p.out, "null"...)
	return true
}

// scalar converts a one-line scalar (or {} or []) that makes up the rest
// of its line.
func (p *fastParser) scalar(s string) bool {
	switch s[0] {
	case '"', '\'':
		q, rest, ok := quoted(s)
		if !ok || rest != "" {
			return false
		}
		p.out = appendJSONString(p.out, q)
		return true
	case '{', '[':
		if s != "{}" && s != "[]" {
			return false
		}
		p.out = append(p.out, s...)
		return true
	}
	if !plainScalar(s) || strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return false
	}
	switch kind, lit := resolvePlain(s); kind {
	case plainString:
		p.out = appendJSONString(p.out, s)
	case plainLiteral:
		p.out = append(p.out, lit...)
	default:
		return false
	}
	return true
}

// fastKey is a mapping key: its value and whether it was quoted.
type fastKey struct {
	value  string
	quoted bool
}

// splitKey splits "key: rest" or "key:" into the key and the rest.
func splitKey(text string) (fastKey, string, bool) {
	if text[0] == '"' || text[0] == '\'' {
		q, rest, ok := quoted(text)
		if !ok || !strings.HasPrefix(rest, ":") || (len(rest) > 1 && rest[1] != ' ') {
			return fastKey{}, "", false
		}
		return fastKey{value: q, quoted: true}, strings.TrimLeft(rest[1:], " "), true
	}
	if i := strings.Index(text, ": "); i >= 0 {
		return fastKey{value: text[:i]}, strings.TrimLeft(text[i+2:], " "), true
	}
	if k, ok := strings.CutSuffix(text, ":"); ok {
		return fastKey{value: k}, "", true
	}
	return fastKey{}, "", false
}

// isMappingEntry reports whether a sequence item's text starts a mapping.
func isMappingEntry(text string) bool {
	if text[0] == '"' || text[0] == '\'' {
		_, rest, ok := quoted(text)
		return ok && strings.HasPrefix(rest, ":")
	}
	return strings.Contains(text, ": ") || strings.HasSuffix(text, ":")
}

// plainOrQuotedKey reports whether a key is one go-yaml reads as the
// string it spells: quoted, or a plain scalar that resolves to a string.
func plainOrQuotedKey(k fastKey) bool {
	if k.quoted {
		return true
	}
	if k.value == "" || k.value == "<<" || strings.HasSuffix(k.value, " ") || !plainScalar(k.value) {
		return false
	}
	kind, _ := resolvePlain(k.value)
	return kind == plainString
}

// plainScalar reports whether s can be a one-line plain scalar in block
// context: it does not start with an indicator (a "-" starts a sequence
// entry only when a space follows).
func plainScalar(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-':
		return s != "-" && s[1] != ' '
	}
	return true
}

// quoted reads a one-line single- or double-quoted scalar at the start of
// s and returns its value and what follows it, spaces trimmed. Double
// quotes accept the escapes \\ \" \n \t only (go-yaml v2 has no \/).
func quoted(s string) (string, string, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), strings.TrimLeft(s[i+1:], " "), true
		case c == '\\' && q == '"':
			if i+1 == len(s) {
				return "", "", false
			}
			i++
			switch s[i] {
			case '\\', '"':
				b.WriteByte(s[i])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return "", "", false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false // not closed on this line
}

// plainKind is what go-yaml v2 resolves a plain scalar to.
type plainKind int

const (
	// plainString is a string.
	plainString plainKind = iota
	// plainLiteral is null, a bool or a decimal integer, written in JSON
	// as the returned literal.
	plainLiteral
	// plainOther is anything else (floats, other integer forms, merge
	// keys): left to go-yaml.
	plainOther
)

// yamlStyleFloat is go-yaml v2's (resolve.go).
var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// decimalInt is a decimal integer as encoding/json prints an int.
var decimalInt = regexp.MustCompile(`^(0|-?[1-9][0-9]{0,17})$`)

// resolvePlain resolves a plain scalar as go.yaml.in/yaml/v2's resolve
// does for an untagged scalar (resolve.go: the first byte hints at the
// type; a few words are null or bools; numbers are parsed as there;
// timestamps decode to their text when the target is an interface, as in
// YAMLToJSON).
func resolvePlain(in string) (plainKind, string) {
	switch in {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return plainLiteral, "true"
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return plainLiteral, "false"
	case "", "~", "null", "Null", "NULL":
		return plainLiteral, "null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<":
		return plainOther, ""
	}
	switch c := in[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(in, 64); err == nil {
			return plainOther, ""
		}
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		if decimalInt.MatchString(in) {
			return plainLiteral, in
		}
		plain := strings.ReplaceAll(in, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return plainOther, ""
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return plainOther, ""
		}
		if yamlStyleFloat.MatchString(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return plainOther, ""
			}
		}
		if strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
			return plainOther, ""
		}
	}
	return plainString, ""
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// maxFastJSONKey is the longest key fastJSON takes: go-yaml refuses
// implicit keys longer than 1024 characters, and JSON's keys are implicit
// keys of a flow mapping to it.
const maxFastJSONKey = 1000

// fastJSON returns doc (a JSON object: `kubectl get -o json`, a JSON
// stream's object, a List's item) when sigs.k8s.io/yaml.YAMLToJSONStrict
// would convert it to JSON that decodes to the same values, and ok false
// otherwise: then the caller converts it with go-yaml, which also reports
// the errors. It takes valid JSON whose strings use no \u or \/ escape
// (go-yaml v2 does not read \/ and differs on surrogates), whose numbers
// are decimal integers as encoding/json prints them, whose objects repeat
// no key (YAMLToJSONStrict refuses) and whose keys are at most 1000
// characters, made of the characters fastYAMLToJSON takes, '#' included.
func fastJSON(doc []byte) ([]byte, bool) {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 || doc[0] != '{' || bytes.Contains(doc, []byte(`\u`)) || bytes.Contains(doc, []byte(`\/`)) ||
		!json.Valid(doc) || !plainJSONText(doc) {
		return nil, false
	}
	// doc is one valid JSON value: walk it for keys and numbers. keys
	// holds the keys of each open object (nil for an array).
	var keys []map[string]bool
	expectKey := false
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; c {
		case '{':
			keys = append(keys, map[string]bool{})
			expectKey = true
		case '[':
			keys = append(keys, nil)
		case '}', ']':
			keys = keys[:len(keys)-1]
		case ',':
			expectKey = keys[len(keys)-1] != nil
		case '"':
			start := i + 1
			for i++; doc[i] != '"'; i++ {
				if doc[i] == '\\' {
					i++
				}
			}
			if expectKey {
				// Compared as written: without \u and \/, a string has one
				// spelling in JSON.
				k := string(doc[start:i])
				if len(k) > maxFastJSONKey || keys[len(keys)-1][k] {
					return nil, false
				}
				keys[len(keys)-1][k] = true
				expectKey = false
			}
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			end := i
			for end < len(doc) && bytes.IndexByte([]byte("+-.0123456789eE"), doc[end]) >= 0 {
				end++
			}
			if !decimalInt.Match(doc[i:end]) {
				return nil, false
			}
			i = end - 1
		}
	}
	return doc, true
}

// plainJSONText is plainText for JSON: '#' may appear in strings, and
// tabs and carriage returns (whitespace to JSON) are left to go-yaml.
func plainJSONText(doc []byte) bool {
	for len(doc) > 0 {
		i := bytes.IndexByte(doc, '#')
		if i < 0 {
			return plainText(doc)
		}
		if !plainText(doc[:i]) {
			return false
		}
		doc = doc[i+1:]
	}
	return true
}
