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
	"context"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// Source returns the dra-network source: a source.PodAddresses whose
// addresses are those Resolve finds through claims for the claim the
// Service's slicekit.dev/dra-claim annotation names (the package doc's
// rules). get must be safe for concurrent use (a lister is).
func Source(get ClaimGetter) source.PodAddresses {
	return source.PodAddresses{
		Addresses: func(_ context.Context, svc *corev1.Service, pod *corev1.Pod) ([]string, error) {
			ref, err := annotationRef(svc)
			if err != nil {
				return nil, err
			}
			res, err := Resolve(pod, ref, get)
			if err != nil {
				return nil, err
			}
			return res.Addresses, nil
		},
		Serving: func(_ context.Context, svc *corev1.Service, pod *corev1.Pod) (bool, error) {
			return Serving(svc, pod, get), nil
		},
		CheckService: func(_ context.Context, svc *corev1.Service) error { _, err := annotationRef(svc); return err },
		AddressTypes: AddressTypes,
		PodChanged:   PodChanged,
	}
}

// Serving returns whether pod serves for svc: the Pod is Ready
// (podendpoint.IsPodReady, as KCM) and no device of its claim has a Ready
// condition that is False. A Pod whose claim does not resolve is left out
// by the addresses anyway; its Pod readiness is returned.
func Serving(svc *corev1.Service, pod *corev1.Pod, get ClaimGetter) bool {
	if !podendpoint.IsPodReady(pod) {
		return false
	}
	ref, err := annotationRef(svc)
	if err != nil {
		return true
	}
	res, err := Resolve(pod, ref, get)
	if err != nil {
		return true
	}
	return len(res.NotReady) == 0
}

// AddressTypes returns the address types of svc's slices, as for the
// secondary-network controller: both IPv4 and IPv6 for a headless Service
// (a device's addresses need not be of the cluster's families), else the
// Service's spec.ipFamilies (podendpoint.AddressTypes, KCM C15), so that
// its slices match the family of its cluster IP.
func AddressTypes(svc *corev1.Service) []discovery.AddressType {
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		return []discovery.AddressType{discovery.AddressTypeIPv4, discovery.AddressTypeIPv6}
	}
	return podendpoint.AddressTypes(svc)
}

// PodChanged reports whether a Pod update changed how the Pod names its
// claims (spec.resourceClaims or status.resourceClaimStatuses, which the
// resourceclaim controller fills after creating a claim from a template);
// KCM's triggers ignore both.
func PodChanged(oldPod, curPod *corev1.Pod) bool {
	return !apiequality.Semantic.DeepEqual(oldPod.Spec.ResourceClaims, curPod.Spec.ResourceClaims) ||
		!apiequality.Semantic.DeepEqual(oldPod.Status.ResourceClaimStatuses, curPod.Status.ResourceClaimStatuses)
}
