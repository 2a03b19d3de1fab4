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

package podendpoint

import (
	"errors"
	"strings"
	"testing"

	corelisters "k8s.io/client-go/listers/core/v1"
)

// A NodeLister is a NodeGetter.
var _ NodeGetter = corelisters.NodeLister(nil)

func TestSkippedPodError(t *testing.T) {
	e := &SkippedPodError{Pod: "p", Namespace: "ns", Service: "s", Node: "n"}
	if got, want := e.Error(), "skipping Pod p for Service ns/s: Node n Not Found"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !strings.Contains(errors.Join(e, e).Error(), "Node n Not Found") {
		t.Error("joined message lost")
	}
}
