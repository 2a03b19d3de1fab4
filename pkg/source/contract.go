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

package source

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	utilnet "k8s.io/utils/net"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// Source is the one contract between a Service controller
// (pkg/slicecontroller) and a source of endpoints: given a
// Service, the Pods its Pod selector matches (read from an informer cache)
// and the Nodes, what are the Service's desired endpoints, and which Pods
// (or what about the Service) were left out and why. KCM's own rules
// (servicepods.Source), every pod-address source (PodAddresses, built by networkstatus
// and celpods) and any new source implement it. Implementations must not
// modify their arguments, which come from informer caches, and must be
// safe for concurrent use.
type Source interface {
	// Desired returns the desired endpoints of svc given pods, the Pods
	// its selector matches (the caller selects them and skips Services
	// that select no Pods), and nodes, plus the Problems found (Pods left
	// out, addresses taken away, Service-level problems), which are never
	// errors. Errors: with (nil, problems, err) nothing may be reconciled
	// (retry later); with a non-nil Desired and a non-nil error (Pods on
	// a missing Node, *podendpoint.SkippedPodError, KCM edge case E14)
	// the caller reconciles the partial Desired and then retries.
	Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Desired, []Problem, error)
	// PodUpdateMatters reports whether a Pod update may change Desired
	// beyond the fields KCM watches (labels, hostname, subdomain,
	// deletionTimestamp, Ready condition, Pod IPs;
	// servicepods.PodUpdateProjectionKey), for instance an annotation the
	// source reads. The controller then syncs the Pod's Services. It is
	// called only for updates that change the resourceVersion.
	PodUpdateMatters(oldPod, curPod *corev1.Pod) bool
}

// IncrementalSource is an optional capability of a Source: one whose
// endpoints of a Pod depend only on that Pod, its Node and the Service, so
// that a Pod event can update the Service's endpoints Pod by Pod instead
// of recomputing the whole Service. The Service controller
// (pkg/slicecontroller) discovers it by a type assertion on
// Options.Source and keeps, per Service, the index of every selected Pod's
// endpoints and what changed since the last sync; the source only says,
// for one Pod and one Service, what endpoints the Pod yields. A Source
// without it keeps the full path (Desired at every sync). servicepods.Source
// implements it; pod-address sources (PodAddresses) do not yet: their
// per-Pod step also reports Problems and may read more than the Pod (for
// instance a CEL profile), and would need a per-Pod Problem report first.
type IncrementalSource interface {
	Source
	// PodEndpoints returns what pod contributes to the desired endpoints
	// of svc, computed exactly as Desired computes it for that Pod, so
	// that the items of every selected Pod make Desired's result (the
	// cases of servicepods.PodItem): (nil, nil) when the Pod contributes
	// nothing; (item, nil); (item, *podendpoint.SkippedPodError) when the
	// Pod's Node is missing (the Pod's port group without endpoints);
	// (nil, error) when a lookup failed (nothing may be reconciled). It
	// must not modify its arguments, which come from informer caches.
	PodEndpoints(ctx context.Context, svc *corev1.Service, pod *corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Item, error)
	// SliceLayout returns the address types of svc's slices, in order,
	// and its topology hints: the AddressTypes and Hints of Desired's
	// result for svc.
	SliceLayout(svc *corev1.Service) ([]discovery.AddressType, reconciler.Hints)
}

// AddressFunc returns the IP addresses under which pod backs svc: the
// addresses of the pod's endpoints, instead of status.podIPs. It is called
// only for pods that may back a Service at all (podendpoint
// ShouldPodBeInEndpoints with terminating pods included). It must not
// modify svc or pod, which come from informer caches.
//
// Every returned string must be an IP address (surrounding spaces are
// ignored); see ParseEndpointIP. An empty result leaves the pod out without
// a Problem. A non-nil error leaves the pod out and becomes a Problem: the
// reason of a *SkipError, else ReasonAddressesFailed.
type AddressFunc func(ctx context.Context, svc *corev1.Service, pod *corev1.Pod) ([]string, error)

