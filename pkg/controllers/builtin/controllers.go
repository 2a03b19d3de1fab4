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

package builtin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/registry"
)

// registrations are the built-in controllers (Registrations), read once;
// a variable for tests.
var registrations = Registrations()

// InitContext is what NewControllers receives.
type InitContext struct {
	// Client writes to the API server (a fake clientset in render).
	Client kubernetes.Interface
	// InformerFactory is shared by every controller; NewControllers
	// installs the composed informer transforms on it and the constructors
	// request their informers from it, but nothing starts it.
	InformerFactory informers.SharedInformerFactory
	// Options are the validated controller options.
	Options *ControllerOptions
	// Registerer receives the controllers' metrics; nil means none.
	Registerer prometheus.Registerer
	// EventRecorder records the controllers' events; nil means each
	// controller records them to the API server itself.
	EventRecorder record.EventRecorder
	// Pacer tells when Client's rate limiter has a token available
	// (registry.InitContext.Pacer); nil means none.
	Pacer reconciler.Pacer
	// Kinds and Transforms, when set, are InputKinds() and
	// Options.Transforms() as the caller computed them once for its run
	// (render reads its input with them); nil means NewControllers
	// computes them.
	Kinds      inputkinds.Table
	Transforms informertransform.Transforms
	// Disabled names enabled controllers NewControllers leaves out (the
	// manager's: their API is not served, Registration.Needs).
	Disabled []string
}

// byName maps a --controllers name to its registration.
var byName = func() map[string]registry.Registration {
	m := make(map[string]registry.Registration, len(registrations))
	for _, r := range registrations {
		m[r.Name] = r
	}
	return m
}()

// KnownControllers returns the names of every registered controller,
// sorted.
func KnownControllers() []string {
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// DefaultControllers returns the controllers "*" enables, sorted.
func DefaultControllers() []string {
	var names []string
	for name, r := range byName {
		if r.EnabledByDefault {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Lookup returns the registration of a controller name or alias of
// --controllers, and whether there is one.
func Lookup(name string) (registry.Registration, bool) {
	if r, ok := byName[name]; ok {
		return r, true
	}
	for _, r := range byName {
		if slices.Contains(r.Aliases, name) {
			return r, true
		}
	}
	return registry.Registration{}, false
}

// EnabledControllers resolves Controllers with KCM's rules: an explicit
// "name" or "-name" wins over "*", which enables the controllers enabled by
// default. It returns the enabled controllers sorted, or an error naming
// every unknown controller, or an error when none is enabled.
func (o *ControllerOptions) EnabledControllers() ([]string, error) {
	star := false
	explicit := map[string]bool{}
	var unknown []string
	for _, item := range o.Controllers {
		item = strings.TrimSpace(item)
		switch item {
		case "*":
			star = true
			continue
		case "":
			continue
		}
		enable := !strings.HasPrefix(item, "-")
		r, ok := Lookup(strings.TrimPrefix(item, "-"))
		if !ok {
			unknown = append(unknown, item)
			continue
		}
		explicit[r.Name] = enable
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("--controllers: unknown controller(s) %s; known controllers: %s",
			strings.Join(unknown, ", "), strings.Join(KnownControllers(), ", "))
	}
	var enabled []string
	for _, name := range KnownControllers() {
		on, ok := explicit[name]
		if !ok {
			on = star && byName[name].EnabledByDefault
		}
		if on {
			enabled = append(enabled, name)
		}
	}
	if len(enabled) == 0 {
		return nil, fmt.Errorf("--controllers=%s enables no controller; known controllers: %s",
			strings.Join(o.Controllers, ","), strings.Join(KnownControllers(), ", "))
	}
	return enabled, nil
}

// NamedController is a constructed controller of the registry.
type NamedController struct {
	// Name is the controller's registry name.
	Name string
	// Workers is the number of workers to Run it with.
	Workers int
	registry.Controller
}

// NewControllers constructs the enabled controllers (ic.Options'
// EnabledControllers) in name order, all on ic's client and informer
// factory. First it installs on the factory the informer transforms
// composed from what the enabled controllers declare they read
// (Registration.Reads, informertransform.Compose), so that the caches keep
// what some enabled controller reads and nothing more, whatever the order;
// when the factory already runs, the caches stay whole (logged).
func NewControllers(ctx context.Context, ic InitContext) ([]NamedController, error) {
	names, err := ic.Options.EnabledControllers()
	if err != nil {
		return nil, err
	}
	if err := validateRegistrations(); err != nil {
		return nil, err
	}
	transforms, kinds := ic.Transforms, ic.Kinds
	if transforms == nil {
		if transforms, err = ic.Options.Transforms(); err != nil {
			return nil, err
		}
	}
	if kinds == nil {
		if kinds, err = InputKinds(); err != nil {
			return nil, err
		}
	}
	if err := transforms.Install(ic.InformerFactory, kinds.Extra()...); err != nil {
		// The informers already run: they work untransformed, only with
		// more memory.
		klog.FromContext(ctx).Info("Could not install informer transforms", "err", err)
	}
	out := make([]NamedController, 0, len(names))
	for _, name := range names {
		if slices.Contains(ic.Disabled, name) {
			continue
		}
		r := byName[name]
		// The options the flags were bound to, handed to the controller as
		// they are: Shared and the controller's own Options.
		rc := registry.InitContext{
			Client:          ic.Client,
			InformerFactory: ic.InformerFactory,
			Shared:          &ic.Options.Shared,
			Options:         ic.Options.options[name],
			Registerer:      ic.Registerer,
			EventRecorder:   ic.EventRecorder,
			Pacer:           ic.Pacer,
		}
		c, err := r.New(ctx, rc)
		if err != nil {
			return nil, fmt.Errorf("creating controller %s: %w", name, err)
		}
		out = append(out, NamedController{Name: name, Workers: r.Workers(rc), Controller: c})
	}
	return out, nil
}

// validateRegistrations returns the errors of the registrations' Validate,
// joined.
func validateRegistrations() error {
	var errs []error
	for _, r := range registrations {
		errs = append(errs, r.Validate())
	}
	return errors.Join(errs...)
}

// Transforms returns the informer transforms composed from what the
// enabled controllers declare they read (Registration.Reads,
// informertransform.Compose): the transforms NewControllers installs, and
// the ones `slicekit render` applies to the objects it puts in the caches,
// so that render sees the objects as `slicekit run` does. It returns the
// error of EnabledControllers.
func (o *ControllerOptions) Transforms() (informertransform.Transforms, error) {
	names, err := o.EnabledControllers()
	if err != nil {
		return nil, err
	}
	reads := make([]informertransform.Reads, 0, len(names))
	for _, name := range names {
		reads = append(reads, byName[name].Reads)
	}
	return informertransform.Compose(reads...), nil
}

// optionsContext returns the registry.InitContext of the controller
// registered as name with o's options only (Shared and its own Options),
// for the Registration functions that read nothing else (ManagedBy,
// CheckManagedBy, AdmissionPolicies).
func (o *ControllerOptions) optionsContext(name string) registry.InitContext {
	return registry.InitContext{Shared: &o.Shared, Options: o.options[name]}
}
