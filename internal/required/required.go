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

// Package required reports which required fields of a value were left
// unset, in one message form for every struct slicekit validates this way
// (registry.Registration, inputkinds.Kind): "<what>: A, B required".
package required

import (
	"fmt"
	"strings"
)

// Field is one required field: its Name as the message gives it and
// whether the value Set it.
type Field struct {
	Name string
	Set  bool
}

// Check returns nil when every field is set, else an error naming what
// (the value being checked) and, in the given order, every field that is
// not set.
func Check(what string, fields ...Field) error {
	var missing []string
	for _, f := range fields {
		if !f.Set {
			missing = append(missing, f.Name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s required", what, strings.Join(missing, ", "))
}
