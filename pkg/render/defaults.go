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

package render

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/slicekit/slicekit/internal/inputfile"
)

// Service IP ranges the defaulting allocates cluster IPs from: those of
// slicekit's local control plane (hack/localcluster, test/harness/testenv).
// The cluster IP itself never reaches an EndpointSlice; only its presence
// (not headless) and its family do.
var (
	serviceRangeIPv4 = netip.MustParsePrefix("10.96.0.0/16")
	serviceRangeIPv6 = netip.MustParsePrefix("fd00:10:96::/112")
)

// DefaultIPFamilies is the default of --service-ip-families: a
// single-stack IPv4 cluster, as kube-apiserver's default
// --service-cluster-ip-range.
var DefaultIPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}

// ParseIPFamilies parses the --service-ip-families value: "IPv4", "IPv6",
// "IPv4,IPv6" or "IPv6,IPv4" (the cluster's service IP families, primary
// first).
func ParseIPFamilies(s string) ([]corev1.IPFamily, error) {
	var out []corev1.IPFamily
	for _, f := range strings.Split(s, ",") {
		fam := corev1.IPFamily(strings.TrimSpace(f))
		if fam != corev1.IPv4Protocol && fam != corev1.IPv6Protocol {
			return nil, fmt.Errorf("%q is not IPv4 or IPv6", f)
		}
		if slices.Contains(out, fam) {
			return nil, fmt.Errorf("%s is given twice", fam)
		}
		out = append(out, fam)
	}
	return out, nil
}

// DefaultServices applies to every *corev1.Service in objs, in place, the
// part of the API server's Service defaulting and cluster IP allocation
// that EndpointSlice production depends on (k8s.io/kubernetes
// pkg/apis/core/v1/defaults.go SetDefaults_Service and
// pkg/registry/core/service/storage alloc.go):
//
//   - type "" becomes ClusterIP;
//   - a port's protocol "" becomes TCP and its targetPort 0 the port;
//   - a Service of type other than ExternalName without clusterIP gets one,
//     allocated in order from the 10th address of 10.96.0.0/16 or
//     fd00:10:96::/112 (skipping the IPs the input uses), for each of its families;
//   - ipFamilies: from the cluster IPs when given; else the Service's own;
//     else the cluster's (families, primary first): the primary one, both
//     for PreferDualStack on a dual-stack cluster, and both for
//     RequireDualStack;
//   - ipFamilyPolicy "" becomes SingleStack (RequireDualStack for a
//     headless Service without selector on a dual-stack cluster).
//
// It returns one note per Service it changed: "Service ns/name: defaulted
// type ClusterIP, clusterIP 10.96.0.10, ...". Only Services are touched;
// the objects must be the caller's own (ReadFiles' are).
func DefaultServices(objs []runtime.Object, families []corev1.IPFamily) []string {
	if len(families) == 0 {
		families = DefaultIPFamilies
	}
	used := map[netip.Addr]bool{}
	for _, o := range objs {
		if svc, ok := o.(*corev1.Service); ok {
			for _, ip := range append([]string{svc.Spec.ClusterIP}, svc.Spec.ClusterIPs...) {
				if a, err := netip.ParseAddr(ip); err == nil {
					used[a] = true
				}
			}
		}
	}
	// Start at the range's 10th address: the first is the kubernetes
	// Service's, and low ones are often taken by hand (DNS at .10 is
	// skipped only when the input uses it).
	first := func(p netip.Prefix) netip.Addr {
		a := p.Addr()
		for range 10 {
			a = a.Next()
		}
		return a
	}
	next := map[corev1.IPFamily]netip.Addr{
		corev1.IPv4Protocol: first(serviceRangeIPv4),
		corev1.IPv6Protocol: first(serviceRangeIPv6),
	}
	allocate := func(fam corev1.IPFamily) string {
		a := next[fam]
		for used[a] {
			a = a.Next()
		}
		used[a] = true
		next[fam] = a.Next()
		return a.String()
	}

	var notes []string
	for _, o := range objs {
		svc, ok := o.(*corev1.Service)
		if !ok {
			continue
		}
		var changed []string
		note := func(format string, args ...any) { changed = append(changed, fmt.Sprintf(format, args...)) }
		spec := &svc.Spec
		if spec.Type == "" {
			spec.Type = corev1.ServiceTypeClusterIP
			note("type %s", spec.Type)
		}
		for i := range spec.Ports {
			p := &spec.Ports[i]
			if p.Protocol == "" {
				p.Protocol = corev1.ProtocolTCP
				note("ports[%d].protocol %s", i, p.Protocol)
			}
			if p.TargetPort.Type == intstr.Int && p.TargetPort.IntVal == 0 {
				p.TargetPort = intstr.FromInt32(p.Port)
				note("ports[%d].targetPort %d", i, p.Port)
			}
		}
		if spec.Type == corev1.ServiceTypeExternalName {
			if len(changed) > 0 {
				notes = append(notes, fmt.Sprintf("Service %s/%s: defaulted %s", svc.Namespace, svc.Name, strings.Join(changed, ", ")))
			}
			continue
		}
		if spec.ClusterIP == "" && len(spec.ClusterIPs) > 0 {
			spec.ClusterIP = spec.ClusterIPs[0]
			note("clusterIP %s", spec.ClusterIP)
		}
		headless := spec.ClusterIP == corev1.ClusterIPNone
		policy := corev1.IPFamilyPolicySingleStack
		if spec.IPFamilyPolicy != nil {
			policy = *spec.IPFamilyPolicy
		} else if headless && len(spec.Selector) == 0 && len(families) > 1 {
			policy = corev1.IPFamilyPolicyRequireDualStack
		}
		if len(spec.IPFamilies) == 0 {
			var fams []corev1.IPFamily
			switch {
			case spec.ClusterIP != "" && !headless:
				for _, ip := range append([]string{spec.ClusterIP}, spec.ClusterIPs...) {
					if a, err := netip.ParseAddr(ip); err == nil {
						fam := familyOfAddr(a)
						if !slices.Contains(fams, fam) {
							fams = append(fams, fam)
						}
					}
				}
				if policy != corev1.IPFamilyPolicySingleStack && len(fams) == 1 && (len(families) > 1 || policy == corev1.IPFamilyPolicyRequireDualStack) {
					fams = append(fams, otherFamily(fams[0]))
				}
			default:
				fams = []corev1.IPFamily{families[0]}
				switch {
				case policy == corev1.IPFamilyPolicyRequireDualStack:
					fams = append(fams, otherFamily(families[0]))
				case policy == corev1.IPFamilyPolicyPreferDualStack && len(families) > 1:
					fams = append(fams, families[1])
				}
			}
			if len(fams) > 0 {
				spec.IPFamilies = fams
				note("ipFamilies %v", fams)
			}
		}
		if spec.IPFamilyPolicy == nil {
			p := policy
			if len(spec.IPFamilies) > 1 && p == corev1.IPFamilyPolicySingleStack {
				p = corev1.IPFamilyPolicyPreferDualStack
			}
			spec.IPFamilyPolicy = &p
			note("ipFamilyPolicy %s", p)
		}
		if spec.ClusterIP == "" {
			for _, fam := range spec.IPFamilies {
				spec.ClusterIPs = append(spec.ClusterIPs, allocate(fam))
			}
			if len(spec.ClusterIPs) > 0 {
				spec.ClusterIP = spec.ClusterIPs[0]
				note("clusterIPs %v (allocated)", spec.ClusterIPs)
			}
		} else if len(spec.ClusterIPs) == 0 {
			spec.ClusterIPs = []string{spec.ClusterIP}
			if !headless {
				// A second family asked for gets a second IP.
				for _, fam := range spec.IPFamilies[min(1, len(spec.IPFamilies)):] {
					if a, err := netip.ParseAddr(spec.ClusterIP); err == nil && familyOfAddr(a) != fam {
						spec.ClusterIPs = append(spec.ClusterIPs, allocate(fam))
					}
				}
			}
			note("clusterIPs %v", spec.ClusterIPs)
		}
		if len(changed) > 0 {
			notes = append(notes, fmt.Sprintf("Service %s/%s: defaulted %s", svc.Namespace, svc.Name, strings.Join(changed, ", ")))
		}
	}
	return notes
}

