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
	"regexp"
	"strconv"
	"strings"
)

// fastYAML converts doc, one YAML document, to JSON when it is written in
// the block style `kubectl get -o yaml` prints (go-yaml's emitter, through
// sigs.k8s.io/yaml) and the JSON decodes to the values
// sigs.k8s.io/yaml.YAMLToJSONStrict would give; ok false otherwise, and
// the caller converts it with go-yaml, which also reports the errors.
// go-yaml reads a Deployment's Pod at about 7 MB per CPU-second; this
// reads the same text more than ten times faster.
//
// It takes a block mapping at the top, block mappings and block sequences
// (a sequence's "- " at its key's indentation or deeper) of:
//   - plain keys and single-quoted keys;
//   - plain scalars that go-yaml v2 resolves to a decimal integer as
//     encoding/json prints one, to true, false or null written so, or to a
//     string (plainIsString);
//   - single-line single-quoted scalars, single-line double-quoted scalars
//     whose only escapes are \" \\ \n \t (go-yaml v2 does not read \/),
//     the empty flows {} and [],
//     literal block scalars ("|" or "|-") and an empty value (null).
//
// Anything else is left to go-yaml: comments, tabs and the other text
// plainText refuses, anchors, aliases, tags, flow collections with
// content, folded and kept block scalars, multi-line flow scalars, blank
// lines outside block scalars, duplicate keys, a document marker other
// than a leading "---". FuzzFastYAML checks that what it takes, go-yaml
// reads as the same values.
func fastYAML(doc []byte) (j []byte, ok bool) {
	return fastYAMLInto(nil, doc)
}

// fastYAMLInto is fastYAML writing the JSON into buf's space (buf[:0]).
func fastYAMLInto(buf, doc []byte) (j []byte, ok bool) {
	if !plainText(doc) {
		return nil, false
	}
	if cap(buf) < len(doc)+len(doc)/4 {
		buf = make([]byte, 0, len(doc)+len(doc)/4)
	}
	p := yamlParser{doc: doc, out: buf[:0]}
	if bytes.HasPrefix(doc, []byte("---\n")) {
		p.pos = 4
	}
	p.next()
	if p.eof || p.indent != 0 || !p.mapping(0) || !p.eof {
		return nil, false
	}
	return p.out, true
}

// yamlParser reads fastYAML's subset line by line, writing JSON to out.
type yamlParser struct {
	doc []byte
	out []byte
	// pos is where the line after the current one starts.
	pos int
	// line is the current line without its indentation and newline;
	// indent is its indentation; eof is set past the last line.
	line   []byte
	indent int
	eof    bool
	// bad is set when a line cannot be read (a blank line, a marker).
	bad bool
}

