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
	"fmt"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
)

// Controller is a controller the manager runs and `slicekit render`
// drives offline. Implementations wrap one controller package (see
// pkg/controllers).
type Controller interface {
	// Run waits for the informer caches, runs workers workers until ctx is
	// done, and returns after they stopped. It does not start the informer
	// factory. It is called at most once.
	Run(ctx context.Context, workers int) error
	// HasSynced reports whether the informers the controller reads have
	// synced and delivered their initial objects to its handlers.
	HasSynced() bool
	// SyncAll is the render hook: it syncs, once, every object the
	// controller reconciles (for the EndpointSlice controller: every
	// Service), in a deterministic order, reading only the informer caches
	// and writing through the client. It never waits for the caches and
	// starts no goroutine. It syncs every object even when some fail and
	// returns the failures joined.
	SyncAll(ctx context.Context) error
}

// InitContext is what a controller constructor receives.
type InitContext struct {
	// Client writes to the API server (a fake clientset in render).
	Client kubernetes.Interface
	// InformerFactory is shared by every controller; constructors request
	// their informers from it and register handlers, but never start it.
	InformerFactory informers.SharedInformerFactory
	// Options are the validated controller options.
	Options *ControllerOptions
	// Registerer receives the controller's metrics; nil means none.
	Registerer prometheus.Registerer
	// EventRecorder records the controller's events; nil means the
	// controller records them to the API server itself.
	EventRecorder record.EventRecorder
}

// InitFunc constructs a controller. It must not start goroutines that
// outlive ctx before Run is called.
type InitFunc func(ctx context.Context, ic InitContext) (Controller, error)

// Registration describes one controller of the registry.
type Registration struct {
	// Name is the name used in --controllers.
	Name string
	// Aliases are other names accepted in --controllers, such as KCM's
	// "<name>-controller" spelling.
	Aliases []string
	// EnabledByDefault puts the controller in "*".
	EnabledByDefault bool
	// Workers returns the number of workers Run is given.
	Workers func(*ControllerOptions) int
	// New constructs the controller.
	New InitFunc
	// RBACRules returns the RBAC rules the controller needs in every
	// namespace, declared next to its code (the controller package's
	// RBACRules). The permission preflight of `slicekit run` checks them
	// (preflight.go) and config/rbac is tested against them.
	RBACRules func() []rbacv1.PolicyRule
}

// registry maps a --controllers name to its registration. Adding a
// controller is one init() entry in the file that adapts it
// (endpointslice.go, mirroring.go, podsource.go: secondary-network and CEL).
var registry = map[string]Registration{}

// KnownControllers returns the names of every registered controller,
// sorted.
func KnownControllers() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// DefaultControllers returns the controllers "*" enables, sorted.
func DefaultControllers() []string {
	var names []string
	for name, r := range registry {
		if r.EnabledByDefault {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// lookup resolves a controller name or alias.
func lookup(name string) (Registration, bool) {
	if r, ok := registry[name]; ok {
		return r, true
	}
	for _, r := range registry {
		if slices.Contains(r.Aliases, name) {
			return r, true
		}
	}
	return Registration{}, false
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
		r, ok := lookup(strings.TrimPrefix(item, "-"))
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
			on = star && registry[name].EnabledByDefault
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
	Controller
}

// NewControllers constructs the enabled controllers (ic.Options'
// EnabledControllers) in name order, all on ic's client and informer
// factory.
func NewControllers(ctx context.Context, ic InitContext) ([]NamedController, error) {
	names, err := ic.Options.EnabledControllers()
	if err != nil {
		return nil, err
	}
	out := make([]NamedController, 0, len(names))
	for _, name := range names {
		r := registry[name]
		c, err := r.New(ctx, ic)
		if err != nil {
			return nil, fmt.Errorf("creating controller %s: %w", name, err)
		}
		out = append(out, NamedController{Name: name, Workers: r.Workers(ic.Options), Controller: c})
	}
	return out, nil
}