func familyOfAddr(a netip.Addr) corev1.IPFamily {
	if a.Unmap().Is4() {
		return corev1.IPv4Protocol
	}
	return corev1.IPv6Protocol
}

func otherFamily(f corev1.IPFamily) corev1.IPFamily {
	if f == corev1.IPv4Protocol {
		return corev1.IPv6Protocol
	}
	return corev1.IPv4Protocol
}

// DefaultProtocols applies to objs, in place, the API server's port
// protocol defaults that EndpointSlice production depends on
// (inputfile.DefaultProtocols: k8s.io/kubernetes pkg/apis/core/v1/defaults.go
// SetDefaults_ContainerPort and SetDefaults_EndpointPort,
// pkg/apis/discovery/v1/defaults.go): a Pod container's or init container's
// port protocol "" becomes TCP (a named targetPort matches a container port
// by name and protocol, so without it the port would not be found), and so
// does an Endpoints port's "" and an EndpointSlice port's missing protocol.
// It returns the number of ports it defaulted; the objects must be the
// caller's own (ReadFiles' are).
func DefaultProtocols(objs []runtime.Object) int {
	return inputfile.DefaultProtocols(objs)
}

// serviceRanges returns the ranges render allocates
// cluster IPs from and a host prefix for every cluster IP the input's
// Services give: what the address guard refuses offline when
// --service-cluster-ip-range is not set, so that no pod-address source
// publishes a Service's address (docs/security.md).
func serviceRanges(objs []runtime.Object) []netip.Prefix {
	out := []netip.Prefix{serviceRangeIPv4, serviceRangeIPv6}
	seen := map[netip.Prefix]bool{}
	for _, o := range objs {
		svc, ok := o.(*corev1.Service)
		if !ok {
			continue
		}
		for _, ip := range append([]string{svc.Spec.ClusterIP}, svc.Spec.ClusterIPs...) {
			a, err := netip.ParseAddr(ip)
			if err != nil {
				continue // "", None
			}
			p := netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
			if !seen[p] && !serviceRangeIPv4.Contains(a.Unmap()) && !serviceRangeIPv6.Contains(a) {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}