// next makes the following line current. A blank line or a document
// marker sets bad (fastYAML then refuses the document).
func (p *yamlParser) next() {
	if p.pos >= len(p.doc) {
		p.line, p.indent, p.eof = nil, 0, true
		return
	}
	end := bytes.IndexByte(p.doc[p.pos:], '\n')
	var l []byte
	if end < 0 {
		l, p.pos = p.doc[p.pos:], len(p.doc)
	} else {
		l, p.pos = p.doc[p.pos:p.pos+end], p.pos+end+1
	}
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	p.line, p.indent = l[n:], n
	if len(p.line) == 0 || (n == 0 && (bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")))) {
		p.bad = true
	}
}

// mapping reads a block mapping whose keys are at indent, starting at
// the current line, up to the first line indented less (or eof).
func (p *yamlParser) mapping(indent int) bool {
	p.out = append(p.out, '{')
	var space [16][]byte
	keys := space[:0] // to refuse duplicates, as YAMLToJSONStrict does
	for first := true; !p.eof && p.indent == indent; first = false {
		if p.bad || (len(p.line) > 0 && p.line[0] == '-' && (len(p.line) == 1 || p.line[1] == ' ')) {
			return false
		}
		if !first {
			p.out = append(p.out, ',')
		}
		key, rest, ok := yamlKey(p.line)
		if !ok {
			return false
		}
		for _, k := range keys {
			if bytes.Equal(k, key) {
				return false
			}
		}
		keys = append(keys, key)
		p.out = appendJSONString(p.out, key)
		p.out = append(p.out, ':')
		if !p.value(indent, rest, false) {
			return false
		}
	}
	p.out = append(p.out, '}')
	return !p.bad && (p.eof || p.indent < indent)
}

// value reads a value whose text on its key's line (after ": ", or
// after "- " of a sequence item: item set) is rest; indent is the key's
// (or the item dash's) indentation.
func (p *yamlParser) value(indent int, rest []byte, item bool) bool {
	switch {
	case len(rest) == 0:
		p.next()
		switch {
		case p.bad:
			return false
		case !p.eof && p.indent > indent:
			if p.line[0] == '-' && (len(p.line) == 1 || p.line[1] == ' ') {
				return p.sequence(p.indent)
			}
			return p.mapping(p.indent)
		case !item && !p.eof && p.indent == indent && p.line[0] == '-' && (len(p.line) == 1 || p.line[1] == ' '):
			return p.sequence(indent) // "key:\n- item", as kubectl prints
		}
		p.out = append(p.out, "null"...)
		return true
	case string(rest) == "|" || string(rest) == "|-":
		return p.literal(indent, rest[len(rest)-1] == '-')
	}
	more, ok := p.continuation(indent)
	if !ok {
		return false
	}
	if len(more) > 0 {
		return p.multiLine(rest, more)
	}
	if !p.scalar(rest) {
		return false
	}
	p.next()
	return true
}

// continuation reads the lines after the current one that go on a scalar
// begun on it (indented more than indent), trimmed, and makes the line
// after them current. Blank lines among them are kept (as empty lines);
// blank lines after them refuse the document.
func (p *yamlParser) continuation(indent int) (lines [][]byte, ok bool) {
	blank := 0
	for p.pos < len(p.doc) {
		end := bytes.IndexByte(p.doc[p.pos:], '\n')
		next := len(p.doc)
		l := p.doc[p.pos:]
		if end >= 0 {
			l, next = p.doc[p.pos:p.pos+end], p.pos+end+1
		}
		n := 0
		for n < len(l) && l[n] == ' ' {
			n++
		}
		switch {
		case n == len(l):
			if n > 0 {
				return nil, false // spaces only
			}
			blank++
			p.pos = next
			continue
		case n <= indent:
			if blank > 0 {
				return nil, false
			}
			return lines, true
		}
		for ; blank > 0; blank-- {
			lines = append(lines, nil)
		}
		lines = append(lines, l[n:])
		p.pos = next
	}
	if blank > 0 {
		return nil, false
	}
	return lines, true
}

// multiLine writes the JSON of a single-quoted or plain scalar written over
// lines: first (on its key's or dash's line) and more (continuation's).
// Double-quoted ones, which may escape line breaks, are left to go-yaml.
func (p *yamlParser) multiLine(first []byte, more [][]byte) bool {
	last := more[len(more)-1]
	if len(last) == 0 || last[len(last)-1] == ' ' {
		return false
	}
	lines := append([][]byte{first}, more...)
	switch first[0] {
	case '\'':
		// Only the last line closes the scalar: no other line may hold a
		// lone quote ('' is a quote).
		for i, l := range lines {
			body := l
			if i == 0 {
				body = body[1:]
			}
			if i == len(lines)-1 {
				if len(body) == 0 || body[len(body)-1] != '\'' {
					return false
				}
				body = body[:len(body)-1]
			}
			if bytes.Count(body, []byte("'")) != 2*bytes.Count(body, []byte("''")) {
				return false
			}
		}
		folded := fold(lines)
		v, ok := singleQuoted(folded)
		if !ok {
			return false
		}
		p.out = appendJSONString(p.out, v)
	case '"':
		return false
	default:
		for _, l := range lines {
			if bytes.Contains(l, []byte(": ")) || l != nil && l[len(l)-1] == ':' {
				return false
			}
		}
		for _, l := range more {
			if len(l) > 0 && bytes.IndexByte([]byte(plainIndicators), l[0]) >= 0 {
				return false
			}
		}
		folded := fold(lines)
		if !plainIsString(folded, true) {
			return false
		}
		p.out = appendJSONString(p.out, folded)
	}
	p.next()
	return true
}

// fold joins the lines of a multi-line flow scalar as YAML folds them:
// each line's trailing spaces dropped, a line break between two text
// lines read as a space, and n empty lines between them as n newlines.
func fold(lines [][]byte) []byte {
	out := bytes.TrimRight(lines[0], " ")
	empty := 0
	for _, l := range lines[1:] {
		if len(l) == 0 {
			empty++
			continue
		}
		if empty == 0 {
			out = append(out[:len(out):len(out)], ' ')
		}
		for ; empty > 0; empty-- {
			out = append(out[:len(out):len(out)], '\n')
		}
		out = append(out, bytes.TrimRight(l, " ")...)
	}
	return out
}

// sequence reads a block sequence whose dashes are at indent.
func (p *yamlParser) sequence(indent int) bool {
	p.out = append(p.out, '[')
	for first := true; !p.eof && p.indent == indent && !p.bad; first = false {
		if p.line[0] != '-' || (len(p.line) > 1 && p.line[1] != ' ') {
			break // a key of the mapping around (kubectl's layout)
		}
		if !first {
			p.out = append(p.out, ',')
		}
		item := p.line[min(2, len(p.line)):]
		switch {
		case len(item) > 0 && (item[0] == '-' && (len(item) == 1 || item[1] == ' ') || item[0] == '?' || item[0] == ' '):
			return false // a nested sequence, a complex key, odd spacing
		case len(item) > 0 && isMappingEntry(item):
			// "- key: value": a mapping whose keys are two columns in.
			p.line, p.indent = item, indent+2
			if !p.mapping(indent + 2) {
				return false
			}
		default:
			if !p.value(indent, item, true) {
				return false
			}
		}
	}
	p.out = append(p.out, ']')
	return !p.bad
}

// isMappingEntry reports whether line starts with a key: "key:" at its end
// or followed by a space.
func isMappingEntry(line []byte) bool {
	_, _, ok := yamlKey(line)
	return ok
}

// literal reads the lines of a literal block scalar ("|" keeps one final
// newline, "|-" none) of a value at indent.
func (p *yamlParser) literal(indent int, strip bool) bool {
	var text []byte
	content := -1
	blank := 0 // blank lines not yet written: kept only inside the text
	for {
		if p.pos >= len(p.doc) {
			p.line, p.eof = nil, true
			break
		}
		end := bytes.IndexByte(p.doc[p.pos:], '\n')
		var l []byte
		next := len(p.doc)
		if end >= 0 {
			l, next = p.doc[p.pos:p.pos+end], p.pos+end+1
		} else {
			l = p.doc[p.pos:]
		}
		if len(l) == 0 {
			blank++
			p.pos = next
			continue
		}
		n := 0
		for n < len(l) && l[n] == ' ' {
			n++
		}
		if n == len(l) {
			return false // a line of spaces only
		}
		if content < 0 {
			if n <= indent {
				return false // an empty block scalar: left to go-yaml
			}
			content = n
		}
		if n < content {
			if n > indent {
				return false // less indented than the text, more than the key
			}
			break
		}
		if blank > 0 && len(text) == 0 {
			return false // leading blank lines
		}
		for ; blank > 0; blank-- {
			text = append(text, '\n')
		}
		text = append(text, l[content:]...)
		if end >= 0 { // the document's last line may have no line break
			text = append(text, '\n')
		}
		p.pos = next
	}
	if content < 0 {
		return false
	}
	if blank > 0 && !p.eof {
		// Blank lines after the text, before the next key: go-yaml's
		// emitter does not write them; left to go-yaml.
		return false
	}
	if strip && len(text) > 0 && text[len(text)-1] == '\n' {
		text = text[:len(text)-1]
	}
	p.out = appendJSONString(p.out, text)
	p.next()
	return true
}

// scalar writes the JSON of a scalar value written on one line.
func (p *yamlParser) scalar(s []byte) bool {
	switch s[0] {
	case '\'':
		v, ok := singleQuoted(s)
		if !ok {
			return false
		}
		p.out = appendJSONString(p.out, v)
		return true
	case '"':
		v, ok := doubleQuoted(s)
		if !ok {
			return false
		}
		p.out = appendJSONString(p.out, v)
		return true
	case '{', '[':
		if string(s) != "{}" && string(s) != "[]" {
			return false
		}
		p.out = append(p.out, s...)
		return true
	}
	switch string(s) {
	case "true", "false", "null":
		p.out = append(p.out, s...)
		return true
	}
	if isDecimalInt(s) {
		p.out = append(p.out, s...)
		return true
	}
	if !plainIsString(s, true) {
		return false
	}
	p.out = appendJSONString(p.out, s)
	return true
}

// plainIndicators are the characters that cannot start a plain scalar
// fastYAML reads (YAML's indicators; '-' is taken before a non-space in a
// value).
const plainIndicators = "-?:,[]{}#&*!|>'\"%@`"

// plainIsString reports whether s, a plain scalar on one line, is a
// string that go-yaml v2 reads whole: it does not start with an indicator
// (a value may start with '-' and no space), contains no ": ", does not
// end in ':' or a space, and go-yaml's resolve (resolve.go) leaves it a
// string: not one of its boolean, null, infinity, NaN or merge words, no
// timestamp, integer or float.
func plainIsString(s []byte, value bool) bool {
	if len(s) == 0 || bytes.IndexByte([]byte(plainIndicators), s[0]) >= 0 && !(value && s[0] == '-' && len(s) > 1 && s[1] != ' ') {
		return false
	}
	if last := s[len(s)-1]; last == ':' || last == ' ' || bytes.Contains(s, []byte(": ")) {
		return false
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9' || c == '+' || c == '-':
		// go-yaml tries a timestamp (four digits and '-' first), an
		// integer in any base with '_' dropped, a float.
		if len(s) > 4 && s[4] == '-' && isDigits(s[:4]) {
			return false
		}
		if bytes.Count(s, []byte(".")) > 1 || !numberLike(s) {
			return !yamlWord(s) // no number (an IP address, say)
		}
		plain := strings.ReplaceAll(string(s), "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return false
		}
		if yamlStyleFloat.MatchString(plain) {
			return false
		}
		if strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
			return false
		}
		return !yamlWord(s)
	case c == '.':
		if _, err := strconv.ParseFloat(string(s), 64); err == nil {
			return false
		}
		return !yamlWord(s)
	case strings.IndexByte("yYnNtTfFoO~<", c) >= 0:
		return !yamlWord(s)
	}
	return true
}

