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

	corev1 "k8s.io/api/core/v1"
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
// without a namespace, name or UID or whose name is no label value, an
// existing slice of another namespace, a nil Desired, a nil Plan, a nil lister, an Index never Reset, an address type
// (of Desired.AddressTypes or of a group) other than IPv4, IPv6 and FQDN,
// a group's ports the API server would refuse, or an endpoint it would
// refuse (see ValidateEndpoint). Test with errors.Is.
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

// checkOwner refuses a nil or typed-nil owner, one without a namespace,
// name or UID, and one whose name is not a label value: the slices' names,
// service-name label and owner reference are made of them (the API server
// refuses a label value over 63 characters and an owner reference without
// a UID), and EndpointSlices are namespaced.
func checkOwner(what string, owner Owner) error {
	if isNil(owner) {
		return invalid("%s: owner is nil", what)
	}
	if owner.GetNamespace() == "" || owner.GetName() == "" {
		return invalid("%s: owner %q in namespace %q: an owner needs a namespace and a name", what, owner.GetName(), owner.GetNamespace())
	}
	if msgs := validation.IsValidLabelValue(owner.GetName()); len(msgs) > 0 {
		return invalid("%s: owner %s/%s: its name is the slices' service-name label value, and is not a label value: %s",
			what, owner.GetNamespace(), owner.GetName(), strings.Join(msgs, "; "))
	}
	if owner.GetUID() == "" {
		return invalid("%s: owner %s/%s has no UID (the slices' owner reference needs it; objects read from the API server have one, a fake clientset's do not: reconcilertest.NewClientset sets them)",
			what, owner.GetNamespace(), owner.GetName())
	}
	return nil
}

// checkExisting refuses an existing slice of another namespace than the
// owner's (a lister queried for the wrong namespace): its updates and
// deletes would be sent to the owner's namespace, where it is not. A
// slice without a namespace is taken as the owner's.
func checkExisting(owner Owner, existing []*discovery.EndpointSlice) error {
	ns := owner.GetNamespace()
	for _, s := range existing {
		if s != nil && s.Namespace != "" && s.Namespace != ns {
			return invalid("plan %s/%s: existing EndpointSlice %s/%s is in another namespace", ns, owner.GetName(), s.Namespace, s.Name)
		}
	}
	return nil
}

// validateDesired refuses a nil Desired, an address type (listed or of a
// group) other than IPv4, IPv6 and FQDN, and the ports and endpoints of a
// group of a listed address type that the API server would refuse. A
// group of a valid address type that AddressTypes does not list is
// ignored, as documented on Desired.
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
		if !supportedAddressType(g.AddressType) {
			// A typo or a forgotten field: ignoring the group would
			// delete the slices it should keep.
			return invalid("group %d: address type %q is not IPv4, IPv6 or FQDN", gi, g.AddressType)
		}
		if !containsAddressType(desired.AddressTypes, g.AddressType) {
			continue // documented: ignored
		}
		if err := validatePorts(g.Ports); err != nil {
			return fmt.Errorf("group %d (%s): %w", gi, g.AddressType, err)
		}
		for ei := range g.Endpoints {
			if err := ValidateEndpoint(g.AddressType, &g.Endpoints[ei]); err != nil {
				return fmt.Errorf("group %d (%s) endpoint %d: %w", gi, g.AddressType, ei, err)
			}
		}
	}
	return nil
}

// validatePorts returns an error wrapping ErrInvalidInput when the API
// server would refuse ports as a slice's port list (k8s.io/kubernetes
// v1.37.2 pkg/apis/discovery/validation validatePorts, after its defaults:
// a nil name is "", a nil protocol TCP): a name that is not a DNS-1123
// label, a name used twice, a protocol other than TCP, UDP and SCTP, an
// appProtocol that is not a qualified name. The API server checks no port
// number range here.
func validatePorts(ports []discovery.EndpointPort) error {
	var errs field.ErrorList
	for i := range ports {
		p := &ports[i]
		name := portName(p)
		if name != "" {
			for _, msg := range validation.IsDNS1123Label(name) {
				errs = append(errs, field.Invalid(portPath(i).Child("name"), name, msg))
			}
		}
		dup := false // a port list is short: compared pairwise, nothing allocated
		for j := range i {
			dup = dup || portName(&ports[j]) == name
		}
		if dup {
			errs = append(errs, field.Duplicate(portPath(i).Child("name"), name))
		}
		if p.Protocol != nil {
			switch *p.Protocol {
			case corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
			default:
				errs = append(errs, field.NotSupported(portPath(i).Child("protocol"), *p.Protocol, []string{"SCTP", "TCP", "UDP"}))
			}
		}
		if p.AppProtocol != nil {
			for _, msg := range validation.IsQualifiedName(*p.AppProtocol) {
				errs = append(errs, field.Invalid(portPath(i).Child("appProtocol"), *p.AppProtocol, msg))
			}
		}
	}
	return joinInvalid("ports", errs)
}

