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

package casefile

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// LiveBackend runs a case against a real kube-apiserver and whatever
// controllers run against it (slicekit's manager, kube-controller-manager):
// Load creates the case's objects with the uids, resourceVersions and
// cluster IPs the API server assigns (Pod and Node status written through
// the status subresource), Settle waits until the EndpointSlices and
// Endpoints of the case's namespaces have not changed for Quiet, and the
// steps go through the API. UIDMap maps the case's readable uids to the
// real ones. Nodes are created or updated; the other objects must not
// exist yet.
type LiveBackend struct {
	// Client talks to the API server.
	Client kubernetes.Interface
	// Quiet is how long nothing may change for Settle to return; default 3s
	// (longer than kube-controller-manager's 1s EndpointSlice sync delay).
	Quiet time.Duration
	// Timeout bounds Settle; default 90s.
	Timeout time.Duration

	mu         sync.Mutex
	uids       map[types.UID]types.UID
	namespaces []string
	createdRV  map[string]string
}

var (
	_ Backend                 = (*LiveBackend)(nil)
	_ UIDMapper               = (*LiveBackend)(nil)
	_ ResourceVersionReporter = (*LiveBackend)(nil)
)

// UIDMap implements UIDMapper.
func (b *LiveBackend) UIDMap() map[types.UID]types.UID {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[types.UID]types.UID, len(b.uids))
	for k, v := range b.uids {
		out[k] = v
	}
	return out
}

// CreatedResourceVersion implements ResourceVersionReporter.
func (b *LiveBackend) CreatedResourceVersion(namespace, name string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.createdRV[namespace+"/"+name]
}

// Namespaces returns the case's namespaces (known after Load).
func (b *LiveBackend) Namespaces() []string { return slices.Clone(b.namespaces) }

// loadOrder creates owners before what refers to them.
var loadOrder = map[string]int{"Namespace": 0, "Node": 1, "Service": 2, "Pod": 3, "ResourceClaimTemplate": 4, "ResourceClaim": 5, "Endpoints": 6, "EndpointSlice": 7}

