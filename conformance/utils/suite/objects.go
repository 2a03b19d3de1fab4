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

package suite

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// ctx returns a context bounded by the APICall timeout, cancelled with
// the test.
func (s *ConformanceTestSuite) ctx(t testing.TB) (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.Context(), s.TimeoutConfig.APICall)
}

// createNode creates the Node of the StatusSubresource mode: Ready, with
// a zone label and allocatable CPU; it is deleted with t.Cleanup.
func (s *ConformanceTestSuite) createNode(t *testing.T) string {
	t.Helper()
	ctx, cancel := s.ctx(t)
	defer cancel()
	n, err := s.Client.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{
		GenerateName: s.NamespacePrefix + "node-",
		Labels:       map[string]string{corev1.LabelTopologyZone: ZoneLabelValue},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating the suite's Node: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), s.TimeoutConfig.Cleanup)
		defer cancel()
		if err := s.Client.CoreV1().Nodes().Delete(ctx, n.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting Node %s: %v", n.Name, err)
		}
	})
	now := metav1.Now()
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: now, LastTransitionTime: now}}
	n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")}
	n.Status.Capacity = n.Status.Allocatable
	if _, err := s.Client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("setting the status of Node %s: %v", n.Name, err)
	}
	return n.Name
}

// Namespace creates a namespace with a generated name (NamespacePrefix
// plus a random suffix) and, with t.Cleanup, removes the suite's
// finalizers from its Pods and deletes it.
func (s *ConformanceTestSuite) Namespace(t *testing.T) string {
	t.Helper()
	ctx, cancel := s.ctx(t)
	defer cancel()
	ns, err := s.Client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: s.NamespacePrefix},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating a namespace: %v", err)
	}
	t.Cleanup(func() { s.cleanupNamespace(t, ns.Name) })
	return ns.Name
}

func (s *ConformanceTestSuite) cleanupNamespace(t *testing.T, ns string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), s.TimeoutConfig.Cleanup)
	defer cancel()
	pods, err := s.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Errorf("cleanup: listing Pods of %s: %v", ns, err)
	}
	if pods != nil {
		for _, p := range pods.Items {
			if slices.Contains(p.Finalizers, FinalizerHold) {
				s.removeFinalizer(ctx, t, ns, p.Name)
			}
		}
	}
	if err := s.Client.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("cleanup: deleting namespace %s: %v", ns, err)
	}
}

// ServeLabels returns the labels that hand a Service to the controller
// under test: none for a default controller, the KEP-4770 label with its
// name otherwise.
func (s *ConformanceTestSuite) ServeLabels() map[string]string {
	if s.SupportsFeature(SupportDefaultController) {
		return nil
	}
	return map[string]string{wellknown.LabelEndpointControllerName: s.ControllerName}
}

// ReadManifests reads and strictly decodes fixtures from ManifestFS (the
// kinds Service, Pod and EndpointSlice only).
func (s *ConformanceTestSuite) ReadManifests(paths ...string) ([]runtime.Object, error) {
	return ReadManifests(s.ManifestFS, paths...)
}

// ReadManifests reads and strictly decodes the fixtures at paths in fsys.
// Only Services, Pods and EndpointSlices are allowed, without namespace
// (the suite sets it).
func ReadManifests(fsys fs.FS, paths ...string) ([]runtime.Object, error) {
	var out []runtime.Object
	for _, p := range paths {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		objs, err := check.Decode(p, data, nil)
		if err != nil {
			return nil, err
		}
		for i, o := range objs {
			var m metav1.Object
			switch v := o.(type) {
			case *corev1.Service:
				m = v
			case *corev1.Pod:
				m = v
			case *discovery.EndpointSlice:
				m = v
			default:
				return nil, fmt.Errorf("%s: object %d: kind %s is not allowed in a fixture (Service, Pod, EndpointSlice)", p, i+1, o.GetObjectKind().GroupVersionKind().Kind)
			}
			if m.GetNamespace() != "" {
				return nil, fmt.Errorf("%s: %s: fixtures must not set a namespace", p, m.GetName())
			}
		}
		out = append(out, objs...)
	}
	return out, nil
}

