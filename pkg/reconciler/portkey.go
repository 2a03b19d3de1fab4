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
	"sort"
	"strconv"
	"strings"

	discovery "k8s.io/api/discovery/v1"
)

// PortMapKey returns the identity of a port list: two port lists with the
// same ports in any order have the same key. It plays the role of KCM's
// util.NewPortMapKey (a hash of the sorted ports) but is a readable string:
// each port as name/protocol/port/appProtocol, sorted, joined by ";". nil
// fields are distinguished from empty ones, as in KCM's deep hash.
func PortMapKey(ports []discovery.EndpointPort) string {
	if len(ports) == 0 {
		return ""
	}
	parts := make([]string, len(ports))
	for i := range ports {
		parts[i] = portString(&ports[i])
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

func portString(p *discovery.EndpointPort) string {
	var b strings.Builder
	optString(&b, p.Name)
	b.WriteByte('/')
	if p.Protocol != nil {
		b.WriteString(string(*p.Protocol))
	} else {
		b.WriteByte('~')
	}
	b.WriteByte('/')
	if p.Port != nil {
		b.WriteString(strconv.FormatInt(int64(*p.Port), 10))
	} else {
		b.WriteByte('~')
	}
	b.WriteByte('/')
	optString(&b, p.AppProtocol)
	return b.String()
}

func optString(b *strings.Builder, s *string) {
	if s == nil {
		b.WriteByte('~')
		return
	}
	b.WriteByte('=')
	b.WriteString(strconv.Quote(*s))
}