// Load implements Backend.
func (b *LiveBackend) Load(ctx context.Context, objs []runtime.Object) error {
	b.mu.Lock()
	b.uids = map[types.UID]types.UID{}
	b.createdRV = map[string]string{}
	b.namespaces = nil
	b.mu.Unlock()
	sorted := slices.Clone(objs)
	slices.SortStableFunc(sorted, func(x, y runtime.Object) int {
		return loadOrder[kindOf(x)] - loadOrder[kindOf(y)]
	})
	for _, o := range sorted {
		if m, err := meta.Accessor(o); err == nil && m.GetNamespace() != "" && !slices.Contains(b.namespaces, m.GetNamespace()) {
			b.namespaces = append(b.namespaces, m.GetNamespace())
		}
	}
	for _, ns := range b.namespaces {
		_, err := b.Client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating namespace %s: %w", ns, err)
		}
	}
	for _, o := range sorted {
		if err := b.create(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

func kindOf(o runtime.Object) string {
	switch o.(type) {
	case *corev1.Namespace:
		return "Namespace"
	case *corev1.Node:
		return "Node"
	case *corev1.Service:
		return "Service"
	case *corev1.Pod:
		return "Pod"
	case *corev1.Endpoints:
		return "Endpoints"
	case *discovery.EndpointSlice:
		return "EndpointSlice"
	case *resourceapi.ResourceClaim:
		return "ResourceClaim"
	case *resourceapi.ResourceClaimTemplate:
		return "ResourceClaimTemplate"
	}
	return fmt.Sprintf("%T", o)
}

// prepare clears what the API server assigns and maps the case's uids in
// references to real ones.
func (b *LiveBackend) prepare(o runtime.Object) runtime.Object {
	o = o.DeepCopyObject()
	m, _ := meta.Accessor(o)
	m.SetUID("")
	m.SetResourceVersion("")
	m.SetGeneration(0)
	m.SetCreationTimestamp(metav1.Time{})
	refs := m.GetOwnerReferences()
	for i := range refs {
		refs[i].UID = b.mapUID(refs[i].UID)
	}
	m.SetOwnerReferences(refs)
	switch v := o.(type) {
	case *corev1.Service:
		if v.Spec.ClusterIP != corev1.ClusterIPNone {
			v.Spec.ClusterIP, v.Spec.ClusterIPs = "", nil
		}
	case *corev1.Endpoints:
		for i := range v.Subsets {
			for _, as := range [][]corev1.EndpointAddress{v.Subsets[i].Addresses, v.Subsets[i].NotReadyAddresses} {
				for j := range as {
					if as[j].TargetRef != nil {
						as[j].TargetRef.UID = b.mapUID(as[j].TargetRef.UID)
					}
				}
			}
		}
	case *discovery.EndpointSlice:
		for i := range v.Endpoints {
			if r := v.Endpoints[i].TargetRef; r != nil {
				r.UID = b.mapUID(r.UID)
			}
		}
	case *resourceapi.ResourceClaim:
		// The consumers' readable uids (uid-pod-a1) become the real
		// Pods' (created first).
		for i := range v.Status.ReservedFor {
			v.Status.ReservedFor[i].UID = b.mapUID(v.Status.ReservedFor[i].UID)
		}
	}
	return o
}

func (b *LiveBackend) mapUID(u types.UID) types.UID {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r, ok := b.uids[u]; ok {
		return r
	}
	return u
}

func (b *LiveBackend) remember(caseUID types.UID, created metav1.Object) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if caseUID != "" {
		b.uids[caseUID] = created.GetUID()
	}
}

// create creates one object of the case (or, for a Node, updates an
// existing one) and writes its status.
func (b *LiveBackend) create(ctx context.Context, orig runtime.Object) error {
	m, err := meta.Accessor(orig)
	if err != nil {
		return err
	}
	caseUID := m.GetUID()
	o := b.prepare(orig)
	opts := metav1.CreateOptions{}
	var created metav1.Object
	switch v := o.(type) {
	case *corev1.Namespace:
		return nil
	case *corev1.Node:
		c := b.Client.CoreV1().Nodes()
		n, err := c.Create(ctx, v, opts)
		if apierrors.IsAlreadyExists(err) {
			cur, gerr := c.Get(ctx, v.Name, metav1.GetOptions{})
			if gerr != nil {
				return gerr
			}
			v.ResourceVersion = cur.ResourceVersion
			n, err = c.Update(ctx, v, metav1.UpdateOptions{})
		}
		if err != nil {
			return fmt.Errorf("creating Node %s: %w", v.Name, err)
		}
		err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
			cur, err := c.Get(ctx, v.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			cur.Status = v.Status
			n, err = c.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
			return err
		})
		if err != nil {
			return fmt.Errorf("writing status of Node %s: %w", v.Name, err)
		}
		created = n
	case *corev1.Service:
		s, err := b.Client.CoreV1().Services(v.Namespace).Create(ctx, v, opts)
		if err != nil {
			return fmt.Errorf("creating Service %s/%s: %w", v.Namespace, v.Name, err)
		}
		created = s
	case *corev1.Pod:
		c := b.Client.CoreV1().Pods(v.Namespace)
		status := v.Status
		p, err := c.Create(ctx, v, opts)
		if err != nil {
			return fmt.Errorf("creating Pod %s/%s: %w", v.Namespace, v.Name, err)
		}
		err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
			cur, err := c.Get(ctx, v.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			cur.Status = status
			p, err = c.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
			return err
		})
		if err != nil {
			return fmt.Errorf("writing status of Pod %s/%s: %w", v.Namespace, v.Name, err)
		}
		created = p
	case *corev1.Endpoints:
		e, err := b.Client.CoreV1().Endpoints(v.Namespace).Create(ctx, v, opts)
		if err != nil {
			return fmt.Errorf("creating Endpoints %s/%s: %w", v.Namespace, v.Name, err)
		}
		created = e
	case *discovery.EndpointSlice:
		s, err := b.Client.DiscoveryV1().EndpointSlices(v.Namespace).Create(ctx, v, opts)
		if err != nil {
			return fmt.Errorf("creating EndpointSlice %s/%s: %w", v.Namespace, v.Name, err)
		}
		b.mu.Lock()
		b.createdRV[s.Namespace+"/"+s.Name] = s.ResourceVersion
		b.mu.Unlock()
		created = s
	case *resourceapi.ResourceClaimTemplate:
		t, err := b.Client.ResourceV1().ResourceClaimTemplates(v.Namespace).Create(ctx, v, opts)
		if err != nil {
			return fmt.Errorf("creating ResourceClaimTemplate %s/%s: %w", v.Namespace, v.Name, err)
		}
		created = t
	case *resourceapi.ResourceClaim:
		// As an admin writes it (README of case 45): the claim, then its
		// status (allocation, reservedFor, devices) in one update of the
		// status subresource.
		c := b.Client.ResourceV1().ResourceClaims(v.Namespace)
		status := v.Status
		v.Status = resourceapi.ResourceClaimStatus{}
		rc, err := c.Create(ctx, v, opts)
		if err != nil {
			return fmt.Errorf("creating ResourceClaim %s/%s: %w", v.Namespace, v.Name, err)
		}
		if status.Allocation != nil || len(status.ReservedFor) > 0 || len(status.Devices) > 0 {
			err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
				cur, err := c.Get(ctx, v.Name, metav1.GetOptions{})
				if err != nil {
					return err
				}
				cur.Status = status
				rc, err = c.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
				return err
			})
			if err != nil {
				return fmt.Errorf("writing status of ResourceClaim %s/%s: %w", v.Namespace, v.Name, err)
			}
		}
		created = rc
	default:
		return fmt.Errorf("live backend: cannot create %T", o)
	}
	b.remember(caseUID, created)
	return nil
}

