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

// Package createvalidation checks objects read from files as the API
// server's create validation would, for every field EndpointSlice
// production reads (Validate): slicekit render and check refuse input a
// cluster could not hold.
package createvalidation

import (
	"fmt"
	"net/netip"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits of the EndpointSlice API (k8s.io/kubernetes
// pkg/apis/discovery/validation).
const (
	maxSliceEndpoints = 1000
	maxSliceAddresses = 100
	maxSlicePorts     = 100
)

var (
	protocols          = []corev1.Protocol{corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP}
	serviceTypes       = []corev1.ServiceType{corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeExternalName}
	ipFamilies         = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	ipFamilyPolicies   = []corev1.IPFamilyPolicy{corev1.IPFamilyPolicySingleStack, corev1.IPFamilyPolicyPreferDualStack, corev1.IPFamilyPolicyRequireDualStack}
	trafficDistributes = []string{corev1.ServiceTrafficDistributionPreferClose, corev1.ServiceTrafficDistributionPreferSameZone, corev1.ServiceTrafficDistributionPreferSameNode}
	addressTypes       = []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6, discovery.AddressTypeFQDN}
	podPhases          = []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodUnknown}
	conditionStatuses  = []corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown}
)

// Validate checks obj as the API server's create validation would, for
// every field that EndpointSlice production reads, with apimachinery's
// validation (names, namespaces, labels, annotations and owner references
// through apivalidation.ValidateObjectMeta; label selectors through
// metav1validation; port numbers and names, IPs and DNS names through
// k8s.io/apimachinery/pkg/util/validation). The rules follow
// k8s.io/kubernetes pkg/apis/core/validation (ValidateService,
// ValidatePodSpec's container ports and hostname, ValidateEndpoints) and
// pkg/apis/discovery/validation (ValidateEndpointSlice). Fields that are
// defaulted by the API server may be empty (Service type and port
// protocol, Endpoints port protocol). Fields that EndpointSlice production
// does not read (container images, a Pod without containers) are not
// checked. It returns nil for a valid object
// and for kinds it does not know.
func Validate(obj runtime.Object) field.ErrorList {
	meta := field.NewPath("metadata")
	switch o := obj.(type) {
	case *corev1.Namespace:
		return apivalidation.ValidateObjectMeta(&o.ObjectMeta, false, apivalidation.NameIsDNSLabel, meta)
	case *corev1.Node:
		return apivalidation.ValidateObjectMeta(&o.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, meta)
	case *corev1.Service:
		// Service names are DNS-1123 labels since Kubernetes 1.37
		// (KEP-5311 RelaxedServiceNameValidation, GA and locked:
		// ValidateServiceName is NameIsDNSLabel), so "1web" is valid.
		errs := apivalidation.ValidateObjectMeta(&o.ObjectMeta, true, apivalidation.NameIsDNSLabel, meta)
		return append(errs, validateService(o)...)
	case *corev1.Pod:
		errs := apivalidation.ValidateObjectMeta(&o.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, meta)
		return append(errs, validatePod(o)...)
	case *corev1.Endpoints:
		errs := apivalidation.ValidateObjectMeta(&o.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, meta)
		return append(errs, validateEndpoints(o)...)
	case *discovery.EndpointSlice:
		errs := apivalidation.ValidateObjectMeta(&o.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, meta)
		return append(errs, validateEndpointSlice(o)...)
	}
	return nil
}

// msgs turns validation messages into field errors for value at fld.
func msgs(fld *field.Path, value any, ms []string) field.ErrorList {
	var errs field.ErrorList
	for _, m := range ms {
		errs = append(errs, field.Invalid(fld, value, m))
	}
	return errs
}

