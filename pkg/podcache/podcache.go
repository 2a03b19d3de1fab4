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

// Package podcache holds the compact record slicekit's shared Pod informer
// caches in place of a *corev1.Pod, and the lister and event helpers that
// hand it to controllers as a *corev1.Pod again.
//
// Why: a *corev1.Pod struct is about 1.2 KB however few of its fields are
// set (PodSpec and PodStatus are large inline structs), and a Container
// another 400 bytes. The endpoint rules read a dozen fields of a Pod
// (pkg/informertransform lists them), so at 10,000 Pods the cache held
// about 15 MB of mostly empty structs, which the garbage collector's heap
// goal doubles. A Pod record holds the same fields in about 450 bytes
// (unsafe.Sizeof(Record{}) is asserted below half a Pod's in the tests).
//
// Consumers keep their *corev1.Pod types: Lister (a client-go
// corelisters.PodLister over the informer's indexer) and FromObject (for
// event handlers) return Record.Pod(), a new *corev1.Pod equal to what the
// Pod transform kept, allocated per call (one per changed Pod on the
// incremental path, one per selected Pod on the full path). Both also accept
// *corev1.Pod objects, returned as they are: when a controller reads every
// field of a Pod (informertransform.Reads.AllPodFields, for example a CEL
// expression), Pods are cached whole and no record is made.
//
// Records of Pods with equal labels, or equal container names and ports,
// share one copy of them (the Pods of a ReplicaSet differ only in name):
// a table of weak pointers finds it by content, and forgets it after the
// last record using it is collected (intern.go).
//
// Records, and the Pods made from them, share the cache's maps and slices
// (labels, annotations, IPs, container ports): like every cached object
// they are read-only; DeepCopy before changing one.
package podcache

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
)

// Record is the compact form of a Pod: its metadata as the transform trims
// it (name, namespace, uid, resourceVersion, generation, creation and
// deletion timestamps, labels, the kept annotations), spec.nodeName,
// spec.hostname, spec.subdomain, each container's and init container's
// name and ports (and an init container's restartPolicy), status.phase,
// status.podIP, status.podIPs and the Ready condition's status and
// lastTransitionTime. It implements runtime.Object and metav1.Object (the
// embedded ObjectMeta), as client-go's informer store and indexers need.
type Record struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	nodeName, hostname, subdomain string
	phase                         corev1.PodPhase
	podIP                         string
	podIPs                        []corev1.PodIP
	ready                         *readyCondition
	// containers is shared with the records of the same containers and
	// ports (intern.go); nil without containers.
	containers *shared[[]container]
	// labels keeps ObjectMeta.Labels, shared with the records of the same
	// labels (intern.go), alive; nil without labels.
	labels *shared[map[string]string]
	// claims are spec.resourceClaims and status.resourceClaimStatuses,
	// kept only with the ResourceClaims field (Keep.Fields) and when the
	// Pod has either; nil otherwise.
	claims *resourceClaims
}

// Field names a Pod field beyond the endpoint rules' that a record keeps
// when a source declares it reads it (informertransform.Reads.PodFields).
type Field string

// The fields a record can keep on request.
const (
	// ResourceClaims is spec.resourceClaims and
	// status.resourceClaimStatuses: how a Pod names its ResourceClaims
	// (Dynamic Resource Allocation), read by pkg/controllers/dranetwork.
	ResourceClaims Field = "resourceClaims"
)

// Keep is what a record keeps beyond the endpoint rules' fields.
type Keep struct {
	// Annotations are the annotation keys kept; others are dropped.
	Annotations []string
	// Fields are the extra fields kept.
	Fields []Field
}

// resourceClaims are a Pod's claim references (Field ResourceClaims).
type resourceClaims struct {
	spec   []corev1.PodResourceClaim
	status []corev1.PodResourceClaimStatus
}

// readyCondition is what the endpoint rules read of the Ready condition:
// its status (IsPodReady) and lastTransitionTime (the trigger-time
// tracker).
type readyCondition struct {
	status             corev1.ConditionStatus
	lastTransitionTime metav1.Time
}

// container is a container's or init container's name and ports, and an
// init container's restartPolicy (FindPort reads the ports of restartable
// init containers).
type container struct {
	name          string
	ports         []corev1.ContainerPort
	restartPolicy *corev1.ContainerRestartPolicy
	init          bool
}

// New returns the record of pod: its identity, labels and lifecycle
// timestamps, the annotations named in annotations (others are dropped;
// none: a nil map), and the spec and status fields listed on Record. It
// never modifies pod, and shares its labels map, IPs and container port
// slices (read-only, as the informer's decoded object is discarded).
func New(pod *corev1.Pod, annotations []string) *Record {
	return NewKeeping(pod, Keep{Annotations: annotations})
}

