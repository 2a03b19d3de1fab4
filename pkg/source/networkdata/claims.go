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

package networkdata

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/dynamic-resource-allocation/resourceclaim"

	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Reasons of the Problems of this source (UpperCamelCase, as event reasons;
// the reason label of the pod_problems metrics).
const (
	// ReasonClaimAnnotationMissing: the Service has no slicekit.dev/dra-claim
	// annotation (Service-level: no endpoints are published).
	ReasonClaimAnnotationMissing = "ClaimAnnotationMissing"
	// ReasonClaimAnnotationInvalid: the annotation does not parse
	// (ParseClaimRef; Service-level).
	ReasonClaimAnnotationInvalid = "ClaimAnnotationInvalid"
	// ReasonPodClaimMissing: the Pod has no spec.resourceClaims entry with
	// the annotation's pod claim name.
	ReasonPodClaimMissing = "PodClaimMissing"
	// ReasonClaimNotCreated: the entry names a template and the
	// resourceclaim controller has not recorded the generated claim in
	// status.resourceClaimStatuses yet (or decided that none is needed).
	ReasonClaimNotCreated = "ClaimNotCreated"
	// ReasonClaimNotFound: the ResourceClaim does not exist (yet).
	ReasonClaimNotFound = "ClaimNotFound"
	// ReasonClaimNotForPod: a claim generated from a template is not
	// controlled by the Pod (resourceclaim.IsForPod): a stale claim of an
	// earlier Pod of the same name.
	ReasonClaimNotForPod = "ClaimNotForPod"
	// ReasonClaimNotReserved: the claim is not allocated, or not reserved
	// for the Pod (status.reservedFor lacks the Pod's uid).
	ReasonClaimNotReserved = "ClaimNotReserved"
	// ReasonClaimShared: the claim is reserved for other consumers besides
	// the Pod; its devices' addresses belong to no single Pod.
	ReasonClaimShared = "ClaimShared"
	// ReasonRequestNotAllocated: no device of the claim is allocated for
	// the annotation's request.
	ReasonRequestNotAllocated = "RequestNotAllocated"
	// ReasonNetworkDataMissing: no device allocated for the request reports
	// networkData with addresses yet (drivers write it after the Pod's
	// sandbox starts, sometimes after the Pod is Ready).
	ReasonNetworkDataMissing = "NetworkDataMissing"
	// ReasonNetworkDataInvalid: an address in networkData.ips is not an
	// interface address in CIDR form.
	ReasonNetworkDataInvalid = "NetworkDataInvalid"
)

// ClaimRef is what a Service's slicekit.dev/dra-claim annotation names:
// a Pod's claim entry (spec.resourceClaims[].name) and, optionally, one
// request of that claim.
type ClaimRef struct {
	// PodClaim is the name of the Pod's spec.resourceClaims entry.
	PodClaim string
	// Request is the request name; "" means every request of the claim.
	// A firstAvailable subrequest is "<request>/<subrequest>".
	Request string
}

// String returns the annotation form: "podClaim" or "podClaim/request".
func (r ClaimRef) String() string {
	if r.Request == "" {
		return r.PodClaim
	}
	return r.PodClaim + "/" + r.Request
}

// ParseClaimRef parses the value of the slicekit.dev/dra-claim annotation:
// "<pod claim name>", "<pod claim name>/<request name>" or
// "<pod claim name>/<request name>/<subrequest name>". Surrounding spaces
// are ignored. Each name must be a DNS-1123 label, as the API server
// requires of pod claim names (core validation) and of request names
// (resource.k8s.io validation). It returns an error saying what is wrong.
func ParseClaimRef(value string) (ClaimRef, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return ClaimRef{}, errors.New("empty value; want <pod claim name> or <pod claim name>/<request name>")
	}
	parts := strings.Split(v, "/")
	if len(parts) > 3 {
		return ClaimRef{}, fmt.Errorf("%q has %d parts; want <pod claim name>[/<request name>[/<subrequest name>]]", v, len(parts))
	}
	for i, p := range parts {
		what := [...]string{"pod claim name", "request name", "subrequest name"}[i]
		if msgs := validation.IsDNS1123Label(p); len(msgs) > 0 {
			return ClaimRef{}, fmt.Errorf("%s %q in %q: %s", what, p, v, strings.Join(msgs, "; "))
		}
	}
	return ClaimRef{PodClaim: parts[0], Request: strings.Join(parts[1:], "/")}, nil
}

