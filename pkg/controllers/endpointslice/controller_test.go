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
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestNewOptions covers defaults and validation.
func TestNewOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{name: "zero value"},
		{name: "custom name", opts: Options{ControllerName: "slicekit.example.com"}},
		{name: "invalid name", opts: Options{ControllerName: "not a label value"}, wantErr: "ControllerName"},
		{name: "max too large", opts: Options{MaxEndpointsPerSlice: 1001}, wantErr: "MaxEndpointsPerSlice"},
		{name: "max negative", opts: Options{MaxEndpointsPerSlice: -1}, wantErr: "MaxEndpointsPerSlice"},
		{name: "negative batch", opts: Options{BatchPeriod: -time.Second}, wantErr: "BatchPeriod"},
		{name: "negative burst quiet period", opts: Options{BurstQuietPeriod: -time.Millisecond}, wantErr: "BurstQuietPeriod"},
		{name: "negative interval", opts: Options{ConflictReportInterval: -time.Second}, wantErr: "ConflictReportInterval"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			client := fake.NewClientset()
			_, ctx := ktesting.NewTestContext(t)
			c, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("New error = %v, want one mentioning %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			o := tc.opts.complete()
			if c.ControllerName() != o.ControllerName || c.ManagedBy() != o.ControllerName || c.Ownership() != slicecontroller.DropIn(o.ControllerName, true) || !c.TopologyHints() {
				t.Errorf("controller: name=%q managedBy=%q ownership=%+v topology=%v", c.ControllerName(), c.ManagedBy(), c.Ownership(), c.TopologyHints())
			}
			if tc.opts.ControllerName == "" && o.ControllerName != wellknown.EndpointSliceControllerName {
				t.Errorf("ControllerName = %q", o.ControllerName)
			}
			if o.MaxEndpointsPerSlice != 100 || !ptr.Deref(o.ExternalEndpointController, true) || o.ConflictReportInterval != DefaultConflictReportInterval {
				t.Errorf("defaults not applied: %+v gate=%v", o, ptr.Deref(o.ExternalEndpointController, true))
			}
		})
	}
	t.Run("nil client or factory", func(t *testing.T) {
		_, ctx := ktesting.NewTestContext(t)
		client := fake.NewClientset()
		if _, err := New(ctx, nil, informers.NewSharedInformerFactory(client, 0), Options{}); err == nil {
			t.Error("nil client accepted")
		}
		if _, err := New(ctx, client, nil, Options{}); err == nil {
			t.Error("nil factory accepted")
		}
	})
	t.Run("metrics registered twice", func(t *testing.T) {
		_, ctx := ktesting.NewTestContext(t)
		client := fake.NewClientset()
		reg := prometheus.NewRegistry()
		if _, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), Options{Registerer: reg}); err != nil {
			t.Fatal(err)
		}
		if _, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), Options{Registerer: reg}); err == nil {
			t.Error("second New on the same registerer succeeded")
		}
	})
	t.Run("gate off and topology off", func(t *testing.T) {
		_, ctx := ktesting.NewTestContext(t)
		client := fake.NewClientset()
		c, err := New(ctx, client, informers.NewSharedInformerFactory(client, 0), Options{ExternalEndpointController: ptr.To(false), TopologyHints: ptr.To(false)})
		if err != nil {
			t.Fatal(err)
		}
		if c.Ownership() != slicecontroller.DropIn(wellknown.EndpointSliceControllerName, false) || c.TopologyHints() {
			t.Errorf("ownership=%+v topology=%v, want gate and topology off", c.Ownership(), c.TopologyHints())
		}
	})
}

// TestRun drives the whole controller (informers, queues, workers, event
// broadcaster) on a fake clientset: a Service gets its slice, then is
// labelled for another controller and loses it.
func TestRun(t *testing.T) {
	client := fake.NewClientset()
	seq := 0
	client.PrependReactor("create", "endpointslices", func(a k8stesting.Action) (bool, runtime.Object, error) {
		s := a.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice)
		if s.Name == "" {
			seq++
			s.Name = fmt.Sprintf("%s%d", s.GenerateName, seq)
			s.UID = types.UID(fmt.Sprintf("uid-%d", seq))
		}
		return false, nil, nil
	})
	serviceWatch := make(chan struct{})
	var once sync.Once
	client.PrependWatchReactor("services", func(k8stesting.Action) (bool, watch.Interface, error) {
		once.Do(func() { close(serviceWatch) })
		return false, nil, nil
	})
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactory(client, 0)
	rec := record.NewFakeRecorder(100)
	c, err := New(ctx, client, factory, Options{EventRecorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	// Objects exist before the informers start: the fake clientset's
	// watch misses objects created between an informer's list and watch.
	if _, err := client.CoreV1().Nodes().Create(ctx, newNode("node-1", "zone-a"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Pods(testNS).Create(ctx, newPod(0, "svc", true), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	svc, err := client.CoreV1().Services(testNS).Create(ctx, newService("svc"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	done := make(chan error)
	go func() { done <- c.Run(ctx, 1) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		factory.Shutdown()
	}()

	countSlices := func() int {
		l, err := factory.Discovery().V1().EndpointSlices().Lister().EndpointSlices(testNS).List(labels.Everything())
		if err != nil {
			return -1
		}
		return len(l)
	}
	poll := func(what string, cond func() bool) {
		t.Helper()
		if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) { return cond(), nil }); err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
	}
	poll("a slice", func() bool { return countSlices() == 1 })
	<-serviceWatch // the Service update below must not be missed
	svc = svc.DeepCopy()
	labelled(custom)(svc)
	if _, err := client.CoreV1().Services(testNS).Update(ctx, svc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	poll("no slice", func() bool { return countSlices() == 0 })
	poll("hand-over event", func() bool {
		for {
			select {
			case e := <-rec.Events:
				if strings.HasPrefix(e, "Normal "+ReasonHandedOver) {
					return true
				}
			default:
				return false
			}
		}
	})
	if !c.HasSynced() {
		t.Errorf("HasSynced false while running")
	}
}
