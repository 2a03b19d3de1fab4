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

package manager

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
)

// EndpointSliceControllerName is the --controllers name of the
// EndpointSlice controller (KCM: endpointslice-controller).
const EndpointSliceControllerName = "endpointslice"

func init() {
	registry[EndpointSliceControllerName] = Registration{
		Name:             EndpointSliceControllerName,
		Aliases:          []string{"endpointslice-controller"},
		EnabledByDefault: true,
		Workers:          func(o *ControllerOptions) int { return int(o.ConcurrentServiceEndpointSyncs) },
		New:              newEndpointSliceController,
		RBACRules:        endpointslice.RBACRules,
	}
}

// endpointSliceController adapts *endpointslice.Controller to Controller.
type endpointSliceController struct {
	*endpointslice.Controller
	services corelisters.ServiceLister
}

var _ Controller = (*endpointSliceController)(nil)

// newEndpointSliceController is the registry's InitFunc of the
// EndpointSlice controller.
func newEndpointSliceController(ctx context.Context, ic InitContext) (Controller, error) {
	gate := ic.Options.ExternalEndpointControllerEnabled()
	cleanup := ic.Options.SelectorRemovalCleanupEnabled()
	c, err := endpointslice.New(ctx, ic.Client, ic.InformerFactory, endpointslice.Options{
		ControllerName:             ic.Options.ControllerName,
		MaxEndpointsPerSlice:       ic.Options.MaxEndpointsPerSlice,
		BatchPeriod:                ic.Options.EndpointUpdatesBatchPeriod,
		ExternalEndpointController: &gate,
		SelectorRemovalCleanup:     &cleanup,
		Registerer:                 ic.Registerer,
		EventRecorder:              ic.EventRecorder,
		// With the CEL controllers Pods must stay whole in the shared
		// informer; otherwise the secondary-network controller, built
		// later, installs a Pod transform that keeps what both read.
		SkipInformerTransforms: ic.Options.celEnabled(),
	})
	if err != nil {
		return nil, err
	}
	return &endpointSliceController{
		Controller: c,
		services:   ic.InformerFactory.Core().V1().Services().Lister(),
	}, nil
}

// SyncAll syncs every Service of the cache in namespace/name order.
func (c *endpointSliceController) SyncAll(ctx context.Context) error {
	services, err := c.services.List(labels.Everything())
	if err != nil {
		return err
	}
	names := make([]cache.ObjectName, 0, len(services))
	for _, svc := range services {
		names = append(names, cache.MetaObjectToName(svc))
	}
	slices.SortFunc(names, func(a, b cache.ObjectName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	var errs []error
	for _, name := range names {
		if err := c.SyncService(ctx, name.String()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
