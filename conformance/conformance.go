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

package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/slicekit/slicekit/conformance/tests"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

// Options configure RunConformance; see suite.Options. ManifestFS may be
// left nil: the suite's own fixtures are used.
type Options = suite.Options

// Re-exported names, so that an implementation needs only this package.
type (
	// Feature is a tag naming part of the contract (suite.Feature).
	Feature = suite.Feature
	// PodMode says how Pods run (suite.PodMode).
	PodMode = suite.PodMode
	// Implementation names the implementation in the report.
	Implementation = suite.Implementation
	// Report is the outcome of a run (suite.ConformanceReport).
	Report = suite.ConformanceReport
)

// Pod modes (see suite.PodMode).
const (
	PodModeStatusSubresource = suite.PodModeStatusSubresource
	PodModeRealPods          = suite.PodModeRealPods
)

// EnvReportPath names an environment variable: when set, RunConformance
// also writes the YAML report to the file it names (when
// Options-independent CI wants the artefact).
const EnvReportPath = "SLICEKIT_CONFORMANCE_REPORT"

// RunConformance runs every test of the suite as subtests of t against
// the controller opts.ControllerName in the cluster opts points at, logs
// the report as a table, writes it as YAML to the file named by
// $SLICEKIT_CONFORMANCE_REPORT when set, and returns it. Invalid options
// fail t.
func RunConformance(t *testing.T, opts Options) *Report {
	t.Helper()
	if opts.ManifestFS == nil {
		opts.ManifestFS = tests.Manifests
	}
	s, err := suite.NewConformanceTestSuite(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Setup(t)
	s.Run(t, tests.All())
	rep := s.Report()
	var b bytes.Buffer
	if err := rep.WriteTable(&b); err != nil {
		t.Errorf("rendering the report: %v", err)
	}
	t.Logf("conformance report\n%s", b.String())
	if p := os.Getenv(EnvReportPath); p != "" {
		if err := WriteReportFile(rep, p); err != nil {
			t.Errorf("writing the report: %v", err)
		}
	}
	return rep
}

// WriteReportFile writes rep as YAML to path, creating its directory.
func WriteReportFile(rep *Report, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := rep.WriteYAML(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
