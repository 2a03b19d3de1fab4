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

package dranetwork

import (
	"context"
	"fmt"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/inputkinds"
)

// Limits of the ResourceClaim status API (k8s.io/api/resource/v1 and
// k8s.io/kubernetes pkg/apis/resource/validation, v1.37.2).
const (
	maxReservedFor       = 256
	maxNetworkDataIPs    = 16
	maxDeviceConditions  = 8
	resourceClaimsPlural = "resourceclaims"
)

// ResourceClaimKind is the kind this controller reads: ResourceClaims
// (resource.k8s.io/v1), cached through TransformResourceClaim, listed
// from clusters by `slicekit check`, read from files by `render` and
// `check` and checked there by ValidateResourceClaim.
var ResourceClaimKind = inputkinds.Kind{
	Resource:   resourceClaimsPlural,
	GVK:        resourceapi.SchemeGroupVersion.WithKind("ResourceClaim"),
	Namespaced: true,
	Order:      35,
	New:        func() runtime.Object { return &resourceapi.ResourceClaim{} },
	Informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
		return f.Resource().V1().ResourceClaims().Informer()
	},
	List: func(ctx context.Context, c kubernetes.Interface, ns string, o metav1.ListOptions) ([]runtime.Object, string, error) {
		l, err := c.ResourceV1().ResourceClaims(ns).List(ctx, o)
		if err != nil {
			return nil, "", err
		}
		out := make([]runtime.Object, 0, len(l.Items))
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
		return out, l.Continue, nil
	},
	Transform: TransformResourceClaim,
	Validate:  ValidateResourceClaim,
}

// TransformResourceClaim keeps what this controller reads of a
// ResourceClaim: name, namespace, uid, resourceVersion, creation and
// deletion timestamps and owner references (resourceclaim.IsForPod);
// status.allocation.devices.results' request, driver, pool, device and
// shareID; status.reservedFor; and status.devices' driver, pool, device,
// shareID, conditions (type, status, reason) and networkData.ips. The
// spec, device configuration, opaque data, node selector, interface
// names and hardware addresses are dropped. Like every informer transform
// it never modifies its argument, returns other types as they are, and is
// idempotent.
func TransformResourceClaim(obj any) (any, error) {
	c, ok := obj.(*resourceapi.ResourceClaim)
	if !ok {
		return obj, nil
	}
	out := &resourceapi.ResourceClaim{
		TypeMeta: c.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:              c.Name,
			Namespace:         c.Namespace,
			UID:               c.UID,
			ResourceVersion:   c.ResourceVersion,
			CreationTimestamp: c.CreationTimestamp,
			DeletionTimestamp: c.DeletionTimestamp,
			OwnerReferences:   c.OwnerReferences,
		},
		Status: resourceapi.ResourceClaimStatus{ReservedFor: c.Status.ReservedFor},
	}
	if a := c.Status.Allocation; a != nil {
		out.Status.Allocation = &resourceapi.AllocationResult{}
		if n := len(a.Devices.Results); n > 0 {
			rs := make([]resourceapi.DeviceRequestAllocationResult, n)
			for i, r := range a.Devices.Results {
				rs[i] = resourceapi.DeviceRequestAllocationResult{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device, ShareID: r.ShareID}
			}
			out.Status.Allocation.Devices.Results = rs
		}
	}
	if n := len(c.Status.Devices); n > 0 {
		ds := make([]resourceapi.AllocatedDeviceStatus, n)
		for i := range c.Status.Devices {
			d := &c.Status.Devices[i]
			ds[i] = resourceapi.AllocatedDeviceStatus{Driver: d.Driver, Pool: d.Pool, Device: d.Device, ShareID: d.ShareID}
			if len(d.Conditions) > 0 {
				cs := make([]metav1.Condition, len(d.Conditions))
				for j, cond := range d.Conditions {
					cs[j] = metav1.Condition{Type: cond.Type, Status: cond.Status, Reason: cond.Reason}
				}
				ds[i].Conditions = cs
			}
			if d.NetworkData != nil {
				ds[i].NetworkData = &resourceapi.NetworkDeviceData{IPs: d.NetworkData.IPs}
			}
		}
		out.Status.Devices = ds
	}
	return out, nil
}

// ValidateResourceClaim checks what this controller reads of a
// ResourceClaim given in a file as the API server would
// (k8s.io/kubernetes pkg/apis/resource/validation, v1.37.2): the name, at
// most 256 reservedFor entries and only with an allocation, each
// status.devices entry an allocated device (unique by driver, pool,
// device and shareID) with at most 8 conditions, and at most 16 unique
// networkData.ips, each an interface address in CIDR form. Other fields
// are decoded strictly but not checked.
func ValidateResourceClaim(obj runtime.Object) field.ErrorList {
	c, ok := obj.(*resourceapi.ResourceClaim)
	if !ok {
		return field.ErrorList{field.InternalError(nil, fmt.Errorf("not a ResourceClaim: %T", obj))}
	}
	var errs field.ErrorList
	if m, err := meta.Accessor(obj); err == nil {
		for _, msg := range validation.IsDNS1123Subdomain(m.GetName()) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), m.GetName(), msg))
		}
	}
	st := field.NewPath("status")
	if n := len(c.Status.ReservedFor); n > maxReservedFor {
		errs = append(errs, field.TooMany(st.Child("reservedFor"), n, maxReservedFor))
	}
	if len(c.Status.ReservedFor) > 0 && c.Status.Allocation == nil {
		errs = append(errs, field.Forbidden(st.Child("reservedFor"), "may not be specified when `allocated` is not set"))
	}
	allocated := sets.New[string]()
	if a := c.Status.Allocation; a != nil {
		for _, r := range a.Devices.Results {
			share := ""
			if r.ShareID != nil {
				share = string(*r.ShareID)
			}
			allocated.Insert(r.Driver + "/" + r.Pool + "/" + r.Device + "/" + share)
		}
	}
	seen := sets.New[string]()
	for i := range c.Status.Devices {
		d := &c.Status.Devices[i]
		fp := st.Child("devices").Index(i)
		share := ""
		if d.ShareID != nil {
			share = *d.ShareID
		}
		key := d.Driver + "/" + d.Pool + "/" + d.Device + "/" + share
		if seen.Has(key) {
			errs = append(errs, field.Duplicate(fp, key))
		}
		seen.Insert(key)
		if !allocated.Has(key) {
			errs = append(errs, field.Invalid(fp, key, "must be an allocated device in the claim"))
		}
		if n := len(d.Conditions); n > maxDeviceConditions {
			errs = append(errs, field.TooMany(fp.Child("conditions"), n, maxDeviceConditions))
		}
		if d.NetworkData == nil {
			continue
		}
		ips := fp.Child("networkData", "ips")
		if n := len(d.NetworkData.IPs); n > maxNetworkDataIPs {
			errs = append(errs, field.TooMany(ips, n, maxNetworkDataIPs))
		}
		uniq := sets.New[string]()
		for j, ip := range d.NetworkData.IPs {
			errs = append(errs, validation.IsValidInterfaceAddress(ips.Index(j), ip)...)
			if uniq.Has(ip) {
				errs = append(errs, field.Duplicate(ips.Index(j), ip))
			}
			uniq.Insert(ip)
		}
	}
	return errs
}
