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
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	good := `
apiVersion: slicekit.dev/v1alpha1
kind: CELProfiles
profiles:
- name: storage.example.com
  addresses: pod.metadata.annotations['example.com/storage-ips'].split(',')
  ready: pod.status.phase == 'Running'
  maxEndpointsPerSlice: 50
  costLimit: 1000
- name: v6.example.com
  addresses: pod.status.podIPs.map(p, p.ip).filter(ip, ip.contains(':'))
`
	cfg, err := ParseConfig([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Profiles) != 2 || cfg.Profiles[0].MaxEndpointsPerSlice != 50 || cfg.Profiles[0].CostLimit != 1000 || cfg.Profiles[1].Ready != "" {
		t.Errorf("parsed %+v", cfg)
	}
	progs, err := CompileConfig(cfg)
	if err != nil || len(progs) != 2 {
		t.Fatalf("CompileConfig: %v", err)
	}
	if progs[1].Profile().CostLimit != DefaultCostLimit || !progs[0].HasReady() || progs[1].HasReady() {
		t.Errorf("defaults: %+v %+v", progs[0].Profile(), progs[1].Profile())
	}

	tests := []struct {
		name string
		yaml string
		want []string // substrings of the error
	}{
		{"unknown field", "profiles:\n- name: a\n  addresses: '[]'\n  adresses: x\n", []string{"unknown field"}},
		{"not yaml", "profiles: [", []string{"invalid CEL profile configuration"}},
		{"no profile", "profiles: []\n", []string{"no profile"}},
		{"wrong kind", "kind: Foo\nprofiles:\n- {name: a, addresses: '[]'}\n", []string{`kind "Foo"`}},
		{"wrong apiVersion", "apiVersion: v2\nprofiles:\n- {name: a, addresses: '[]'}\n", []string{`apiVersion "v2"`}},
		{"missing name and addresses", "profiles:\n- {}\n", []string{"name is required", "addresses is required"}},
		{"bad name", "profiles:\n- {name: 'a b', addresses: '[]'}\n", []string{`profile "a b"`, "valid label value"}},
		{"KCM name", "profiles:\n- {name: endpointslice-controller.k8s.io, addresses: '[]'}\n", []string{"kube-controller-manager"}},
		{"duplicate", "profiles:\n- {name: a, addresses: '[]'}\n- {name: a, addresses: '[]'}\n", []string{`profile "a" (profiles[1]): name already used by profiles[0]`}},
		{"bad max", "profiles:\n- {name: a, addresses: '[]', maxEndpointsPerSlice: 1001}\n", []string{"maxEndpointsPerSlice 1001"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.yaml))
			if err == nil {
				t.Fatal("want an error")
			}
			if !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("error %v does not wrap ErrInvalidConfig", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name    string
		profile Profile
		want    []string
	}{
		{"syntax", Profile{Name: "p1", Addresses: "pod.status.podIPs.map(p, "}, []string{`profile "p1": addresses`, "Syntax error"}},
		{"undeclared", Profile{Name: "p2", Addresses: "pods.x"}, []string{`profile "p2": addresses`, "undeclared reference to 'pods'"}},
		{"wrong type", Profile{Name: "p3", Addresses: "'10.0.0.1'"}, []string{`profile "p3": addresses`, "type string, want list(string)"}},
		{"list of int", Profile{Name: "p4", Addresses: "[1, 2]"}, []string{"list(int)"}},
		{"ready not bool", Profile{Name: "p5", Addresses: "[]", Ready: "1"}, []string{`profile "p5": ready`, "want bool"}},
		{"both", Profile{Name: "p6", Addresses: "1", Ready: "x"}, []string{`profile "p6": addresses`, `profile "p6": ready`}},
		{"unknown function", Profile{Name: "p7", Addresses: "nope(pod)"}, []string{`profile "p7"`, "undeclared reference to 'nope'"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.profile)
			if err == nil || !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("Compile = %v, want a configuration error", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	// CompileConfig reports every bad profile.
	_, err := CompileConfig(&Config{Profiles: []Profile{{Name: "a", Addresses: "1"}, {Name: "b", Addresses: "[]"}, {Name: "c", Addresses: "x"}}})
	if err == nil || !strings.Contains(err.Error(), `profile "a"`) || !strings.Contains(err.Error(), `profile "c"`) || strings.Contains(err.Error(), `profile "b"`) {
		t.Errorf("CompileConfig = %v", err)
	}
	if _, err := CompileConfig(nil); err == nil {
		t.Error("nil config: want an error")
	}
	// Types the checker cannot decide are accepted.
	for _, expr := range []string{"pod.spec.x", "dyn([])", "pod.status.podIPs.map(p, p.ip)", "parseJSON('[]')"} {
		if _, err := Compile(Profile{Name: "ok", Addresses: expr, Ready: "pod.x"}); err != nil {
			t.Errorf("Compile(%q): %v", expr, err)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(path, []byte("profiles:\n- {name: a, addresses: '[]'}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(path); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig(filepath.Join(dir, "missing.yaml"))
	if err == nil || errors.Is(err, ErrInvalidConfig) {
		t.Errorf("missing file: %v, want an I/O error", err)
	}
	if err := os.WriteFile(path, []byte("profiles: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(path); err == nil || !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), path) {
		t.Errorf("bad file: %v", err)
	}
}
