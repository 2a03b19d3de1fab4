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
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/slicekit/slicekit/test/harness/procs"
)

// result is one upstream test's outcome in one mode.
type result struct {
	// name is the spec's full text without the "[sig-network] " prefix.
	name string
	// leaf is the It text without tags such as [Conformance], the key of
	// dataPlaneTests and apiOnlyTests.
	leaf string
	// location is file:line in k8s.io/kubernetes test/e2e/network.
	location string
	file     string
	line     int
	// state is ginkgo's: passed, failed, skipped, timedout, panicked, ...
	state   string
	runTime time.Duration
	// failure is the first line of the failure message, if any.
	failure string
}

func (r result) passed() bool  { return r.state == "passed" }
func (r result) skipped() bool { return r.state == "skipped" || r.state == "pending" }

// ginkgoReport is the part of ginkgo v2's JSON report (types.Report) read here.
type ginkgoReport struct {
	SuiteSucceeded bool
	SpecReports    []struct {
		ContainerHierarchyTexts []string
		LeafNodeType            string
		LeafNodeText            string
		LeafNodeLocation        struct {
			FileName   string
			LineNumber int
		}
		State   string
		RunTime time.Duration
		Failure struct {
			Message string
		}
	}
}

// runTests runs the focused upstream tests through ginkgo and returns their
// results. Test failures are results, not errors; an error means the run
// produced no usable report.
func (c *cluster) runTests(ctx context.Context, o options, dir string) ([]result, error) {
	skip := make([]string, 0, len(dataPlaneTests))
	for _, leaf := range slices.Sorted(maps.Keys(dataPlaneTests)) {
		skip = append(skip, regexp.QuoteMeta(leaf))
	}
	// ginkgo resolves a report path against --output-dir; without one it
	// writes a partial report next to e2e.test (that is, into -bin) first.
	reportPath := filepath.Join(dir, "report.json")
	args := []string{
		"--focus-file=" + focusFile,
		"--skip=" + strings.Join(skip, "|"),
		"--output-dir=" + dir,
		"--json-report=report.json",
		"--timeout=" + o.timeout.String(),
		fmt.Sprintf("--procs=%d", o.procs),
		"--no-color",
		"-v",
		filepath.Join(o.binDir, "e2e.test"),
		"--",
		"--kubeconfig=" + c.kubeconfig,
		"--provider=skeleton",
		"--e2e-output-dir=" + dir,
	}
	logPath := filepath.Join(dir, "e2e.log")
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var out io.Writer = f
	if o.verbose {
		out = io.MultiWriter(f, os.Stdout)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(o.binDir, "ginkgo"), args...)
	cmd.Dir = dir
	cmd.Stdout = out
	cmd.Stderr = out
	// ginkgo runs e2e.test processes of its own: on interrupt, stop the
	// whole process group, not only ginkgo.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = procs.StopGrace
	// e2e.test leaves temporary directories behind (upstream
	// test/e2e/kubectl/kuberc.go makes one per process while building the
	// test tree); keep them with the mode's artifacts, not in /tmp.
	tmpDir := filepath.Join(dir, "tmp")
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return nil, err
	}
	cmd.Env = append(os.Environ(), "TMPDIR="+tmpDir)
	fmt.Printf("  running the upstream tests (ginkgo %s), output in %s\n", strings.Join(args[:2], " "), logPath)
	runErr := cmd.Run()
	if ctx.Err() != nil {
		// runErr is described, not wrapped: the cause is the interruption,
		// and runErr may be nil.
		return nil, fmt.Errorf("interrupted while the tests ran (%v); partial output in %s", runErr, logPath) //nolint:errorlint // see above
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return nil, fmt.Errorf("running ginkgo: %w", runErr)
	}
	results, err := readReport(reportPath)
	if err != nil {
		// ginkgo's exit status is described (it may be nil); the cause is err.
		return nil, fmt.Errorf("ginkgo exited with %v and left no usable report (see %s): %w", runErr, logPath, err) //nolint:errorlint // see above
	}
	return results, nil
}

var (
	focusRE = regexp.MustCompile(focusFile)
	// tagRE matches the tags the e2e framework appends to a test's text,
	// such as " [Conformance]".
	tagRE = regexp.MustCompile(`\s*\[[^\]]*\]`)
)

// readReport reads the ginkgo JSON report at path and returns the results of
// the It specs in the focused files, ordered by file and line.
func readReport(path string) ([]result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseReport(data)
}

