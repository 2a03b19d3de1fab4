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

// Tests of the declared slice sets (Config.SliceSetLabels, --slice-set-label).

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

const clusterLabel = "multicluster.kubernetes.io/source-cluster"

// remoteSlice is a slice of controller custom for Service web in the set
// of cluster (no set label when cluster is ""), with endpoints at addrs.
func remoteSlice(name, cluster string, addrs ...string) *discovery.EndpointSlice {
	var eps []discovery.Endpoint
	for _, a := range addrs {
		eps = append(eps, discovery.Endpoint{Addresses: []string{a}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}})
	}
	s := newSlice(name, "web", custom, eps...)
	if cluster != "" {
		s.Labels[clusterLabel] = cluster
	}
	return s
}

func TestSliceSets(t *testing.T) {
	declared := map[string]string{custom: clusterLabel}
	tests := []struct {
		name string
		sets map[string]string
		// delegate labels Service web for this controller (KEP-4770)
		// and makes its slice that controller's.
		delegate string
		extra    []*discovery.EndpointSlice
		want     []string
		reason   string
	}{
		{
			name:  "sets beside the default controller's slices, undeclared",
			extra: []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.1.0.1"), remoteSlice("web-west", "west", "10.2.0.1")},
			want:  []string{"warning multiple-managers " + webSvc},
		},
		{
			name:  "sets beside the default controller's slices, declared",
			sets:  declared,
			extra: []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.1.0.1"), remoteSlice("web-west", "west", "10.2.0.1")},
		},
		{
			name:  "a declared controller's slice outside any set is a manager",
			sets:  declared,
			extra: []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.1.0.1"), remoteSlice("web-x", "", "10.3.0.1")},
			want:  []string{"warning multiple-managers " + webSvc},
		},
		{
			name: "another controller's slices carrying the label are not a set",
			sets: declared,
			extra: []*discovery.EndpointSlice{func() *discovery.EndpointSlice {
				s := remoteSlice("web-b", "east", "10.1.0.1")
				s.Labels[discovery.LabelManagedBy] = customB
				return s
			}()},
			want: []string{"warning multiple-managers " + webSvc},
		},
		{
			name:     "sets beside the named controller of a delegated Service, declared",
			sets:     declared,
			delegate: customB,
			extra:    []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.1.0.1")},
		},
		{
			name:     "sets beside the named controller of a delegated Service, undeclared",
			delegate: customB,
			extra:    []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.1.0.1")},
			want:     []string{"error delegated-foreign-slice EndpointSlice " + ns + "/web-east"},
		},
		{
			name:     "a declared controller's slice outside any set of a delegated Service",
			sets:     declared,
			delegate: customB,
			extra:    []*discovery.EndpointSlice{remoteSlice("web-x", "", "10.1.0.1")},
			want:     []string{"error delegated-foreign-slice EndpointSlice " + ns + "/web-x"},
		},
		{
			name:   "one endpoint in two sets: a warning",
			sets:   declared,
			extra:  []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.9.0.1"), remoteSlice("web-west", "west", "10.9.0.1")},
			want:   []string{"warning duplicate-endpoint " + webSvc},
			reason: "once in each of 2 slice sets",
		},
		{
			name:  "one endpoint in two sets, undeclared: an error",
			extra: []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.9.0.1"), remoteSlice("web-west", "west", "10.9.0.1")},
			want:  []string{"error duplicate-endpoint " + webSvc, "warning multiple-managers " + webSvc},
		},
		{
			name:   "one endpoint twice in one set: an error",
			sets:   declared,
			extra:  []*discovery.EndpointSlice{remoteSlice("web-east-1", "east", "10.9.0.1"), remoteSlice("web-east-2", "east", "10.9.0.1"), remoteSlice("web-west", "west", "10.9.0.1")},
			want:   []string{"error duplicate-endpoint " + webSvc},
			reason: "published 3 times",
		},
		{
			name:   "one endpoint twice in one slice of a set: an error",
			sets:   declared,
			extra:  []*discovery.EndpointSlice{remoteSlice("web-east", "east", "10.9.0.1", "10.9.0.1")},
			want:   []string{"error duplicate-endpoint " + webSvc},
			reason: "published 2 times",
		},
		{
			name: "the default controller's endpoint in a set too: a warning",
			sets: declared,
			extra: []*discovery.EndpointSlice{func() *discovery.EndpointSlice {
				s := remoteSlice("web-east", "east")
				s.Endpoints = []discovery.Endpoint{podEndpoint(newFixture().pod)}
				return s
			}()},
			want:   []string{"warning duplicate-endpoint " + webSvc},
			reason: "the slices outside any set",
		},
		{
			name:  "the unnamed set and a named one of one controller",
			sets:  declared,
			extra: []*discovery.EndpointSlice{remoteSlice("web-x", "", "10.9.0.1"), remoteSlice("web-east", "east", "10.9.0.1")},
			want:  []string{"warning duplicate-endpoint " + webSvc, "warning multiple-managers " + webSvc},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			f := newFixture()
			if tc.delegate != "" {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: tc.delegate}
				f.slice.Labels[discovery.LabelManagedBy] = tc.delegate
			}
			for _, s := range tc.extra {
				f.extra = append(f.extra, s)
			}
			rep := Check(ctx, NewInventory(f.objects()), builtinConfig(Config{SliceSetLabels: tc.sets}))
			want := append([]string{}, tc.want...)
			slices.Sort(want)
			if d := cmp.Diff(want, findingKeys(rep)); d != "" {
				t.Errorf("findings (-want +got):\n%s\n%s", d, findingLines(rep))
			}
			if tc.reason != "" && (len(rep.Findings) == 0 || !strings.Contains(rep.Findings[0].Reason, tc.reason)) {
				t.Errorf("first finding's reason does not contain %q:\n%s", tc.reason, findingLines(rep))
			}
		})
	}
}

func TestSliceSetLabelsValidate(t *testing.T) {
	tests := []struct {
		name string
		sets map[string]string
		want string // part of the error; "" for none
	}{
		{"none", nil, ""},
		{"a controller and a label key", map[string]string{custom: clusterLabel}, ""},
		{"the default controller", map[string]string{wellknown.EndpointSliceControllerName: clusterLabel}, "write one slice set per Service"},
		{"the mirroring controller", map[string]string{wellknown.MirroringControllerName: clusterLabel}, "write one slice set per Service"},
		{"not a label key", map[string]string{custom: "a b"}, "not a label key"},
		{"an empty label key", map[string]string{custom: ""}, "not a label key"},
		{"the service-name label", map[string]string{custom: discovery.LabelServiceName}, "cannot tell slice sets apart"},
		{"the managed-by label", map[string]string{custom: discovery.LabelManagedBy}, "cannot tell slice sets apart"},
		{"an empty controller", map[string]string{"": clusterLabel}, "must be a non-empty label value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Config{SliceSetLabels: tc.sets}.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