// ApplyManifests creates the fixtures at paths in namespace ns: Services
// get ServeLabels (unless they carry a KEP-4770 label already or the
// annotation AnnotationServe "false"); Pods are made to run (see
// CreatePod); EndpointSlices are created as they are.
func (s *ConformanceTestSuite) ApplyManifests(t *testing.T, ns string, paths ...string) {
	t.Helper()
	objs, err := s.ReadManifests(paths...)
	if err != nil {
		t.Fatalf("reading fixtures: %v", err)
	}
	ctx, cancel := s.ctx(t)
	defer cancel()
	for _, o := range objs {
		switch v := o.(type) {
		case *corev1.Service:
			s.CreateService(t, ns, v)
		case *corev1.Pod:
			s.CreatePod(t, ns, v)
		case *discovery.EndpointSlice:
			v = v.DeepCopy()
			v.Namespace = ns
			if _, err := s.Client.DiscoveryV1().EndpointSlices(ns).Create(ctx, v, metav1.CreateOptions{}); err != nil {
				t.Fatalf("creating EndpointSlice %s: %v", v.Name, err)
			}
		}
	}
}

// CreateService creates svc in ns with ServeLabels added (see
// ApplyManifests) and returns it.
func (s *ConformanceTestSuite) CreateService(t *testing.T, ns string, svc *corev1.Service) *corev1.Service {
	t.Helper()
	svc = svc.DeepCopy()
	svc.Namespace = ns
	_, labelled := svc.Labels[wellknown.LabelEndpointControllerName]
	if !labelled && svc.Annotations[AnnotationServe] != "false" {
		for k, v := range s.ServeLabels() {
			if svc.Labels == nil {
				svc.Labels = map[string]string{}
			}
			svc.Labels[k] = v
		}
	}
	ctx, cancel := s.ctx(t)
	defer cancel()
	out, err := s.Client.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Service %s: %v", svc.Name, err)
	}
	return out
}

// podIPs hands out unique addresses for the StatusSubresource mode.
var podIPs atomic.Uint32

func nextPodIP() string {
	n := podIPs.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", 200+(n>>16)%50, (n>>8)&0xff, n&0xff)
}

// CreatePod creates pod in ns and makes it run, returning it as it is
// then. Container images equal to ImagePlaceholder become Image. In the
// StatusSubresource mode the Pod is bound to the suite's Node (unless it
// names one) and its status is written: phase from AnnotationPhase
// (default Running), a unique IPv4 address, Ready from AnnotationReady
// (default true; terminal Pods are never Ready). In the RealPods mode the
// Pod gets the readiness gate ReadinessGate; the suite waits until it runs
// with an IP, then sets the gate from AnnotationReady.
func (s *ConformanceTestSuite) CreatePod(t *testing.T, ns string, pod *corev1.Pod) *corev1.Pod {
	t.Helper()
	pod = pod.DeepCopy()
	pod.Namespace = ns
	for _, cs := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			if cs[i].Image == ImagePlaceholder || cs[i].Image == "" {
				cs[i].Image = s.Image
			}
		}
	}
	ready := pod.Annotations[AnnotationReady] != "false"
	phase := corev1.PodPhase(pod.Annotations[AnnotationPhase])
	if phase == "" {
		phase = corev1.PodRunning
	}
	ctx, cancel := s.ctx(t)
	defer cancel()
	if s.PodMode == PodModeRealPods {
		if phase != corev1.PodRunning {
			t.Fatalf("Pod %s: phase %s can only be set in the %s mode", pod.Name, phase, PodModeStatusSubresource)
		}
		pod.Spec.ReadinessGates = append(pod.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: ReadinessGate})
		created, err := s.Client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("creating Pod %s: %v", pod.Name, err)
		}
		s.waitRunning(t, ns, created.Name)
		return s.SetPodReady(t, ns, created.Name, ready)
	}
	if pod.Spec.NodeName == "" {
		pod.Spec.NodeName = s.node
	}
	created, err := s.Client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Pod %s: %v", pod.Name, err)
	}
	if phase == corev1.PodSucceeded || phase == corev1.PodFailed {
		ready = false
	}
	ip := nextPodIP()
	var out *corev1.Pod
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := s.Client.CoreV1().Pods(ns).Get(ctx, created.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		cur.Status.Phase = phase
		cur.Status.PodIP = ip
		cur.Status.PodIPs = []corev1.PodIP{{IP: ip}}
		cur.Status.StartTime = &now
		cur.Status.Conditions = []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: conditionStatus(ready), LastTransitionTime: now},
			{Type: corev1.PodReady, Status: conditionStatus(ready), LastTransitionTime: now},
		}
		out, err = s.Client.CoreV1().Pods(ns).UpdateStatus(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("setting the status of Pod %s: %v", pod.Name, err)
	}
	return out
}

