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
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("in/b.yaml", "b")
	write("in/a.yml", "a")
	write("in/c.json", "c")
	write("in/notes.txt", "ignored")
	write("in/sub/d.yaml", "not recursed into")
	single := write("single.yaml", "s")

	tests := []struct {
		name      string
		names     []string
		stdin     string
		wantNames []string
		wantData  []string
		wantErr   string
	}{
		{name: "file", names: []string{single}, wantNames: []string{single}, wantData: []string{"s"}},
		{
			name:      "directory in name order, YAML and JSON only, not recursive",
			names:     []string{filepath.Join(dir, "in")},
			wantNames: []string{filepath.Join(dir, "in", "a.yml"), a, filepath.Join(dir, "in", "c.json")},
			wantData:  []string{"a", "b", "c"},
		},
		{name: "stdin between files", names: []string{single, StdinName, single}, stdin: "x", wantNames: []string{single, StdinDisplayName, single}, wantData: []string{"s", "x", "s"}},
		{name: "no names", names: nil, wantErr: "-f: no input file given"},
		{name: "missing file", names: []string{filepath.Join(dir, "missing.yaml")}, wantErr: "missing.yaml: stat"},
		{name: "stdin twice", names: []string{StdinName, StdinName}, stdin: "x", wantErr: "<stdin>: standard input given more than once"},
		{name: "empty stdin", names: []string{StdinName}, stdin: " \n\t\n", wantErr: "<stdin>: standard input is empty: did the command before the pipe fail?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := Read(tt.names, strings.NewReader(tt.stdin))
			if tt.wantErr != "" {
				var fe *Error
				if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Read error = %v, want an *Error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names, data []string
			for _, f := range files {
				names = append(names, f.Name)
				data = append(data, string(f.Data))
			}
			if strings.Join(names, ",") != strings.Join(tt.wantNames, ",") || strings.Join(data, ",") != strings.Join(tt.wantData, ",") {
				t.Errorf("Read = %q %q, want %q %q", names, data, tt.wantNames, tt.wantData)
			}
		})
	}
}

func TestDocuments(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    []string
		wantErr string
	}{
		{name: "empty", data: "", want: nil},
		{name: "one YAML document", data: "a: 1\n", want: []string{"a: 1\n"}},
		{name: "YAML documents", data: "a: 1\n---\nb: 2\n", want: []string{"a: 1\n", "b: 2\n"}},
		{name: "one JSON object", data: `{"a":1}` + "\n", want: []string{`{"a":1}`}},
		{name: "JSON stream, one per line", data: "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n", want: []string{`{"a":1}`, `{"b":2}`, `{"c":3}`}},
		{name: "JSON stream on one line", data: `{"a":1}{"b":2}`, want: []string{`{"a":1}`, `{"b":2}`}},
		{name: "pretty JSON objects", data: "{\n  \"a\": 1\n}\n{\n  \"b\": 2\n}\n", want: []string{"{\n  \"a\": 1\n}", "{\n  \"b\": 2\n}"}},
		{name: "YAML flow mapping kept whole", data: "{a: 1, b: [x]}\n", want: []string{"{a: 1, b: [x]}\n"}},
		{name: "JSON array kept whole", data: "[{\"a\":1}]\n", want: []string{"[{\"a\":1}]\n"}},
		{name: "YAML then JSON stream", data: "a: 1\n---\n{\"b\":2}\n{\"c\":3}\n", want: []string{"a: 1\n", `{"b":2}`, `{"c":3}`}},
		{name: "garbage after a JSON object", data: "{\"a\":1}\n{\"b\":\n", want: []string{`{"a":1}`}, wantErr: "invalid JSON after object 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Documents([]byte(tt.data))
			if (err != nil) != (tt.wantErr != "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Documents error = %v, want %q", err, tt.wantErr)
			}
			var got []string
			for _, d := range docs {
				got = append(got, string(d))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("Documents = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzDocuments checks that splitting never panics and that a JSON stream
// of n copies of an object yields n documents.
func FuzzDocuments(f *testing.F) {
	for _, s := range []string{"", "a: 1\n---\nb: 2\n", `{"a":1}{"b":2}`, "{a: 1}", "{\"a\":1}\n{", "---\n---\n", "[1,2]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Documents(data)
		if err != nil {
			return
		}
		if json.Valid(data) && len(bytes.TrimSpace(data)) > 0 && bytes.TrimSpace(data)[0] == '{' {
			stream := bytes.Repeat(append(bytes.TrimSpace(data), '\n'), 3)
			docs3, err := Documents(stream)
			if err != nil || len(docs3) != 3*len(docs) {
				t.Fatalf("a stream of 3 copies of %q gave %d documents (err %v), want %d", data, len(docs3), err, 3*len(docs))
			}
		}
	})
}

func TestWithContext(t *testing.T) {
	got, err := WithContext(context.Background(), func() (string, error) { return "ok", nil })
	if got != "ok" || err != nil {
		t.Errorf("WithContext = %q, %v; want ok, nil", got, err)
	}

	// A read blocked on a pipe nobody writes to returns once ctx ends.
	r, w := io.Pipe()
	defer func() { _ = w.Close() }()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := WithContext(ctx, func() ([]File, error) { return Read([]string{StdinName}, r) })
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted while reading input") {
			t.Errorf("WithContext after cancel = %v, want an interrupted error wrapping context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WithContext did not return after ctx was cancelled")
	}
}
