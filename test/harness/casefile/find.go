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

package casefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// EnvCases names the environment variable that, when set, is the folder of
// the regression cases.
const EnvCases = "SLICEKIT_CASES"

// CasesDir returns the folder of the regression cases: $SLICEKIT_CASES when
// set (it must be an existing folder), else testdata/cases of the module
// root, found as the nearest folder at or above the working directory that
// holds both go.mod and testdata/cases (from any package of a checkout, the
// repository's own copy of the cases). It returns an error when there is
// none.
func CasesDir() (string, error) {
	if d := os.Getenv(EnvCases); d != "" {
		if !isDir(d) {
			return "", fmt.Errorf("%s=%s is not a folder", EnvCases, d)
		}
		return filepath.Abs(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		cand := filepath.Join(d, "testdata", "cases")
		if isDir(cand) && isFile(filepath.Join(d, "go.mod")) {
			return cand, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", fmt.Errorf("regression cases not found: no testdata/cases beside a go.mod in %s or any parent folder; run the tests inside the repository or set %s", wd, EnvCases)
}

// MustCasesDir is CasesDir for tests: a missing folder fails the test (it
// is never skipped).
func MustCasesDir(t testing.TB) string {
	t.Helper()
	d, err := CasesDir()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// FindCase returns the folder of the case id in casesDir: id is a folder
// name ("03-terminal-pods-excluded") or its number prefix ("03").
func FindCase(casesDir, id string) (string, error) {
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		return "", err
	}
	var found []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if e.Name() == id {
			return filepath.Join(casesDir, id), nil
		}
		if strings.HasPrefix(e.Name(), id+"-") {
			found = append(found, e.Name())
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no case %q in %s", id, casesDir)
	case 1:
		return filepath.Join(casesDir, found[0]), nil
	}
	sort.Strings(found)
	return "", fmt.Errorf("case %q is ambiguous in %s: %s", id, casesDir, strings.Join(found, ", "))
}

// Case is one loaded case folder.
type Case struct {
	// Dir is the case folder; Name its base name.
	Dir, Name string
	// Input are the objects of input.yaml, in file order, decoded strictly.
	Input []runtime.Object
	// Steps are the actions of steps.yaml; a folder without steps.yaml
	// gets one checkpoint on expected.yaml (DefaultSteps is then true).
	Steps        Steps
	DefaultSteps bool
}

// Load reads a case folder: input.yaml and steps.yaml.
func Load(dir string) (*Case, error) {
	c := &Case{Dir: dir, Name: filepath.Base(filepath.Clean(dir))}
	var err error
	if c.Input, err = ReadObjects(filepath.Join(dir, "input.yaml")); err != nil {
		return nil, err
	}
	c.Steps, err = ReadSteps(filepath.Join(dir, "steps.yaml"))
	if errors.Is(err, os.ErrNotExist) {
		c.Steps, c.DefaultSteps, err = Steps{{Checkpoint: &Checkpoint{File: "expected.yaml"}}}, true, nil
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// MustLoad loads case id (see FindCase) from MustCasesDir, failing t on
// any error.
func MustLoad(t testing.TB, id string) *Case {
	t.Helper()
	dir, err := FindCase(MustCasesDir(t), id)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