func conditionStatus(b bool) corev1.ConditionStatus {
	if b {
		return corev1.ConditionTrue
	}
	return corev1.ConditionFalse
}

// waitRunning waits (PodRunning) until the Pod runs with an IP.
func (s *ConformanceTestSuite) waitRunning(t *testing.T, ns, name string) {
	t.Helper()
	var last *corev1.Pod
	err := wait.PollUntilContextTimeout(t.Context(), s.TimeoutConfig.PollInterval, s.TimeoutConfig.PodRunning, true, func(ctx context.Context) (bool, error) {
		p, err := s.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil //nolint:nilerr // retried until the timeout
		}
		last = p
		return p.Status.Phase == corev1.PodRunning && p.Status.PodIP != "", nil
	})
	if err != nil {
		phase := corev1.PodPhase("unknown")
		if last != nil {
			phase = last.Status.Phase
		}
		t.Fatalf("Pod %s/%s is not running with an IP after %s (phase %s): %v", ns, name, s.TimeoutConfig.PodRunning, phase, err)
	}
}

// SetPodReady makes the Pod ready or not: in the StatusSubresource mode
// through its Ready and ContainersReady conditions, in the RealPods mode
// through its readiness gate (kubelet then updates Ready). It returns the
// Pod as written.
func (s *ConformanceTestSuite) SetPodReady(t *testing.T, ns, name string, ready bool) *corev1.Pod {
	t.Helper()
	ctx, cancel := s.ctx(t)
	defer cancel()
	types := []corev1.PodConditionType{corev1.PodReady, corev1.ContainersReady}
	if s.PodMode == PodModeRealPods {
		types = []corev1.PodConditionType{ReadinessGate}
	}
	var out *corev1.Pod
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := s.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, ct := range types {
			setCondition(cur, ct, conditionStatus(ready))
		}
		out, err = s.Client.CoreV1().Pods(ns).UpdateStatus(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("setting Pod %s/%s ready=%t: %v", ns, name, ready, err)
	}
	return out
}

func setCondition(p *corev1.Pod, ct corev1.PodConditionType, st corev1.ConditionStatus) {
	now := metav1.Now()
	for i := range p.Status.Conditions {
		c := &p.Status.Conditions[i]
		if c.Type == ct {
			if c.Status != st {
				c.Status, c.LastTransitionTime = st, now
			}
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: ct, Status: st, LastTransitionTime: now})
}

// SetPodLabels replaces the labels of a Pod.
func (s *ConformanceTestSuite) SetPodLabels(t *testing.T, ns, name string, labels map[string]string) {
	t.Helper()
	ctx, cancel := s.ctx(t)
	defer cancel()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := s.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Labels = labels
		_, err = s.Client.CoreV1().Pods(ns).Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("relabelling Pod %s/%s: %v", ns, name, err)
	}
}

