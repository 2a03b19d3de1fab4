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

package mirroring_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
	"github.com/slicekit/slicekit/test/harness/casefile"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// eventLog is a record.EventRecorder that keeps the events as corev1.Event
// values, for the cases' event assertions.
type eventLog struct {
	mu     sync.Mutex
	events []corev1.Event
}

func (l *eventLog) Event(obj runtime.Object, eventtype, reason, message string) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	kind := fmt.Sprintf("%T", obj)
	switch obj.(type) {
	case *corev1.Endpoints:
		kind = "Endpoints"
	case *corev1.Service:
		kind = "Service"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, corev1.Event{
		InvolvedObject: corev1.ObjectReference{Kind: kind, Namespace: m.GetNamespace(), Name: m.GetName(), UID: m.GetUID()},
		Type:           eventtype, Reason: reason, Message: message,
	})
}

func (l *eventLog) Eventf(obj runtime.Object, eventtype, reason, format string, args ...any) {
	l.Event(obj, eventtype, reason, fmt.Sprintf(format, args...))
}

func (l *eventLog) AnnotatedEventf(obj runtime.Object, _ map[string]string, eventtype, reason, format string, args ...any) {
	l.Eventf(obj, eventtype, reason, format, args...)
}

// caseBackend is casefile's in-memory backend driving slicekit's mirroring
// and EndpointSlice controllers, pass by pass, through their exported sync
// functions (the offline renderer's path): each pass builds both
// controllers on informers whose stores hold the world's objects and the
// clientset's EndpointSlices, and syncs every key once. Events are kept for
// the event assertions.
type caseBackend struct {
	*casefile.FakeBackend
	log *eventLog
}

var _ casefile.EventLister = (*caseBackend)(nil)

func newCaseBackend(t *testing.T) *caseBackend {
	b := &caseBackend{log: &eventLog{}}
	b.FakeBackend = &casefile.FakeBackend{Sync: func(ctx context.Context, w *casefile.World, client kubernetes.Interface) error {
		return syncPass(t, ctx, w, client, b.log)
	}}
	return b
}

// Events implements casefile.EventLister.
func (b *caseBackend) Events(_ context.Context, kind, namespace, name string) ([]corev1.Event, error) {
	b.log.mu.Lock()
	defer b.log.mu.Unlock()
	var out []corev1.Event
	for _, e := range b.log.events {
		if e.InvolvedObject.Kind == kind && e.InvolvedObject.Namespace == namespace && e.InvolvedObject.Name == name {
			out = append(out, e)
		}
	}
	return out, nil
}

func syncPass(t *testing.T, ctx context.Context, w *casefile.World, client kubernetes.Interface, log *eventLog) error {
	factory := informers.NewSharedInformerFactory(client, 0)
	mc, err := mirroring.New(ctx, client, factory, mirroring.Options{EventRecorder: log, Registerer: prometheus.NewRegistry()})
	if err != nil {
		return err
	}
	ec, err := endpointslice.New(ctx, client, factory, endpointslice.Options{EventRecorder: log, Registerer: prometheus.NewRegistry()})
	if err != nil {
		return err
	}
	add := func(store cache.Store, objs ...runtime.Object) error {
		for _, o := range objs {
			if err := store.Add(o); err != nil {
				return err
			}
		}
		return nil
	}
	var errs []error
	for _, s := range w.Services() {
		errs = append(errs, add(factory.Core().V1().Services().Informer().GetStore(), s))
	}
	for _, p := range w.Pods() {
		errs = append(errs, add(factory.Core().V1().Pods().Informer().GetStore(), p))
	}
	for _, n := range w.Nodes() {
		errs = append(errs, add(factory.Core().V1().Nodes().Informer().GetStore(), n))
	}
	for _, e := range w.Endpoints() {
		errs = append(errs, add(factory.Core().V1().Endpoints().Informer().GetStore(), e))
	}
	slices, err := client.DiscoveryV1().EndpointSlices(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range slices.Items {
		errs = append(errs, add(factory.Discovery().V1().EndpointSlices().Informer().GetStore(), &slices.Items[i]))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := mc.SyncAll(ctx); err != nil {
		return fmt.Errorf("mirroring: %w", err)
	}
	for _, s := range w.Services() {
		if err := ec.SyncService(ctx, s.Namespace+"/"+s.Name); err != nil {
			return fmt.Errorf("endpointslice: %w", err)
		}
	}
	return nil
}

// TestCases runs the regression cases of testdata/cases that concern
// mirroring through the controllers' sync functions on a fake clientset, as
// each case's README and steps.yaml say: 01 (mirrored slices deleted when
// the Service gains a selector; the pod-derived slice from the EndpointSlice
// controller), 13 (not-ready addresses), 15 (1000 per subset, ready first,
// with the TooManyAddressesToMirror event), 16 (re-packing), 17
// (eligibility, with the optional reverse check) and 18 (KEP-4770: svc-c's
// mirrored slice deleted, with the optional follow-up after the label is
// removed; svc-a and svc-b are the EndpointSlice controller's part), 33
// (the EndpointSlice controller deletes its slice once the selector is
// removed) and 34 (the Endpoints controller's leftover on a selectorless
// Service is not mirrored; hand-written Endpoints are).
// Cases 13 to 17 compare the trigger-time annotation too
// (ignoreTriggerTime: false): mirrored slices never carry it.
func TestCases(t *testing.T) {
	for _, id := range []string{"01", "13", "15", "16", "17", "18", "33", "34"} {
		t.Run(id, func(t *testing.T) {
			c := casefile.MustLoad(t, id)
			_, ctx := ktesting.NewTestContext(t)
			b := newCaseBackend(t)
			res := casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true})
			casefile.Report(t, res)
			t.Logf("%s: %d checks, last settle took %d passes", c.Name, len(res.Checks), b.Passes)
			for _, ch := range res.Checks {
				if ch.Skipped {
					t.Errorf("check skipped: %s: %v", ch.Name, ch.Lines)
				}
			}
		})
	}
}

// TestKnativeExamples renders examples/knative through the same backend and
// checks what its README promises.
func TestKnativeExamples(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "examples", "knative", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples/knative manifests (%v)", err)
	}
	var objs []runtime.Object
	for _, f := range files {
		o, err := casefile.ReadObjects(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, obj := range o {
			if _, ok := obj.(*corev1.Namespace); !ok {
				objs = append(objs, obj)
			}
		}
	}
	_, ctx := ktesting.NewTestContext(t)
	b := newCaseBackend(t)
	if err := b.Load(ctx, objs); err != nil {
		t.Fatal(err)
	}
	if err := b.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	slices, err := b.Slices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, s := range slices {
		key := s.Labels[discovery.LabelServiceName] + " " + s.Labels[discovery.LabelManagedBy]
		for _, e := range s.Endpoints {
			got[key] = append(got[key], fmt.Sprintf("%s=%v", e.Addresses[0], *e.Conditions.Ready))
		}
	}
	want := map[string][]string{
		"helloworld-go-00001-private endpointslicemirroring-controller.k8s.io": {"10.0.0.11=true", "10.0.0.12=true", "10.0.0.13=false"},
		"helloworld-go-00002-private serving.knative.dev":                      {"10.0.0.21=true"},
	}
	for k := range got {
		sort.Strings(got[k])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("slices (-want +got):\n%s", diff)
	}
}
