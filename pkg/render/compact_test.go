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

package render

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/podcache"
)

// renderSummary is what the CLI prints of a render without --with-inputs
// (slices, warnings, events, the port-protocol note's count), or its error.
func renderSummary(t *testing.T, objs []Object, defaulted int, copts *builtin.ControllerOptions) string {
	t.Helper()
	in := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		in = append(in, o.Object)
	}
	notes := DefaultServices(in, []corev1.IPFamily{corev1.IPv4Protocol})
	defaulted += DefaultProtocols(in)
	res, err := Render(testContext(t), in, Options{Controllers: copts})
	if err != nil {
		return "error: " + err.Error()
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "notes %q\ndefaulted %d\npasses %d\nwarnings %v\nevents %v\n", notes, defaulted, res.Passes, res.Warnings, res.Events)
	if err := WriteYAML(&b, res.EndpointSlices); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReadFilesCompactRendersTheSame renders every example and regression
// case input (and one given twice, whose Pods are compared as records)
// read with ReadFiles and with ReadFilesCompact, with the
// default controllers and with every controller: the slices, warnings,
// events and notes must be the same, and the compacted Pods records.
func TestReadFilesCompactRendersTheSame(t *testing.T) {
	inputs, err := filepath.Glob("../../testdata/cases/*/input.yaml")
	if err != nil || len(inputs) < 10 {
		t.Fatalf("found %d case inputs (%v); the glob is stale", len(inputs), err)
	}
	var runs [][]string
	for _, in := range inputs {
		runs = append(runs, []string{in})
	}
	runs = append(runs, []string{"../../examples"}, []string{"../../examples/dra"}, []string{"../../examples/secondary-network"},
		[]string{inputs[0], inputs[0]})
	for _, controllers := range []string{"", "--controllers=*,secondary-network,dra-network"} {
		for _, names := range runs {
			t.Run(fmt.Sprint(controllers, names), func(t *testing.T) {
				copts := builtin.NewControllerOptions()
				if controllers != "" {
					fs := newFlagSet()
					copts.AddRenderFlags(fs)
					if err := fs.Parse([]string{controllers}); err != nil {
						t.Fatal(err)
					}
				}
				if err := copts.Validate(); err != nil {
					t.Fatal(err)
				}
				whole, ignored, err := ReadFiles(names, nil)
				if err != nil {
					t.Skipf("invalid input: %v", err)
				}
				compact, ignored2, defaulted, err := ReadFilesCompact(names, nil, copts)
				if err != nil {
					t.Fatalf("ReadFilesCompact: %v (ReadFiles read it)", err)
				}
				if d := cmp.Diff(fmt.Sprint(ignored), fmt.Sprint(ignored2)); d != "" {
					t.Errorf("ignored objects differ (-ReadFiles +ReadFilesCompact):\n%s", d)
				}
				pods, records := 0, 0
				for _, o := range compact {
					if _, ok := o.Object.(*corev1.Pod); ok {
						pods++
					}
					if _, ok := o.Object.(*podcache.Record); ok {
						records++
					}
				}
				if pods > 0 {
					t.Errorf("ReadFilesCompact gave %d Pods and %d records", pods, records)
				}
				want := renderSummary(t, whole, 0, copts)
				if d := cmp.Diff(want, renderSummary(t, compact, defaulted, copts)); d != "" {
					t.Errorf("render differs (-ReadFiles +ReadFilesCompact):\n%s", d)
				}
			})
		}
	}
}
