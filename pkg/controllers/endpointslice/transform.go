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

package endpointslice

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The transforms below are client-go cache.TransformFunc values that shrink
// the objects kept in the informer caches to what this controller reads.
// Each one returns a new object built from the fields it keeps (objects of
// other types, such as cache.DeletedFinalStateUnknown, are returned as they
// are), and each is idempotent, as client-go requires. They are exported so
// that a caller sharing one informer factory between controllers can compose
// them (see Options.SkipInformerTransforms).

// trimmedMeta keeps the identity, labels, version and lifecycle timestamps
// of an object, without annotations, owner references, finalizers or
// managedFields.
func trimmedMeta(m *metav1.ObjectMeta) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:              m.Name,
		Namespace:         m.Namespace,
		UID:               m.UID,
		ResourceVersion:   m.ResourceVersion,
		Generation:        m.Generation,
		CreationTimestamp: m.CreationTimestamp,
		DeletionTimestamp: m.DeletionTimestamp,
		Labels:            m.Labels,
	}
}

// TransformPod keeps what the Pod-to-endpoint rules read (servicepods
// Desired, FindPort, the trigger-time tracker and KCM's Pod projection key):
// name, namespace, UID, resourceVersion, labels, timestamps;
// spec.nodeName, hostname, subdomain; the name and ports of containers and
// the name, ports and restartPolicy of init containers (native sidecars);
// status.phase, podIP, podIPs and conditions. Annotations, managedFields,
// owner references, volumes, container images and statuses are dropped.
func TransformPod(obj any) (any, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	out := &corev1.Pod{
		TypeMeta:   pod.TypeMeta,
		ObjectMeta: trimmedMeta(&pod.ObjectMeta),
		Spec: corev1.PodSpec{
			NodeName:  pod.Spec.NodeName,
			Hostname:  pod.Spec.Hostname,
			Subdomain: pod.Spec.Subdomain,
		},
		Status: corev1.PodStatus{
			Phase:      pod.Status.Phase,
			PodIP:      pod.Status.PodIP,
			PodIPs:     pod.Status.PodIPs,
			Conditions: pod.Status.Conditions,
		},
	}
	if len(pod.Spec.Containers) > 0 {
		out.Spec.Containers = make([]corev1.Container, len(pod.Spec.Containers))
		for i := range pod.Spec.Containers {
			c := &pod.Spec.Containers[i]
			out.Spec.Containers[i] = corev1.Container{Name: c.Name, Ports: c.Ports}
		}
	}
	if len(pod.Spec.InitContainers) > 0 {
		out.Spec.InitContainers = make([]corev1.Container, len(pod.Spec.InitContainers))
		for i := range pod.Spec.InitContainers {
			c := &pod.Spec.InitContainers[i]
			out.Spec.InitContainers[i] = corev1.Container{Name: c.Name, Ports: c.Ports, RestartPolicy: c.RestartPolicy}
		}
	}
	return out, nil
}

// TransformService drops managedFields, the status (load-balancer ingress)
// and the kubectl.kubernetes.io/last-applied-configuration annotation; the
// spec, labels (copied to slices, C24), other annotations (topology mode,
// C34) and owner references are kept.
func TransformService(obj any) (any, error) {
	svc, ok := obj.(*corev1.Service)
	if !ok {
		return obj, nil
	}
	out := &corev1.Service{TypeMeta: svc.TypeMeta, ObjectMeta: svc.ObjectMeta, Spec: svc.Spec}
	out.ManagedFields = nil
	if _, ok := svc.Annotations[corev1.LastAppliedConfigAnnotation]; ok {
		annotations := make(map[string]string, len(svc.Annotations)-1)
		for k, v := range svc.Annotations {
			if k != corev1.LastAppliedConfigAnnotation {
				annotations[k] = v
			}
		}
		out.Annotations = annotations
	}
	return out, nil
}

// TransformEndpointSlice keeps the whole slice except the field sets of its
// managedFields: each entry keeps its manager, operation, apiVersion, time
// and subresource (what the second-writer detection reads) and loses
// fieldsType and fieldsV1. Such entries are not valid managedFields; should
// one ever be sent back to the API server it would be ignored in favour of
// the stored ones (k8s.io/apimachinery managedfields: undecodable request
// managedFields fall back to the live object's), and this controller strips
// managedFields from every slice it hands to the reconciler anyway.
func TransformEndpointSlice(obj any) (any, error) {
	s, ok := obj.(*discovery.EndpointSlice)
	if !ok {
		return obj, nil
	}
	out := &discovery.EndpointSlice{
		TypeMeta:    s.TypeMeta,
		ObjectMeta:  s.ObjectMeta,
		AddressType: s.AddressType,
		Endpoints:   s.Endpoints,
		Ports:       s.Ports,
	}
	if len(s.ManagedFields) > 0 {
		mf := make([]metav1.ManagedFieldsEntry, len(s.ManagedFields))
		for i := range s.ManagedFields {
			e := &s.ManagedFields[i]
			mf[i] = metav1.ManagedFieldsEntry{
				Manager:     e.Manager,
				Operation:   e.Operation,
				APIVersion:  e.APIVersion,
				Time:        e.Time,
				Subresource: e.Subresource,
			}
		}
		out.ManagedFields = mf
	}
	return out, nil
}

// TransformNode keeps what the topology cache and the endpoint zone read:
// name, UID, resourceVersion, labels (zone, control-plane role), timestamps,
// the type and status of each status condition (Ready) and
// status.allocatable (CPU). Everything else (images, addresses, node info,
// spec, heartbeat times) is dropped.
func TransformNode(obj any) (any, error) {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return obj, nil
	}
	out := &corev1.Node{
		TypeMeta:   node.TypeMeta,
		ObjectMeta: trimmedMeta(&node.ObjectMeta),
		Status:     corev1.NodeStatus{Allocatable: node.Status.Allocatable},
	}
	if len(node.Status.Conditions) > 0 {
		out.Status.Conditions = make([]corev1.NodeCondition, len(node.Status.Conditions))
		for i := range node.Status.Conditions {
			c := &node.Status.Conditions[i]
			out.Status.Conditions[i] = corev1.NodeCondition{Type: c.Type, Status: c.Status}
		}
	}
	return out, nil
}
