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
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// ParseCIDRs parses a comma-separated list of CIDRs, the form of
// kube-apiserver's --service-cluster-ip-range (which takes at most one per
// family; slicekit takes any number). Spaces around elements are ignored;
// an empty s gives nil. Each CIDR is masked (10.96.0.1/12 is 10.96.0.0/12)
// and an IPv4-mapped IPv6 prefix is refused, as the API server refuses it
// in a ServiceCIDR. It returns an error naming every invalid element.
func ParseCIDRs(s string) ([]netip.Prefix, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []netip.Prefix
	var errs []error
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			errs = append(errs, errors.New("empty CIDR"))
			continue
		}
		p, err := netip.ParsePrefix(e)
		if err != nil {
			errs = append(errs, fmt.Errorf("%q is not a CIDR", e))
			continue
		}
		if p.Addr().Is4In6() || p.Addr().Zone() != "" {
			errs = append(errs, fmt.Errorf("%q: IPv4-mapped or zoned IPv6 CIDRs are not accepted", e))
			continue
		}
		out = append(out, p.Masked())
	}
	return out, errors.Join(errs...)
}

// ParseAllowedCIDRs parses the entries of --pod-address-allowed-cidrs, each
// "<controller name>=<CIDR>[,<CIDR>...]", into the allow-list of each
// controller (the managed-by value of a pod-address controller: the
// secondary-network controller's name, a CEL profile's name). A name may
// appear in several entries; its CIDRs add up. The name must be a valid
// label value (it is one on the Service and the slices). It returns an
// error naming every invalid entry.
func ParseAllowedCIDRs(entries []string) (map[string][]netip.Prefix, error) {
	var errs []error
	out := map[string][]netip.Prefix{}
	for _, e := range entries {
		name, cidrs, ok := strings.Cut(e, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			errs = append(errs, fmt.Errorf("%q: want <controller name>=<CIDR>[,<CIDR>...]", e))
			continue
		}
		if msgs := validation.IsValidLabelValue(name); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("%q: controller name %q is not a label value: %s", e, name, strings.Join(msgs, "; ")))
			continue
		}
		ps, err := ParseCIDRs(cidrs)
		if err != nil {
			errs = append(errs, fmt.Errorf("%q: %w", e, err))
			continue
		}
		if len(ps) == 0 {
			errs = append(errs, fmt.Errorf("%q: no CIDR", e))
			continue
		}
		out[name] = append(out[name], ps...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// containing returns the first prefix of ps that contains addr.
func containing(ps []netip.Prefix, addr netip.Addr) (netip.Prefix, bool) {
	for _, p := range ps {
		if p.Contains(addr) {
			return p, true
		}
	}
	return netip.Prefix{}, false
}
