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

package suite

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/yaml"
)

// Result is the outcome of one test.
type Result string

const (
	// ResultPassed: the test ran and passed.
	ResultPassed Result = "pass"
	// ResultFailed: the test ran and failed.
	ResultFailed Result = "fail"
	// ResultSkipped: the test did not run (unsupported feature, pod mode,
	// not selected) or skipped itself.
	ResultSkipped Result = "skip"
)

// TestResult is the outcome of one test in the report.
type TestResult struct {
	// ShortName is the test's ConformanceTest.ShortName.
	ShortName string `json:"name"`
	// Description is the test's ConformanceTest.Description.
	Description string `json:"description"`
	// Features are the features the test needs.
	Features []Feature `json:"features"`
	// Result is pass, fail or skip.
	Result Result `json:"result"`
	// Reason explains a skip or points at the log of a failure.
	Reason string `json:"reason,omitempty"`
	// Duration is the test's wall time (empty for tests that did not run).
	Duration string `json:"duration,omitempty"`
}

// Summary counts the results.
type Summary struct {
	// Passed, Failed and Skipped count the tests by result.
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	// Result is "success" when nothing failed and at least one test
	// passed, else "failure".
	Result string `json:"result"`
}

// ReportAPIVersion and ReportKind identify the report document.
const (
	ReportAPIVersion = "conformance.slicekit.io/v1alpha1"
	ReportKind       = "ConformanceReport"
)

// ConformanceReport is the outcome of a run, written as YAML by
// WriteYAML and as a table by WriteTable.
type ConformanceReport struct {
	// APIVersion and Kind are ReportAPIVersion and ReportKind.
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Date is when the report was made (RFC 3339).
	Date string `json:"date"`
	// Implementation names the implementation tested.
	Implementation Implementation `json:"implementation"`
	// ControllerName is the controller under test.
	ControllerName string `json:"controllerName"`
	// PodMode is how the run made Pods run.
	PodMode PodMode `json:"podMode"`
	// SupportedFeatures are the features the implementation claimed,
	// sorted.
	SupportedFeatures []Feature `json:"supportedFeatures"`
	// Timeouts are the waits the run used, by TimeoutConfig field.
	Timeouts map[string]string `json:"timeouts"`
	// TimeoutsNotConformant lists the timeouts outside their conformant
	// bounds (TimeoutConfig.Exceeding): a run with such timeouts does not
	// prove conformance even when every test passes.
	TimeoutsNotConformant []string `json:"timeoutsNotConformant,omitempty"`
	// Summary counts the results.
	Summary Summary `json:"summary"`
	// Tests are the results, in the order of the run.
	Tests []TestResult `json:"tests"`
	// Duration is the run's wall time.
	Duration string `json:"duration,omitempty"`
}

// Report returns the report of the tests run so far.
func (s *ConformanceTestSuite) Report() *ConformanceReport {
	s.mu.Lock()
	results := slices.Clone(s.results)
	s.mu.Unlock()
	return NewReport(ReportInput{
		Implementation: s.Implementation,
		ControllerName: s.ControllerName,
		PodMode:        s.PodMode,
		Features:       sets.List(s.SupportedFeatures),
		Timeouts:       s.TimeoutConfig.Strings(),
		NotConformant:  s.TimeoutConfig.Exceeding(),
		Results:        results,
		Date:           time.Now(),
		Duration:       s.elapsed(),
	})
}

// ReportInput is what NewReport builds a report from.
type ReportInput struct {
	// Implementation, ControllerName and PodMode describe the run.
	Implementation Implementation
	ControllerName string
	PodMode        PodMode
	// Features are the features claimed.
	Features []Feature
	// Timeouts and NotConformant are TimeoutConfig.Strings and
	// TimeoutConfig.Exceeding of the run.
	Timeouts      map[string]string
	NotConformant []string
	// Results are the test results.
	Results []TestResult
	// Date is when the report is made; Duration the run's wall time.
	Date     time.Time
	Duration time.Duration
}

// NewReport builds a report and its summary.
func NewReport(in ReportInput) *ConformanceReport {
	r := &ConformanceReport{
		APIVersion:            ReportAPIVersion,
		Kind:                  ReportKind,
		Date:                  in.Date.UTC().Format(time.RFC3339),
		Implementation:        in.Implementation,
		ControllerName:        in.ControllerName,
		PodMode:               in.PodMode,
		SupportedFeatures:     slices.Sorted(slices.Values(in.Features)),
		Timeouts:              in.Timeouts,
		TimeoutsNotConformant: in.NotConformant,
		Tests:                 in.Results,
	}
	if in.Duration > 0 {
		r.Duration = in.Duration.Round(time.Millisecond).String()
	}
	if r.Tests == nil {
		r.Tests = []TestResult{}
	}
	for _, t := range r.Tests {
		switch t.Result {
		case ResultPassed:
			r.Summary.Passed++
		case ResultFailed:
			r.Summary.Failed++
		default:
			r.Summary.Skipped++
		}
	}
	r.Summary.Result = "failure"
	if r.Summary.Failed == 0 && r.Summary.Passed > 0 {
		r.Summary.Result = "success"
	}
	return r
}

// WriteYAML writes the report as one YAML document.
func (r *ConformanceReport) WriteYAML(w io.Writer) error {
	b, err := yaml.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// WriteTable writes a header (implementation, controller, pod mode,
// features), one row per test (TEST, RESULT, FEATURES, DETAIL) and the
// summary.
func (r *ConformanceReport) WriteTable(w io.Writer) error {
	var b strings.Builder
	impl := r.Implementation.Name
	if impl == "" {
		impl = "(unnamed)"
	}
	if r.Implementation.Version != "" {
		impl += " " + r.Implementation.Version
	}
	feats := make([]string, len(r.SupportedFeatures))
	for i, f := range r.SupportedFeatures {
		feats[i] = string(f)
	}
	fmt.Fprintf(&b, "EndpointSlice controller conformance: %s, controller %s, pod mode %s\n", impl, r.ControllerName, r.PodMode)
	fmt.Fprintf(&b, "Features: %s\n\n", strings.Join(feats, ", "))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TEST\tRESULT\tFEATURES\tDETAIL")
	for _, t := range r.Tests {
		tf := make([]string, len(t.Features))
		for i, f := range t.Features {
			tf[i] = string(f)
		}
		detail := t.Reason
		if detail == "" {
			detail = t.Duration
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ShortName, t.Result, strings.Join(tf, ","), detail)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\n%d passed, %d failed, %d skipped: %s", r.Summary.Passed, r.Summary.Failed, r.Summary.Skipped, r.Summary.Result)
	if r.Duration != "" {
		fmt.Fprintf(&b, " in %s", r.Duration)
	}
	b.WriteString("\n")
	for _, n := range r.TimeoutsNotConformant {
		fmt.Fprintf(&b, "Not a conformance proof: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