// DeletePod deletes a Pod; a Pod with FinalizerHold stays terminating
// until ReleasePod. In the StatusSubresource mode the grace period is 0,
// since no kubelet would confirm the deletion.
func (s *ConformanceTestSuite) DeletePod(t *testing.T, ns, name string) {
	t.Helper()
	ctx, cancel := s.ctx(t)
	defer cancel()
	opts := metav1.DeleteOptions{}
	if s.PodMode == PodModeStatusSubresource {
		opts.GracePeriodSeconds = ptr.To[int64](0)
	}
	if err := s.Client.CoreV1().Pods(ns).Delete(ctx, name, opts); err != nil {
		t.Fatalf("deleting Pod %s/%s: %v", ns, name, err)
	}
}

// ReleasePod removes FinalizerHold from a Pod, letting its deletion end.
func (s *ConformanceTestSuite) ReleasePod(t *testing.T, ns, name string) {
	t.Helper()
	ctx, cancel := s.ctx(t)
	defer cancel()
	s.removeFinalizer(ctx, t, ns, name)
}

func (s *ConformanceTestSuite) removeFinalizer(ctx context.Context, t *testing.T, ns, name string) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := s.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Finalizers = slices.DeleteFunc(cur.Finalizers, func(f string) bool { return f == FinalizerHold })
		_, err = s.Client.CoreV1().Pods(ns).Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("removing the finalizer of Pod %s/%s: %v", ns, name, err)
	}
}

// SetServiceLabel sets (value non-nil) or removes (nil) a label of a
// Service.
func (s *ConformanceTestSuite) SetServiceLabel(t *testing.T, ns, name, key string, value *string) {
	t.Helper()
	ctx, cancel := s.ctx(t)
	defer cancel()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := s.Client.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if value == nil {
			delete(cur.Labels, key)
		} else {
			if cur.Labels == nil {
				cur.Labels = map[string]string{}
			}
			cur.Labels[key] = *value
		}
		_, err = s.Client.CoreV1().Services(ns).Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("setting label %s of Service %s/%s: %v", key, ns, name, err)
	}
}

// checkNamespace runs `slicekit check` (package pkg/check) over the
// namespace until it finds no error on the slices of the controller under
// test (SlicesConverge); findings on other controllers' slices are not the
// implementation's and are ignored.
func (s *ConformanceTestSuite) checkNamespace(t *testing.T, ns string) {
	t.Helper()
	var errs []string
	err := wait.PollUntilContextTimeout(t.Context(), s.TimeoutConfig.PollInterval, s.TimeoutConfig.SlicesConverge, true, func(ctx context.Context) (bool, error) {
		inv, cfg, err := s.loadForCheck(ctx, ns)
		if err != nil {
			errs = []string{err.Error()}
			return false, nil
		}
		ours := map[string]bool{}
		for _, sl := range inv.EndpointSlices {
			if sl.Labels[discovery.LabelManagedBy] == s.ControllerName {
				ours[sl.Name] = true
			}
		}
		rep := check.Check(ctx, inv, cfg)
		errs = nil
		for _, f := range rep.Findings {
			if f.Severity == check.SeverityError && f.Object.Kind == "EndpointSlice" && ours[f.Object.Name] {
				errs = append(errs, f.String())
			}
		}
		return len(errs) == 0, nil
	})
	if err != nil {
		t.Errorf("slicekit check finds errors on the slices of %s in %s after %s:\n  %s",
			s.ControllerName, ns, s.TimeoutConfig.SlicesConverge, strings.Join(errs, "\n  "))
	}
}

// Duration of the whole run so far.
func (s *ConformanceTestSuite) elapsed() time.Duration {
	if s.started.IsZero() {
		return 0
	}
	return time.Since(s.started)
}