func validateService(svc *corev1.Service) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if svc.Spec.Type != "" && !oneOf(svc.Spec.Type, serviceTypes) {
		errs = append(errs, field.NotSupported(spec.Child("type"), svc.Spec.Type, serviceTypes))
	}
	externalName := svc.Spec.Type == corev1.ServiceTypeExternalName
	if externalName {
		if svc.Spec.ExternalName == "" {
			errs = append(errs, field.Required(spec.Child("externalName"), "required for type ExternalName"))
		} else {
			errs = append(errs, msgs(spec.Child("externalName"), svc.Spec.ExternalName, validation.IsDNS1123Subdomain(strings.TrimSuffix(svc.Spec.ExternalName, ".")))...)
		}
	}
	// The selector is a label map (ValidateService uses ValidateLabels).
	errs = append(errs, metav1validation.ValidateLabels(svc.Spec.Selector, spec.Child("selector"))...)

	headless := svc.Spec.ClusterIP == corev1.ClusterIPNone
	if len(svc.Spec.Ports) == 0 && !headless && !externalName {
		errs = append(errs, field.Required(spec.Child("ports"), "a Service that is not headless needs at least one port"))
	}
	names := sets.New[string]()
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		fld := spec.Child("ports").Index(i)
		errs = append(errs, validateNamedPort(fld, p.Name, p.Port, p.Protocol, len(svc.Spec.Ports) > 1, "the Service", names)...)
		errs = append(errs, validateTargetPort(fld.Child("targetPort"), p.TargetPort)...)
		if p.NodePort != 0 {
			errs = append(errs, msgs(fld.Child("nodePort"), p.NodePort, validation.IsValidPortNum(int(p.NodePort)))...)
		}
	}

	// Strict IP parsing (no leading zeros, no IPv4-mapped IPv6), as the API
	// server validates a new Service (StrictIPCIDRValidation, locked on).
	if svc.Spec.ClusterIP != "" && !headless {
		errs = append(errs, validation.IsValidIPForLegacyField(spec.Child("clusterIP"), svc.Spec.ClusterIP, true, nil)...)
	}
	if len(svc.Spec.ClusterIPs) > 2 {
		errs = append(errs, field.TooMany(spec.Child("clusterIPs"), len(svc.Spec.ClusterIPs), 2))
	}
	for i, ip := range svc.Spec.ClusterIPs {
		fld := spec.Child("clusterIPs").Index(i)
		if ip == corev1.ClusterIPNone {
			if i > 0 || len(svc.Spec.ClusterIPs) > 1 {
				errs = append(errs, field.Invalid(fld, ip, `"None" must be the only cluster IP`))
			}
			continue
		}
		errs = append(errs, validation.IsValidIPForLegacyField(fld, ip, true, nil)...)
	}
	if len(svc.Spec.ClusterIPs) == 2 {
		f0, ok0 := familyOf(svc.Spec.ClusterIPs[0])
		f1, ok1 := familyOf(svc.Spec.ClusterIPs[1])
		if ok0 && ok1 && f0 == f1 {
			errs = append(errs, field.Invalid(spec.Child("clusterIPs"), svc.Spec.ClusterIPs, "may specify no more than one IP for each IP family"))
		}
	}
	if len(svc.Spec.ClusterIPs) > 0 && svc.Spec.ClusterIP != "" && svc.Spec.ClusterIPs[0] != svc.Spec.ClusterIP {
		errs = append(errs, field.Invalid(spec.Child("clusterIPs").Index(0), svc.Spec.ClusterIPs[0], "must match spec.clusterIP"))
	}
	if len(svc.Spec.IPFamilies) > 2 {
		errs = append(errs, field.TooMany(spec.Child("ipFamilies"), len(svc.Spec.IPFamilies), 2))
	}
	seen := map[corev1.IPFamily]bool{}
	for i, f := range svc.Spec.IPFamilies {
		fld := spec.Child("ipFamilies").Index(i)
		switch {
		case !oneOf(f, ipFamilies):
			errs = append(errs, field.NotSupported(fld, f, ipFamilies))
		case seen[f]:
			errs = append(errs, field.Duplicate(fld, f))
		}
		seen[f] = true
		if i < len(svc.Spec.ClusterIPs) && svc.Spec.ClusterIPs[i] != corev1.ClusterIPNone {
			if fam, ok := familyOf(svc.Spec.ClusterIPs[i]); ok && fam != f {
				errs = append(errs, field.Invalid(fld, f, fmt.Sprintf("does not match spec.clusterIPs[%d] (%s)", i, fam)))
			}
		}
	}
	if p := svc.Spec.IPFamilyPolicy; p != nil && !oneOf(*p, ipFamilyPolicies) {
		errs = append(errs, field.NotSupported(spec.Child("ipFamilyPolicy"), *p, ipFamilyPolicies))
	}
	// A policy not given is SingleStack on create (RequireDualStack for a
	// headless Service without selector), and SingleStack allows one
	// cluster IP and one family (k8s.io/kubernetes
	// pkg/registry/core/service/storage/alloc.go initIPFamilyFields).
	policy := corev1.IPFamilyPolicySingleStack
	switch {
	case svc.Spec.IPFamilyPolicy != nil:
		policy = *svc.Spec.IPFamilyPolicy
	case headless && len(svc.Spec.Selector) == 0:
		policy = corev1.IPFamilyPolicyRequireDualStack
	}
	singleStack := policy == corev1.IPFamilyPolicySingleStack
	if singleStack && !externalName {
		if len(svc.Spec.ClusterIPs) == 2 {
			errs = append(errs, field.Invalid(spec.Child("ipFamilyPolicy"), svc.Spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(svc.Spec.IPFamilies) == 2 {
			errs = append(errs, field.Invalid(spec.Child("ipFamilyPolicy"), svc.Spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
	}
	if td := svc.Spec.TrafficDistribution; td != nil && !oneOf(*td, trafficDistributes) {
		errs = append(errs, field.NotSupported(spec.Child("trafficDistribution"), *td, trafficDistributes))
	}
	return errs
}

// validateTargetPort accepts 0 (defaulted to the port), a port number or
// a port name.
func validateTargetPort(fld *field.Path, tp intstr.IntOrString) field.ErrorList {
	if tp.Type == intstr.String {
		return msgs(fld, tp.StrVal, validation.IsValidPortName(tp.StrVal))
	}
	if tp.IntVal == 0 {
		return nil
	}
	return msgs(fld, tp.IntVal, validation.IsValidPortNum(int(tp.IntVal)))
}

func validatePod(pod *corev1.Pod) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if pod.Spec.NodeName != "" {
		errs = append(errs, msgs(spec.Child("nodeName"), pod.Spec.NodeName, validation.IsDNS1123Subdomain(pod.Spec.NodeName))...)
	}
	if pod.Spec.Hostname != "" {
		errs = append(errs, msgs(spec.Child("hostname"), pod.Spec.Hostname, validation.IsDNS1123Label(pod.Spec.Hostname))...)
	}
	if pod.Spec.Subdomain != "" {
		errs = append(errs, msgs(spec.Child("subdomain"), pod.Spec.Subdomain, validation.IsDNS1123Label(pod.Spec.Subdomain))...)
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		fld := spec.Child("containers").Index(i)
		// Port names are unique per container, not per Pod (validateContainerPorts
		// in k8s.io/kubernetes pkg/apis/core/validation): two containers may
		// both name a port "dns" (testdata/cases/23-named-port-protocol).
		portNames := sets.New[string]()
		if c.Name == "" {
			errs = append(errs, field.Required(fld.Child("name"), ""))
		} else {
			errs = append(errs, msgs(fld.Child("name"), c.Name, validation.IsDNS1123Label(c.Name))...)
		}
		for j := range c.Ports {
			p := &c.Ports[j]
			pf := fld.Child("ports").Index(j)
			if p.Name != "" {
				errs = append(errs, msgs(pf.Child("name"), p.Name, validation.IsValidPortName(p.Name))...)
				if portNames.Has(p.Name) {
					errs = append(errs, field.Duplicate(pf.Child("name"), p.Name))
				}
				portNames.Insert(p.Name)
			}
			errs = append(errs, msgs(pf.Child("containerPort"), p.ContainerPort, validation.IsValidPortNum(int(p.ContainerPort)))...)
			if p.Protocol != "" && !oneOf(p.Protocol, protocols) {
				errs = append(errs, field.NotSupported(pf.Child("protocol"), p.Protocol, protocols))
			}
		}
	}

	status := field.NewPath("status")
	if pod.Status.Phase != "" && !oneOf(pod.Status.Phase, podPhases) {
		errs = append(errs, field.NotSupported(status.Child("phase"), pod.Status.Phase, podPhases))
	}
	if pod.Status.PodIP != "" {
		errs = append(errs, validation.IsValidIPForLegacyField(status.Child("podIP"), pod.Status.PodIP, true, nil)...)
	}
	if len(pod.Status.PodIPs) > 2 {
		errs = append(errs, field.TooMany(status.Child("podIPs"), len(pod.Status.PodIPs), 2))
	}
	var fams []corev1.IPFamily
	for i, ip := range pod.Status.PodIPs {
		fld := status.Child("podIPs").Index(i).Child("ip")
		ipErrs := validation.IsValidIPForLegacyField(fld, ip.IP, true, nil)
		errs = append(errs, ipErrs...)
		if len(ipErrs) == 0 {
			fam, _ := familyOf(ip.IP)
			for _, f := range fams {
				if f == fam {
					errs = append(errs, field.Invalid(fld, ip.IP, "only one IP of each family is allowed"))
				}
			}
			fams = append(fams, fam)
		}
	}
	if len(pod.Status.PodIPs) > 0 && pod.Status.PodIP != "" && pod.Status.PodIPs[0].IP != pod.Status.PodIP {
		errs = append(errs, field.Invalid(status.Child("podIPs").Index(0).Child("ip"), pod.Status.PodIPs[0].IP, "must match status.podIP"))
	}
	for i, c := range pod.Status.Conditions {
		fld := status.Child("conditions").Index(i)
		if c.Type == "" {
			errs = append(errs, field.Required(fld.Child("type"), ""))
		}
		if !oneOf(c.Status, conditionStatuses) {
			errs = append(errs, field.NotSupported(fld.Child("status"), c.Status, conditionStatuses))
		}
	}
	return errs
}

func validateEndpoints(ep *corev1.Endpoints) field.ErrorList {
	var errs field.ErrorList
	for i := range ep.Subsets {
		ss := &ep.Subsets[i]
		fld := field.NewPath("subsets").Index(i)
		if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, field.Required(fld, "must specify `addresses` or `notReadyAddresses`"))
		}
		for _, list := range []struct {
			name  string
			addrs []corev1.EndpointAddress
		}{{"addresses", ss.Addresses}, {"notReadyAddresses", ss.NotReadyAddresses}} {
			for j := range list.addrs {
				a := &list.addrs[j]
				af := fld.Child(list.name).Index(j)
				errs = append(errs, validateEndpointIP(af.Child("ip"), a.IP)...)
				if a.Hostname != "" {
					errs = append(errs, msgs(af.Child("hostname"), a.Hostname, validation.IsDNS1123Label(a.Hostname))...)
				}
				if a.NodeName != nil {
					errs = append(errs, msgs(af.Child("nodeName"), *a.NodeName, validation.IsDNS1123Subdomain(*a.NodeName))...)
				}
			}
		}
		names := sets.New[string]()
		for j := range ss.Ports {
			p := &ss.Ports[j]
			pf := fld.Child("ports").Index(j)
			errs = append(errs, validateNamedPort(pf, p.Name, p.Port, p.Protocol, len(ss.Ports) > 1, "the subset", names)...)
		}
	}
	return errs
}

// validateEndpointIP is core validation's ValidateEndpointIP: a valid IP
// that is not unspecified, loopback, link-local or link-local multicast.
func validateEndpointIP(fld *field.Path, ip string) field.ErrorList {
	errs := validation.IsValidIPForLegacyField(fld, ip, false, nil)
	if len(errs) > 0 {
		return errs
	}
	addr, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		// IsValidIPForLegacyField accepts leading zeros, netip does not.
		return nil
	}
	addr = addr.Unmap()
	switch {
	case addr.IsUnspecified():
		errs = append(errs, field.Invalid(fld, ip, "may not be unspecified (0.0.0.0 or ::)"))
	case addr.IsLoopback():
		errs = append(errs, field.Invalid(fld, ip, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	case addr.IsLinkLocalUnicast():
		errs = append(errs, field.Invalid(fld, ip, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	case addr.IsLinkLocalMulticast():
		errs = append(errs, field.Invalid(fld, ip, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return errs
}

func validateEndpointSlice(s *discovery.EndpointSlice) field.ErrorList {
	var errs field.ErrorList
	if !oneOf(s.AddressType, addressTypes) {
		errs = append(errs, field.NotSupported(field.NewPath("addressType"), s.AddressType, addressTypes))
	}
	if len(s.Endpoints) > maxSliceEndpoints {
		errs = append(errs, field.TooMany(field.NewPath("endpoints"), len(s.Endpoints), maxSliceEndpoints))
	}
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		fld := field.NewPath("endpoints").Index(i)
		switch n := len(e.Addresses); {
		case n == 0:
			errs = append(errs, field.Required(fld.Child("addresses"), "must contain at least 1 address"))
		case n > maxSliceAddresses:
			errs = append(errs, field.TooMany(fld.Child("addresses"), n, maxSliceAddresses))
		}
		for j, a := range e.Addresses {
			af := fld.Child("addresses").Index(j)
			switch s.AddressType {
			case discovery.AddressTypeIPv4, discovery.AddressTypeIPv6:
				ipErrs := validateEndpointIP(af, a)
				errs = append(errs, ipErrs...)
				if fam, ok := familyOf(a); len(ipErrs) == 0 && ok && string(fam) != string(s.AddressType) {
					errs = append(errs, field.Invalid(af, a, "must be an "+string(s.AddressType)+" address"))
				}
			case discovery.AddressTypeFQDN:
				errs = append(errs, msgs(af, a, validation.IsDNS1123Subdomain(a))...)
			}
		}
		if e.Hostname != nil {
			errs = append(errs, msgs(fld.Child("hostname"), *e.Hostname, validation.IsDNS1123Label(*e.Hostname))...)
		}
		if e.NodeName != nil {
			errs = append(errs, msgs(fld.Child("nodeName"), *e.NodeName, validation.IsDNS1123Subdomain(*e.NodeName))...)
		}
	}
	if len(s.Ports) > maxSlicePorts {
		errs = append(errs, field.TooMany(field.NewPath("ports"), len(s.Ports), maxSlicePorts))
	}
	names := sets.New[string]()
	for i := range s.Ports {
		p := &s.Ports[i]
		fld := field.NewPath("ports").Index(i)
		if p.Name != nil && *p.Name != "" {
			errs = append(errs, msgs(fld.Child("name"), *p.Name, validation.IsDNS1123Label(*p.Name))...)
		}
		name := ""
		if p.Name != nil {
			name = *p.Name
		}
		if names.Has(name) {
			errs = append(errs, field.Duplicate(fld.Child("name"), name))
		}
		names.Insert(name)
		// A missing protocol is defaulted to TCP before validation, as the
		// API server does (DefaultProtocols).
		if p.Protocol != nil && !oneOf(*p.Protocol, protocols) {
			errs = append(errs, field.NotSupported(fld.Child("protocol"), *p.Protocol, protocols))
		}
		if p.Port != nil {
			errs = append(errs, msgs(fld.Child("port"), *p.Port, validation.IsInRange(int(*p.Port), 1, 65535))...)
		}
	}
	return errs
}

// familyOf returns the IP family of a parseable IP.
func familyOf(ip string) (corev1.IPFamily, bool) {
	addr, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return "", false
	}
	if addr.Unmap().Is4() {
		return corev1.IPv4Protocol, true
	}
	return corev1.IPv6Protocol, true
}

// validateNamedPort checks a Service port or an Endpoints subset port at
// fld as the API server does: a name (a DNS-1123 label, unique among
// names, which records it) is required when owner has more than one port
// (many); the port number and the protocol must be valid.
func validateNamedPort(fld *field.Path, name string, port int32, protocol corev1.Protocol, many bool, owner string, names sets.Set[string]) field.ErrorList {
	var errs field.ErrorList
	switch {
	case name == "" && many:
		errs = append(errs, field.Required(fld.Child("name"), "required when "+owner+" has more than one port"))
	case name != "":
		errs = append(errs, msgs(fld.Child("name"), name, validation.IsDNS1123Label(name))...)
		if names.Has(name) {
			errs = append(errs, field.Duplicate(fld.Child("name"), name))
		}
		names.Insert(name)
	}
	errs = append(errs, msgs(fld.Child("port"), port, validation.IsValidPortNum(int(port)))...)
	if protocol != "" && !oneOf(protocol, protocols) {
		errs = append(errs, field.NotSupported(fld.Child("protocol"), protocol, protocols))
	}
	return errs
}

func oneOf[T comparable](v T, allowed []T) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}