// ClaimGetter returns a ResourceClaim by namespace and name: a
// ResourceClaim lister's, or a map's in tests and in `slicekit check`. A
// missing claim is a NotFound API error. Returned claims are read-only.
type ClaimGetter func(namespace, name string) (*resourceapi.ResourceClaim, error)

// Resolution is what Resolve found for one Pod.
type Resolution struct {
	// Claim is the ResourceClaim's name.
	Claim string
	// Addresses are the devices' networkData.ips without their prefix
	// lengths, in status order, as the API server stores them.
	Addresses []string
	// NotReady lists the devices (driver/pool/device) whose Ready
	// condition is False; the Pod's endpoints are then not serving.
	NotReady []string
}

// Resolve follows pod to the claim ref names and returns its devices'
// addresses (the package doc's steps 1 to 4). A Pod left out gets a
// *source.SkipError whose reason is one of this package's Reason*
// constants; an error of get other than NotFound is returned wrapped, as
// it is (a cache that cannot be read).
func Resolve(pod *corev1.Pod, ref ClaimRef, get ClaimGetter) (*Resolution, error) {
	idx := slices.IndexFunc(pod.Spec.ResourceClaims, func(c corev1.PodResourceClaim) bool { return c.Name == ref.PodClaim })
	if idx < 0 {
		return nil, source.Skip(ReasonPodClaimMissing, "no spec.resourceClaims entry named %q", ref.PodClaim)
	}
	name, mustCheckOwner, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[idx])
	switch {
	case err != nil:
		return nil, source.Skip(ReasonClaimNotCreated, "pod claim %q: %v", ref.PodClaim, err)
	case name == nil:
		return nil, source.Skip(ReasonClaimNotCreated, "pod claim %q: no ResourceClaim was created for it", ref.PodClaim)
	}
	claim, err := get(pod.Namespace, *name)
	switch {
	case apierrors.IsNotFound(err):
		return nil, source.Skip(ReasonClaimNotFound, "ResourceClaim %s of pod claim %q not found", *name, ref.PodClaim)
	case err != nil:
		return nil, fmt.Errorf("getting ResourceClaim %s/%s: %w", pod.Namespace, *name, err)
	}
	if mustCheckOwner {
		if err := resourceclaim.IsForPod(pod, claim, false); err != nil {
			return nil, source.Skip(ReasonClaimNotForPod, "%v", err)
		}
	}
	if claim.Status.Allocation == nil || !resourceclaim.IsReservedForPod(pod, claim, false) {
		for _, c := range claim.Status.ReservedFor {
			if c.Resource == "pods" && c.Name == pod.Name {
				// Reserved by name, not by uid: an earlier Pod of that name
				// (or, in a file, a Pod without its uid).
				return nil, source.Skip(ReasonClaimNotReserved, "ResourceClaim %s is reserved for a Pod %s with uid %s, not for this one (uid %s)", claim.Name, c.Name, c.UID, pod.UID)
			}
		}
		return nil, source.Skip(ReasonClaimNotReserved, "ResourceClaim %s is not allocated and reserved for the Pod", claim.Name)
	}
	var others []string
	for _, c := range claim.Status.ReservedFor {
		if c.UID != pod.UID {
			others = append(others, c.Resource+"/"+c.Name)
		}
	}
	if len(others) > 0 {
		return nil, source.Skip(ReasonClaimShared, "ResourceClaim %s is also reserved for %s; a shared claim's addresses belong to no single Pod", claim.Name, strings.Join(others, ", "))
	}
	res := &Resolution{Claim: claim.Name}
	results := 0
	for _, r := range claim.Status.Allocation.Devices.Results {
		if ref.Request != "" && r.Request != ref.Request && !strings.HasPrefix(r.Request, ref.Request+"/") {
			continue
		}
		results++
		st := deviceStatus(claim, r)
		if st == nil {
			continue
		}
		if c := meta.FindStatusCondition(st.Conditions, "Ready"); c != nil && c.Status == "False" {
			res.NotReady = append(res.NotReady, r.Driver+"/"+r.Pool+"/"+r.Device)
		}
		if st.NetworkData == nil {
			continue
		}
		for _, ip := range st.NetworkData.IPs {
			addr, err := InterfaceAddress(ip)
			if err != nil {
				return nil, source.Skip(ReasonNetworkDataInvalid, "ResourceClaim %s, device %s/%s/%s: %v", claim.Name, r.Driver, r.Pool, r.Device, err)
			}
			res.Addresses = append(res.Addresses, addr.String())
		}
	}
	switch {
	case results == 0 && ref.Request != "":
		return nil, source.Skip(ReasonRequestNotAllocated, "ResourceClaim %s has no device allocated for request %q", claim.Name, ref.Request)
	case results == 0:
		return nil, source.Skip(ReasonRequestNotAllocated, "ResourceClaim %s has no device allocated", claim.Name)
	case len(res.Addresses) == 0:
		return nil, source.Skip(ReasonNetworkDataMissing, "ResourceClaim %s: no networkData addresses reported yet for %s", claim.Name, requestWords(ref))
	}
	return res, nil
}

