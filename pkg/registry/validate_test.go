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

package registry

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
		{"max endpoints 1", InRange("--max-endpoints-per-slice", 1, 1000), ""},
		{"max endpoints 1000", InRange("--max-endpoints-per-slice", 1000, 1000), ""},
		{"max endpoints 0", InRange("--max-endpoints-per-slice", 0, 1000), "--max-endpoints-per-slice=0 must be between 1 and 1000"},
		{"max endpoints 1001", InRange("--max-endpoints-per-slice", 1001, 1000), "--max-endpoints-per-slice=1001 must be between 1 and 1000"},
		{"mirroring 1000", InRange("--mirroring-max-endpoints-per-subset", 1000, 1000), ""},
		{"mirroring 0", InRange("--mirroring-max-endpoints-per-subset", 0, 1000), "--mirroring-max-endpoints-per-subset=0 must be between 1 and 1000"},
		{"mirroring -1", InRange("--mirroring-max-endpoints-per-subset", -1, 1000), "--mirroring-max-endpoints-per-subset=-1 must be between 1 and 1000"},
		{"name ok", ControllerName("--x", "a.example.com"), ""},
		{"name empty", ControllerName("--x", ""), `--x "" must be a non-empty label value`},
		{"name invalid", ControllerName("--x", "a b"), `--x "a b" is not a label value (63 characters at most, alphanumerics with -, _ or . inside): `},
		{"workers 50", WorkerCount("--w", 50), ""},
		{"workers 51", WorkerCount("--w", 51), "--w=51 must be between 1 and 50"},
		{"negative period", NonNegative("--p", -1), "--p=-1ns must not be negative"},
		{"distinct", errors.Join(Distinct(ManagedBy{"--a", "x"}, ManagedBy{"--b", "y"}, ManagedBy{"--c", ""}, ManagedBy{"--d", ""})...), ""},
		{"clash", errors.Join(Distinct(ManagedBy{"--a", "x"}, ManagedBy{"--b", "y"}, ManagedBy{"--c", "x"})...), `--a and --c are both "x"`},
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
