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

package podendpoint

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

// ShouldPodBeInEndpoints reports whether pod may back a Service at all: it
// is false for a pod in phase Succeeded or Failed (a terminal pod keeps its
// IP, which may already belong to another pod), for a pod with neither
// status.podIP nor status.podIPs, and, unless includeTerminating, for a pod
// with a deletionTimestamp. The EndpointSlice controller calls it with
// includeTerminating true (KCM behaviour C16); the Endpoints controller
// passes the Service's publishNotReadyAddresses. Same function as
// k8s.io/endpointslice util/controller_utils.go ShouldPodBeInEndpoints.
func ShouldPodBeInEndpoints(pod *corev1.Pod, includeTerminating bool) bool {
	if pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded {
		return false
	}
	if len(pod.Status.PodIP) == 0 && len(pod.Status.PodIPs) == 0 {
		return false
	}
	if !includeTerminating && pod.DeletionTimestamp != nil {
		return false
	}
	return true
}

// IsPodReady reports whether pod has a Ready condition with status True
// (k8s.io/endpointslice util/controller_utils.go IsPodReady). It is the
// endpoint's serving condition.
func IsPodReady(pod *corev1.Pod) bool {
	c := PodReadyCondition(&pod.Status)
	return c != nil && c.Status == corev1.ConditionTrue
}

// PodReadyCondition returns the first condition of type Ready of status,
// or nil when it has none (k8s.io/endpointslice util/controller_utils.go
// IsPodReady and util/trigger_time_tracker.go getPodTriggerTime read it).
// The result points into status: the caller must not modify it.
func PodReadyCondition(status *corev1.PodStatus) *corev1.PodCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == corev1.PodReady {
			return &status.Conditions[i]
		}
	}
	return nil
}

// ShouldSetHostname reports whether the endpoint of pod in svc carries the
// pod's hostname: spec.hostname is set, spec.subdomain is the Service's name
// and both are in the same namespace (KCM behaviour C19;
// k8s.io/endpointslice util/controller_utils.go ShouldSetHostname).
func ShouldSetHostname(pod *corev1.Pod, svc *corev1.Service) bool {
	return len(pod.Spec.Hostname) > 0 && pod.Spec.Subdomain == svc.Name && svc.Namespace == pod.Namespace
}

// FindPort returns the port number a Service port targets on pod (KCM
// behaviour C20; k8s.io/endpointslice utils.go FindPort). An integer
// targetPort is returned as is, whatever the pod declares. A named
// targetPort is looked up in the ports of pod.spec.containers, then in those
// of the restartable init containers (native sidecars, restartPolicy
// Always); a port matches when both its name and its protocol equal the
// targetPort and the Service port's protocol (compared as written, as KCM
// does on defaulted objects). The first match wins. It returns an error when
// no container port matches or the targetPort has an unknown type.
func FindPort(pod *corev1.Pod, svcPort *corev1.ServicePort) (int32, error) {
	switch svcPort.TargetPort.Type {
	case intstr.Int:
		return svcPort.TargetPort.IntVal, nil
	case intstr.String:
		name := svcPort.TargetPort.StrVal
		for i := range pod.Spec.Containers {
			for _, p := range pod.Spec.Containers[i].Ports {
				if p.Name == name && p.Protocol == svcPort.Protocol {
					return p.ContainerPort, nil
				}
			}
		}
		for i := range pod.Spec.InitContainers {
			c := &pod.Spec.InitContainers[i]
			if c.RestartPolicy == nil || *c.RestartPolicy != corev1.ContainerRestartPolicyAlways {
				continue
			}
			for _, p := range c.Ports {
				if p.Name == name && p.Protocol == svcPort.Protocol {
					return p.ContainerPort, nil
				}
			}
		}
		return 0, fmt.Errorf("no container port named %q with protocol %s in Pod %s/%s", name, svcPort.Protocol, pod.Namespace, pod.Name)
	}
	return 0, fmt.Errorf("unknown targetPort type %d for Service port %q", svcPort.TargetPort.Type, svcPort.Name)
}