// yamlStyleFloat is go-yaml v2's float syntax (resolve.go).
var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// yamlWord reports whether s is one of go-yaml v2's resolve map words:
// booleans, nulls, infinities, NaNs and the merge key.
func yamlWord(s []byte) bool {
	switch string(s) {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
		"", "~", "null", "Null", "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
		"+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<":
		return true
	}
	return false
}

// numberLike reports whether s has only characters an integer or float of
// go-yaml's may have (digits, hexadecimal letters, signs, '.', '_', base
// prefixes' letters).
func numberLike(s []byte) bool {
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F',
			c == '+', c == '-', c == '.', c == '_', c == 'x', c == 'X', c == 'o', c == 'O':
		default:
			return false
		}
	}
	return true
}

// isDigits reports whether b is all decimal digits.
func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// yamlKey splits a mapping entry's line into its key and the value text
// after ": " (empty after a final ':'). Keys are single-quoted, or plain
// and strings to go-yaml (plainIsString).
func yamlKey(line []byte) (key, rest []byte, ok bool) {
	if len(line) > 0 && line[0] == '\'' {
		end := 1
		for {
			i := bytes.IndexByte(line[end:], '\'')
			if i < 0 {
				return nil, nil, false
			}
			end += i + 1
			if end < len(line) && line[end] == '\'' {
				end++ // '' is a quote
				continue
			}
			break
		}
		k, ok := singleQuoted(line[:end])
		if !ok {
			return nil, nil, false
		}
		switch r := line[end:]; {
		case string(r) == ":":
			return k, nil, true
		case len(r) > 2 && r[0] == ':' && r[1] == ' ' && r[2] != ' ':
			return k, r[2:], true
		}
		return nil, nil, false
	}
	i := bytes.Index(line, []byte(": "))
	switch {
	case i >= 0:
		key, rest = line[:i], line[i+2:]
		if len(rest) == 0 || rest[0] == ' ' {
			return nil, nil, false
		}
	case len(line) > 0 && line[len(line)-1] == ':':
		key = line[:len(line)-1]
	default:
		return nil, nil, false
	}
	if !plainIsString(key, false) {
		return nil, nil, false // another type, or not a plain key: left to go-yaml
	}
	return key, rest, true
}

