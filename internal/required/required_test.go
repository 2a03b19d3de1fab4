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

package required

import "testing"

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fields []Field
		want   string
	}{
		{name: "none", want: ""},
		{name: "all set", fields: []Field{{"A", true}, {"B", true}}, want: ""},
		{name: "one missing", fields: []Field{{"A", true}, {"B", false}}, want: `thing "x": B required`},
		{name: "order kept", fields: []Field{{"C", false}, {"A", true}, {"B", false}}, want: `thing "x": C, B required`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(`thing "x"`, tc.fields...)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Check = %q, want %q", got, tc.want)
			}
		})
	}
}
