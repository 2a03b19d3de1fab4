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

package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

func TestRules(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(f *fixture)
		want   []string
		// reason, when set, must be part of the first finding's reason.
		reason string
	}{
		{name: "consistent world", mutate: func(*fixture) {}},

		// Slice metadata.
		{
			name:   "missing managed-by",
			mutate: func(f *fixture) { delete(f.slice.Labels, discovery.LabelManagedBy) },
			want:   []string{"warning missing-managed-by " + webSlice},
		},
		{
			name: "kube-apiserver's kubernetes slice is exempt",
			mutate: func(f *fixture) {
				f.extra = append(f.extra,
					&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "kubernetes", Namespace: "default", UID: "uid-k"},
						Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.9", Ports: []corev1.ServicePort{{Name: "https", Port: 443, TargetPort: intstr.FromInt32(6443)}}}},
					&discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "kubernetes", Namespace: "default",
						Labels: map[string]string{discovery.LabelServiceName: "kubernetes"}},
						AddressType: discovery.AddressTypeIPv4,
						Endpoints:   []discovery.Endpoint{{Addresses: []string{"192.168.0.1"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}}},
						Ports:       []discovery.EndpointPort{{Name: ptr.To("https"), Port: ptr.To[int32](6443), Protocol: ptr.To(corev1.ProtocolTCP)}}})
			},
		},
		{
			name:   "missing service-name on a default-controller slice",
			mutate: func(f *fixture) { delete(f.slice.Labels, discovery.LabelServiceName) },
			// No slice names web any more: to consumers (and to KCM,
			// which finds its slices by this label) web has none.
			want: []string{"error missing-service-name " + webSlice, "warning slices-missing " + webSvc},
		},
		{
			name: "missing service-name on a custom slice",
			mutate: func(f *fixture) {
				delete(f.slice.Labels, discovery.LabelServiceName)
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
			want: []string{"warning missing-service-name " + webSlice, "warning slices-missing " + webSvc},
		},
		{
			name:   "headless label on a Service with a cluster IP",
			mutate: func(f *fixture) { f.slice.Labels[corev1.IsHeadlessService] = "" },
			want:   []string{"error headless-label " + webSlice},
		},
		{
			name:   "headless Service, default slice without the label",
			mutate: func(f *fixture) { f.web.Spec.ClusterIP = corev1.ClusterIPNone },
			want:   []string{"warning headless-label " + webSlice},
		},
		{
			name: "headless Service, default slice with the label",
			mutate: func(f *fixture) {
				f.web.Spec.ClusterIP = corev1.ClusterIPNone
				f.slice.Labels[corev1.IsHeadlessService] = ""
			},
		},
		{
			name:   "labels drift from the Service",
			mutate: func(f *fixture) { f.web.Labels = map[string]string{"team": "blue"}; f.slice.Labels["old"] = "x" },
			want:   []string{"warning labels-drift " + webSlice},
			reason: "extra old=x; missing team=blue",
		},
		{
			name: "Service labels copied, reserved ones not",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{"team": "blue", discovery.LabelManagedBy: "spoof", discovery.LabelServiceName: "spoof"}
				f.slice.Labels["team"] = "blue"
			},
		},
		{
			name:   "labels of custom slices are not compared",
			mutate: func(f *fixture) { f.slice.Labels[discovery.LabelManagedBy] = custom; f.slice.Labels["x"] = "y" },
		},

		// Ownership and life cycle.
		{
			name:   "orphan: the Service is gone",
			mutate: func(f *fixture) { f.web = nil },
			want:   []string{"error orphan-slice " + webSlice},
		},
		{
			name:   "owner missing on a default slice",
			mutate: func(f *fixture) { f.slice.OwnerReferences = nil },
			want:   []string{"error owner-missing " + webSlice},
		},
		{
			name:   "no owner on a custom slice is fine",
			mutate: func(f *fixture) { f.slice.OwnerReferences = nil; f.slice.Labels[discovery.LabelManagedBy] = custom },
			want:   nil,
		},
		{
			name:   "owner reference that is not a controller reference",
			mutate: func(f *fixture) { f.slice.OwnerReferences[0].Controller = nil },
			want:   []string{"error owner-missing " + webSlice},
		},
		{
			name:   "owner with a stale uid",
			mutate: func(f *fixture) { f.slice.OwnerReferences[0].UID = "uid-web-old" },
			want:   []string{"error owner-stale-uid " + webSlice},
		},
		{
			name: "custom slice owned by an earlier Service",
			mutate: func(f *fixture) {
				f.slice.OwnerReferences[0].UID = "uid-web-old"
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
			want: []string{"error owner-stale-uid " + webSlice},
		},
		{
			name:   "owned by another Service",
			mutate: func(f *fixture) { f.slice.OwnerReferences[0].Name = "db"; f.slice.OwnerReferences[0].UID = "uid-db" },
			want:   []string{"error owner-mismatch " + webSlice},
		},
		{
			name: "default slice owned by another kind",
			mutate: func(f *fixture) {
				f.slice.OwnerReferences[0] = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u", Controller: ptr.To(true)}
			},
			want: []string{"error owner-mismatch " + webSlice},
		},
		{
			name: "custom slice owned by a custom resource",
			mutate: func(f *fixture) {
				f.slice.Labels[discovery.LabelManagedBy] = custom
				f.slice.OwnerReferences[0] = metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "Backend", Name: "web", UID: "u", Controller: ptr.To(true)}
			},
		},
		{
			name: "default slice for an ExternalName Service",
			mutate: func(f *fixture) {
				f.web.Spec.Type = corev1.ServiceTypeExternalName
				f.web.Spec.ClusterIP = ""
				f.web.Spec.ExternalName = "example.com"
			},
			want: []string{"error externalname-service-slice " + webSlice},
		},
		{
			name: "custom slice for an ExternalName Service",
			mutate: func(f *fixture) {
				f.web.Spec.Type = corev1.ServiceTypeExternalName
				f.web.Spec.ClusterIP = ""
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
			want: []string{"warning externalname-service-slice " + webSlice},
		},
		{
			name:   "default slice for a Service whose selector was removed",
			mutate: func(f *fixture) { f.web.Spec.Selector = nil },
			want:   []string{"error default-for-selectorless-service " + webSlice},
		},

		// Controllers.
		{
			name: "KEP-4770: default slice of a delegated Service",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				f.slice.Labels[wellknown.LabelEndpointControllerName] = custom
			},
			want: []string{"error delegated-builtin-slice " + webSlice},
		},
		{
			name: "KEP-4770: the label works by presence (empty value)",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: ""}
				f.slice.Labels[wellknown.LabelEndpointControllerName] = ""
			},
			want: []string{"error delegated-builtin-slice " + webSlice},
		},
		{
			name: "KEP-4770: Service labelled with the default controller's own name",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: wellknown.EndpointSliceControllerName}
				f.slice.Labels[wellknown.LabelEndpointControllerName] = wellknown.EndpointSliceControllerName
			},
		},
		{
			name: "KEP-4770: mirrored slice of a delegated Service",
			mutate: func(f *fixture) {
				f.ext.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
			},
			want: []string{"error delegated-builtin-slice " + mirSlice},
		},
		{
			name: "KEP-4770: slice of the named controller",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
		},
		{
			name: "KEP-4770: slice of a third controller",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				f.slice.Labels[discovery.LabelManagedBy] = customB
			},
			want: []string{"error delegated-foreign-slice " + webSlice},
		},
		{
			name: "two controllers for an unlabelled Service",
			mutate: func(f *fixture) {
				s := newSlice("web-custom", "web", custom, podEndpoint(f.pod))
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				f.extra = append(f.extra, s)
			},
			// 10.0.1.1 is another address of web-1 beside its podIP.
			want: []string{"warning multiple-managers " + webSvc, "warning merged-networks " + webSvc},
		},
		{
			name: "two controllers for a delegated Service are reported per slice",
			mutate: func(f *fixture) {
				f.web.Labels = map[string]string{wellknown.LabelEndpointControllerName: custom}
				f.slice.Labels[wellknown.LabelEndpointControllerName] = custom
				s := newSlice("web-custom", "web", custom, podEndpoint(f.pod))
				s.Endpoints[0].Addresses = []string{"10.0.1.1"}
				f.extra = append(f.extra, s)
			},
			want: []string{"error delegated-builtin-slice " + webSlice, "warning merged-networks " + webSvc},
		},
		{
			name:   "mirrored slice for a Service with a selector",
			mutate: func(f *fixture) { f.ext.Spec.Selector = map[string]string{"app": "ext"} },
			want:   []string{"error mirror-for-selector-service " + mirSlice},
		},
		{
			name: "mirrored slice without its Endpoints",
			mutate: func(f *fixture) {
				f.ep = nil
				f.extra = append(f.extra, &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: ns}})
			},
			want: []string{"error mirror-ineligible " + mirSlice},
		},
		{
			name:   "mirrored slice of skip-mirror Endpoints",
			mutate: func(f *fixture) { f.ep.Labels = map[string]string{discovery.LabelSkipMirror: "true"} },
			want:   []string{"error mirror-ineligible " + mirSlice},
		},
		{
			name:   "mirrored slice of leader-election Endpoints",
			mutate: func(f *fixture) { f.ep.Annotations = map[string]string{leaderAnnotation: "{}"} },
			want:   []string{"error mirror-ineligible " + mirSlice},
		},
		{
			name:   "mirrored address not in the Endpoints",
			mutate: func(f *fixture) { f.mirror.Endpoints[0].Addresses = []string{"10.1.0.9"} },
			want:   []string{"error mirror-drift " + mirSlice, "error mirror-drift Endpoints ns/ext"},
		},
		{
			name:   "mirrored address with the wrong readiness",
			mutate: func(f *fixture) { f.mirror.Endpoints[1].Conditions.Ready = ptr.To(true) },
			want:   []string{"error mirror-drift " + mirSlice},
			reason: "lists it as not ready",
		},
		{
			name:   "mirrored slice without owner",
			mutate: func(f *fixture) { f.mirror.OwnerReferences = nil },
			want:   []string{"error owner-missing " + mirSlice},
		},
		{
			name:   "mirrored slice owned by the Service",
			mutate: func(f *fixture) { f.mirror.OwnerReferences[0].Kind = "Service" },
			want:   []string{"error owner-mismatch " + mirSlice},
		},
		{
			name:   "mirrored slice owned by an earlier Endpoints",
			mutate: func(f *fixture) { f.mirror.OwnerReferences[0].UID = "uid-ep-old" },
			want:   []string{"error owner-stale-uid " + mirSlice},
		},

		// Addresses and API limits.
		{
			name: "more than 1000 endpoints",
			mutate: func(f *fixture) {
				f.mirror.Endpoints = nil
				f.ep.Subsets[0].Addresses = nil
				for i := range 1001 {
					ip := fmt.Sprintf("10.2.%d.%d", i/250, i%250+1)
					f.mirror.Endpoints = append(f.mirror.Endpoints, discovery.Endpoint{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}})
					f.ep.Subsets[0].Addresses = append(f.ep.Subsets[0].Addresses, corev1.EndpointAddress{IP: ip})
				}
			},
			want: []string{"error api-limits " + mirSlice, "error mirror-drift " + mirSlice, "warning max-endpoints-per-slice " + mirSlice},
		},
		{
			name: "exactly 1000 endpoints",
			mutate: func(f *fixture) {
				f.mirror.Endpoints = nil
				f.ep.Subsets[0].Addresses = nil
				for i := range 1000 {
					ip := fmt.Sprintf("10.2.%d.%d", i/250, i%250+1)
					f.mirror.Endpoints = append(f.mirror.Endpoints, discovery.Endpoint{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}})
					f.ep.Subsets[0].Addresses = append(f.ep.Subsets[0].Addresses, corev1.EndpointAddress{IP: ip})
				}
			},
		},
		{
			name: "an endpoint without address and one with 101",
			mutate: func(f *fixture) {
				var many []string
				for i := range 101 {
					many = append(many, fmt.Sprintf("10.3.0.%d", i+1))
				}
				f.ep.Subsets[0].Addresses = nil
				for _, a := range many {
					f.ep.Subsets[0].Addresses = append(f.ep.Subsets[0].Addresses, corev1.EndpointAddress{IP: a})
				}
				f.mirror.Endpoints = []discovery.Endpoint{{}, {Addresses: many}}
			},
			// Every finding is reported (101 addresses and 10.1.0.2 not
			// mirrored); only the text output shortens the list.
			// The endpoint without address has no ready condition either,
			// and 101 addresses are more than one (consumer rules).
			want: append([]string{"error api-limits " + mirSlice, "error api-limits " + mirSlice, "error mirror-drift " + mirSlice,
				"warning multiple-addresses " + mirSlice, "warning ready-unset " + mirSlice},
				slices.Repeat([]string{"error mirror-drift Endpoints ns/ext"}, 102)...),
		},
		{
			name:   "duplicate port names",
			mutate: func(f *fixture) { f.mirror.Ports = append(f.mirror.Ports, f.mirror.Ports[0]) },
			want:   []string{"error api-limits " + mirSlice, "error mirror-drift " + mirSlice, "error mirror-drift " + mirSlice, "error mirror-drift Endpoints ns/ext", "error mirror-drift Endpoints ns/ext"},
		},
		{
			name: "nine zone hints",
			mutate: func(f *fixture) {
				h := &discovery.EndpointHints{}
				for i := range 9 {
					h.ForZones = append(h.ForZones, discovery.ForZone{Name: fmt.Sprintf("z%d", i)})
				}
				f.slice.Endpoints[0].Hints = h
			},
			// web has no trafficDistribution: KCM removes every hint.
			want: []string{"error api-limits " + webSlice, "error endpoint-hints " + webSlice},
		},
		{
			name: "IPv6 address in an IPv4 slice",
			mutate: func(f *fixture) {
				f.mirror.Endpoints[0].Addresses = []string{"fd00::1"}
				f.ep.Subsets[0].Addresses[0].IP = "fd00::1"
			},
			want:   []string{"error address-type-mismatch " + mirSlice, "error mirror-drift " + mirSlice, "error mirror-drift Endpoints ns/ext"},
			reason: "is an IPv6 address",
		},
		{
			name: "IPv4 address in an IPv6 slice",
			mutate: func(f *fixture) {
				f.mirror.AddressType = discovery.AddressTypeIPv6
				f.ext.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol}
				f.mirror.Endpoints = f.mirror.Endpoints[:1]
				f.ep.Subsets[0].NotReadyAddresses = nil
			},
			want: []string{"error address-type-mismatch " + mirSlice, "error mirror-drift " + mirSlice, "error mirror-drift Endpoints ns/ext"},
		},
		{
			name: "invalid address",
			mutate: func(f *fixture) {
				f.mirror.Endpoints[0].Addresses = []string{"10.1.0.300"}
				f.ep.Subsets[0].Addresses[0].IP = "10.1.0.300"
			},
			want: []string{"error address-type-mismatch " + mirSlice, "error mirror-drift " + mirSlice},
		},
		{
			name:   "unsupported address type",
			mutate: func(f *fixture) { f.mirror.AddressType = "IPv5" },
			want:   []string{"error address-type-mismatch " + mirSlice, "error mirror-drift " + mirSlice, "error mirror-drift " + mirSlice, "error mirror-drift Endpoints ns/ext", "error mirror-drift Endpoints ns/ext"},
		},
		{
			name: "default slice of a family the Service does not have",
			mutate: func(f *fixture) {
				f.pod.Status.PodIPs = append(f.pod.Status.PodIPs, corev1.PodIP{IP: "fd00::1"})
				f.slice.AddressType = discovery.AddressTypeIPv6
				f.slice.Endpoints[0].Addresses = []string{"fd00::1"}
			},
			want: []string{"error address-family-not-served " + webSlice, "error endpoint-missing " + webSvc},
		},
		{
			name: "custom slice of a family the Service does not have",
			mutate: func(f *fixture) {
				f.slice.Labels[discovery.LabelManagedBy] = custom
				f.slice.AddressType = discovery.AddressTypeIPv6
				f.slice.Endpoints[0].Addresses = []string{"fd00::1"}
			},
			want: []string{"warning address-family-not-served " + webSlice},
		},
		{
			name: "secondary-network slice of the other family for a headless Service",
			mutate: func(f *fixture) {
				f.web.Spec.ClusterIP = corev1.ClusterIPNone
				f.slice.Labels[discovery.LabelManagedBy] = wellknown.SecondaryNetworkControllerName
				f.slice.AddressType = discovery.AddressTypeIPv6
				f.slice.Endpoints[0].Addresses = []string{"fd00::1"}
			},
			want: nil,
		},
		{
			name: "dual-stack Service with slices of both families",
			mutate: func(f *fixture) {
				f.web.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
				f.pod.Status.PodIPs = append(f.pod.Status.PodIPs, corev1.PodIP{IP: "fd00::1"})
				s := newSlice("web-v6", "web", wellknown.EndpointSliceControllerName, podEndpoint(f.pod))
				s.AddressType = discovery.AddressTypeIPv6
				s.Endpoints[0].Addresses = []string{"fd00::1"}
				f.extra = append(f.extra, s)
			},
		},
		{
			name: "same endpoint twice for one Service",
			mutate: func(f *fixture) {
				f.extra = append(f.extra, newSlice("web-dup", "web", wellknown.EndpointSliceControllerName, podEndpoint(f.pod)))
			},
			want: []string{"error duplicate-endpoint " + webSvc},
		},
		{
			name:   "same endpoint twice in one slice",
			mutate: func(f *fixture) { f.slice.Endpoints = append(f.slice.Endpoints, podEndpoint(f.pod)) },
			want:   []string{"error duplicate-endpoint " + webSvc},
		},
		{
			name: "same address with another port set is not a duplicate",
			mutate: func(f *fixture) {
				f.web.Spec.Ports = append(f.web.Spec.Ports, corev1.ServicePort{Name: "metrics", Port: 9100, TargetPort: intstr.FromString("metrics"), Protocol: corev1.ProtocolTCP})
				f.pod.Spec.Containers[0].Ports = append(f.pod.Spec.Containers[0].Ports, corev1.ContainerPort{Name: "metrics", ContainerPort: 9100, Protocol: corev1.ProtocolTCP})
				f.slice.Ports = append(f.slice.Ports, discovery.EndpointPort{Name: ptr.To("metrics"), Port: ptr.To[int32](9100), Protocol: ptr.To(corev1.ProtocolTCP)})
				s := newSlice("web-other", "web", custom, podEndpoint(f.pod))
				f.extra = append(f.extra, s)
			},
			want: []string{"warning multiple-managers " + webSvc},
		},

		// Endpoints against Pods.
		{
			name:   "endpoint of a deleted Pod",
			mutate: func(f *fixture) { f.slice.Endpoints[0].TargetRef.Name = "web-0" },
			want:   []string{"error endpoint-pod-missing " + webSlice, "error endpoint-missing " + webSvc},
		},
		{
			name:   "endpoint of a replaced Pod",
			mutate: func(f *fixture) { f.slice.Endpoints[0].TargetRef.UID = "uid-web-1-old" },
			want:   []string{"error endpoint-pod-missing " + webSlice},
		},
		{
			name:   "default endpoint without targetRef",
			mutate: func(f *fixture) { f.slice.Endpoints[0].TargetRef = nil },
			want:   []string{"error endpoint-pod-missing " + webSlice, "error endpoint-missing " + webSvc},
		},
		{
			name: "custom endpoint without targetRef",
			mutate: func(f *fixture) {
				f.slice.Endpoints[0].TargetRef = nil
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
		},
		{
			name:   "endpoint of a Pod the selector does not match",
			mutate: func(f *fixture) { f.pod.Labels["app"] = "other" },
			want:   []string{"error endpoint-pod-not-selected " + webSlice},
		},
		{
			name:   "endpoint of a Pod in another namespace",
			mutate: func(f *fixture) { f.pod.Namespace = "ns2"; f.slice.Endpoints[0].TargetRef.Namespace = "ns2" },
			want:   []string{"error endpoint-pod-not-selected " + webSlice},
		},
		{
			name:   "endpoint of a Failed Pod",
			mutate: func(f *fixture) { f.pod.Status.Phase = corev1.PodFailed },
			want:   []string{"error endpoint-pod-terminal " + webSlice},
		},
		{
			name:   "endpoint of a Succeeded Pod",
			mutate: func(f *fixture) { f.pod.Status.Phase = corev1.PodSucceeded },
			want:   []string{"error endpoint-pod-terminal " + webSlice},
		},
		{
			name:   "default endpoint with an address that is not the Pod's",
			mutate: func(f *fixture) { f.slice.Endpoints[0].Addresses = []string{"10.0.0.77"} },
			want:   []string{"error endpoint-address-not-pod-ip " + webSlice, "error endpoint-missing " + webSvc},
		},
		{
			name: "custom endpoint with a secondary-network address",
			mutate: func(f *fixture) {
				f.slice.Endpoints[0].Addresses = []string{"10.0.1.1"}
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
		},
		{
			name:   "endpoint marked not ready while the Pod is Ready",
			mutate: func(f *fixture) { f.slice.Endpoints[0].Conditions.Ready = ptr.To(false) },
			want:   []string{"error endpoint-conditions " + webSlice},
		},
		{
			name: "terminating Pod published as ready",
			mutate: func(f *fixture) {
				f.pod.DeletionTimestamp = &metav1.Time{}
				f.slice.Endpoints[0].Conditions.Terminating = ptr.To(true)
			},
			want:   []string{"error endpoint-conditions " + webSlice},
			reason: "want ready=false serving=true terminating=true",
		},
		{
			name: "terminating Pod published correctly",
			mutate: func(f *fixture) {
				f.pod.DeletionTimestamp = &metav1.Time{}
				f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{Ready: ptr.To(false), Serving: ptr.To(true), Terminating: ptr.To(true)}
			},
		},
		{
			name: "publishNotReadyAddresses forces ready",
			mutate: func(f *fixture) {
				f.web.Spec.PublishNotReadyAddresses = true
				f.pod.Status.Conditions[0].Status = corev1.ConditionFalse
				f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(false), Terminating: ptr.To(false)}
			},
		},
		{
			name: "publishNotReadyAddresses ignored",
			mutate: func(f *fixture) {
				f.web.Spec.PublishNotReadyAddresses = true
				f.pod.Status.Conditions[0].Status = corev1.ConditionFalse
				f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{Ready: ptr.To(false), Serving: ptr.To(false), Terminating: ptr.To(false)}
			},
			want: []string{"error endpoint-conditions " + webSlice},
		},
		{
			name:   "default endpoint with unset conditions",
			mutate: func(f *fixture) { f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{} },
			want:   []string{"error endpoint-conditions " + webSlice, "warning ready-unset " + webSlice},
		},
		{
			name: "custom endpoint not serving while the Pod is Ready (its own readiness, e.g. a CEL profile)",
			mutate: func(f *fixture) {
				f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{Ready: ptr.To(false), Serving: ptr.To(false), Terminating: ptr.To(false)}
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
		},
		{
			name: "custom endpoint ready but not serving",
			mutate: func(f *fixture) {
				f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(false), Terminating: ptr.To(false)}
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
			want:   []string{"error endpoint-conditions " + webSlice},
			reason: "want ready=false serving=false terminating=false",
		},
		{
			name: "custom endpoint not terminating for a deleted Pod",
			mutate: func(f *fixture) {
				f.pod.DeletionTimestamp = &metav1.Time{}
				f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)}
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
			want: []string{"error endpoint-conditions " + webSlice},
		},
		{
			name: "custom endpoint with unset conditions",
			mutate: func(f *fixture) {
				f.slice.Endpoints[0].Conditions = discovery.EndpointConditions{}
				f.slice.Labels[discovery.LabelManagedBy] = custom
			},
			// Legal, but old ingress-nginx and kyverno panic on a nil ready.
			want: []string{"warning ready-unset " + webSlice},
		},
		{
			name:   "nodeName missing",
			mutate: func(f *fixture) { f.slice.Endpoints[0].NodeName = nil },
			want:   []string{"warning endpoint-nodename " + webSlice},
		},
		{
			name:   "nodeName wrong",
			mutate: func(f *fixture) { f.slice.Endpoints[0].NodeName = ptr.To("node-b") },
			want:   []string{"error endpoint-nodename " + webSlice},
		},
		{
			name:   "zone missing",
			mutate: func(f *fixture) { f.slice.Endpoints[0].Zone = nil },
			want:   []string{"warning endpoint-zone " + webSlice},
		},
		{
			name:   "zone wrong",
			mutate: func(f *fixture) { f.slice.Endpoints[0].Zone = ptr.To("zone-b") },
			want:   []string{"warning endpoint-zone " + webSlice},
		},
		{
			name:   "no zone on a Node without zone label",
			mutate: func(f *fixture) { f.node.Labels = nil; f.slice.Endpoints[0].Zone = nil },
		},
		{
			name:   "hostname missing although the subdomain names the Service",
			mutate: func(f *fixture) { f.pod.Spec.Hostname = "web-1"; f.pod.Spec.Subdomain = "web" },
			want:   []string{"warning endpoint-hostname " + webSlice},
		},
		{
			name: "hostname set although the subdomain names another Service",
			mutate: func(f *fixture) {
				f.pod.Spec.Hostname, f.pod.Spec.Subdomain = "web-1", "db"
				f.slice.Endpoints[0].Hostname = ptr.To("web-1")
			},
			want: []string{"error endpoint-hostname " + webSlice},
		},
		{
			name: "hostname wrong",
			mutate: func(f *fixture) {
				f.pod.Spec.Hostname, f.pod.Spec.Subdomain = "web-1", "web"
				f.slice.Endpoints[0].Hostname = ptr.To("web-2")
			},
			want: []string{"error endpoint-hostname " + webSlice},
		},
		{
			name: "hostname right",
			mutate: func(f *fixture) {
				f.pod.Spec.Hostname, f.pod.Spec.Subdomain = "web-1", "web"
				f.slice.Endpoints[0].Hostname = ptr.To("web-1")
			},
		},

		// Ports.
		{
			name:   "port the Service does not have",
			mutate: func(f *fixture) { f.slice.Ports[0].Name = ptr.To("metrics") },
			want:   []string{"error port-mismatch " + webSlice, "error port-mismatch " + webSlice},
		},
		{
			name:   "port with another protocol",
			mutate: func(f *fixture) { f.slice.Ports[0].Protocol = ptr.To(corev1.ProtocolUDP) },
			want:   []string{"error port-mismatch " + webSlice},
		},
		{
			name:   "port number other than the numeric targetPort",
			mutate: func(f *fixture) { f.slice.Ports[0].Port = ptr.To[int32](otherPort) },
			want:   []string{"error port-mismatch " + webSlice, "error port-mismatch " + webSlice},
		},
		{
			name: "named targetPort resolved wrongly",
			mutate: func(f *fixture) {
				f.web.Spec.Ports[0].TargetPort = intstr.FromString("http")
				f.slice.Ports[0].Port = ptr.To[int32](otherPort)
			},
			want:   []string{"error port-mismatch " + webSlice},
			reason: "resolves to 8080 on Pod web-1",
		},
		{
			name: "named targetPort resolved on a sidecar",
			mutate: func(f *fixture) {
				f.web.Spec.Ports[0].TargetPort = intstr.FromString("proxy")
				f.pod.Spec.InitContainers = []corev1.Container{{Name: "proxy", RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways),
					Ports: []corev1.ContainerPort{{Name: "proxy", ContainerPort: 9443, Protocol: corev1.ProtocolTCP}}}}
				f.slice.Ports[0].Port = ptr.To[int32](9443)
			},
		},
		{
			name: "named targetPort on a run-to-completion init container is not resolvable",
			mutate: func(f *fixture) {
				f.web.Spec.Ports[0].TargetPort = intstr.FromString("setup")
				f.pod.Spec.InitContainers = []corev1.Container{{Name: "setup", Ports: []corev1.ContainerPort{{Name: "setup", ContainerPort: 9100, Protocol: corev1.ProtocolTCP}}}}
				f.slice.Ports[0].Port = ptr.To[int32](9100)
			},
			want: []string{"error port-mismatch " + webSlice},
		},
		{
			name: "named targetPort not on the Pod and not in the slice",
			mutate: func(f *fixture) {
				f.web.Spec.Ports[0].TargetPort = intstr.FromString("nope")
				f.slice.Ports = []discovery.EndpointPort{}
			},
		},
		{
			name:   "resolvable port missing from a default slice",
			mutate: func(f *fixture) { f.slice.Ports = nil },
			want:   []string{"error port-mismatch " + webSlice},
		},
		{
			name:   "resolvable port missing from a custom slice",
			mutate: func(f *fixture) { f.slice.Ports = nil; f.slice.Labels[discovery.LabelManagedBy] = custom },
		},
		{
			name:   "mirrored port the Service does not have",
			mutate: func(f *fixture) { f.mirror.Ports[0].Name = ptr.To("other"); f.ep.Subsets[0].Ports[0].Name = "other" },
			want:   []string{"warning port-mismatch " + mirSlice},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			f := newFixture()
			tc.mutate(f)
			rep := Check(ctx, NewInventory(f.objects()), builtinConfig(Config{}))
			want := append([]string{}, tc.want...)
			if want == nil {
				want = []string{}
			}
			slices.Sort(want)
			if d := cmp.Diff(want, findingKeys(rep)); d != "" {
				t.Errorf("findings (-want +got):\n%s\n%s", d, findingLines(rep))
			}
			if tc.reason != "" && (len(rep.Findings) == 0 || !strings.Contains(rep.Findings[0].Reason, tc.reason)) {
				t.Errorf("first finding's reason does not contain %q:\n%s", tc.reason, findingLines(rep))
			}
		})
	}
}
