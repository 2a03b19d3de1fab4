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
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// render draws the layers and the package map, in Markdown, from the
// packages and the declared architecture.
func render(pkgs []pkg) []byte {
	return renderWith(pkgs, layers, rules, exceptions)
}

func renderWith(pkgs []pkg, ls []layer, rs []rule, ex []exception) []byte {
	var b bytes.Buffer
	members := make([][]pkg, len(ls))
	layerIndex := map[string]int{}
	var unplaced []pkg
	for _, p := range pkgs {
		i, _ := layerOf(ls, p.Path)
		layerIndex[p.Path] = i
		if i < 0 {
			unplaced = append(unplaced, p)
			continue
		}
		members[i] = append(members[i], p)
	}

	fmt.Fprintf(&b, "### Layers\n\n")
	fmt.Fprintf(&b, "Top to bottom; a package imports packages of its own layer and of the layers below it, never above\n")
	fmt.Fprintf(&b, "(non-test imports; %d packages in %d layers).\n\n", len(pkgs), len(ls))
	b.WriteString("```\n")
	width := 0
	for _, l := range ls {
		width = max(width, len(l.name))
	}
	for i, l := range ls {
		if i > 0 {
			fmt.Fprintf(&b, "%s▼\n", strings.Repeat(" ", 4))
		}
		names := make([]string, 0, len(members[i]))
		for _, p := range members[i] {
			names = append(names, p.Path)
		}
		lines := wrap(names, 100-width-6)
		if len(lines) == 0 {
			lines = []string{"(no package)"}
		}
		mark := " "
		if l.independent {
			mark = "‖"
		}
		for j, line := range lines {
			label := ""
			if j == 0 {
				label = l.name
			}
			fmt.Fprintf(&b, "%2s %s %-*s  %s\n", num(i, j), mark, width, label, line)
		}
	}
	b.WriteString("```\n\n")
	b.WriteString("‖ marks a layer whose packages never import one another.\n\n")
	b.WriteString("| # | layer | what | imports from layers |\n|---:|---|---|---|\n")
	for i, l := range ls {
		below := map[int]bool{}
		for _, p := range members[i] {
			for _, imp := range p.Imports {
				if j, ok := layerIndex[imp]; ok && j > i {
					below[j] = true
				}
			}
		}
		var idx []string
		for j := range ls {
			if below[j] {
				idx = append(idx, fmt.Sprint(j+1))
			}
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s |\n", i+1, l.name, cell(l.what), strings.Join(idx, ", "))
	}

	b.WriteString("\nRules beyond the layers:\n\n")
	for _, r := range rs {
		kind := "import"
		if r.external {
			kind = "depend"
		}
		if len(r.from) == 1 {
			kind += "s"
		}
		if r.external {
			kind += " (transitively) on"
		}
		except := ""
		if len(r.except) > 0 {
			except = " except " + codeList(r.except)
		}
		fmt.Fprintf(&b, "- %s never %s %s%s: %s.\n", codeList(r.from), kind, codeList(r.to), except, r.why)
	}
	if len(ex) > 0 {
		b.WriteString("\nExceptions, each to go with its import (the check fails once the import is gone):\n\n")
		for _, e := range ex {
			fmt.Fprintf(&b, "- `%s` → `%s`: %s.\n", e.from, e.to, e.why)
		}
	}

	b.WriteString("\n### Packages\n\n")
	b.WriteString("Every package of the module, by layer, with the module's packages it imports and its package comment's\nfirst sentence.\n\n")
	b.WriteString("| # | package | imports | what it is |\n|---:|---|---|---|\n")
	for i := range ls {
		for _, p := range members[i] {
			writeRow(&b, fmt.Sprint(i+1), p)
		}
	}
	for _, p := range unplaced {
		writeRow(&b, "?", p)
	}
	return b.Bytes()
}

func writeRow(b *bytes.Buffer, layer string, p pkg) {
	imports := append([]string(nil), p.Imports...)
	sort.Strings(imports)
	doc := p.Doc
	if doc == "" {
		doc = "(no package comment)"
	}
	fmt.Fprintf(b, "| %s | `%s` | %s | %s |\n", layer, p.Path, codeList(imports), cell(doc))
}

func num(i, line int) string {
	if line > 0 {
		return ""
	}
	return fmt.Sprint(i + 1)
}

// wrap joins words with spaces into lines of at most width characters.
func wrap(words []string, width int) []string {
	var lines []string
	var cur string
	for _, w := range words {
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) > width:
			lines = append(lines, cur)
			cur = w
		default:
			cur += " " + w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func codeList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = "`" + s + "`"
	}
	return strings.Join(quoted, ", ")
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}