// portPath is the field path of the i-th port, built for errors only (a
// valid list allocates nothing).
func portPath(i int) *field.Path { return field.NewPath("ports").Index(i) }

// portName is p's name as the API server defaults it ("" for nil).
func portName(p *discovery.EndpointPort) string {
	if p.Name == nil {
		return ""
	}
	return *p.Name
}

// joinInvalid returns nil for no errors, else one error wrapping
// ErrInvalidInput that names what and every error.
func joinInvalid(what string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	return invalid("%s: %s", what, strings.Join(msgs, "; "))
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
// qualified domain names; at most 100 addresses; the hostname, when set,
// is a DNS-1123 label; the node name, when set and not empty, a DNS-1123
// subdomain (an empty one is left to the API server); at most eight zone
// and eight node hints, none twice, zone names label values and node
// names DNS-1123 subdomains. An endpoint with no address returns nil: the
// reconciler ignores it (see EndpointGroup). It returns nil for a valid
// endpoint.
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
	if len(ep.Addresses) > maxAddressesPerEndpoint {
		errs = append(errs, field.TooMany(field.NewPath("addresses"), len(ep.Addresses), maxAddressesPerEndpoint))
	}
	if ep.Hostname != nil {
		for _, msg := range validation.IsDNS1123Label(*ep.Hostname) {
			errs = append(errs, field.Invalid(field.NewPath("hostname"), *ep.Hostname, msg))
		}
	}
	if ep.NodeName != nil && *ep.NodeName != "" {
		// An empty one is left to the API server (which refuses it): the
		// mirroring controller copies what an Endpoints object holds, as
		// KCM does, and its differential test against KCM feeds it "".
		for _, msg := range validation.IsDNS1123Subdomain(*ep.NodeName) {
			errs = append(errs, field.Invalid(field.NewPath("nodeName"), *ep.NodeName, msg))
		}
	}
	if ep.Hints != nil {
		errs = append(errs, validateHints(ep.Hints)...)
	}
	if len(errs) == 0 {
		return nil
	}
	if len(ep.Addresses) > maxAddressesPerEndpoint {
		return joinInvalid(fmt.Sprintf("endpoint of %d addresses", len(ep.Addresses)), errs)
	}
	return joinInvalid(fmt.Sprintf("endpoint %v", ep.Addresses), errs)
}

// The API server's limits on an endpoint (k8s.io/kubernetes v1.37.2
// pkg/apis/discovery/validation: maxAddresses, maxZoneHints, maxNodeHints).
const (
	maxAddressesPerEndpoint = 100
	maxHintsPerEndpoint     = 8
)

// validateHints is validateHints of pkg/apis/discovery/validation: at most
// eight zone and eight node hints, no name twice, zone names label values,
// node names DNS-1123 subdomains.
func validateHints(h *discovery.EndpointHints) field.ErrorList {
	errs := hintNames("forZones", len(h.ForZones), func(i int) string { return h.ForZones[i].Name }, validation.IsValidLabelValue)
	return append(errs, hintNames("forNodes", len(h.ForNodes), func(i int) string { return h.ForNodes[i].Name }, validation.IsDNS1123Subdomain)...)
}

// hintNames returns the errors of one hint list of n entries whose i-th
// name is name(i): more than eight entries, a name given twice, or one
// valid refuses. A valid list allocates nothing.
func hintNames(list string, n int, name func(int) string, valid func(string) []string) field.ErrorList {
	if n > maxHintsPerEndpoint {
		return field.ErrorList{field.TooMany(field.NewPath("hints", list), n, maxHintsPerEndpoint)}
	}
	var errs field.ErrorList
	for i := range n {
		nm := name(i)
		dup := false
		for j := range i {
			dup = dup || name(j) == nm
		}
		msgs := valid(nm)
		if !dup && len(msgs) == 0 {
			continue // no path built for a valid name
		}
		p := field.NewPath("hints", list).Index(i).Child("name")
		if dup {
			errs = append(errs, field.Duplicate(p, nm))
		}
		for _, msg := range msgs {
			errs = append(errs, field.Invalid(p, nm, msg))
		}
	}
	return errs
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
