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

package registry

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"

	"github.com/slicekit/slicekit/internal/required"
	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
)

// Controller is a controller the manager runs and `slicekit render`
// drives offline.
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

// Options are a controller's own command-line options (those no other
// controller reads; the shared ones are in Shared). Each setting is
// defaulted (by the Registration's NewOptions), bound to its flag and
// validated in one place.
type Options interface {
	// AddFlags adds every flag of the options to fs (`slicekit run`).
	AddFlags(fs *pflag.FlagSet)
	// AddRenderFlags adds only the flags that shape what the controller
	// writes (not workers or batching) to fs (`slicekit render`).
	AddRenderFlags(fs *pflag.FlagSet)
	// Validate reports every invalid option; enabled tells whether the
	// controller runs (an option may be required only then, or make no
	// sense without it).
	Validate(enabled bool) error
}

// InitContext is what a Registration's functions receive.
type InitContext struct {
	// Client writes to the API server (a fake clientset in render).
	Client kubernetes.Interface
	// InformerFactory is shared by every controller; constructors request
	// their informers from it and register handlers, but never start it
	// and never install informer transforms (the manager installs the
	// transforms composed from every enabled controller's Reads first).
	InformerFactory informers.SharedInformerFactory
	// Shared are the validated settings several controllers read.
	Shared *Shared
	// Options are the validated options of this controller (the value its
	// Registration's NewOptions returned, after flag parsing); nil when it
	// has none.
	Options Options
	// Registerer receives the controller's metrics; nil means none.
	Registerer prometheus.Registerer
	// EventRecorder records the controller's events; nil means the
	// controller records them to the API server itself.
	EventRecorder record.EventRecorder
	// Pacer, when not nil, tells when Client's rate limiter has a token
	// available without taking it (the manager's ratelimit.TokenBucket);
	// a controller may wait on it to plan its writes as late as the
	// limiter allows (the EndpointSlice controller does). nil (render,
	// tests) means none.
	Pacer reconciler.Pacer
}

// Common returns the settings of a Service controller built on
// slicecontroller.New that come from the shared flags and from ic:
// ic.Shared.Common as the flags bound it (--max-endpoints-per-slice,
// --endpoint-updates-batch-period, the address guard's flags) with the
// SelectorRemovalCleanup gate, ic.Registerer and ic.EventRecorder.
// ic.Shared must be set (the manager sets it).
func (ic InitContext) Common() slicecontroller.Common {
	c := ic.Shared.Common
	cleanup := ic.Shared.SelectorRemovalCleanupEnabled()
	c.SelectorRemovalCleanup = &cleanup
	c.Registerer, c.EventRecorder = ic.Registerer, ic.EventRecorder
	return c
}

// ServiceWorkers is Registration.Workers of the Service controllers:
// --concurrent-service-endpoint-syncs.
func ServiceWorkers(ic InitContext) int { return int(ic.Shared.ConcurrentServiceEndpointSyncs) }

// Registration describes one controller to the manager.
//
// Name, Workers, New and RBACRules are required (Validate); the other
// fields may be left zero.
type Registration struct {
	// Name is the name used in --controllers.
	Name string
	// Aliases are other names accepted in --controllers, such as KCM's
	// "<name>-controller" spelling.
	Aliases []string
	// EnabledByDefault puts the controller in "*".
	EnabledByDefault bool
	// NewOptions returns the controller's own options with their
	// defaults; nil when it has none.
	NewOptions func() Options
	// Workers returns the number of workers Run is given.
	Workers func(ic InitContext) int
	// New constructs the controller. It must not start goroutines that
	// outlive ctx before Run is called.
	New func(ctx context.Context, ic InitContext) (Controller, error)
	// RBACRules returns the RBAC rules the controller needs in every
	// namespace, declared next to its code. The permission preflight of
	// `slicekit run` checks them and config/rbac is tested against them.
	RBACRules func() []rbacv1.PolicyRule
	// Reads declares the informers and fields the controller reads; the
	// manager composes the Reads of the enabled controllers into the
	// informer transforms (informertransform.Compose).
	Reads informertransform.Reads
	// ManagedBy returns the managed-by values the controller writes
	// besides the shared --controller-name (which the manager always
	// checks); nil when none. The manager refuses two equal values among
	// the enabled controllers: each would delete the other's slices.
	ManagedBy func(ic InitContext) []ManagedBy
	// CheckManagedBy, when set, checks the controller's options against
	// the managed-by values of the other enabled controllers (including
	// the shared --controller-name), for values ManagedBy cannot list
	// (the CEL controller's profile names).
	CheckManagedBy func(ic InitContext, others []ManagedBy) []error
	// AdmissionPolicies, when set, returns what the controller needs from
	// slicekit's admission policies (pkg/admissionpolicy, docs/security.md):
	// the annotation-fed controllers' inputs and their slices. `slicekit
	// run` warns, and reports it in a metric, when they are not installed.
	AdmissionPolicies func(ic InitContext) []admissionpolicy.Need
	// Needs lists the APIs the controller reads that not every supported
	// Kubernetes release serves (the core ones every release serves need
	// not be listed). `slicekit run` discovers them once at start-up and
	// leaves out, with an error log and the slicekit_controller_disabled
	// metric, a controller whose API the server does not serve, instead of
	// an informer that retries forever and holds the replica's readiness;
	// `slicekit check` warns about it.
	Needs []API
	// Oracle, when set, returns what `slicekit check` needs to judge the
	// slices of the controller configured by ic.Options (one Oracle per
	// controller name it answers to). check calls it with only Options
	// set; it must not use the other fields of ic. Without it, check
	// judges the controller's slices by the generic rules only and says
	// so.
	Oracle func(ic InitContext) []Oracle
}

// Validate returns an error naming the registration and each required
// field that is missing (Name, Workers, New, RBACRules), or nil. The
// manager validates every registration when it starts, so that a
// registration missing a field is refused with this error rather than
// crashing `slicekit run` or `slicekit render`.
func (r Registration) Validate() error {
	return required.Check(fmt.Sprintf("controller registration %q", r.Name),
		required.Field{Name: "Name", Set: r.Name != ""},
		required.Field{Name: "Workers", Set: r.Workers != nil},
		required.Field{Name: "New", Set: r.New != nil},
		required.Field{Name: "RBACRules", Set: r.RBACRules != nil})
}

// OptionsAs returns ic.Options as a T, or defaults() when ic holds no T
// (a controller constructed without the manager's options).
func OptionsAs[T Options](ic InitContext, defaults func() T) T {
	if o, ok := ic.Options.(T); ok {
		return o
	}
	return defaults()
}
