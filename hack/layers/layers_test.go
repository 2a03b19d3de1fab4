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

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCheckWith: each kind of finding, on a small declared architecture.
func TestCheckWith(t *testing.T) {
	ls := []layer{
		{name: "top", patterns: []string{"cmd/..."}},
		{name: "list", patterns: []string{"pkg/controllers/list"}},
		{name: "controllers", patterns: []string{"pkg/controllers/..."}, independent: true},
		{name: "bottom", patterns: []string{"pkg/lib", "pkg/gone"}},
	}
	rs := []rule{
		{from: []string{"cmd/..."}, to: []string{"pkg/controllers/..."}, except: []string{"pkg/controllers/list"}, why: "cmd reads the list only"},
		{from: []string{"pkg/..."}, to: []string{"example.com/heavy/..."}, external: true, why: "the library stays lean"},
	}
	base := func() []pkg {
		return []pkg{
			{Path: "cmd/app", Imports: []string{"pkg/controllers/list", "pkg/lib"}},
			{Path: "pkg/controllers/a", Imports: []string{"pkg/lib", "pkg/controllers/a/sub"}},
			{Path: "pkg/controllers/a/sub"},
			{Path: "pkg/controllers/list", Imports: []string{"pkg/controllers/a"}},
			{Path: "pkg/lib", Deps: []string{"fmt", "example.com/light"}},
		}
	}
	tests := []struct {
		name   string
		change func([]pkg) []pkg
		ex     []exception
		want   []string // substrings, one per finding, in order
	}{
		{name: "clean", want: []string{`pattern pkg/gone places no package`}},
		{
			name: "import goes up",
			change: func(p []pkg) []pkg {
				p[4].Imports = append(p[4].Imports, "pkg/controllers/a")
				return p
			},
			want: []string{`pattern pkg/gone`, `pkg/lib (layer "bottom") imports pkg/controllers/a of the layer above it, "controllers"`},
		},
		{
			name: "siblings of an independent layer",
			change: func(p []pkg) []pkg {
				return append(p, pkg{Path: "pkg/controllers/b", Imports: []string{"pkg/controllers/a"}})
			},
			want: []string{`pattern pkg/gone`, `pkg/controllers/b imports pkg/controllers/a: the packages of layer "controllers" never import one another`},
		},
		{
			name: "package in no layer",
			change: func(p []pkg) []pkg {
				return append(p, pkg{Path: "internal/new"})
			},
			want: []string{`package internal/new is in no layer`, `pattern pkg/gone`},
		},
		{
			name: "rule on imports",
			change: func(p []pkg) []pkg {
				p[0].Imports = append(p[0].Imports, "pkg/controllers/a")
				return p
			},
			want: []string{`pattern pkg/gone`, `cmd/app imports pkg/controllers/a: cmd reads the list only`},
		},
		{
			name: "rule on dependencies",
			change: func(p []pkg) []pkg {
				p[4].Deps = append(p[4].Deps, "example.com/heavy/x")
				return p
			},
			want: []string{`pattern pkg/gone`, `pkg/lib depends on example.com/heavy/x: the library stays lean`},
		},
		{
			name: "exception allows an import",
			change: func(p []pkg) []pkg {
				p[0].Imports = append(p[0].Imports, "pkg/controllers/a")
				return p
			},
			ex:   []exception{{from: "cmd/app", to: "pkg/controllers/a"}},
			want: []string{`pattern pkg/gone`},
		},
		{
			name: "stale exception",
			ex:   []exception{{from: "cmd/app", to: "pkg/controllers/a"}},
			want: []string{`pattern pkg/gone`, `exception cmd/app → pkg/controllers/a allows nothing any more`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := base()
			if tt.change != nil {
				p = tt.change(p)
			}
			got := checkWith(p, ls, rs, tt.ex)
			if len(got) != len(tt.want) {
				t.Fatalf("findings:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(tt.want), tt.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("finding %d: %q, want it to contain %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestRepository: the module as it is passes, and a forbidden import added to
// its real graph fails, for each kind of rule slicekit declares.
func TestRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list on the module")
	}
	pkgs, err := goList(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if f := check(pkgs); len(f) > 0 {
		t.Fatalf("the module breaks its layers:\n%s", strings.Join(f, "\n"))
	}
	page, err := os.ReadFile(filepath.Join("..", "..", page))
	if err != nil {
		t.Fatal(err)
	}
	if updated, err := replaceSection(page, render(pkgs)); err != nil {
		t.Fatal(err)
	} else if string(updated) != string(page) {
		t.Errorf("%s is stale: run %s", "docs/architecture.md", updateHint)
	}
	for _, tt := range []struct{ from, to, want string }{
		{"pkg/reconciler", "pkg/manager", `an import goes down the layers only`},
		{"pkg/source/servicepods", "pkg/controllers/endpointslice", `an import goes down the layers only`},
		{"pkg/slicecontroller", "test/harness/testenv", `an import goes down the layers only`},
		{"pkg/controllers/mirroring", "pkg/controllers/endpoints", `never import one another`},
		{"pkg/render", "pkg/check", `never import one another`},
		{"pkg/check", "pkg/controllers/mirroring", `never through a controller's package`},
		{"pkg/source", "pkg/source/servicepods", `never through KCM's own source`},
		{"pkg/source/networkdata", "pkg/source/servicepods", `never through KCM's own source`},
	} {
		var changed []pkg
		for _, p := range pkgs {
			p.Imports = slices.Clone(p.Imports)
			if p.Path == tt.from {
				p.Imports = append(p.Imports, tt.to)
			}
			changed = append(changed, p)
		}
		got := strings.Join(check(changed), "\n")
		if !strings.Contains(got, tt.from+" ") || !strings.Contains(got, tt.want) {
			t.Errorf("%s importing %s: findings %q, want one with %q", tt.from, tt.to, got, tt.want)
		}
	}
}
