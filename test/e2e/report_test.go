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
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// upstreamTests are the ten Its of the focused files at v1.37.2, as
// file:line and leaf text.
var upstreamTests = []struct {
	file string
	line int
	leaf string
}{
	{"endpoints.go", 58, "should test the lifecycle of an Endpoint"},
	{"endpoints.go", 254, "should create and delete Endpoints for a Service with a selector that matches no pods"},
	{"endpoints.go", 307, "should create Endpoints for Pods matching a Service"},
	{"endpointslice.go", 67, "should create and delete EndpointSlices for a Service with a selector that matches no pods"},
	{"endpointslice.go", 144, "should create Endpoints and EndpointSlices for Pods matching a Service"},
	{"endpointslice.go", 274, "should support creating EndpointSlice API operations"},
	{"endpointslice.go", 458, "should support a Service with multiple ports specified in multiple EndpointSlices"},
	{"endpointslice.go", 570, "should support a Service with multiple endpoint IPs specified in multiple EndpointSlices"},
	{"endpointslicemirroring.go", 55, "should mirror a custom Endpoints resource through create update and delete"},
	{"endpointslicemirroring.go", 207, "should mirror a custom Endpoint with multiple subsets and same IP address"},
}

// report builds a ginkgo JSON report in which test i has state states(i),
// plus a BeforeSuite node and a spec of another file, which must be ignored.
func report(t *testing.T, state func(leaf string) string) []byte {
	t.Helper()
	type loc struct {
		FileName   string
		LineNumber int
	}
	type spec struct {
		ContainerHierarchyTexts []string
		LeafNodeType            string
		LeafNodeText            string
		LeafNodeLocation        loc
		State                   string
		RunTime                 time.Duration
		Failure                 struct{ Message string }
	}
	specs := []spec{
		{LeafNodeType: "SynchronizedBeforeSuite", State: "passed"},
		{LeafNodeType: "It", LeafNodeText: "unrelated", LeafNodeLocation: loc{"k8s.io/kubernetes@v1.37.2/test/e2e/network/service.go", 10}, State: "skipped"},
	}
	for _, u := range upstreamTests {
		s := spec{
			ContainerHierarchyTexts: []string{"[sig-network] EndpointSlice"},
			LeafNodeType:            "It",
			LeafNodeText:            u.leaf + " [Conformance]",
			LeafNodeLocation:        loc{"k8s.io/kubernetes@v1.37.2/test/e2e/network/" + u.file, u.line},
			State:                   state(u.leaf),
			RunTime:                 1500 * time.Millisecond,
		}
		if s.State == "failed" {
			s.Failure.Message = "No EndpointSlice found\nmore detail"
		}
		specs = append(specs, s)
	}
	data, err := json.Marshal([]map[string]any{{"SuiteSucceeded": false, "SpecReports": specs}})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// allPass is what a working endpoint controller gives.
func allPass(leaf string) string {
	if dataPlaneTests[leaf] {
		return "skipped"
	}
	return "passed"
}

// noController is what the upstream tests give with no endpoint controller.
func noController(leaf string) string {
	if dataPlaneTests[leaf] {
		return "skipped"
	}
	if apiOnlyTests[leaf] {
		return "passed"
	}
	return "failed"
}

func with(base func(string) string, leaf, state string) func(string) string {
	return func(l string) string {
		if l == leaf {
			return state
		}
		return base(l)
	}
}

func TestParseReport(t *testing.T) {
	results, err := parseReport(report(t, noController))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(upstreamTests) {
		t.Fatalf("got %d results, want %d (BeforeSuite and other files must be dropped)", len(results), len(upstreamTests))
	}
	for i, u := range upstreamTests {
		r := results[i]
		if r.file != u.file || r.line != u.line || r.leaf != u.leaf {
			t.Errorf("result %d = %s %q, want %s:%d %q (ordered by file and line)", i, r.location, r.leaf, u.file, u.line, u.leaf)
		}
		if strings.Contains(r.name, "[sig-network]") {
			t.Errorf("name %q keeps the [sig-network] prefix", r.name)
		}
		if r.state == "failed" && r.failure != "No EndpointSlice found" {
			t.Errorf("failure = %q, want the first line of the message", r.failure)
		}
	}
	if _, err := parseReport([]byte(`[{"SpecReports": []}]`)); err == nil {
		t.Error("an empty report parsed without error")
	}
	if _, err := parseReport([]byte(`{`)); err == nil {
		t.Error("bad JSON parsed without error")
	}
}

func TestJudge(t *testing.T) {
	const dependent = "should create Endpoints for Pods matching a Service"
	const api = "should support creating EndpointSlice API operations"
	const dataPlane = "should mirror a custom Endpoint with multiple subsets and same IP address"
	tests := []struct {
		name    string
		mode    string
		states  func(string) string
		wantErr string
	}{
		{name: "slicekit all pass", mode: "slicekit", states: allPass},
		{name: "kcm all pass", mode: "kcm", states: allPass},
		{name: "slicekit one failure", mode: "slicekit", states: with(allPass, dependent, "failed"), wantErr: "failed"},
		{name: "slicekit one timed out", mode: "slicekit", states: with(allPass, dependent, "timedout"), wantErr: "timedout"},
		{name: "slicekit test skipped", mode: "slicekit", states: with(allPass, dependent, "skipped"), wantErr: "was skipped"},
		{name: "data-plane test ran", mode: "slicekit", states: with(allPass, dataPlane, "passed"), wantErr: "should be skipped"},
		{name: "negative control as expected", mode: "none", states: noController},
		{name: "negative control passes a dependent test", mode: "none", states: with(noController, dependent, "passed"), wantErr: "passed, want failed"},
		{name: "negative control cut off by the suite timeout", mode: "none", states: with(noController, dependent, "timedout"), wantErr: "timedout, want failed"},
		{name: "negative control fails an API test", mode: "none", states: with(noController, api, "failed"), wantErr: "API-only test"},
		{name: "slicekit on the negative control's results", mode: "slicekit", states: noController, wantErr: "5 problem(s)"},
		{name: "negative control on a working controller's results", mode: "none", states: allPass, wantErr: "5 problem(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results, err := parseReport(report(t, tt.states))
			if err != nil {
				t.Fatal(err)
			}
			err = judge(modes[tt.mode], results)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("judge: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("judge passed, want an error containing %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("judge: %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestJudgeCountsTests(t *testing.T) {
	results, err := parseReport(report(t, allPass))
	if err != nil {
		t.Fatal(err)
	}
	// An upstream test that disappeared (renamed, moved) must not go unnoticed.
	if err := judge(modes["slicekit"], results[1:]); err == nil || !strings.Contains(err.Error(), "6 tests ran, want 7") {
		t.Fatalf("judge with a test missing: %v", err)
	}
}

func TestTables(t *testing.T) {
	results, err := parseReport(report(t, noController))
	if err != nil {
		t.Fatal(err)
	}
	oc := outcome{mode: modes["none"], results: results}
	var buf bytes.Buffer
	printModeTable(&buf, oc)
	printSummaryTable(&buf, []outcome{{mode: modes["slicekit"], results: mustParse(t, allPass)}, oc})
	out := buf.String()
	for _, want := range []string{
		"| EndpointSlice should create and delete EndpointSlices for a Service with a selector that matches no pods [Conformance] | endpointslice.go:67 | failed (1.5s) |",
		"↳ No EndpointSlice found",
		"| endpointslicemirroring.go:207 | not run: data plane |",
		"| upstream test (k8s.io/kubernetes v1.37.2) | file:line | slicekit | none |",
		"| endpointslice.go:67 | passed (1.5s) | failed (1.5s) |",
		"mode none     as expected: 2 passed, 5 failed, 3 skipped;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tables lack %q:\n%s", want, out)
		}
	}
}

func TestSummaryCountsOtherStatesApart(t *testing.T) {
	oc := outcome{mode: modes["none"], results: mustParse(t, with(noController, "should create Endpoints for Pods matching a Service", "timedout"))}
	if got, want := oc.summary(), "2 passed, 4 failed, 3 skipped, 1 timedout;"; !strings.HasPrefix(got, want) {
		t.Errorf("summary() = %q, want prefix %q", got, want)
	}
}

func mustParse(t *testing.T, states func(string) string) []result {
	t.Helper()
	results, err := parseReport(report(t, states))
	if err != nil {
		t.Fatal(err)
	}
	return results
}

func TestPrintPlan(t *testing.T) {
	o, err := parseFlags([]string{"-modes", "slicekit,none", "-bin", t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	printPlan(&buf, o)
	for _, want := range []string{
		"mode slicekit:",
		"kube-controller-manager --controllers=*,-endpoints-controller,-endpointslice-controller,-endpointslice-mirroring-controller",
		"slicekit run --controllers=*,endpoints",
		"mode none: negative control",
		"not ready to run: missing in",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("plan lacks %q:\n%s", want, buf.String())
		}
	}
	if strings.Count(buf.String(), "  slicekit run --controllers") != 1 {
		t.Errorf("the negative control must not start slicekit:\n%s", buf.String())
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    []string
		wantErr bool
	}{
		{args: nil, want: []string{"slicekit", "none"}},
		{args: []string{"-modes", "kcm, slicekit"}, want: []string{"kcm", "slicekit"}},
		{args: []string{"-modes", "kube"}, wantErr: true},
		{args: []string{"-nodes", "0"}, wantErr: true},
		{args: []string{"extra"}, wantErr: true},
	}
	for _, tt := range tests {
		o, err := parseFlags(tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseFlags(%q) error = %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if err == nil && strings.Join(o.modes, ",") != strings.Join(tt.want, ",") {
			t.Errorf("parseFlags(%q) modes = %q, want %q", tt.args, o.modes, tt.want)
		}
	}
}
