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
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
)

func TestHandlers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewClientset(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}})
	factory := informers.NewSharedInformerFactory(client, 0)

	var h Handlers
	if !AllSynced(h.Synced()) {
		t.Error("no handlers: AllSynced = false, want true")
	}
	var mu sync.Mutex
	var added []string
	handler := cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		mu.Lock()
		defer mu.Unlock()
		added = append(added, obj.(*corev1.Service).Name)
	}}
	if err := h.Add(factory.Core().V1().Services().Informer(), handler); err != nil {
		t.Fatal(err)
	}
	if err := h.Add(factory.Core().V1().Pods().Informer(), cache.ResourceEventHandlerFuncs{}); err != nil {
		t.Fatal(err)
	}
	synced := h.Synced()
	if len(synced) != 2 {
		t.Fatalf("Synced() has %d functions, want 2", len(synced))
	}
	if AllSynced(synced) {
		t.Error("AllSynced before the informers started = true, want false")
	}
	factory.Start(ctx.Done())
	defer func() {
		cancel() // Shutdown waits for the informers, which stop with ctx
		factory.Shutdown()
	}()
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		t.Fatal("handlers never synced")
	}
	if !AllSynced(synced) {
		t.Error("AllSynced after sync = false")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(added) != 1 || added[0] != "svc" {
		t.Errorf("handler saw %q, want [svc] before reporting synced", added)
	}
}

func TestWorker(t *testing.T) {
	q := workqueue.NewTyped[string]()
	for _, k := range []string{"a", "b", "c"} {
		q.Add(k)
	}
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		Worker(q, func(_ context.Context, k string) {
			got = append(got, k)
			if k == "c" {
				q.ShutDown() // Get returns quit once the queue is empty
			}
		})(context.Background())
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Worker did not return after the queue shut down")
	}
	if len(got) != 3 || got[0] != "a" || got[2] != "c" {
		t.Errorf("processed %q, want [a b c]", got)
	}
	if q.Len() != 0 {
		t.Errorf("queue length %d after the worker, want 0", q.Len())
	}
}

func TestStartEvents(t *testing.T) {
	StartEvents(nil, nil)() // a nil broadcaster is a no-op

	client := fake.NewClientset()
	b := record.NewBroadcaster()
	stop := StartEvents(b, client.CoreV1())
	rec := b.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "test"})
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}}
	rec.Event(svc, corev1.EventTypeNormal, "Reason", "message")
	deadline := time.Now().Add(10 * time.Second)
	for {
		evs, err := client.CoreV1().Events("ns").List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(evs.Items) == 1 && evs.Items[0].Reason == "Reason" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Event never reached the API: %d events", len(evs.Items))
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
}
