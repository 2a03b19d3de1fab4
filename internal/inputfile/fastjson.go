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
	"unicode/utf8"
)

// plainText reports whether doc is valid UTF-8 of characters go-yaml
// accepts (its reader's printable set) other than tabs, carriage returns,
// the other line breaks (NEL, U+2028, U+2029), byte order marks and "#".
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

// decimalInt is a decimal integer as encoding/json prints an int.
var decimalInt = regexp.MustCompile(`^(0|-?[1-9][0-9]{0,17})$`)

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
// characters, made of the characters plainText takes, '#' included.
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
