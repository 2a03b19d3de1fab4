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
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// plainJSONText reports whether doc is valid UTF-8 of characters go-yaml
// accepts (its reader's printable set) other than tabs and carriage
// returns (whitespace to JSON: left to go-yaml), the other line breaks
// (NEL, U+2028, U+2029) and byte order marks; '#' may appear (in strings).
func plainJSONText(doc []byte) bool { return plainBytes(doc, true) }

// Words of eight bytes, for plainBytes.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainBytes is plainJSONText, refusing '#' too unless hash is set. While the next
// eight bytes are plain ASCII (no high bit, none below 0x20, no 0x7f, no
// '#' unless taken: tested at once) they are skipped together; else the
// next character is checked alone (plainChar).
func plainBytes(doc []byte, hash bool) bool {
	for i := 0; i < len(doc); {
		if i+8 <= len(doc) {
			w := binary.LittleEndian.Uint64(doc[i:])
			below := (w - ones*0x20) &^ w & highs // a byte < 0x20 (never missed)
			del := w ^ (ones * 0x7f)
			found := w&highs | below | (del-ones)&^del&highs // a high bit, a byte < 0x20, 0x7f
			if !hash {
				h := w ^ (ones * '#')
				found |= (h - ones) &^ h & highs
			}
			if found == 0 {
				i += 8
				continue
			}
		}
		n := plainChar(doc[i:], hash)
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}

// plainChar returns the length of the character doc starts with when it
// is one plainBytes takes, and 0 otherwise.
func plainChar(doc []byte, hash bool) int {
	if c := doc[0]; c < utf8.RuneSelf {
		if (c < 0x20 && c != '\n') || c == 0x7f || (c == '#' && !hash) {
			return 0
		}
		return 1
	}
	r, n := utf8.DecodeRune(doc)
	if r == utf8.RuneError || r < 0xA0 || (r >= 0xD800 && r < 0xE000) || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
		return 0
	}
	return n
}

// isDecimalInt reports whether n is a decimal integer as encoding/json
// prints an int of at most 18 digits: "0", or an optional minus and a
// digit 1-9 followed by up to 17 digits ("-0" is not one).
func isDecimalInt(n []byte) bool {
	if len(n) > 0 && n[0] == '-' {
		n = n[1:]
		if len(n) > 0 && n[0] == '0' {
			return false
		}
	}
	if len(n) == 0 || len(n) > 18 || (n[0] == '0' && len(n) > 1) {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxFastJSONKey is the longest key fastJSON takes: go-yaml refuses
// implicit keys longer than 1024 characters, and JSON's keys are implicit
// keys of a flow mapping to it.
const maxFastJSONKey = 1000

// fastJSON returns doc (a JSON object: `kubectl get -o json`, a JSON
// stream's object, a List's item) when sigs.k8s.io/yaml.YAMLToJSONStrict
// would convert it to JSON that decodes to the same values, and ok false
// otherwise: then the caller converts it with go-yaml, which also reports
// the errors. It takes valid JSON (RFC 7493: no duplicate names, valid
// UTF-8; YAMLToJSONStrict refuses duplicate keys, and jsontext compares
// names unescaped, which without \u is comparing them as written) that
// fastJSONText takes. It allocates nothing.
//
// It also returns the object's apiVersion and kind as fastJSONText does.
func fastJSON(doc []byte) (j []byte, apiVersion, kind string, typeMeta, ok bool) {
	j, apiVersion, kind, typeMeta, ok = fastJSONText(doc)
	if !ok || !jsontext.Value(j).IsValid() {
		return nil, "", "", false, false
	}
	return j, apiVersion, kind, typeMeta, true
}

// fastJSONText is fastJSON without checking that doc is valid JSON: a
// caller that decodes it with a validating decoder (encoding/json v2 with
// its defaults refuses what jsontext.Value.IsValid refuses) and takes it
// only when that succeeds gets fastJSON's guarantee without a second pass.
// It takes a JSON object whose strings use no \u or \/ escape (go-yaml v2
// does not read \/ and differs on surrogates), whose numbers are decimal
// integers as encoding/json prints them, whose keys are at most 1000
// characters, made of the characters plainJSONText takes. For
// text that is not valid JSON its answer means nothing, but it returns.
//
// It also returns the object's apiVersion and kind, with typeMeta true,
// when it can tell that encoding/json would read them as written: each is
// absent or a top-level member of exactly that name with a string value
// without escapes, and no other top-level member's name matches either
// case-insensitively (encoding/json would read it).
func fastJSONText(doc []byte) (j []byte, apiVersion, kind string, typeMeta, ok bool) {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 || doc[0] != '{' || bytes.Contains(doc, []byte(`\u`)) || bytes.Contains(doc, []byte(`\/`)) ||
		!plainJSONText(doc) {
		return nil, "", "", false, false
	}
	// Walk the object for the keys' lengths, the numbers and the
	// top-level apiVersion and kind.
	typeMeta = true
	depth := 0
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			start := i + 1
			i = closingQuote(doc, start)
			if i < 0 {
				return nil, "", "", false, false // unterminated: not JSON
			}
			rest := skipSpace(doc[i+1:])
			if len(rest) == 0 || rest[0] != ':' {
				continue // a value
			}
			if i-start > maxFastJSONKey {
				return nil, "", "", false, false // too long a key for go-yaml
			}
			if depth != 1 || !typeMeta {
				continue
			}
			switch key := string(doc[start:i]); {
			case key == "apiVersion":
				apiVersion, typeMeta = plainString(rest[1:])
			case key == "kind":
				kind, typeMeta = plainString(rest[1:])
			case strings.EqualFold(key, "apiVersion") || strings.EqualFold(key, "kind"):
				typeMeta = false
			}
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			end := i
			for end < len(doc) && numberByte(doc[end]) {
				end++
			}
			if !isDecimalInt(doc[i:end]) {
				return nil, "", "", false, false
			}
			i = end - 1
		}
	}
	if !typeMeta {
		apiVersion, kind = "", ""
	}
	return doc, apiVersion, kind, typeMeta, true
}

// skipSpace returns b after its leading JSON whitespace.
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// numberByte reports whether c may be part of a JSON number.
func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// closingQuote returns the index of the quote that ends the string whose
// first character is at doc[start], or -1 when there is none.
func closingQuote(doc []byte, start int) int {
	for i := start; ; i++ {
		q := bytes.IndexByte(doc[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		escapes := 0
		for j := i - 1; j >= start && doc[j] == '\\'; j-- {
			escapes++
		}
		if escapes%2 == 0 {
			return i
		}
	}
}

// plainString returns the JSON string value at the start of b (after
// whitespace) when it has no escapes.
func plainString(b []byte) (string, bool) {
	b = skipSpace(b)
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 || bytes.IndexByte(b[1:1+end], '\\') >= 0 {
		return "", false
	}
	return string(b[1 : 1+end]), true
}
