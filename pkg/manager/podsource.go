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
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/slicekit/slicekit/internal/controllerflags"
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/source/celpods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// SecondaryNetworkControllerName is the --controllers name of the
// secondary-network (Multus network-status) controller.
const SecondaryNetworkControllerName = "secondary-network"

// CELControllerName is the --controllers name of the CEL profile
// controllers (one per profile of --cel-config).
const CELControllerName = "cel"

func init() {
	registry[SecondaryNetworkControllerName] = Registration{
		Name:      SecondaryNetworkControllerName,
		Workers:   func(o *ControllerOptions) int { return int(o.ConcurrentServiceEndpointSyncs) },
		New:       newSecondaryNetworkController,
		RBACRules: secondarynetwork.RBACRules,
	}
	registry[CELControllerName] = Registration{
		Name:      CELControllerName,
		Workers:   func(o *ControllerOptions) int { return int(o.ConcurrentServiceEndpointSyncs) },
		New:       newCELController,
		RBACRules: celprofiles.RBACRules,
	}
}

// celEnabled reports whether the CEL controllers run: CEL expressions may
// read any Pod field, so no controller may trim Pods in the shared informer.
func (o *ControllerOptions) celEnabled() bool {
	enabled, err := o.EnabledControllers()
	return err == nil && slices.Contains(enabled, CELControllerName)
}

func newSecondaryNetworkController(ctx context.Context, ic InitContext) (Controller, error) {
	o := ic.Options
	cleanup := o.SelectorRemovalCleanupEnabled()
	return secondarynetwork.New(ctx, ic.Client, ic.InformerFactory, secondarynetwork.Options{
		SelectorRemovalCleanup: &cleanup,
		ControllerName:         o.SecondaryNetworkControllerName,
		MaxEndpointsPerSlice:   o.MaxEndpointsPerSlice,
		BatchPeriod:            o.EndpointUpdatesBatchPeriod,
		Registerer:             ic.Registerer,
		EventRecorder:          ic.EventRecorder,
		SkipInformerTransforms: o.celEnabled(),
	})
}

func newCELController(ctx context.Context, ic InitContext) (Controller, error) {
	o := ic.Options
	cleanup := o.SelectorRemovalCleanupEnabled()
	c, err := celprofiles.New(ctx, ic.Client, ic.InformerFactory, celprofiles.Options{
		SelectorRemovalCleanup: &cleanup,
		ConfigFile:             o.CELConfig,
		MaxEndpointsPerSlice:   o.MaxEndpointsPerSlice,
		BatchPeriod:            o.EndpointUpdatesBatchPeriod,
		Registerer:             ic.Registerer,
		EventRecorder:          ic.EventRecorder,
		SkipInformerTransforms: true,
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// validatePodSource checks the custom controllers' options: their names
// must differ from the default controller's (two controllers would fight
// over one managed-by value), and --cel-config must load and compile.
func (o *ControllerOptions) validatePodSource(enabled []string) []error {
	var errs []error
	// The EndpointSlice controller's managed-by value must not be the
	// mirroring controller's: each would delete the other's slices.
	// The same holds for the secondary-network controller (shared with
	// slicekit check, package controllerflags).
	names := []controllerflags.Name{{Flag: "--controller-name", Value: o.ControllerName}}
	if slices.Contains(enabled, MirroringControllerName) {
		names = append(names, controllerflags.Name{Flag: "the mirroring controller's managed-by value", Value: wellknown.MirroringControllerName})
	}
	if slices.Contains(enabled, SecondaryNetworkControllerName) {
		names = append(names, controllerflags.Name{Flag: "--secondary-network-controller-name", Value: o.SecondaryNetworkControllerName})
	}
	errs = append(errs, controllerflags.Distinct(names...)...)
	if !slices.Contains(enabled, CELControllerName) {
		return errs
	}
	if o.CELConfig == "" {
		return append(errs, errors.New("--cel-config is required with the cel controller"))
	}
	cfg, err := celpods.LoadConfig(o.CELConfig)
	if err != nil {
		return append(errs, fmt.Errorf("--cel-config: %w", err))
	}
	if _, err := celpods.CompileConfig(cfg); err != nil {
		return append(errs, fmt.Errorf("--cel-config: %w", err))
	}
	for _, p := range cfg.Profiles {
		if p.Name == o.ControllerName || (slices.Contains(enabled, SecondaryNetworkControllerName) && p.Name == o.SecondaryNetworkControllerName) {
			errs = append(errs, fmt.Errorf("--cel-config: profile name %q is already another controller's name", p.Name))
		}
	}
	return errs
}
