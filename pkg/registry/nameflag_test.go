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
	"testing"

	"github.com/spf13/pflag"
)

func TestNameFlag(t *testing.T) {
	f := NewNameFlag("x", "x.example.com")
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f.AddFlags(fs)
	if err := fs.Parse([]string{"--x-controller-name=y.example.com"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(true); err != nil || f.ControllerName != "y.example.com" {
		t.Fatalf("ControllerName %q, Validate %v", f.ControllerName, err)
	}
	if mb := f.ManagedBy(); len(mb) != 1 || mb[0].Flag != "--x-controller-name" || mb[0].Value != "y.example.com" {
		t.Errorf("ManagedBy = %+v", mb)
	}
	f.ControllerName = "not a label value!"
	if f.Validate(false) != nil {
		t.Error("a disabled controller's name is validated")
	}
	if err := f.Validate(true); err == nil {
		t.Error("an invalid name is accepted")
	}
}
