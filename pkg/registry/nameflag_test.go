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
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestControllerNameFlag(t *testing.T) {
	name := "x.example.com"
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	AddControllerNameFlag(fs, &name, "x")
	if f := fs.Lookup("x-controller-name"); f == nil || f.DefValue != "x.example.com" || !strings.Contains(f.Usage, "the x controller") {
		t.Fatalf("flag %+v", f)
	}
	if err := fs.Parse([]string{"--x-controller-name=y.example.com"}); err != nil {
		t.Fatal(err)
	}
	if name != "y.example.com" {
		t.Fatalf("name %q after parsing", name)
	}
	for _, tc := range []struct {
		name    string
		enabled bool
		wantErr bool
	}{
		{name: "y.example.com", enabled: true},
		{name: "", enabled: true, wantErr: true},
		{name: "not a label value!", enabled: true, wantErr: true},
		{name: "not a label value!", enabled: false},
	} {
		err := ValidateControllerName("x", tc.name, tc.enabled)
		if (err != nil) != tc.wantErr {
			t.Errorf("ValidateControllerName(%q, %v) = %v, want error %v", tc.name, tc.enabled, err, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "--x-controller-name") {
			t.Errorf("error %q does not name the flag", err)
		}
	}
}
