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

package controllerkit

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
)

func TestQueueKey(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}}
	for _, tc := range []struct {
		name string
		obj  any
		want int
	}{
		{"object", svc, 1},
		{"tombstone", cache.DeletedFinalStateUnknown{Key: "ns/svc", Obj: svc}, 1},
		{"not an object", 42, 0},
	} {
		for _, withType := range []bool{false, true} {
			q := workqueue.NewTyped[string]()
			QueueKey(q, tc.obj, withType)
			if q.Len() != tc.want {
				t.Errorf("%s (withType %v): queue length %d, want %d", tc.name, withType, q.Len(), tc.want)
			}
			if tc.want == 1 {
				if k, _ := q.Get(); k != "ns/svc" {
					t.Errorf("%s: queued %q, want ns/svc", tc.name, k)
				}
			}
			q.ShutDown()
		}
	}
}

func TestFromDeleteAction(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}}
	for _, tc := range []struct {
		name   string
		obj    any
		wantOK bool
	}{
		{"object", svc, true},
		{"tombstone", cache.DeletedFinalStateUnknown{Key: "ns/svc", Obj: svc}, true},
		{"tombstone of another kind", cache.DeletedFinalStateUnknown{Key: "ns/svc", Obj: &corev1.Pod{}}, false},
		{"another kind", &corev1.Pod{}, false},
	} {
		got, ok := FromDeleteAction[*corev1.Service](tc.obj, "a Service")
		if ok != tc.wantOK || (ok && got != svc) || (!ok && got != nil) {
			t.Errorf("%s: FromDeleteAction = %v, %v; want ok %v", tc.name, got, ok, tc.wantOK)
		}
	}
}

func TestHandlersRegister(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	var h Handlers
	h.Register(factory.Core().V1().Services().Informer(), "Service", cache.ResourceEventHandlerFuncs{})
	if h.Err() != nil || len(h.Synced()) != 1 {
		t.Fatalf("after one Register: err %v, %d synced funcs; want nil, 1", h.Err(), len(h.Synced()))
	}
	stopped := factory.Core().V1().Pods().Informer()
	stopCh := make(chan struct{})
	go stopped.Run(stopCh)
	close(stopCh)
	if err := wait.PollUntilContextTimeout(ctx, time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return stopped.IsStopped(), nil
	}); err != nil {
		t.Fatalf("the informer did not stop: %v", err)
	}
	h.Register(stopped, "Pod", cache.ResourceEventHandlerFuncs{})
	if err := h.Err(); err == nil || !strings.HasPrefix(err.Error(), "adding Pod handler: ") {
		t.Fatalf("Register on a stopped informer: Err() = %v, want \"adding Pod handler: ...\"", err)
	}
	h.Register(factory.Core().V1().Endpoints().Informer(), "Endpoints", cache.ResourceEventHandlerFuncs{})
	if len(h.Synced()) != 1 || !strings.HasPrefix(h.Err().Error(), "adding Pod handler: ") {
		t.Errorf("Register after a failure registered (%d synced funcs) or replaced the error (%v)", len(h.Synced()), h.Err())
	}
}

func TestNewEvents(t *testing.T) {
	rec := record.NewFakeRecorder(1)
	e := NewEvents(context.Background(), rec, "test")
	e.Eventf(&corev1.Service{}, corev1.EventTypeNormal, "Reason", "message %d", 1)
	if got := <-rec.Events; got != "Normal Reason message 1" {
		t.Errorf("event through the caller's recorder = %q", got)
	}
	if e.broadcaster != nil {
		t.Error("NewEvents with a recorder built a broadcaster")
	}
	stop := e.Start(fake.NewClientset().CoreV1())
	stop()

	built := NewEvents(context.Background(), nil, "test")
	if built.broadcaster == nil || built.EventRecorder == nil {
		t.Fatal("NewEvents without a recorder built no broadcaster or recorder")
	}
	built.Start(fake.NewClientset().CoreV1())()
}

func TestCheckNewArgs(t *testing.T) {
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	if err := CheckNewArgs("x", client, factory); err != nil {
		t.Errorf("CheckNewArgs with both = %v", err)
	}
	if err := CheckNewArgs("x", nil, factory); err == nil || err.Error() != "x: client is nil" {
		t.Errorf("CheckNewArgs without client = %v", err)
	}
	if err := CheckNewArgs("x", client, nil); err == nil || err.Error() != "x: informer factory is nil" {
		t.Errorf("CheckNewArgs without factory = %v", err)
	}
}