// requestWords names the request of ref in a message.
func requestWords(ref ClaimRef) string {
	if ref.Request == "" {
		return "its devices"
	}
	return fmt.Sprintf("request %q", ref.Request)
}

// deviceStatus returns the status.devices entry of an allocation result:
// same driver, pool, device and shareID; nil when the driver has written
// none.
func deviceStatus(claim *resourceapi.ResourceClaim, r resourceapi.DeviceRequestAllocationResult) *resourceapi.AllocatedDeviceStatus {
	for i := range claim.Status.Devices {
		d := &claim.Status.Devices[i]
		if d.Driver != r.Driver || d.Pool != r.Pool || d.Device != r.Device {
			continue
		}
		switch {
		case d.ShareID == nil && r.ShareID == nil:
			return d
		case d.ShareID != nil && r.ShareID != nil && *d.ShareID == string(*r.ShareID):
			return d
		}
	}
	return nil
}

// InterfaceAddress parses one networkData.ips entry, an interface address
// in CIDR form ("192.0.2.5/24", API validation IsValidInterfaceAddress),
// and returns its address without the prefix length. A bare IP address is
// refused: the API server never stores one, so it means a malformed input.
func InterfaceAddress(s string) (netip.Addr, error) {
	p, err := netip.ParsePrefix(strings.TrimSpace(s))
	if err != nil {
		return netip.Addr{}, fmt.Errorf("%q is not an interface address in CIDR form", s)
	}
	return p.Addr().Unmap(), nil
}

// ClaimPods returns the Pods a ResourceClaim event concerns: every Pod in
// status.reservedFor (resource "pods" of the core group) and the Pod that
// controls the claim (a claim generated from a template). obj is a
// *resourceapi.ResourceClaim; any other type gives none.
func ClaimPods(obj any) []types.NamespacedName {
	claim, ok := obj.(*resourceapi.ResourceClaim)
	if !ok || claim == nil {
		return nil
	}
	var out []types.NamespacedName
	for _, c := range claim.Status.ReservedFor {
		if c.APIGroup == "" && c.Resource == "pods" {
			out = append(out, types.NamespacedName{Namespace: claim.Namespace, Name: c.Name})
		}
	}
	for _, o := range claim.OwnerReferences {
		if o.Controller != nil && *o.Controller && o.APIVersion == "v1" && o.Kind == "Pod" {
			out = append(out, types.NamespacedName{Namespace: claim.Namespace, Name: o.Name})
		}
	}
	return out
}

// annotationRef returns the ClaimRef of svc's annotation, or a
// *source.SkipError (ReasonClaimAnnotationMissing or
// ReasonClaimAnnotationInvalid).
func annotationRef(svc *corev1.Service) (ClaimRef, error) {
	v, ok := svc.Annotations[wellknown.AnnotationDRAClaim]
	if !ok {
		return ClaimRef{}, source.Skip(ReasonClaimAnnotationMissing, "no %s annotation: it names the Pods' claim whose networkData carries the addresses", wellknown.AnnotationDRAClaim)
	}
	ref, err := ParseClaimRef(v)
	if err != nil {
		return ClaimRef{}, source.Skip(ReasonClaimAnnotationInvalid, "annotation %s: %v", wellknown.AnnotationDRAClaim, err)
	}
	return ref, nil
}
