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
	"testing"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/registry"
)

// countingPacer is a reconciler.Pacer that counts its waits.
type countingPacer struct{ waits int }

func (p *countingPacer) WaitAvailable(context.Context) error {
	p.waits++
	return nil
}

// TestRegistrationPassesThePacer: the controller the manager builds from
// Registration waits on the InitContext's Pacer when it syncs a Service.
func TestRegistrationPassesThePacer(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	shared := registry.NewShared()
	pacer := &countingPacer{}
	c, err := Registration.New(ctx, registry.InitContext{
		Client:          client,
		InformerFactory: factory,
		Shared:          &shared,
		EventRecorder:   record.NewFakeRecorder(100),
		Pacer:           pacer,
	})
	if err != nil {
		t.Fatal(err)
	}
	// SyncAll reads the caches only: seed them.
	for _, o := range []struct {
		inf interface{ Add(any) error }
		obj any
	}{
		{factory.Core().V1().Nodes().Informer().GetStore(), newNode("node-1", "zone-a")},
		{factory.Core().V1().Pods().Informer().GetStore(), newPod(0, "svc", true)},
		{factory.Core().V1().Services().Informer().GetStore(), newService("svc")},
	} {
		if err := o.inf.Add(o.obj); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SyncAll(ctx); err != nil {
		t.Fatal(err)
	}
	if pacer.waits == 0 {
		t.Error("the controller never waited on the pacer")
	}
}
