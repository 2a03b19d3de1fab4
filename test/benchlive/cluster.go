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
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/internal/localapply"
)

// podBase is the first Pod IP: 10.128.0.0/9 holds the benchmark's Pods
// (fresh addresses for every created Pod, never reused).
var podBase = netip.MustParseAddr("10.128.0.1")

// workers is how many objects are created at once.
const workers = 8

// pod is the benchmark's view of one Pod.
type pod struct {
	name, service, ip string
	ready             bool
}

// world is the objects of one scenario, as the benchmark made them: the
// expected content of the slices follows from it.
type world struct {
	client kubernetes.Interface
	// ns is the scenario's namespace, or with several, the prefix of
	// their names.
	ns string
	// namespaces are the namespaces setUp created; serviceNS is the
	// namespace of each Service (their names are unique across them).
	namespaces []string
	serviceNS  map[string]string
	nodes      int
	services   []string
	pods       []*pod
	// nextPod numbers created Pods; nextIP counts addresses handed out.
	nextPod *int
	nextIP  *uint32
	// realistic dresses every Pod as a Deployment's (-realistic-pods).
	realistic bool
}

// want returns the addresses each Service's slices must list, with their
// ready value, keyed by namespace/name.
func (w *world) want() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for _, s := range w.services {
		m[w.serviceNS[s]+"/"+s] = map[string]bool{}
	}
	for _, p := range w.pods {
		m[w.serviceNS[p.service]+"/"+p.service][p.ip] = p.ready
	}
	return m
}

// wantOf returns want() for one Service.
func (w *world) wantOf(service string) map[string]map[string]bool {
	m := map[string]bool{}
	for _, p := range w.pods {
		if p.service == service {
			m[p.ip] = p.ready
		}
	}
	return map[string]map[string]bool{w.serviceNS[service] + "/" + service: m}
}

// newPod names a new Pod of service and gives it a fresh address.
func (w *world) newPod(service string) *pod {
	*w.nextPod++
	*w.nextIP++
	return &pod{name: fmt.Sprintf("%s-%d", service, *w.nextPod), service: service, ip: nthIP(*w.nextIP - 1), ready: true}
}

// nthIP returns the IPv4 address n places after podBase.
func nthIP(n uint32) string {
	b := podBase.As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	v += n
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}).String()
}

// createNodes creates n Nodes, Ready, in three zones.
func createNodes(ctx context.Context, c kubernetes.Interface, n int) error {
	for i := range n {
		name := fmt.Sprintf("bench-node-%d", i)
		node := &corev1.Node{
			TypeMeta: metav1.TypeMeta{Kind: "Node", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
				"kubernetes.io/hostname":      name,
				"topology.kubernetes.io/zone": fmt.Sprintf("zone-%c", 'a'+i%3),
			}},
			Status: corev1.NodeStatus{
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now()}},
				Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: fmt.Sprintf("198.19.0.%d", i+1)}},
			},
		}
		if _, err := localapply.Apply(ctx, c, node, io.Discard); err != nil {
			return fmt.Errorf("creating Node %s: %w", name, err)
		}
	}
	return nil
}

// spread returns the namespace of each of services Services spread in
// blocks over namespaces namespaces: ns itself for one, else ns-0 for the
// first block, ns-1 for the next, and so on.
func spread(ns string, services, namespaces int) []string {
	out := make([]string, services)
	for i := range out {
		out[i] = ns
		if namespaces > 1 {
			out[i] = fmt.Sprintf("%s-%d", ns, i*namespaces/services)
		}
	}
	return out
}

// setUp creates the namespaces (each with its default ServiceAccount,
// which the ServiceAccount admission plugin requires of Pods), the
// Services spread over them and their Pods, each Pod Running and Ready
// with an IP.
func (w *world) setUp(ctx context.Context, services, podsPerService, namespaces int) error {
	where := spread(w.ns, services, namespaces)
	w.serviceNS = map[string]string{}
	for i, name := range where {
		if i == 0 || name != where[i-1] {
			w.namespaces = append(w.namespaces, name)
		}
	}
	if err := parallel(ctx, len(w.namespaces), func(i int) error {
		ns := &corev1.Namespace{TypeMeta: metav1.TypeMeta{Kind: "Namespace", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Name: w.namespaces[i]}}
		if _, err := localapply.Apply(ctx, w.client, ns, io.Discard); err != nil {
			return err
		}
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: w.namespaces[i]}}
		if _, err := w.client.CoreV1().ServiceAccounts(w.namespaces[i]).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		return nil
	}); err != nil {
		return fmt.Errorf("creating namespaces: %w", err)
	}
	var svcs []*corev1.Service
	for i := range services {
		name := "svc-" + strconv.Itoa(i)
		if services == 1 {
			name = "big"
		}
		w.services = append(w.services, name)
		w.serviceNS[name] = where[i]
		svcs = append(svcs, &corev1.Service{
			TypeMeta:   metav1.TypeMeta{Kind: "Service", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: where[i]},
			Spec: corev1.ServiceSpec{
				Selector: map[string]string{"app": name},
				Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
			},
		})
	}
	if err := parallel(ctx, len(svcs), func(i int) error {
		_, err := localapply.Apply(ctx, w.client, svcs[i], io.Discard)
		return err
	}); err != nil {
		return fmt.Errorf("creating Services: %w", err)
	}
	var pods []*pod
	for _, s := range w.services {
		for range podsPerService {
			pods = append(pods, w.newPod(s))
		}
	}
	if err := w.create(ctx, pods); err != nil {
		return err
	}
	w.pods = pods
	return nil
}

