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
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
)

// TestReadInputs: directories, standard input and the errors of reading.
func TestReadInputs(t *testing.T) {
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
	node := func(name string) string { return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n" }
	write("in/b.yaml", node("b"))
	write("in/a.yml", node("a"))
	write("in/c.json", `{"apiVersion":"v1","kind":"Node","metadata":{"name":"c"}}`)
	write("in/notes.txt", "not read")
	write("in/sub/d.yaml", "not recursed into")
	single := write("single.yaml", node("s"))

	tests := []struct {
		name    string
		names   []string
		stdin   string
		want    string // "file:name ..." of the objects
		wantErr string
	}{
		{name: "file", names: []string{single}, want: "single.yaml:s"},
		{name: "directory in name order, YAML and JSON only, not recursive", names: []string{filepath.Join(dir, "in")}, want: "a.yml:a b.yaml:b c.json:c"},
		{name: "stdin between files", names: []string{single, StdinName}, stdin: node("x"), want: "single.yaml:s <stdin>:x"},
		{name: "no names", names: nil, wantErr: "-f: no input file given"},
		{name: "missing file", names: []string{filepath.Join(dir, "missing.yaml")}, wantErr: "missing.yaml: stat"},
		{name: "stdin twice", names: []string{StdinName, StdinName}, stdin: node("x"), wantErr: "<stdin>: standard input given more than once"},
		{name: "empty stdin", names: []string{StdinName}, stdin: " \n\t\n", wantErr: "<stdin>: standard input is empty: did the command before the pipe fail?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, _, err := ReadObjects(tt.names, strings.NewReader(tt.stdin), nil)
			if tt.wantErr != "" {
				if err == nil || !IsInputError(err) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want an *InputError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range objs {
				m, _ := meta.Accessor(o.Object)
				got = append(got, filepath.Base(o.File)+":"+m.GetName())
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("objects %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}
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
		_, err := WithContext(ctx, func() ([]Object, error) {
			objs, _, err := ReadObjects([]string{StdinName}, r, nil)
			return objs, err
		})
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
