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

package celprofiles

import (
	"context"
	"errors"
	"fmt"
	"sync"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/celpods"
)

// MetricsSubsystem is the Prometheus subsystem of the CEL controllers'
// metrics (endpoint_slice_cel_controller_syncs, ...,
// _pod_problems{reason}), labelled controller=<profile name>.
const MetricsSubsystem = "endpoint_slice_cel_controller"

// Options configures New. Exactly one of ConfigFile and Config is needed.
// They are also the controller's command-line options (options.go):
// AddFlags binds --cel-config to ConfigFile and Validate loads it.
type Options struct {
	// ConfigFile is the path of the profile file (celpods.Config, YAML or
	// JSON). Ignored when Config is set.
	ConfigFile string
	// Config is the profile configuration, for callers that built it.
	Config *celpods.Config
	// Common are the settings every profile's controller takes
	// (slicecontroller.Common). MaxEndpointsPerSlice applies to the
	// profiles that do not set maxEndpointsPerSlice; the metrics are under
	// MetricsSubsystem, labelled controller=<profile name>; a nil
	// EventRecorder means each builds one with source component the
	// profile's name; the address guard's allow-lists are keyed by profile
	// name.
	slicecontroller.Common

	// loaded is ConfigFile as Validate loaded it; nil before, or when
	// invalid.
	loaded *celpods.Config
}

// Controller runs one slicecontroller.Controller per CEL profile on one informer
// factory. Its methods fan out to every profile's controller.
type Controller struct {
	programs    []*celpods.Program
	controllers []*slicecontroller.Controller
}

// New loads (Options.ConfigFile) or takes (Options.Config) the profiles,
// compiles and type-checks every expression, and creates one controller
// per profile: name = the profile's name (label value and managed-by),
// source = the profile's program, max endpoints per slice = the profile's
// or Options.MaxEndpointsPerSlice. A configuration error (unreadable YAML,
// invalid field, expression that does not compile or type-check; each
// naming its profile) wraps celpods.ErrInvalidConfig: the manager turns it
// into exit code 2. Other errors are slicecontroller.New's or I/O errors.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*Controller, error) {
	cfg := opts.Config
	if cfg == nil {
		if opts.ConfigFile == "" {
			return nil, fmt.Errorf("%w: no profile file given (--cel-config)", celpods.ErrInvalidConfig)
		}
		var err error
		if cfg, err = celpods.LoadConfig(opts.ConfigFile); err != nil {
			return nil, err
		}
	}
	progs, err := celpods.CompileConfig(cfg)
	if err != nil {
		if opts.ConfigFile != "" && opts.Config == nil {
			return nil, fmt.Errorf("%s: %w", opts.ConfigFile, err)
		}
		return nil, err
	}
	c := &Controller{programs: progs}
	logger := klog.FromContext(ctx)
	for _, prog := range progs {
		p := prog.Profile()
		if err := prog.UndeclaredReads(); err != nil {
			// docs/security.md: undeclared keys are not guarded by the
			// input admission policy.
			logger.Info("WARNING: CEL profile reads Pod annotations or labels it does not declare; whoever may edit those Pods chooses its addresses",
				"profile", p.Name, "problem", err.Error())
		}
		common := opts.Common
		if p.MaxEndpointsPerSlice != 0 {
			common.MaxEndpointsPerSlice = p.MaxEndpointsPerSlice
		}
		pc, err := slicecontroller.New(ctx, client, factory, slicecontroller.Options{
			Name:             "cel profile " + p.Name,
			ControllerName:   p.Name,
			Ownership:        slicecontroller.Labelled(p.Name),
			Source:           prog.Source(),
			MetricsSubsystem: MetricsSubsystem,
			Common:           common,
		})
		if err != nil {
			return nil, fmt.Errorf("CEL profile %q: %w", p.Name, err)
		}
		c.controllers = append(c.controllers, pc)
	}
	return c, nil
}

// Controllers returns the profiles' controllers, in file order.
func (c *Controller) Controllers() []*slicecontroller.Controller { return c.controllers }

// Programs returns the compiled profiles, in file order.
func (c *Controller) Programs() []*celpods.Program { return c.programs }

// HasSynced reports whether every profile's controller has synced.
func (c *Controller) HasSynced() bool {
	for _, pc := range c.controllers {
		if !pc.HasSynced() {
			return false
		}
	}
	return true
}

// Run runs every profile's controller with workers workers until ctx is
// done, and returns their errors joined after all stopped.
func (c *Controller) Run(ctx context.Context, workers int) error {
	if workers < 1 {
		return fmt.Errorf("celprofiles: workers must be at least 1, got %d", workers)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(c.controllers))
	for i, pc := range c.controllers {
		wg.Go(func() { errs[i] = pc.Run(ctx, workers) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// SyncService syncs the Service namespace/name key in every profile's
// controller (each acts only when the Service is labelled with its name,
// or still has its slices) and returns the errors joined.
func (c *Controller) SyncService(ctx context.Context, key string) error {
	var errs []error
	for _, pc := range c.controllers {
		if err := pc.SyncService(ctx, key); err != nil {
			errs = append(errs, fmt.Errorf("CEL profile %q: %w", pc.ControllerName(), err))
		}
	}
	return errors.Join(errs...)
}

// SyncAll runs SyncAll of every profile's controller, in file order, and
// returns the errors joined (the `slicekit render` hook).
func (c *Controller) SyncAll(ctx context.Context) error {
	var errs []error
	for _, pc := range c.controllers {
		if err := pc.SyncAll(ctx); err != nil {
			errs = append(errs, fmt.Errorf("CEL profile %q: %w", pc.ControllerName(), err))
		}
	}
	return errors.Join(errs...)
}

// RBACRules returns the RBAC rules the CEL profile controllers need: the
// Service controller's (slicecontroller.RBACRules) and its address guard's
// (slicecontroller.GuardRBACRules), and listing the admission policies
// (admissionpolicy.RBACRules, the start-up check), whatever the profiles.
// Each call returns a new slice.
func RBACRules() []rbacv1.PolicyRule {
	return append(append(slicecontroller.RBACRules(), slicecontroller.GuardRBACRules()...), admissionpolicy.RBACRules()...)
}