// EndpointPorts returns the ports of pod's endpoint in svc (KCM behaviour
// C20; k8s.io/endpointslice utils.go getEndpointPorts): one port per Service
// port that FindPort resolves for the pod, in the order of spec.ports, named
// after the Service port and carrying its protocol and appProtocol. Service
// ports that do not resolve are left out (logged at V(4)), so pods whose
// named ports differ end up in different port groups. The result is never
// nil: a headless Service without ports, or a pod that resolves none, gets an
// empty list. ctx only carries the logger.
func EndpointPorts(ctx context.Context, svc *corev1.Service, pod *corev1.Pod) []discovery.EndpointPort {
	logger := klog.FromContext(ctx)
	ports := []discovery.EndpointPort{}
	// KCM allows a headless Service not to have ports; the loop below gives
	// the same result for any Service without ports.
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		num, err := FindPort(pod, sp)
		if err != nil {
			logger.V(4).Info("Failed to find port for service", "service", klog.KObj(svc), "pod", klog.KObj(pod), "err", err)
			continue
		}
		ports = append(ports, discovery.EndpointPort{
			Name:        ptr.To(sp.Name),
			Port:        ptr.To(num),
			Protocol:    ptr.To(sp.Protocol),
			AppProtocol: copyStringPtr(sp.AppProtocol),
		})
	}
	return ports
}

// PodToEndpoint returns the endpoint of pod in svc with the given addresses
// (KCM behaviours C17-C19; k8s.io/endpointslice utils.go podToEndpoint, which
// uses the Pod's status.podIPs of the slice's family, servicepods
// EndpointAddresses; other sources pass their own):
//   - conditions: serving is IsPodReady(pod); terminating is whether the pod
//     has a deletionTimestamp; ready is svc.spec.publishNotReadyAddresses or
//     (serving and not terminating);
//   - targetRef: kind Pod, the pod's namespace, name and uid;
//   - nodeName: pod.spec.nodeName when set;
//   - zone: the node's topology.kubernetes.io/zone label when node is not nil
//     and the label is not empty;
//   - hostname: pod.spec.hostname when ShouldSetHostname(pod, svc).
//
// node may be nil (unknown node). The endpoint keeps addresses as given
// (the caller must not modify it afterwards); every other field is a copy,
// never a pointer into pod, node or svc. Hints are not set: the reconciler
// owns them.
func PodToEndpoint(pod *corev1.Pod, node *corev1.Node, svc *corev1.Service, addresses []string) discovery.Endpoint {
	serving := IsPodReady(pod)
	terminating := pod.DeletionTimestamp != nil
	// For compatibility, ready is never true for a terminating pod unless
	// the Service publishes not-ready addresses (KCM podToEndpoint).
	ready := svc.Spec.PublishNotReadyAddresses || (serving && !terminating)
	ep := discovery.Endpoint{
		Addresses: addresses,
		Conditions: discovery.EndpointConditions{
			Ready:       ptr.To(ready),
			Serving:     ptr.To(serving),
			Terminating: ptr.To(terminating),
		},
		TargetRef: &corev1.ObjectReference{
			Kind:      "Pod",
			Namespace: pod.Namespace,
			Name:      pod.Name,
			UID:       pod.UID,
		},
	}
	if pod.Spec.NodeName != "" {
		ep.NodeName = ptr.To(pod.Spec.NodeName)
	}
	if node != nil && node.Labels[corev1.LabelTopologyZone] != "" {
		ep.Zone = ptr.To(node.Labels[corev1.LabelTopologyZone])
	}
	if ShouldSetHostname(pod, svc) {
		ep.Hostname = ptr.To(pod.Spec.Hostname)
	}
	return ep
}

func copyStringPtr(s *string) *string {
	if s == nil {
		return nil
	}
	return ptr.To(*s)
}
