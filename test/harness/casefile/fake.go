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

	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/slicekit/slicekit/internal/memapi"
)

// DefaultMaxPasses bounds the passes of one FakeBackend.Settle.
const DefaultMaxPasses = 5

// FakeBackend runs a case in memory against controllers driven pass by
// pass: every object but the EndpointSlices lives in World; the
// EndpointSlices live in Client, a memapi clientset, where the
// controllers write them. Steps on EndpointSlices go through Client (so
// they get resourceVersions and generations); others change World.
type FakeBackend struct {
	// Sync runs the controllers once over the whole world: it reads World
	// (its getters return copies) and lists and writes EndpointSlices
	// through client. Required.
	Sync func(ctx context.Context, w *World, client kubernetes.Interface) error
	// MaxPasses bounds the passes of one Settle (0: DefaultMaxPasses).
	MaxPasses int

	// World and Client are set by Load.
	World  *World
	Client *fake.Clientset
	// Passes is the number of passes the last Settle needed, the idle one
	// included: 1 means the controllers wrote nothing, 2 that they wrote in
	// the first pass and nothing in the second.
	Passes int

	created map[types.NamespacedName]string
}

var (
	_ Backend                 = (*FakeBackend)(nil)
	_ ResourceVersionReporter = (*FakeBackend)(nil)
)

// Load implements Backend: the EndpointSlices of objs seed Client, the rest
// World.
func (b *FakeBackend) Load(_ context.Context, objs []runtime.Object) error {
	if b.Sync == nil {
		return errors.New("FakeBackend.Sync is nil")
	}
	var slices []runtime.Object
	var others []runtime.Object
	for _, o := range objs {
		if _, ok := o.(*discovery.EndpointSlice); ok {
			slices = append(slices, o)
		} else {
			others = append(others, o)
		}
	}
	b.World = NewWorld(others)
	b.Client = memapi.NewClientset(slices...)
	b.created = map[types.NamespacedName]string{}
	list, err := b.Client.DiscoveryV1().EndpointSlices(metav1.NamespaceAll).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, s := range list.Items {
		b.created[types.NamespacedName{Namespace: s.Namespace, Name: s.Name}] = s.ResourceVersion
	}
	return nil
}

// Settle implements Backend: it calls Sync until a pass writes no
// EndpointSlice, at most MaxPasses times (then it fails: the controllers
// do not converge).
func (b *FakeBackend) Settle(ctx context.Context) error {
	maxPasses := b.MaxPasses
	if maxPasses <= 0 {
		maxPasses = DefaultMaxPasses
	}
	for pass := 1; pass <= maxPasses; pass++ {
		before := len(memapi.SliceWrites(b.Client))
		if err := b.Sync(ctx, b.World, b.Client); err != nil {
			return fmt.Errorf("pass %d: %w", pass, err)
		}
		if len(memapi.SliceWrites(b.Client)) == before {
			b.Passes = pass
			return nil
		}
	}
	return fmt.Errorf("not idle after %d passes: the controllers keep writing EndpointSlices", maxPasses)
}

// Patch implements Backend.
func (b *FakeBackend) Patch(ctx context.Context, p *Patch) error {
	if !isSliceRef(p.Ref) {
		return b.World.Patch(p)
	}
	cur, err := b.Client.DiscoveryV1().EndpointSlices(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cur.SetGroupVersionKind(discovery.SchemeGroupVersion.WithKind("EndpointSlice"))
	out, err := ApplyPatch(cur, p)
	if err != nil {
		return err
	}
	_, err = b.Client.DiscoveryV1().EndpointSlices(p.Namespace).Update(ctx, out.(*discovery.EndpointSlice), metav1.UpdateOptions{})
	return err
}

// Delete implements Backend.
func (b *FakeBackend) Delete(ctx context.Context, ref Ref) error {
	if !isSliceRef(ref) {
		return b.World.Delete(ref)
	}
	return b.Client.DiscoveryV1().EndpointSlices(ref.Namespace).Delete(ctx, ref.Name, metav1.DeleteOptions{})
}

// Apply implements Backend: create, or replace the object of the same
// kind, namespace and name.
func (b *FakeBackend) Apply(ctx context.Context, obj runtime.Object) error {
	s, ok := obj.(*discovery.EndpointSlice)
	if !ok {
		return b.World.Put(obj)
	}
	client := b.Client.DiscoveryV1().EndpointSlices(s.Namespace)
	cur, err := client.Get(ctx, s.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = client.Create(ctx, s, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	s = s.DeepCopy()
	s.ResourceVersion = cur.ResourceVersion
	_, err = client.Update(ctx, s, metav1.UpdateOptions{})
	return err
}

// Slices implements Backend: every EndpointSlice in Client.
func (b *FakeBackend) Slices(ctx context.Context) ([]discovery.EndpointSlice, error) {
	list, err := b.Client.DiscoveryV1().EndpointSlices(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// CreatedResourceVersion implements ResourceVersionReporter.
func (b *FakeBackend) CreatedResourceVersion(namespace, name string) string {
	return b.created[types.NamespacedName{Namespace: namespace, Name: name}]
}

func isSliceRef(r Ref) bool {
	return r.Kind == "EndpointSlice" && (r.APIVersion == "" || r.APIVersion == discovery.SchemeGroupVersion.String())
}