// ServingFunc returns whether pod is ready to serve for svc. It replaces
// the Pod Ready condition (podendpoint.IsPodReady) as the endpoint's
// serving condition; ready is then derived as in KCM. A non-nil error
// leaves the pod out, as for AddressFunc.
type ServingFunc func(ctx context.Context, svc *corev1.Service, pod *corev1.Pod) (bool, error)

// PodAddresses is a pod-address source: the endpoints are the Pods a
// Service selects, as in KCM, with addresses (and optionally the serving
// condition) other than status.podIPs. Only Addresses is required. It
// implements Source: its Desired method is the package function Desired
// applied to it, and PodUpdateMatters is its PodChanged.
type PodAddresses struct {
	// Addresses returns a pod's addresses. Required.
	Addresses AddressFunc
	// Serving, when not nil, replaces the Pod Ready rule for the serving
	// condition.
	Serving ServingFunc
	// CheckService, when not nil, validates a Service before its pods are
	// looked at. An error is a Service-level Problem (the reason of a
	// *SkipError, else ReasonInvalidService): the Service then gets no
	// endpoints (only placeholders), so that no address of a misconfigured
	// Service is ever published.
	CheckService func(ctx context.Context, svc *corev1.Service) error
	// AddressTypes, when not nil, replaces podendpoint.AddressTypes (the
	// Service's spec.ipFamilies, KCM behaviour C15) as the address types
	// of the Service's slices. It must return IPv4 and/or IPv6 only.
	AddressTypes func(svc *corev1.Service) []discovery.AddressType
	// PodChanged, when not nil, reports whether a Pod update may change
	// what Addresses or Serving return, beyond the fields KCM watches
	// (labels, hostname, subdomain, deletionTimestamp, Ready condition,
	// Pod IPs; k8s.io/endpointslice util.GetPodUpdateProjectionKey). The
	// controller then syncs the Pod's Services. It is called only for
	// updates that change the resourceVersion and must not modify its
	// arguments.
	PodChanged func(oldPod, curPod *corev1.Pod) bool
	// Guard, when not nil, checks every valid address Addresses returns
	// (see AddressGuard): a refused address is taken away from the Pod's
	// endpoints with a Problem of the guard's reason, and the Pod keeps
	// its other addresses. The Service controller sets it
	// (WithAddressGuard); sources leave it nil.
	Guard AddressGuard
}

// Validate reports whether s can be used: an error when s.Addresses is
// nil.
func (s PodAddresses) Validate() error {
	if s.Addresses == nil {
		return errors.New("source: PodAddresses.Addresses is nil")
	}
	return nil
}

// Desired returns Desired(ctx, svc, pods, nodes, s): see the package
// function for the rules and the errors.
func (s PodAddresses) Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Desired, []Problem, error) {
	return Desired(ctx, svc, pods, nodes, s)
}

// PodUpdateMatters returns s.PodChanged(oldPod, curPod), or false when
// s.PodChanged is nil.
func (s PodAddresses) PodUpdateMatters(oldPod, curPod *corev1.Pod) bool {
	return s.PodChanged != nil && s.PodChanged(oldPod, curPod)
}

// Reasons of Problems found by Desired itself. Sources add their own
// (for example networkstatus.ReasonAmbiguousAttachment). Reasons are
// UpperCamelCase, as Kubernetes event reasons are, and are the values of
// the reason label of the skipped-pods metrics.
const (
	// ReasonAddressesFailed: the source's AddressFunc or ServingFunc failed
	// with an error that is not a *SkipError.
	ReasonAddressesFailed = "AddressesFailed"
	// ReasonInvalidService: the source's CheckService failed with an error
	// that is not a *SkipError.
	ReasonInvalidService = "InvalidService"
	// ReasonInvalidAddress: the source returned a string that is not an
	// IP address an EndpointSlice accepts (see ParseEndpointIP). The pod is
	// left out entirely, so that a half-understood result never becomes a
	// partial endpoint.
	ReasonInvalidAddress = "InvalidAddress"
	// ReasonDuplicateAddress: another selected pod has the same address
	// and keeps it (see Desired for the winner); this pod loses that
	// address and keeps its others.
	ReasonDuplicateAddress = "DuplicateAddress"
	// ReasonAddressFamilyMismatch: the pod has addresses, but none of an
	// address type of the Service's slices (for example only IPv6
	// addresses for a single-stack IPv4 Service).
	ReasonAddressFamilyMismatch = "AddressFamilyMismatch"
)