// NewKeeping is New keeping also keep.Fields (keep.Annotations are New's
// annotations). The kept fields share pod's slices, read-only.
func NewKeeping(pod *corev1.Pod, keep Keep) *Record {
	annotations := keep.Annotations
	r := &Record{
		TypeMeta: pod.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:              pod.Name,
			Namespace:         pod.Namespace,
			UID:               pod.UID,
			ResourceVersion:   pod.ResourceVersion,
			Generation:        pod.Generation,
			CreationTimestamp: pod.CreationTimestamp,
			DeletionTimestamp: pod.DeletionTimestamp,
			Labels:            pod.Labels,
		},
		nodeName:  pod.Spec.NodeName,
		hostname:  pod.Spec.Hostname,
		subdomain: pod.Spec.Subdomain,
		phase:     pod.Status.Phase,
		podIP:     pod.Status.PodIP,
		podIPs:    pod.Status.PodIPs,
	}
	for _, k := range annotations {
		if v, ok := pod.Annotations[k]; ok {
			if r.Annotations == nil {
				r.Annotations = map[string]string{}
			}
			r.Annotations[k] = v
		}
	}
	for i := range pod.Status.Conditions {
		if c := &pod.Status.Conditions[i]; c.Type == corev1.PodReady {
			r.ready = &readyCondition{status: c.Status, lastTransitionTime: c.LastTransitionTime}
			break
		}
	}
	if n := len(pod.Spec.Containers) + len(pod.Spec.InitContainers); n > 0 {
		cs := make([]container, 0, n)
		for i := range pod.Spec.Containers {
			c := &pod.Spec.Containers[i]
			cs = append(cs, container{name: c.Name, ports: c.Ports})
		}
		for i := range pod.Spec.InitContainers {
			c := &pod.Spec.InitContainers[i]
			cs = append(cs, container{name: c.Name, ports: c.Ports, restartPolicy: c.RestartPolicy, init: true})
		}
		r.containers = internContainers(cs)
	}
	if r.labels = internLabels(pod.Labels); r.labels != nil {
		r.Labels = r.labels.v
	}
	for _, f := range keep.Fields {
		if f == ResourceClaims && (len(pod.Spec.ResourceClaims) > 0 || len(pod.Status.ResourceClaimStatuses) > 0) {
			r.claims = &resourceClaims{spec: pod.Spec.ResourceClaims, status: pod.Status.ResourceClaimStatuses}
		}
	}
	return r
}

// containerList returns the record's containers (nil without any).
func (r *Record) containerList() []container {
	if r.containers == nil {
		return nil
	}
	return r.containers.v
}

// Pod returns a new *corev1.Pod holding the record's fields: the Pod as the
// transform keeps it (metadata as on Record, spec.nodeName, hostname,
// subdomain, containers and init containers with their names and ports and
// an init container's restartPolicy, status.phase, podIP, podIPs, a
// Ready condition with its status and lastTransitionTime when the Pod had
// one, and the kept Fields). It shares the record's maps and slices: read-only.
func (r *Record) Pod() *corev1.Pod {
	pod := &corev1.Pod{
		TypeMeta:   r.TypeMeta,
		ObjectMeta: r.ObjectMeta,
		Spec: corev1.PodSpec{
			NodeName:  r.nodeName,
			Hostname:  r.hostname,
			Subdomain: r.subdomain,
		},
		Status: corev1.PodStatus{
			Phase:  r.phase,
			PodIP:  r.podIP,
			PodIPs: r.podIPs,
		},
	}
	if r.ready != nil {
		pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: r.ready.status, LastTransitionTime: r.ready.lastTransitionTime}}
	}
	if r.claims != nil {
		pod.Spec.ResourceClaims = r.claims.spec
		pod.Status.ResourceClaimStatuses = r.claims.status
	}
	if cs := r.containerList(); len(cs) > 0 {
		var nc, ni int
		for i := range cs {
			if cs[i].init {
				ni++
			} else {
				nc++
			}
		}
		if nc > 0 {
			pod.Spec.Containers = make([]corev1.Container, 0, nc)
		}
		if ni > 0 {
			pod.Spec.InitContainers = make([]corev1.Container, 0, ni)
		}
		for i := range cs {
			c := &cs[i]
			if c.init {
				pod.Spec.InitContainers = append(pod.Spec.InitContainers, corev1.Container{Name: c.name, Ports: c.ports, RestartPolicy: c.restartPolicy})
			} else {
				pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: c.name, Ports: c.ports})
			}
		}
	}
	return pod
}

// DeepCopyObject returns a deep copy of the record (runtime.Object).
func (r *Record) DeepCopyObject() runtime.Object {
	if r == nil {
		return nil
	}
	out := &Record{
		TypeMeta:  r.TypeMeta,
		nodeName:  r.nodeName,
		hostname:  r.hostname,
		subdomain: r.subdomain,
		phase:     r.phase,
		podIP:     r.podIP,
	}
	r.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if r.podIPs != nil {
		out.podIPs = append([]corev1.PodIP(nil), r.podIPs...)
	}
	if r.ready != nil {
		rc := *r.ready
		rc.lastTransitionTime = *r.ready.lastTransitionTime.DeepCopy()
		out.ready = &rc
	}
	if r.claims != nil {
		p := &corev1.Pod{Spec: corev1.PodSpec{ResourceClaims: r.claims.spec}, Status: corev1.PodStatus{ResourceClaimStatuses: r.claims.status}}
		p = p.DeepCopy()
		out.claims = &resourceClaims{spec: p.Spec.ResourceClaims, status: p.Status.ResourceClaimStatuses}
	}
	if r.labels != nil {
		out.labels = &shared[map[string]string]{v: out.Labels}
	}
	if r.containers != nil {
		cs := make([]container, len(r.containers.v))
		out.containers = &shared[[]container]{v: cs}
		for i, c := range r.containers.v {
			if c.ports != nil {
				c.ports = append([]corev1.ContainerPort(nil), c.ports...)
			}
			if c.restartPolicy != nil {
				p := *c.restartPolicy
				c.restartPolicy = &p
			}
			cs[i] = c
		}
	}
	return out
}

// FromObject returns the Pod of an informer event or cache entry: a
// *corev1.Pod as it is, a *Record as Record.Pod(), and the same for the
// object of a cache.DeletedFinalStateUnknown tombstone. It returns false
// for nil and for any other type.
func FromObject(obj any) (*corev1.Pod, bool) {
	switch o := obj.(type) {
	case *corev1.Pod:
		return o, o != nil
	case *Record:
		if o == nil {
			return nil, false
		}
		return o.Pod(), true
	case cache.DeletedFinalStateUnknown:
		return FromObject(o.Obj)
	}
	return nil, false
}
