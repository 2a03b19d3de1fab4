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

package celpods

import (
	"errors"
	"strings"
	"testing"
)

func TestUndeclaredReads(t *testing.T) {
	for _, tc := range []struct {
		name        string
		addresses   string
		ready       string
		annotations []string
		labels      []string
		want        []string // substrings of the error; none: nil
	}{
		{"status only", "pod.status.podIPs.map(p, p.ip)", "", nil, nil, nil},
		{"declared index", "pod.metadata.annotations['a.example.com/ips'].split(',')", "", []string{"a.example.com/ips"}, nil, nil},
		{"undeclared index", "pod.metadata.annotations['a.example.com/ips'].split(',')", "", nil, nil,
			[]string{`pod.metadata.annotations["a.example.com/ips"]`, "podAnnotations"}},
		{"optional forms", "pod.metadata.?annotations[?'x'].orValue('').split(',')", "", []string{"y"}, nil,
			[]string{`pod.metadata.annotations["x"]`}},
		{"in operator and has", "'d' in pod.metadata.annotations && has(pod.metadata.labels.tier) ? [] : ['10.0.0.1']", "", []string{"d"}, []string{"tier"}, nil},
		{"label in ready", "pod.status.podIPs.map(p, p.ip)", "pod.metadata.labels['tier'] == 'a'", nil, nil, []string{"ready", `pod.metadata.labels["tier"]`, "podLabels"}},
		{"whole map without declaration", "pod.metadata.annotations.map(k, k)", "", nil, nil, []string{"declares no podAnnotations"}},
		{"whole map with a declaration", "pod.metadata.annotations.filter(k, k.startsWith('x')).map(k, pod.metadata.annotations[k])", "", []string{"x/ips"}, nil, nil},
		{"index form of metadata", "pod['metadata']['labels']['tier'] == 'a' ? ['10.0.0.1'] : []", "", nil, nil, []string{`pod.metadata.labels["tier"]`}},
		{"a mention the walk cannot place", "[pod['metadata'][['annotations'][0]]['k']]", "", nil, nil, []string{"declares no podAnnotations"}},
		{"a mention anywhere (here the Service's) counts without a declaration", "[service.metadata.annotations['x']]", "", nil, nil, []string{"declares no podAnnotations"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := Compile(Profile{Name: "p.example.com", Addresses: tc.addresses, Ready: tc.ready, PodAnnotations: tc.annotations, PodLabels: tc.labels})
			if err != nil {
				t.Fatal(err)
			}
			got := prog.UndeclaredReads()
			if len(tc.want) == 0 {
				if got != nil {
					t.Fatalf("UndeclaredReads() = %v, want nil", got)
				}
				return
			}
			if got == nil {
				t.Fatalf("UndeclaredReads() = nil, want an error with %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(got.Error(), w) {
					t.Errorf("UndeclaredReads() = %v, want it to contain %q", got, w)
				}
			}
		})
	}
}

func TestDeclaredKeysValidated(t *testing.T) {
	p := Profile{Name: "p.example.com", Addresses: "[]", PodAnnotations: []string{"not a key"}, PodLabels: []string{"ok.example.com/k"}}
	err := p.Validate()
	if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "podAnnotations") {
		t.Errorf("Validate() = %v, want an invalid podAnnotations key", err)
	}
	p.PodAnnotations = []string{"example.com/ips"}
	if err := p.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}
