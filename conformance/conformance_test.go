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

package conformance_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/slicekit/slicekit/conformance/tests"
	"github.com/slicekit/slicekit/conformance/utils/suite"
)

// TestRegisteredTests checks the registry and the fixtures without a
// cluster: names, descriptions, features, the report order, and that every
// fixture decodes strictly and is used.
func TestRegisteredTests(t *testing.T) {
	all := tests.All()
	if len(all) != len(tests.ConformanceTests) || len(all) == 0 {
		t.Fatalf("All() has %d tests, ConformanceTests %d", len(all), len(tests.ConformanceTests))
	}
	names := map[string]bool{}
	used := map[string]bool{}
	covered := map[suite.Feature]bool{}
	for _, ct := range all {
		if ct.ShortName == "" || names[ct.ShortName] {
			t.Errorf("empty or duplicate ShortName %q", ct.ShortName)
		}
		names[ct.ShortName] = true
		if ct.Description == "" || !strings.HasSuffix(ct.Description, ".") {
			t.Errorf("%s: the description must be a sentence", ct.ShortName)
		}
		if ct.Test == nil {
			t.Errorf("%s: no Test function", ct.ShortName)
		}
		// A controller of other addresses than status.podIPs (DRA
		// networkData) cannot pass the EndpointSlices tests, which expect
		// them; its tests stand alone.
		if !slices.Contains(ct.Features, suite.SupportEndpointSlices) && !slices.Contains(ct.Features, suite.SupportDRANetworkData) {
			t.Errorf("%s: every test needs feature %s (or %s)", ct.ShortName, suite.SupportEndpointSlices, suite.SupportDRANetworkData)
		}
		if slices.Contains(ct.Features, suite.SupportDefaultController) && slices.Contains(ct.Features, suite.SupportControllerNameLabel) {
			t.Errorf("%s: needs two exclusive features", ct.ShortName)
		}
		for _, f := range ct.Features {
			covered[f] = true
		}
		if len(ct.Manifests) == 0 {
			t.Errorf("%s: no fixture", ct.ShortName)
		}
		for _, m := range ct.Manifests {
			used[m] = true
			if _, err := suite.ReadManifests(tests.Manifests, m); err != nil {
				t.Errorf("%s: %v", ct.ShortName, err)
			}
		}
	}
	// The report order lists the core tests first.
	if all[0].ShortName != "SlicesPublished" {
		t.Errorf("All()[0] = %s, want SlicesPublished", all[0].ShortName)
	}
	files, err := fs.Glob(tests.Manifests, "*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !used[f] {
			t.Errorf("fixture %s is used by no test", f)
		}
	}
	for _, f := range suite.AllFeatures() {
		if !covered[f] {
			t.Errorf("feature %s is tested by no test", f)
		}
	}
}

// TestFeatureSetsSelectTests checks which tests each usual feature set
// runs.
func TestFeatureSetsSelectTests(t *testing.T) {
	runs := func(features []suite.Feature) []string {
		var out []string
		for _, ct := range tests.All() {
			ok := true
			for _, f := range ct.Features {
				ok = ok && slices.Contains(features, f)
			}
			if ok {
				out = append(out, ct.ShortName)
			}
		}
		return out
	}
	def := runs(suite.DefaultControllerFeatures())
	lab := runs(suite.LabelledControllerFeatures())
	for _, n := range []string{"LabelledForOtherController", "LabelAddedHandsOver"} {
		if !slices.Contains(def, n) || slices.Contains(lab, n) {
			t.Errorf("%s must run for default controllers only", n)
		}
	}
	for _, n := range []string{"LabelRemovalHandsBack", "LabelChangeHandsOver", "UnlabelledServicesIgnored"} {
		if slices.Contains(def, n) || !slices.Contains(lab, n) {
			t.Errorf("%s must run for labelled controllers only", n)
		}
	}
	if len(def) != 13 || len(lab) != 14 {
		t.Errorf("default controllers run %d tests %v, labelled ones %d %v; want 13 and 14", len(def), def, len(lab), lab)
	}
}