// singleQuoted returns the value of s, a whole single-quoted scalar.
func singleQuoted(s []byte) ([]byte, bool) {
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return nil, false
	}
	in := s[1 : len(s)-1]
	if bytes.IndexByte(in, '\'') < 0 {
		return in, true
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		if in[i] == '\'' {
			if i+1 >= len(in) || in[i+1] != '\'' {
				return nil, false
			}
			i++
		}
		out = append(out, in[i])
	}
	return out, true
}

// doubleQuoted returns the value of s, a whole double-quoted scalar whose
// escapes are only \" \\ \n and \t.
func doubleQuoted(s []byte) ([]byte, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return nil, false
	}
	in := s[1 : len(s)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		if bytes.IndexByte(in, '"') >= 0 {
			return nil, false
		}
		return in, true
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '"':
			return nil, false
		case c != '\\':
			out = append(out, c)
			continue
		case i+1 >= len(in):
			return nil, false
		}
		i++
		switch in[i] {
		case '"', '\\':
			out = append(out, in[i])
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		default:
			return nil, false
		}
	}
	return out, true
}

// appendJSONString appends s (valid UTF-8: plainText checked the
// document) as a JSON string.
func appendJSONString(out, s []byte) []byte {
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		out = append(out, s[start:i]...)
		switch c {
		case '"', '\\':
			out = append(out, '\\', c)
		case '\n':
			out = append(out, '\\', 'n')
		case '\t':
			out = append(out, '\\', 't')
		default:
			out = append(out, `\u00`...)
			out = append(out, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		}
		start = i + 1
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
