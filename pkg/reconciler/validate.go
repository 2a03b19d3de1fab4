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
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"strings"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// The checks of what a caller hands the reconciler: a caller's mistake is
// an error before any write, never a panic and never a plan that deletes
// what the caller meant to keep.

// ErrInvalidInput is wrapped by every error the reconciler returns for an
// input it refuses before planning: a nil or typed-nil owner, an owner
// without a namespace or name, a nil Desired, a nil Plan, a nil lister,
// an Index never Reset, an unsupported address type, or an endpoint the
// API server would refuse (see ValidateEndpoint). Test with errors.Is.
var ErrInvalidInput = errors.New("invalid input")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidInput}, args...)...)
}

// isNil reports whether v is nil or a nil pointer, map, slice, func or
// interface held in an interface (a typed nil, such as a nil *v1.Service
// passed as an Owner).
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return rv.IsNil()
	}
	return false
}

// checkOwner refuses a nil or typed-nil owner and one without a namespace
// or name: the slices' names, service-name label and owner reference are
// made of them, and EndpointSlices are namespaced.
func checkOwner(what string, owner Owner) error {
	if isNil(owner) {
		return invalid("%s: owner is nil", what)
	}
	if owner.GetNamespace() == "" || owner.GetName() == "" {
		return invalid("%s: owner %q in namespace %q: an owner needs a namespace and a name", what, owner.GetName(), owner.GetNamespace())
	}
	return nil
}

// validateDesired refuses a nil Desired, an address type other than IPv4,
// IPv6 and FQDN, and an endpoint of a listed address type that the API
// server would refuse.
func validateDesired(desired *Desired) error {
	if desired == nil {
		return invalid("desired is nil (an owner that should have no slices is &Desired{AddressTypes: its address types})")
	}
	for _, at := range desired.AddressTypes {
		if !supportedAddressType(at) {
			return invalid("address type %q is not IPv4, IPv6 or FQDN", at)
		}
	}
	for gi := range desired.Groups {
		g := &desired.Groups[gi]
		if !containsAddressType(desired.AddressTypes, g.AddressType) {
			continue // documented: ignored
		}
		for ei := range g.Endpoints {
			if err := ValidateEndpoint(g.AddressType, &g.Endpoints[ei]); err != nil {
				return fmt.Errorf("group %d (%s) endpoint %d: %w", gi, g.AddressType, ei, err)
			}
		}
	}
	return nil
}

func supportedAddressType(at discovery.AddressType) bool {
	return at == discovery.AddressTypeIPv4 || at == discovery.AddressTypeIPv6 || at == discovery.AddressTypeFQDN
}

// ValidateEndpoint returns an error wrapping ErrInvalidInput when the API
// server would refuse ep in a slice of addressType, as the rules of
// k8s.io/kubernetes v1.37.2 pkg/apis/discovery/validation
// (validateEndpoints) and pkg/apis/core/validation (ValidateEndpointIP)
// have it: an IPv4 slice's addresses are IPv4 addresses (the legacy,
// non-strict parse, so leading zeros pass as they do on a server without
// StrictIPCIDRValidation), an IPv6 slice's IPv6 ones, neither unspecified,
// loopback, link-local or link-local multicast; an FQDN slice's are fully
// qualified domain names; the hostname, when set, is a DNS-1123 label. An
// endpoint with no address returns nil: the reconciler ignores it (see
// EndpointGroup). It returns nil for a valid endpoint.
func ValidateEndpoint(addressType discovery.AddressType, ep *discovery.Endpoint) error {
	if ep == nil {
		return invalid("endpoint is nil")
	}
	var errs field.ErrorList
	for i, a := range ep.Addresses {
		if validEndpointIP(addressType, a) {
			continue // the common case, without allocating
		}
		p := field.NewPath("addresses").Index(i)
		switch addressType {
		case discovery.AddressTypeIPv4:
			if e := validation.IsValidIPForLegacyField(p, a, false, nil); len(e) > 0 {
				errs = append(errs, e...)
				continue
			}
			if !netutils.IsIPv4String(a) {
				errs = append(errs, field.Invalid(p, a, "must be an IPv4 address"))
				continue
			}
			errs = append(errs, endpointIP(p, a)...)
		case discovery.AddressTypeIPv6:
			if e := validation.IsValidIP(p, a); len(e) > 0 {
				errs = append(errs, e...)
				continue
			}
			if !netutils.IsIPv6String(a) {
				errs = append(errs, field.Invalid(p, a, "must be an IPv6 address"))
				continue
			}
			errs = append(errs, endpointIP(p, a)...)
		case discovery.AddressTypeFQDN:
			errs = append(errs, validation.IsFullyQualifiedDomainName(p, a)...)
		default:
			return invalid("address type %q is not IPv4, IPv6 or FQDN", addressType)
		}
	}
	if ep.Hostname != nil {
		for _, msg := range validation.IsDNS1123Label(*ep.Hostname) {
			errs = append(errs, field.Invalid(field.NewPath("hostname"), *ep.Hostname, msg))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	return invalid("endpoint %v: %s", ep.Addresses, strings.Join(msgs, "; "))
}

// validEndpointIP reports, without allocating, whether a is an address in
// its canonical form of addressType (IPv4 or IPv6) that ValidateEndpoint
// accepts. false sends a to the full checks, which name what is wrong (or
// accept the legacy forms, such as an IPv4 address with leading zeros).
func validEndpointIP(addressType discovery.AddressType, a string) bool {
	ip, err := netip.ParseAddr(a)
	if err != nil || ip.Zone() != "" || ip.IsUnspecified() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() {
		return false
	}
	var buf [64]byte
	switch addressType {
	case discovery.AddressTypeIPv4:
		return ip.Is4()
	case discovery.AddressTypeIPv6:
		return ip.Is6() && !ip.Is4In6() && string(ip.AppendTo(buf[:0])) == a
	}
	return false
}

// endpointIP is ValidateEndpointIP of k8s.io/kubernetes pkg/apis/core/validation.
func endpointIP(p *field.Path, a string) field.ErrorList {
	ip := netutils.ParseIPSloppy(a)
	var errs field.ErrorList
	switch {
	case ip == nil:
		errs = append(errs, field.Invalid(p, a, "must be a valid IP address"))
	case ip.IsUnspecified():
		errs = append(errs, field.Invalid(p, a, "may not be unspecified"))
	case ip.IsLoopback():
		errs = append(errs, field.Invalid(p, a, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	case ip.IsLinkLocalUnicast():
		errs = append(errs, field.Invalid(p, a, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	case ip.IsLinkLocalMulticast():
		errs = append(errs, field.Invalid(p, a, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return errs
}
