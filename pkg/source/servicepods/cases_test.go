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

package servicepods_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
	"github.com/slicekit/slicekit/test/harness/casefile"
)

// controllerName is KCM's EndpointSlice controller's managed-by value.
const controllerName = "endpointslice-controller.k8s.io"

// controller is a minimal stand-in for KCM's EndpointSlice controller
// (endpointslice_controller.go syncService) built from this package and
// the reconciler: one pass syncs every Service of the world.
type controller struct {
	r        *reconciler.Reconciler
	triggers *servicepods.TriggerTimeTracker
}

func newController(t *testing.T, client kubernetes.Interface) *controller {
	t.Helper()
	r, err := reconciler.New(client, reconciler.Config{
		ControllerName:   controllerName,
		OwnerGVK:         reconciler.ServiceGVK,
		Placeholder:      true,
		EnforceOwnership: true,
		Metadata:         reconciler.ServiceMetadata{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &controller{r: r, triggers: servicepods.NewTriggerTimeTracker()}
}

// syncAll syncs every Service of w, in namespace/name order, and returns
// the errors joined.
func (c *controller) syncAll(ctx context.Context, w *casefile.World, client kubernetes.Interface) error {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, n := range w.Nodes() {
		if err := idx.Add(n); err != nil {
			return err
		}
	}
	nodes := corelisters.NewNodeLister(idx)
	pods := w.Pods()
	var errs []error
	for _, svc := range w.Services() {
		if err := c.syncService(ctx, svc, pods, nodes, client); err != nil {
			errs = append(errs, fmt.Errorf("service %s/%s: %w", svc.Namespace, svc.Name, err))
		}
	}
	return errors.Join(errs...)
}

// syncService is KCM syncService for one Service.
func (c *controller) syncService(ctx context.Context, svc *corev1.Service, allPods []*corev1.Pod, nodes podendpoint.NodeGetter, client kubernetes.Interface) error {
	if svc.Spec.Type == corev1.ServiceTypeExternalName || svc.Spec.Selector == nil {
		return nil // C11
	}
	sel := labels.Set(svc.Spec.Selector).AsSelectorPreValidated()
	var pods []*corev1.Pod
	for _, p := range allPods {
		if p.Namespace == svc.Namespace && sel.Matches(labels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	list, err := client.DiscoveryV1().EndpointSlices(svc.Namespace).List(ctx, metav1.ListOptions{
		LabelSelector: labels.Set{discovery.LabelServiceName: svc.Name, discovery.LabelManagedBy: controllerName}.String(),
	})
	if err != nil {
		return err
	}
	var existing []*discovery.EndpointSlice
	for i := range list.Items {
		if list.Items[i].DeletionTimestamp == nil {
			existing = append(existing, &list.Items[i])
		}
	}
	if c.r.Tracker().StaleSlices(svc.Namespace, svc.Name, existing) {
		return errors.New("stale informer cache")
	}
	desired, srcErr := servicepods.Desired(ctx, svc, pods, nodes, podendpoint.Options{})
	if desired == nil {
		return srcErr
	}
	trigger := c.triggers.ComputeEndpointLastChangeTriggerTime(svc.Namespace, svc, pods)
	return errors.Join(c.r.Reconcile(ctx, svc, desired, existing, trigger), srcErr)
}

// TestCases runs the regression cases of the EndpointSlice controller's
// desired-endpoint rules (testdata/cases) through Desired and the reconciler
// on a fake API server, following each case's steps.yaml.
func TestCases(t *testing.T) {
	for _, id := range []string{"03", "04", "07", "08", "09", "20", "21"} {
		t.Run(id, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			c := casefile.MustLoad(t, id)
			t.Logf("case %s", c.Name)
			var ctrl *controller
			b := &casefile.FakeBackend{Sync: func(ctx context.Context, w *casefile.World, client kubernetes.Interface) error {
				if ctrl == nil {
					ctrl = newController(t, client)
				}
				return ctrl.syncAll(ctx, w, client)
			}}
			res := casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true})
			casefile.Report(t, res)
			// One pass writes, the next one must find nothing to do.
			if b.Passes > 2 {
				t.Errorf("the last settle needed %d passes; want at most 2", b.Passes)
			}
		})
	}
}
