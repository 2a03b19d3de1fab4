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

package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestEveryFindingCounted: the report holds every finding, the text
// output lists MaxTextFindingsPerObjectRule per object and rule followed by
// a note that is not a finding, and the summary, exit status and JSON count
// them all.
func TestEveryFindingCounted(t *testing.T) {
	tests := []struct {
		name     string
		missing  int // endpoints of web-abc whose Pod does not exist
		wantRows int // endpoint-pod-missing rows in the text output
		wantNote string
	}{
		{name: "one", missing: 1, wantRows: 1},
		{name: "exactly the cap", missing: MaxTextFindingsPerObjectRule, wantRows: MaxTextFindingsPerObjectRule},
		{name: "one more than the cap", missing: MaxTextFindingsPerObjectRule + 1, wantRows: MaxTextFindingsPerObjectRule, wantNote: "... and 1 more finding of this rule"},
		{name: "101", missing: 101, wantRows: MaxTextFindingsPerObjectRule, wantNote: "... and 96 more findings of this rule"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			f := newFixture()
			for i := range tc.missing {
				p := newPod(fmt.Sprintf("gone-%03d", i), fmt.Sprintf("10.0.%d.%d", 1+i/200, 1+i%200), true)
				f.slice.Endpoints = append(f.slice.Endpoints, podEndpoint(p)) // the Pod is not in the input
			}
			// A limit high enough that max-endpoints-per-slice stays quiet.
			rep := Check(ctx, NewInventory(f.objects()), builtinConfig(Config{MaxEndpointsPerSlice: 1000}))
			if got := rep.Errors(); got != tc.missing {
				t.Errorf("Errors() = %d, want %d:\n%s", got, tc.missing, findingLines(rep))
			}
			if rep.ExitCode() != ExitFindings {
				t.Errorf("ExitCode() = %d, want %d", rep.ExitCode(), ExitFindings)
			}
			for _, fd := range rep.Findings {
				if fd.Rule != RuleEndpointPodMissing || strings.HasPrefix(fd.Reason, "...") {
					t.Errorf("unexpected finding %s", fd)
				}
			}

			var text bytes.Buffer
			if err := WriteText(&text, rep, "x", 0); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(text.String(), "\n")
			rows, note, lastRow := 0, -1, -1
			for i, l := range lines {
				switch {
				case strings.HasPrefix(l, "error ") && strings.Contains(l, string(RuleEndpointPodMissing)):
					rows++
					lastRow = i
				case strings.Contains(l, "... and "):
					note = i
					if !strings.HasPrefix(l, " ") {
						t.Errorf("the note has a severity: %q", l)
					}
					if !strings.Contains(l, tc.wantNote) || tc.wantNote == "" {
						t.Errorf("note %q, want one containing %q", l, tc.wantNote)
					}
				}
			}
			if rows != tc.wantRows {
				t.Errorf("%d finding rows, want %d:\n%s", rows, tc.wantRows, text.String())
			}
			if tc.wantNote != "" && note < lastRow {
				t.Errorf("the note (line %d) does not follow the findings (last on line %d):\n%s", note, lastRow, text.String())
			}
			if want := fmt.Sprintf("%s, 0 warnings", plural(tc.missing, "error")); !strings.Contains(text.String(), want) {
				t.Errorf("summary lacks %q:\n%s", want, text.String())
			}

			var js bytes.Buffer
			if err := WriteJSON(&js, rep, "x", 0); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Findings []Finding `json:"findings"`
				Summary  struct {
					Errors int `json:"errors"`
				} `json:"summary"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Findings) != tc.missing || doc.Summary.Errors != tc.missing {
				t.Errorf("JSON has %d findings and summary.errors %d, want %d and %d", len(doc.Findings), doc.Summary.Errors, tc.missing, tc.missing)
			}
		})
	}
}

// TestFaultsKCMWouldFix: faults in the default controller's slices that
// KCM would repair, each flagged by the rule that names it, and their
// correct neighbours left alone.
func TestFaultsKCMWouldFix(t *testing.T) {
	const emptySlice = "EndpointSlice ns/web-empty"
	zoneHint := &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}}
	nodeHint := &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "zone-a"}}, ForNodes: []discovery.ForNode{{Name: "node-a"}}}
	onMissingNode := func(f *fixture) {
		f.pod.Spec.NodeName = "node-gone"
		f.slice.Endpoints[0].NodeName = ptr.To("node-gone")
		f.slice.Endpoints[0].Zone = nil
	}
	emptyBeside := func(ports []discovery.EndpointPort) func(f *fixture) {
		return func(f *fixture) {
			s := newSlice("web-empty", "web", wellknown.EndpointSliceControllerName)
			s.Ports = ports
			f.extra = append(f.extra, s)
		}
	}
	tests := []struct {
		name   string
		mutate func(f *fixture)
		want   []string
	}{
		// a. Pods on a Node absent from the input.
		{name: "endpoint of a Pod on a missing Node", mutate: onMissingNode, want: []string{"error endpoint-nodename " + webSlice}},
		{name: "Pod on a missing Node, publishNotReadyAddresses", mutate: func(f *fixture) { onMissingNode(f); f.web.Spec.PublishNotReadyAddresses = true }},
		{name: "Pod on a missing Node, custom controller", mutate: func(f *fixture) {
			onMissingNode(f)
			f.slice.Labels[discovery.LabelManagedBy] = custom
		}},
		// b. appProtocol is the Service port's.
		{name: "appProtocol the Service port lacks", mutate: func(f *fixture) { f.slice.Ports[0].AppProtocol = ptr.To("http") }, want: []string{"error port-mismatch " + webSlice}},
		{name: "appProtocol missing", mutate: func(f *fixture) { f.web.Spec.Ports[0].AppProtocol = ptr.To("kubernetes.io/h2c") }, want: []string{"error port-mismatch " + webSlice}},
		{name: "appProtocol different", mutate: func(f *fixture) {
			f.web.Spec.Ports[0].AppProtocol = ptr.To("kubernetes.io/h2c")
			f.slice.Ports[0].AppProtocol = ptr.To("http")
		}, want: []string{"error port-mismatch " + webSlice}},
		{name: "appProtocol copied", mutate: func(f *fixture) {
			f.web.Spec.Ports[0].AppProtocol = ptr.To("kubernetes.io/h2c")
			f.slice.Ports[0].AppProtocol = ptr.To("kubernetes.io/h2c")
		}},
		{name: "appProtocol on a custom controller's slice", mutate: func(f *fixture) {
			f.slice.Labels[discovery.LabelManagedBy] = custom
			f.slice.Ports[0].AppProtocol = ptr.To("http")
		}, want: []string{"warning port-mismatch " + webSlice}},
		// c. Hints only where the Service asks for them.
		{name: "zone hints without trafficDistribution", mutate: func(f *fixture) { f.slice.Endpoints[0].Hints = zoneHint }, want: []string{"error endpoint-hints " + webSlice}},
		{name: "node hints without trafficDistribution", mutate: func(f *fixture) { f.slice.Endpoints[0].Hints = nodeHint }, want: []string{"error endpoint-hints " + webSlice}},
		{name: "zone hints with an unknown trafficDistribution", mutate: func(f *fixture) {
			f.web.Spec.TrafficDistribution = ptr.To("Nearby")
			f.slice.Endpoints[0].Hints = zoneHint
		}, want: []string{"error endpoint-hints " + webSlice}},
		{name: "zone hints with PreferClose", mutate: func(f *fixture) {
			f.web.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferClose)
			f.slice.Endpoints[0].Hints = zoneHint
		}},
		{name: "PreferClose without the zone hint", mutate: func(f *fixture) {
			f.web.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferClose)
		}, want: []string{"error endpoint-hints " + webSlice}},
		{name: "node hints with PreferClose", mutate: func(f *fixture) {
			f.web.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferClose)
			f.slice.Endpoints[0].Hints = nodeHint
		}, want: []string{"error endpoint-hints " + webSlice}},
		{name: "node hints with PreferSameNode", mutate: func(f *fixture) {
			f.web.Spec.TrafficDistribution = ptr.To(corev1.ServiceTrafficDistributionPreferSameNode)
			f.slice.Endpoints[0].Hints = nodeHint
		}},
		{name: "zone hints with topology-mode Auto", mutate: func(f *fixture) {
			f.web.Annotations = map[string]string{corev1.AnnotationTopologyMode: "Auto"}
			f.slice.Endpoints[0].Hints = zoneHint
		}},
		{name: "hints on a custom controller's slice", mutate: func(f *fixture) {
			f.slice.Labels[discovery.LabelManagedBy] = custom
			f.slice.Endpoints[0].Hints = zoneHint
		}},
		// d. Empty slices KCM deletes.
		{name: "empty placeholder beside a full slice", mutate: emptyBeside(nil), want: []string{"warning empty-slice-stale " + emptySlice}},
		{name: "empty slice of other ports beside a full slice", mutate: emptyBeside([]discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](9090), Protocol: ptr.To(corev1.ProtocolTCP)}}),
			want: []string{"warning empty-slice-stale " + emptySlice, "error port-mismatch " + emptySlice}},
		{name: "empty slice of the desired ports (KCM keeps and fills it)", mutate: func(f *fixture) {
			f.extra = append(f.extra, newSlice("web-empty", "web", wellknown.EndpointSliceControllerName))
		}},
		{name: "lone placeholder of a Service without Pods", mutate: func(f *fixture) {
			f.pod = nil
			f.slice.Endpoints = nil
			f.slice.Ports = nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			f := newFixture()
			tc.mutate(f)
			rep := Check(ctx, NewInventory(f.objects()), builtinConfig(Config{}))
			want := append([]string{}, tc.want...)
			slices.Sort(want)
			if d := cmp.Diff(want, findingKeys(rep)); d != "" {
				t.Errorf("findings (-want +got):\n%s\n%s", d, findingLines(rep))
			}
		})
	}
}