// create creates pods, Ready, through the API server.
func (w *world) create(ctx context.Context, pods []*pod) error {
	return parallel(ctx, len(pods), func(i int) error {
		_, err := localapply.Apply(ctx, w.client, w.podObject(pods[i], i), io.Discard)
		if err != nil {
			return fmt.Errorf("creating Pod %s: %w", pods[i].name, err)
		}
		return nil
	})
}

// podObject returns the Pod p on a Node chosen by i, with the status a
// kubelet reports for a running, ready Pod.
func (w *world) podObject(p *pod, i int) *corev1.Pod {
	now := metav1.Now()
	node := fmt.Sprintf("bench-node-%d", i%w.nodes)
	cond := func(t corev1.PodConditionType) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: now}
	}
	pod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: w.serviceNS[p.service], Labels: map[string]string{"app": p.service}},
		Spec: corev1.PodSpec{
			NodeName:   node,
			Containers: []corev1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}}},
		},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			Conditions: []corev1.PodCondition{cond(corev1.PodScheduled), cond(corev1.PodInitialized), cond(corev1.ContainersReady), cond(corev1.PodReady)},
			HostIP:     fmt.Sprintf("198.19.0.%d", i%w.nodes+1),
			PodIP:      p.ip,
			PodIPs:     []corev1.PodIP{{IP: p.ip}},
			StartTime:  &now,
			ContainerStatuses: []corev1.ContainerStatus{{
				Name: "app", Ready: true, Image: "registry.k8s.io/pause:3.10",
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
			}},
		},
	}
	if w.realistic {
		deploymentSized(pod, p.service, i)
	}
	return pod
}

// setReady writes p's Ready condition through the status subresource, as
// the kubelet's status manager does (a strategic merge patch).
func (w *world) setReady(ctx context.Context, p *pod, ready bool) error {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": []map[string]any{{
		"type": corev1.PodReady, "status": status, "lastTransitionTime": metav1.Now(),
	}}}})
	if err != nil {
		return err
	}
	if _, err := w.client.CoreV1().Pods(w.serviceNS[p.service]).Patch(ctx, p.name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status"); err != nil {
		return fmt.Errorf("patching the status of Pod %s: %w", p.name, err)
	}
	p.ready = ready
	return nil
}

// replace deletes old (at once, grace period 0: no kubelet would confirm a
// graceful deletion) and creates as many new ready Pods of the same
// Services. It returns the new Pods.
func (w *world) replace(ctx context.Context, old []*pod) ([]*pod, error) {
	zero := int64(0)
	if err := parallel(ctx, len(old), func(i int) error {
		err := w.client.CoreV1().Pods(w.serviceNS[old[i].service]).Delete(ctx, old[i].name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
		if err != nil {
			return fmt.Errorf("deleting Pod %s: %w", old[i].name, err)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	fresh := make([]*pod, len(old))
	for i, p := range old {
		fresh[i] = w.newPod(p.service)
	}
	if err := w.create(ctx, fresh); err != nil {
		return nil, err
	}
	gone := map[*pod]bool{}
	for _, p := range old {
		gone[p] = true
	}
	kept := w.pods[:0]
	for _, p := range w.pods {
		if !gone[p] {
			kept = append(kept, p)
		}
	}
	w.pods = append(kept, fresh...)
	return fresh, nil
}

// deleteSlices deletes every EndpointSlice of the namespaces.
func (w *world) deleteSlices(ctx context.Context) error {
	return parallel(ctx, len(w.namespaces), func(i int) error {
		return w.client.DiscoveryV1().EndpointSlices(w.namespaces[i]).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	})
}

// tearDown deletes the Pods (grace period 0), Services and EndpointSlices
// of the namespaces, a namespace at a time. The namespaces stay: without
// the namespace controller their deletion would never finish.
func (w *world) tearDown(ctx context.Context) error {
	zero := int64(0)
	for _, ns := range w.namespaces {
		if err := errors.Join(
			w.client.CoreV1().Pods(ns).DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: &zero}, metav1.ListOptions{}),
			deleteServices(ctx, w.client, ns),
			w.client.DiscoveryV1().EndpointSlices(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}),
		); err != nil {
			return fmt.Errorf("namespace %s: %w", ns, err)
		}
	}
	return nil
}

// deleteServices deletes every Service of ns (Services have no
// deletecollection).
func deleteServices(ctx context.Context, c kubernetes.Interface, ns string) error {
	list, err := c.CoreV1().Services(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	return parallel(ctx, len(list.Items), func(i int) error {
		return c.CoreV1().Services(ns).Delete(ctx, list.Items[i].Name, metav1.DeleteOptions{})
	})
}

// parallel calls f(0..n-1) on [workers] goroutines and returns the first
// error (the others still finish).
func parallel(ctx context.Context, n int, f func(i int) error) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	next := make(chan int)
	for range min(workers, n) {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// settle sleeps d unless ctx ends first.
func settle(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
