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

package reconciler

import (
	"testing"

	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/utils/ptr"
)

func TestCopyPorts(t *testing.T) {
	for name, in := range map[string][]discovery.EndpointPort{
		"nil":   nil,
		"empty": {},
		"two":   {{Name: ptr.To("http"), Port: ptr.To[int32](80)}, {Name: ptr.To("dns"), Port: ptr.To[int32](53), AppProtocol: ptr.To("dns")}},
	} {
		out := CopyPorts(in)
		if (in == nil) != (out == nil) || len(in) != len(out) || !apiequality.Semantic.DeepEqual(in, out) {
			t.Errorf("%s: CopyPorts(%v) = %v", name, in, out)
		}
		for i := range out {
			if out[i].Name == in[i].Name || out[i].Port == in[i].Port {
				t.Errorf("%s: port %d shares a pointer with its original", name, i)
			}
		}
	}
}
