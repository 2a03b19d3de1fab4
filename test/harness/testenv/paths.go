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

package testenv

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// BinDirEnv is the environment variable that, when set, names the directory
// holding the etcd and kube-apiserver binaries instead of <repo root>/bin.
const BinDirEnv = "SLICEKIT_BIN_DIR"

// ModulePath is the module path of the repository's root go.mod; [RepoRoot]
// stops at the go.mod that declares it.
const ModulePath = "github.com/slicekit/slicekit"

// Binaries lists the control-plane binaries that must be present in the
// binary directory.
var Binaries = []string{"etcd", "kube-apiserver"}

// ErrBinariesMissing is returned (wrapped) when etcd or kube-apiserver is not
// in the binary directory. Its message tells the user what to run.
var ErrBinariesMissing = errors.New("control-plane binaries missing: run `make controlplane` first")

// RepoRoot returns the repository root: the nearest directory at or above
// the working directory whose go.mod declares [ModulePath]. Nested modules
// (such as tools/controlplane) are walked past.
func RepoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("testenv: finding repository root: %w", err)
	}
	for dir := wd; ; {
		if modulePathOf(filepath.Join(dir, "go.mod")) == ModulePath {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("testenv: no go.mod declaring module %s at or above %s", ModulePath, wd)
		}
		dir = parent
	}
}

// modulePathOf returns the module path declared by the go.mod file at path,
// or "" if it cannot be read.
func modulePathOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// BinDir returns the directory holding the control-plane binaries:
// $SLICEKIT_BIN_DIR if set, else <repo root>/bin. It does not check that the
// binaries exist; see [CheckBinaries].
func BinDir() (string, error) {
	if dir := os.Getenv(BinDirEnv); dir != "" {
		return filepath.Abs(dir)
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "bin"), nil
}

// CheckBinaries returns an error wrapping [ErrBinariesMissing] unless every
// name in [Binaries] is an executable file in dir.
func CheckBinaries(dir string) error {
	var missing []string
	for _, name := range Binaries {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("testenv: %w", err)
			}
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("testenv: %s not found in %s (set %s to use another directory): %w",
			strings.Join(missing, ", "), dir, BinDirEnv, ErrBinariesMissing)
	}
	return nil
}
