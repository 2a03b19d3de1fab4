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

package controllerflags

import (
	"errors"
	"strings"
	"testing"
)

func TestValidation(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		wantErr string // "" for no error
	}{
		{"max endpoints 1", MaxEndpointsPerSlice(1), ""},
		{"max endpoints 1000", MaxEndpointsPerSlice(1000), ""},
		{"max endpoints 0", MaxEndpointsPerSlice(0), "--max-endpoints-per-slice=0 must be between 1 and 1000"},
		{"max endpoints 1001", MaxEndpointsPerSlice(1001), "--max-endpoints-per-slice=1001 must be between 1 and 1000"},
		{"mirroring 1000", MirroringMaxEndpointsPerSubset(1000), ""},
		{"mirroring 0", MirroringMaxEndpointsPerSubset(0), "--mirroring-max-endpoints-per-subset=0 must be between 1 and 1000"},
		{"mirroring -1", MirroringMaxEndpointsPerSubset(-1), "--mirroring-max-endpoints-per-subset=-1 must be between 1 and 1000"},
		{"name ok", ControllerName("--x", "a.example.com"), ""},
		{"name empty", ControllerName("--x", ""), `--x "" must be a non-empty label value`},
		{"name invalid", ControllerName("--x", "a b"), `--x "a b" is not a label value (63 characters at most, alphanumerics with -, _ or . inside): `},
		{"distinct", errors.Join(Distinct(Name{"--a", "x"}, Name{"--b", "y"}, Name{"--c", ""}, Name{"--d", ""})...), ""},
		{"clash", errors.Join(Distinct(Name{"--a", "x"}, Name{"--b", "y"}, Name{"--c", "x"})...), `--a and --c are both "x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			switch {
			case tc.wantErr == "" && tc.err != nil:
				t.Errorf("error %v, want none", tc.err)
			case tc.wantErr != "" && (tc.err == nil || !strings.Contains(tc.err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", tc.err, tc.wantErr)
			}
		})
	}
}
