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

package addressguard

import (
	"net/netip"
	"strings"
	"testing"
)

// FuzzParseCIDRs checks that ParseCIDRs and ParseAllowedCIDRs never panic,
// that every prefix they accept is masked, valid and not IPv4-mapped, and
// that ParseCIDRs round-trips what it accepts.
func FuzzParseCIDRs(f *testing.F) {
	for _, s := range []string{"", "10.96.0.0/12", "10.96.0.1/12, fd00:10:96::/112", "a", ",", "10.0.0.0/8,,", "::ffff:1.2.3.4/128",
		"fe80::%x/64", "1.2.3.4/0", "n=10.0.0.0/8", "=", "a=b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParseCIDRs(s)
		if err == nil {
			var strs []string
			for _, p := range ps {
				if !p.IsValid() || p != p.Masked() || p.Addr().Is4In6() {
					t.Fatalf("ParseCIDRs(%q) accepted %v", s, p)
				}
				strs = append(strs, p.String())
			}
			again, err := ParseCIDRs(strings.Join(strs, ","))
			if err != nil || len(again) != len(ps) {
				t.Fatalf("round trip of %q: %v %v", s, again, err)
			}
			for i := range ps {
				if again[i] != ps[i] {
					t.Fatalf("round trip of %q: %v != %v", s, again, ps)
				}
			}
		}
		m, err := ParseAllowedCIDRs(strings.Split(s, ";"))
		if err == nil {
			for name, ps := range m {
				if name == "" || len(ps) == 0 {
					t.Fatalf("ParseAllowedCIDRs(%q) accepted %q=%v", s, name, ps)
				}
				for _, p := range ps {
					if !p.IsValid() || p != p.Masked() {
						t.Fatalf("ParseAllowedCIDRs(%q) accepted %v", s, p)
					}
					_ = p.Contains(netip.IPv4Unspecified())
				}
			}
		}
	})
}