// SkipError is an error of a source that leaves a pod (or, from
// CheckService, a Service) out for a known reason. Sources return it to
// name the reason of the resulting Problem.
type SkipError struct {
	// Reason is the Problem's reason, UpperCamelCase.
	Reason string
	// Err says why; its message is the Problem's message.
	Err error
}

// Skip returns a *SkipError with reason and a message formatted from format
// and args (fmt.Errorf rules, so %w wraps).
func Skip(reason, format string, args ...any) error {
	return &SkipError{Reason: reason, Err: fmt.Errorf(format, args...)}
}

func (e *SkipError) Error() string {
	if e.Err == nil {
		return e.Reason
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error.
func (e *SkipError) Unwrap() error { return e.Err }

// Problem is a pod left out of, or an address taken away from, a Service's
// endpoints, or a Service-level configuration problem. The controller turns
// each new Problem into a Warning event on the Service and counts it in its
// metrics.
type Problem struct {
	// Pod is the pod's namespace and name; empty for a Service-level
	// problem.
	Pod types.NamespacedName
	// Reason is UpperCamelCase (the Reason* constants of this package and
	// of the sources).
	Reason string
	// Message explains the problem; it names the pod and the Service.
	Message string
}

// String returns "reason: message".
func (p Problem) String() string { return p.Reason + ": " + p.Message }

// problemFrom turns an error of a source into a Problem.
func problemFrom(pod *corev1.Pod, svc *corev1.Service, defaultReason string, err error) Problem {
	reason := defaultReason
	var se *SkipError
	if errors.As(err, &se) && se.Reason != "" {
		reason = se.Reason
	}
	p := Problem{Reason: reason}
	if pod == nil {
		p.Message = fmt.Sprintf("Service %s/%s: %v", svc.Namespace, svc.Name, err)
		return p
	}
	p.Pod = types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	p.Message = fmt.Sprintf("Pod %s/%s left out of Service %s/%s: %v", pod.Namespace, pod.Name, svc.Namespace, svc.Name, err)
	return p
}

// ParseEndpointIP parses s as the address of an EndpointSlice endpoint and
// returns it; Addr.String gives its canonical form, which is what the
// slices carry. Surrounding spaces are ignored. IPv4 may have leading zeros
// (k8s.io/utils/net ParseIPSloppy, as KCM parses pod IPs); an IPv4-mapped
// IPv6 address is IPv4, as for KCM (utils.go getEndpointAddresses). It
// returns an error for anything else, for an IPv6 zone, and for the
// addresses the API server refuses in an endpoint: unspecified, loopback,
// link-local unicast and link-local multicast (k8s.io/kubernetes
// pkg/apis/core/validation ValidateEndpointIP, called by the EndpointSlice
// validation), so that one bad address never makes a whole slice write
// fail.
func ParseEndpointIP(s string) (netip.Addr, error) {
	s = strings.TrimSpace(s)
	ip := utilnet.ParseIPSloppy(s)
	if ip == nil {
		return netip.Addr{}, fmt.Errorf("%q is not an IP address", s)
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.Addr{}, fmt.Errorf("%q is not an IP address", s)
	}
	addr = addr.Unmap()
	switch {
	case addr.IsUnspecified():
		return netip.Addr{}, fmt.Errorf("%q is unspecified", s)
	case addr.IsLoopback():
		return netip.Addr{}, fmt.Errorf("%q is a loopback address", s)
	case addr.IsLinkLocalUnicast():
		return netip.Addr{}, fmt.Errorf("%q is a link-local address", s)
	case addr.IsLinkLocalMulticast():
		return netip.Addr{}, fmt.Errorf("%q is a link-local multicast address", s)
	}
	return addr, nil
}

// addressType returns the EndpointSlice address type of addr.
func addressType(addr netip.Addr) discovery.AddressType {
	if addr.Is4() {
		return discovery.AddressTypeIPv4
	}
	return discovery.AddressTypeIPv6
}
