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

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// deploymentSized dresses pod as a Deployment's Pod is in a real cluster
// (-realistic-pods): the labels a Deployment and its chart set, annotations,
// an owner ReplicaSet, three containers (the application with env, ports,
// resources and probes, a sidecar, a log shipper), the projected
// ServiceAccount token volume and the tolerations admission adds, and a
// container status per container. The API server adds managedFields for the
// create and the status write. The controllers read none of this beyond
// the labels, ports and status: it is the weight every informer carries.
func deploymentSized(pod *corev1.Pod, service string, i int) {
	hash := fmt.Sprintf("%08x", uint32(len(service))*2654435761)
	for k, v := range map[string]string{
		"app.kubernetes.io/name": service, "app.kubernetes.io/instance": service + "-prod",
		"app.kubernetes.io/part-of": "bench", "app.kubernetes.io/version": "1.27.3",
		"app.kubernetes.io/managed-by": "Helm", "pod-template-hash": hash, "team": "payments",
	} {
		pod.Labels[k] = v
	}
	pod.Annotations = map[string]string{
		"kubectl.kubernetes.io/restartedAt": "2026-11-30T10:00:00Z",
		"prometheus.io/scrape":              "true", "prometheus.io/port": "9090",
		"checksum/config": fmt.Sprintf("%064x", i),
	}
	pod.OwnerReferences = []metav1.OwnerReference{{
		APIVersion: "apps/v1", Kind: "ReplicaSet", Name: service + "-" + hash,
		UID: types.UID(fmt.Sprintf("00000000-0000-4000-8000-%012d", len(service))), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}}
	env := func(prefix string, n int) []corev1.EnvVar {
		var out []corev1.EnvVar
		for k := range n {
			out = append(out, corev1.EnvVar{Name: fmt.Sprintf("%s_SETTING_%d", prefix, k), Value: "value-" + strconv.Itoa(k*7919)})
		}
		return append(out, corev1.EnvVar{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}})
	}
	res := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
	}
	probe := func(path string) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromString("http")}},
			PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3}
	}
	mounts := []corev1.VolumeMount{{Name: "kube-api-access", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}}
	app := pod.Spec.Containers[0]
	app.Image = "registry.example.com/payments/" + service + ":1.27.3"
	app.Ports = append(app.Ports, corev1.ContainerPort{Name: "metrics", ContainerPort: 9090})
	app.Env, app.Resources, app.VolumeMounts = env("APP", 12), res, mounts
	app.ReadinessProbe, app.LivenessProbe = probe("/readyz"), probe("/healthz")
	app.TerminationMessagePath, app.TerminationMessagePolicy, app.ImagePullPolicy = "/dev/termination-log", corev1.TerminationMessageReadFile, corev1.PullIfNotPresent
	sidecar := corev1.Container{Name: "proxy", Image: "registry.example.com/mesh/proxy:1.24.0", Env: env("PROXY", 8), Resources: res, VolumeMounts: mounts,
		Ports: []corev1.ContainerPort{{Name: "proxy-admin", ContainerPort: 15000}}, ImagePullPolicy: corev1.PullIfNotPresent,
		TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile}
	shipper := corev1.Container{Name: "logs", Image: "registry.example.com/observability/shipper:3.1.0", Env: env("LOGS", 4), Resources: res, VolumeMounts: mounts,
		ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile}
	pod.Spec.Containers = []corev1.Container{app, sidecar, shipper}
	pod.Spec.Volumes = []corev1.Volume{{Name: "kube-api-access", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		DefaultMode: ptr.To(int32(420)),
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To(int64(3607))}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}}}
	pod.Spec.Tolerations = []corev1.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To(int64(300))},
		{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To(int64(300))},
	}
	started := pod.Status.ContainerStatuses[0].State
	pod.Status.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Ready: true, Started: ptr.To(true), Image: c.Image, ImageID: c.Image + "@sha256:" + fmt.Sprintf("%064x", len(c.Image)),
			ContainerID: fmt.Sprintf("containerd://%064x", i*3+len(c.Name)), State: started,
		})
	}
	pod.Status.QOSClass = corev1.PodQOSBurstable
}

// meanPodSize returns the mean size in bytes of up to n of the first
// namespace's Pods as the API server returns them in JSON (managedFields
// included).
func (w *world) meanPodSize(ctx context.Context, n int) (int, error) {
	list, err := w.client.CoreV1().Pods(w.namespaces[0]).List(ctx, metav1.ListOptions{Limit: int64(n)})
	if err != nil {
		return 0, err
	}
	if len(list.Items) == 0 {
		return 0, nil
	}
	total := 0
	for i := range list.Items {
		b, err := json.Marshal(&list.Items[i])
		if err != nil {
			return 0, err
		}
		total += len(b)
	}
	return total / len(list.Items), nil
}
