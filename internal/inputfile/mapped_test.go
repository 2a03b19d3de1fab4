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
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readWithMapMin is ReadObjectsWith with mapMin set to min.
func readWithMapMin(min int64, names []string) ([]Object, []Ignored, error) {
	defer swap(&mapMin, min)()
	objs, ignored, _, err := ReadObjectsWith(names, nil, nil, ReadOptions{})
	return objs, ignored, err
}

// TestMappedFilesReadTheSame: every regression case's files, and a JSON
// List large enough to be split (listFast), read the same mapped (pages
// dropped while decoded) as read.
func TestMappedFilesReadTheSame(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("files are mapped on Unix only")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "cases", "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	many := make([]string, 3000)
	for i := range many {
		many[i] = listPod(i)
	}
	list := filepath.Join(t.TempDir(), "list.json")
	if err := os.WriteFile(list, []byte(listOf(many...)), 0o600); err != nil {
		t.Fatal(err)
	}
	defer swap(&listSplitMin, 0)()
	files = append(files, list)
	for _, f := range files {
		wantObjs, wantIgnored, wantErr := readWithMapMin(math.MaxInt64, []string{f})
		gotObjs, gotIgnored, gotErr := readWithMapMin(0, []string{f})
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: mapped error %v, read %v", f, gotErr, wantErr)
		}
		if d := cmp.Diff(wantObjs, gotObjs, cmp.AllowUnexported(Ignored{})); d != "" {
			t.Errorf("%s: objects differ (-read +mapped):\n%s", f, d)
		}
		if d := cmp.Diff(wantIgnored, gotIgnored, cmp.AllowUnexported(Ignored{})); d != "" {
			t.Errorf("%s: ignored objects differ (-read +mapped):\n%s", f, d)
		}
	}
	if n, _, _ := readWithMapMin(0, []string{list}); len(n) != len(many) {
		t.Errorf("read %d Pods of the List, want %d", len(n), len(many))
	}
}

// TestMappedFileTruncated: a mapped file truncated before it is decoded
// (reading it faults) is an error naming the file, not a crash.
func TestMappedFileTruncated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("files are mapped on Unix only")
	}
	defer swap(&mapMin, 0)()
	for _, tc := range []struct{ name, content string }{
		{name: "stream.json", content: strings.Repeat(listPod(1)+"\n", 200)},
		{name: "list.json", content: listOf(strings.Repeat(listPod(1)+",", 200) + listPod(2))},
		{name: "docs.yaml", content: strings.Repeat("---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n", 200)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.name)
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			files, err := Read([]string{path}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if files[0].drop == nil {
				t.Fatal("file not mapped")
			}
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
			_, _, err = decodeFile(files[0], nil, nil)
			if err == nil || !strings.Contains(err.Error(), "changed while it was read") || !strings.Contains(err.Error(), tc.name) {
				t.Errorf("decoding a truncated mapped file: %v, want an error naming it", err)
			}
		})
	}
}
