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

package manager

import "testing"

// TestReadBuildInfoLinkTimeVariables checks that the variables release
// builds set with -ldflags -X (tools/image) win over runtime/debug's
// "(devel)".
func TestReadBuildInfoLinkTimeVariables(t *testing.T) {
	if got := ReadBuildInfo(); got.Version == "" {
		t.Fatalf("empty version without link-time variables: %+v", got)
	}
	defer func(v, r, bt, m string) { version, revision, buildTime, modified = v, r, bt, m }(version, revision, buildTime, modified)
	version, revision, buildTime, modified = "v1.2.3", "0123456789abcdef0123456789abcdef01234567", "2026-01-02T03:04:05Z", "true"
	got := ReadBuildInfo()
	if got.Version != "v1.2.3" || got.Revision != revision || got.Time != buildTime || !got.Modified {
		t.Errorf("ReadBuildInfo() = %+v, want the link-time values", got)
	}
	if ua := got.UserAgent(); ua != "slicekit/v1.2.3 ("+got.Platform+")" {
		t.Errorf("UserAgent() = %q", ua)
	}
}
