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

// Command testsummary reads `go test -json` on standard input (one or more
// runs, concatenated), writes the tests' plain output to -log, prints one
// line per package and per failed or skipped test (with the skip's reason:
// the last line the test logged before it skipped), and ends with the
// lists of failures and skips. It exits 1 when a test or a package failed
// (a package that does not build, or whose TestMain fails, counts), else 0.
// hack/test-skew.sh uses it so that every skip of a run against an older
// Kubernetes release is named in the log.
//
// Usage:
//
//	go test -json ./... | testsummary -log out.log -title "Kubernetes v1.32.13"
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

// result is a finished test or package.
type result struct {
	pkg, test, action, reason string
	elapsed                   float64
}

// logLine matches what t.Log, t.Skip and t.Error print: "    file.go:12: text".
var logLine = regexp.MustCompile(`^\s+[\w./-]+\.go:\d+: (.*)$`)

func main() {
	logPath := flag.String("log", "", "file for the tests' plain output (default: none)")
	title := flag.String("title", "", "heading of the summary")
	flag.Parse()
	logOut := io.Discard
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testsummary: %v\n", err)
			os.Exit(2)
		}
		defer func() { _ = f.Close() }()
		logOut = f
	}
	code := summarize(os.Stdin, os.Stdout, logOut, *title)
	os.Exit(code)
}

// summarize does the work of main; it returns the exit code.
func summarize(in io.Reader, out, logOut io.Writer, title string) int {
	outputs := map[string][]string{} // package + "\x00" + test → output lines
	var tests, pkgs []result
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			// go test's own messages (a build failure) are not JSON.
			fmt.Fprintln(logOut, string(line))
			fmt.Fprintln(out, string(line))
			continue
		}
		key := ev.Package + "\x00" + ev.Test
		switch ev.Action {
		case "output":
			fmt.Fprint(logOut, ev.Output)
			outputs[key] = append(outputs[key], strings.TrimRight(ev.Output, "\n"))
		case "pass", "fail", "skip":
			r := result{pkg: ev.Package, test: ev.Test, action: ev.Action, elapsed: ev.Elapsed}
			if ev.Action == "skip" && ev.Test != "" {
				r.reason = lastLogged(outputs[key])
			}
			if ev.Action == "fail" && ev.Test == "" {
				r.reason = lastLogged(outputs[key])
			}
			if ev.Test == "" {
				pkgs = append(pkgs, r)
				fmt.Fprintf(out, "%-4s %s (%.0fs)\n", map[string]string{"pass": "ok", "fail": "FAIL", "skip": "ok"}[ev.Action], ev.Package, ev.Elapsed)
			} else {
				tests = append(tests, r)
				switch ev.Action {
				case "fail":
					fmt.Fprintf(out, "  --- FAIL %s (%.1fs)\n", ev.Test, ev.Elapsed)
				case "skip":
					fmt.Fprintf(out, "  --- SKIP %s: %s\n", ev.Test, r.reason)
				}
			}
			delete(outputs, key)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(out, "testsummary: reading input: %v\n", err)
		return 2
	}

	var passed, failed, skipped []result
	for _, r := range tests {
		switch r.action {
		case "pass":
			passed = append(passed, r)
		case "fail":
			failed = append(failed, r)
		case "skip":
			skipped = append(skipped, r)
		}
	}
	var failedPkgs []result
	for _, p := range pkgs {
		if p.action == "fail" {
			failedPkgs = append(failedPkgs, p)
		}
	}
	sortResults(failed)
	sortResults(skipped)
	if title != "" {
		fmt.Fprintf(out, "\n== %s\n", title)
	} else {
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "packages: %d (%d failed); tests and subtests: %d passed, %d failed, %d skipped\n",
		len(pkgs), len(failedPkgs), len(passed), len(failed), len(skipped))
	if len(failed) > 0 {
		fmt.Fprintln(out, "FAILED:")
		for _, r := range failed {
			fmt.Fprintf(out, "  %s %s\n", short(r.pkg), r.test)
		}
	}
	for _, p := range failedPkgs {
		if !hasFailedTest(failed, p.pkg) {
			fmt.Fprintf(out, "FAILED package (no test failed: build, TestMain or timeout): %s: %s\n", short(p.pkg), p.reason)
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintln(out, "SKIPPED:")
		for _, r := range skipped {
			fmt.Fprintf(out, "  %s %s: %s\n", short(r.pkg), r.test, r.reason)
		}
	}
	if len(failed) > 0 || len(failedPkgs) > 0 || len(pkgs) == 0 {
		return 1
	}
	return 0
}

// lastLogged returns the text of the last t.Log-style line of lines.
func lastLogged(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if m := logLine.FindStringSubmatch(lines[i]); m != nil {
			return m[1]
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" && !strings.HasPrefix(s, "---") && !strings.HasPrefix(s, "=== ") {
			return s
		}
	}
	return "(no reason logged)"
}

func hasFailedTest(failed []result, pkg string) bool {
	for _, r := range failed {
		if r.pkg == pkg {
			return true
		}
	}
	return false
}

func sortResults(rs []result) {
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].pkg != rs[j].pkg {
			return rs[i].pkg < rs[j].pkg
		}
		return rs[i].test < rs[j].test
	})
}

// short drops the module path from a package path.
func short(pkg string) string {
	return strings.TrimPrefix(pkg, "github.com/slicekit/slicekit/")
}