// parseReport parses a ginkgo v2 JSON report (a list of suite reports).
func parseReport(data []byte) ([]result, error) {
	var reports []ginkgoReport
	if err := json.Unmarshal(data, &reports); err != nil {
		return nil, fmt.Errorf("parsing the ginkgo JSON report: %w", err)
	}
	var results []result
	for _, rep := range reports {
		for _, s := range rep.SpecReports {
			if s.LeafNodeType != "It" || !focusRE.MatchString(s.LeafNodeLocation.FileName) {
				continue
			}
			name := strings.TrimPrefix(strings.Join(append(slices.Clone(s.ContainerHierarchyTexts), s.LeafNodeText), " "), "[sig-network] ")
			file := path.Base(s.LeafNodeLocation.FileName)
			failure, _, _ := strings.Cut(strings.TrimSpace(s.Failure.Message), "\n")
			results = append(results, result{
				name:     name,
				leaf:     strings.TrimSpace(tagRE.ReplaceAllString(s.LeafNodeText, "")),
				location: fmt.Sprintf("%s:%d", file, s.LeafNodeLocation.LineNumber),
				file:     file,
				line:     s.LeafNodeLocation.LineNumber,
				state:    s.State,
				runTime:  s.RunTime,
				failure:  failure,
			})
		}
	}
	if len(results) == 0 {
		return nil, errors.New("the report holds no test of the focused files")
	}
	slices.SortFunc(results, func(a, b result) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
	return results, nil
}

// judge returns an error unless m's results are what m expects: every
// runnable test passes, or, for the negative control, exactly the
// controller-dependent tests fail. In every mode exactly the data-plane
// tests are skipped and runnableTests tests run, so that a change upstream
// (a test added, renamed or moved) is noticed rather than silently passed.
func judge(m mode, results []result) error {
	var problems []string
	ran := 0
	seen := map[string]bool{}
	for _, r := range results {
		seen[r.leaf] = true
		switch {
		case dataPlaneTests[r.leaf]:
			if !r.skipped() {
				problems = append(problems, fmt.Sprintf("%s (%s) should be skipped (data plane), but %s", r.name, r.location, r.state))
			}
			continue
		case r.skipped():
			problems = append(problems, fmt.Sprintf("%s (%s) was skipped", r.name, r.location))
			continue
		}
		ran++
		switch {
		case !m.negative && !r.passed():
			problems = append(problems, fmt.Sprintf("%s (%s) %s: %s", r.name, r.location, r.state, r.failure))
		case m.negative && apiOnlyTests[r.leaf] && !r.passed():
			problems = append(problems, fmt.Sprintf("API-only test %s (%s) %s without endpoint controllers: %s", r.name, r.location, r.state, r.failure))
		case m.negative && !apiOnlyTests[r.leaf] && r.state != "failed":
			// Only a failure of the test's own assertions counts: a timeout
			// of the whole run, a panic or an interrupt proves nothing.
			problems = append(problems, fmt.Sprintf("negative control: %s (%s) %s, want failed with no endpoint controller running", r.name, r.location, r.state))
		}
	}
	for _, leaf := range slices.Sorted(maps.Keys(dataPlaneTests)) {
		if !seen[leaf] {
			problems = append(problems, fmt.Sprintf("data-plane test %q is not in the report", leaf))
		}
	}
	if ran != runnableTests {
		problems = append(problems, fmt.Sprintf("%d tests ran, want %d", ran, runnableTests))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d problem(s):\n  - %s", len(problems), strings.Join(problems, "\n  - "))
	}
	return nil
}

// cell is a result as a table cell.
func (r result) cell() string {
	if dataPlaneTests[r.leaf] && r.skipped() {
		return dataPlaneCell
	}
	if r.skipped() {
		return r.state
	}
	return fmt.Sprintf("%s (%.1fs)", r.state, r.runTime.Seconds())
}

// printModeTable prints one mode's results as a Markdown table.
func printModeTable(w io.Writer, oc outcome) {
	if len(oc.results) == 0 {
		return
	}
	_, _ = fmt.Fprintf(w, "\n| upstream test (k8s.io/kubernetes v1.37.2) | file:line | %s |\n|---|---|---|\n", oc.mode.name)
	for _, r := range oc.results {
		_, _ = fmt.Fprintf(w, "| %s | %s | %s |\n", r.name, r.location, r.cell())
		if !r.passed() && !r.skipped() && r.failure != "" {
			_, _ = fmt.Fprintf(w, "|   ↳ %s | | |\n", strings.ReplaceAll(r.failure, "|", "\\|"))
		}
	}
	_, _ = fmt.Fprintf(w, "\n%s\n\n", dataPlaneNote)
}

// printSummaryTable prints every test against every mode, and each mode's
// verdict and timings.
func printSummaryTable(w io.Writer, outcomes []outcome) {
	if len(outcomes) == 0 {
		return
	}
	type row struct {
		name, location, file string
		line                 int
		cells                []string
	}
	rows := map[string]*row{}
	for i, oc := range outcomes {
		for _, r := range oc.results {
			rw, ok := rows[r.location]
			if !ok {
				rw = &row{name: r.name, location: r.location, file: r.file, line: r.line, cells: make([]string, len(outcomes))}
				rows[r.location] = rw
			}
			rw.cells[i] = r.cell()
		}
	}
	if len(rows) == 0 {
		_, _ = fmt.Fprintln(w, "no test results")
	}
	ordered := slices.SortedFunc(maps.Values(rows), func(a, b *row) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
	header, sep := "| upstream test (k8s.io/kubernetes v1.37.2) | file:line |", "|---|---|"
	for _, oc := range outcomes {
		header += " " + oc.mode.name + " |"
		sep += "---|"
	}
	if len(rows) > 0 && len(outcomes) > 1 { // one mode's table was printed already
		_, _ = fmt.Fprintf(w, "%s\n%s\n", header, sep)
	}
	for _, rw := range ordered {
		if len(outcomes) == 1 {
			break
		}
		_, _ = fmt.Fprintf(w, "| %s | %s | %s |\n", rw.name, rw.location, strings.Join(rw.cells, " | "))
	}
	if len(outcomes) > 1 {
		_, _ = fmt.Fprintf(w, "\n%s\n", dataPlaneNote)
	}
	_, _ = fmt.Fprintln(w)
	for _, oc := range outcomes {
		verdict := "as expected"
		if oc.err != nil {
			verdict = "NOT as expected"
		}
		_, _ = fmt.Fprintf(w, "mode %-8s %s: %s\n", oc.mode.name, verdict, oc.summary())
	}
}