// snapshot is the names and resourceVersions of the EndpointSlices and
// Endpoints of the case's namespaces.
func (b *LiveBackend) snapshot(ctx context.Context) (string, error) {
	var parts []string
	for _, ns := range b.namespaces {
		sl, err := b.Client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return "", err
		}
		for _, s := range sl.Items {
			parts = append(parts, "s/"+s.Namespace+"/"+s.Name+"@"+s.ResourceVersion)
		}
		eps, err := b.Client.CoreV1().Endpoints(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return "", err
		}
		for _, e := range eps.Items {
			parts = append(parts, "e/"+e.Namespace+"/"+e.Name+"@"+e.ResourceVersion)
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, ","), nil
}

// Settle implements Backend: it polls every 200ms until the EndpointSlices
// and Endpoints of the case's namespaces stayed the same for Quiet, and
// fails after Timeout.
func (b *LiveBackend) Settle(ctx context.Context) error {
	quiet, timeout := b.Quiet, b.Timeout
	if quiet == 0 {
		quiet = 3 * time.Second
	}
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	last, since := "", time.Now()
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		cur, err := b.snapshot(ctx)
		if err != nil {
			return false, nil //nolint:nilerr // transient; retried until the timeout
		}
		if cur != last {
			last, since = cur, time.Now()
			return false, nil
		}
		return time.Since(since) >= quiet, nil
	})
	if err != nil {
		return fmt.Errorf("EndpointSlices and Endpoints did not settle within %s: %w", timeout, err)
	}
	return nil
}

// Patch implements Backend.
func (b *LiveBackend) Patch(ctx context.Context, p *Patch) error {
	pt := types.MergePatchType
	switch p.Type {
	case "", "merge":
	case "json":
		pt = types.JSONPatchType
	case "strategic":
		pt = types.StrategicMergePatchType
	default:
		return fmt.Errorf("patch type %q", p.Type)
	}
	var sub []string
	if p.Subresource != "" {
		sub = []string{p.Subresource}
	}
	opts := metav1.PatchOptions{}
	var err error
	switch p.Kind {
	case "Service":
		_, err = b.Client.CoreV1().Services(p.Namespace).Patch(ctx, p.Name, pt, p.Patch, opts, sub...)
	case "Pod":
		_, err = b.Client.CoreV1().Pods(p.Namespace).Patch(ctx, p.Name, pt, p.Patch, opts, sub...)
	case "Endpoints":
		_, err = b.Client.CoreV1().Endpoints(p.Namespace).Patch(ctx, p.Name, pt, p.Patch, opts, sub...)
	case "Node":
		_, err = b.Client.CoreV1().Nodes().Patch(ctx, p.Name, pt, p.Patch, opts, sub...)
	case "EndpointSlice":
		_, err = b.Client.DiscoveryV1().EndpointSlices(p.Namespace).Patch(ctx, p.Name, pt, p.Patch, opts, sub...)
	case "ResourceClaim":
		_, err = b.Client.ResourceV1().ResourceClaims(p.Namespace).Patch(ctx, p.Name, pt, p.Patch, opts, sub...)
	default:
		return fmt.Errorf("live backend: cannot patch %s", p.Ref)
	}
	if err != nil {
		return fmt.Errorf("patching %s: %w", p.Ref, err)
	}
	return nil
}

// Delete implements Backend: at once (grace period 0).
func (b *LiveBackend) Delete(ctx context.Context, ref Ref) error {
	opts := metav1.DeleteOptions{GracePeriodSeconds: new(int64)}
	var err error
	switch ref.Kind {
	case "Service":
		err = b.Client.CoreV1().Services(ref.Namespace).Delete(ctx, ref.Name, opts)
	case "Pod":
		err = b.Client.CoreV1().Pods(ref.Namespace).Delete(ctx, ref.Name, opts)
	case "Endpoints":
		err = b.Client.CoreV1().Endpoints(ref.Namespace).Delete(ctx, ref.Name, opts)
	case "Node":
		err = b.Client.CoreV1().Nodes().Delete(ctx, ref.Name, opts)
	case "EndpointSlice":
		err = b.Client.DiscoveryV1().EndpointSlices(ref.Namespace).Delete(ctx, ref.Name, opts)
	case "ResourceClaim":
		err = b.Client.ResourceV1().ResourceClaims(ref.Namespace).Delete(ctx, ref.Name, opts)
	default:
		return fmt.Errorf("live backend: cannot delete %s", ref)
	}
	if err != nil {
		return fmt.Errorf("deleting %s: %w", ref, err)
	}
	return nil
}

// Apply implements Backend: the object replaces the one of that kind,
// namespace and name (deleted first), or is created.
func (b *LiveBackend) Apply(ctx context.Context, obj runtime.Object) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	ref := Ref{Kind: kindOf(obj), Namespace: m.GetNamespace(), Name: m.GetName()}
	if err := b.Delete(ctx, ref); err != nil && !apierrors.IsNotFound(errors.Unwrap(err)) {
		return err
	}
	return b.create(ctx, obj)
}

// Slices implements Backend: the EndpointSlices of the case's namespaces.
func (b *LiveBackend) Slices(ctx context.Context) ([]discovery.EndpointSlice, error) {
	var out []discovery.EndpointSlice
	for _, ns := range b.namespaces {
		l, err := b.Client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
	}
	return out, nil
}
