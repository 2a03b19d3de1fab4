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

package inputfile

import "strings"

// DisplayNames returns names as notes and reports name them, joined with
// ", ": StdinName as StdinDisplayName, as the input errors name standard
// input, so that a command names it one way everywhere.
func DisplayNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		if n == StdinName {
			n = StdinDisplayName
		}
		out[i] = n
	}
	return strings.Join(out, ", ")
}
