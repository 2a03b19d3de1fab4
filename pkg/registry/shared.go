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
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Defaults and limits of the shared flags (KCM's, where KCM has the flag).
const (
	// DefaultConcurrentServiceEndpointSyncs is the default of
	// --concurrent-service-endpoint-syncs (KCM, behaviour C2).
	DefaultConcurrentServiceEndpointSyncs = 5
	// MaxConcurrentServiceEndpointSyncs is the largest value KCM accepts for
	// --concurrent-service-endpoint-syncs (and the other worker counts).
	MaxConcurrentServiceEndpointSyncs = 50
	// DefaultEndpointUpdatesBurstQuietPeriod is the default of
	// --endpoint-updates-burst-quiet-period (slicekit's; KCM has none):
	// long enough for a rolling update's deletions and the creations that
	// follow them to be planned together (measured with make bench-live:
	// 957 → 914 writes for 1,000 Pods replaced 25 at a time; 50ms wrote
	// 913), short enough not to matter beside the client's rate limit.
	DefaultEndpointUpdatesBurstQuietPeriod = 20 * time.Millisecond
	// MaxEndpointUpdatesBurstQuietPeriod is the largest
	// --endpoint-updates-burst-quiet-period accepted: the wait holds a
	// Service worker for up to ten periods, so a larger value would let a
	// few Services under constant churn stall the controller.
	MaxEndpointUpdatesBurstQuietPeriod = time.Second
)

// NewFeatureGate returns a feature gate with slicekit's features
// (wellknown.ExternalEndpointController and wellknown.SelectorRemovalCleanup,
// beta, default true) and the logging features of
// k8s.io/component-base/logs/api/v1. Each call returns a new gate, so that
// options never share global state.
func NewFeatureGate() featuregate.MutableVersionedFeatureGate {
	fg := featuregate.NewFeatureGate()
	if err := fg.Add(map[featuregate.Feature]featuregate.FeatureSpec{
		wellknown.ExternalEndpointController: {Default: true, PreRelease: featuregate.Beta},
		wellknown.SelectorRemovalCleanup:     {Default: true, PreRelease: featuregate.Beta},
	}); err != nil {
		panic(fmt.Sprintf("adding slicekit feature gates: %v", err)) // programming error
	}
	if err := logsapi.AddFeatureGates(fg); err != nil {
		panic(fmt.Sprintf("adding logging feature gates: %v", err)) // programming error
	}
	return fg
}

// Shared are the settings several controllers read, each defaulted
// (NewShared), bound to its flag and validated here once. Create them with
// NewShared.
type Shared struct {
	// ControllerName is the EndpointSlice controller's managed-by value
	// (label endpointslice.kubernetes.io/managed-by) and field manager; the
	// mirroring and Endpoints controllers accept it as "the default" in the
	// KEP-4770 label. The default, KCM's, makes slicekit adopt the slices
	// KCM wrote.
	ControllerName string
	// ConcurrentServiceEndpointSyncs is the number of Service workers of the
	// EndpointSlice controller and the custom Service controllers, 1..50.
	ConcurrentServiceEndpointSyncs int32
	// EndpointUpdatesBurstQuietPeriod is how long the EndpointSlice
	// controller's incremental sync waits for a burst of Pod events of one
	// Service (two or more Pods pending) to pause before it plans, at most
	// ten such periods; one readiness flip is never delayed
	// (endpointslice.Options.BurstQuietPeriod). 0 disables it. Default
	// DefaultEndpointUpdatesBurstQuietPeriod.
	EndpointUpdatesBurstQuietPeriod time.Duration
	// FeatureGates holds --feature-gates.
	FeatureGates featuregate.MutableVersionedFeatureGate
	// Common holds the Service controllers' shared settings that are
	// flags, bound here once and handed to each controller as they are
	// (InitContext.Common): MaxEndpointsPerSlice (--max-endpoints-per-slice,
	// 1..1000), BatchPeriod (--endpoint-updates-batch-period and KCM's
	// --endpointslice-updates-batch-period: delays the syncs that Pod
	// changes trigger so that several changes make one write; 0 disables
	// batching) and AddressGuard (the pod-address controllers' address
	// guard, pkg/source/addressguard: --service-cluster-ip-range and
	// --pod-address-allowed-cidrs, parsed by Validate). Its other fields
	// are not flags: InitContext.Common sets them.
	slicecontroller.Common

	// batchPeriodAlias is --endpointslice-updates-batch-period, KCM's name
	// of the same setting; nil when not given.
	batchPeriodAlias *time.Duration
}

// NewShared returns the shared settings with their defaults.
func NewShared() Shared {
	return Shared{
		ControllerName:                 wellknown.EndpointSliceControllerName,
		ConcurrentServiceEndpointSyncs: DefaultConcurrentServiceEndpointSyncs,
		Common:                         slicecontroller.Common{MaxEndpointsPerSlice: reconciler.DefaultMaxEndpointsPerSlice},
		FeatureGates:                   NewFeatureGate(),

		EndpointUpdatesBurstQuietPeriod: DefaultEndpointUpdatesBurstQuietPeriod,
	}
}

// AddFlags adds every shared flag to fs.
func (s *Shared) AddFlags(fs *pflag.FlagSet) {
	s.AddRenderFlags(fs)
	fs.Int32Var(&s.ConcurrentServiceEndpointSyncs, "concurrent-service-endpoint-syncs", s.ConcurrentServiceEndpointSyncs,
		fmt.Sprintf("The number of Services the EndpointSlice controller syncs at once, 1..%d. Larger is more responsive and uses more CPU and network.", MaxConcurrentServiceEndpointSyncs))
	fs.DurationVar(&s.BatchPeriod, "endpoint-updates-batch-period", s.BatchPeriod,
		"How long the EndpointSlice controller waits after a Pod change before syncing its Services, so that several changes make one write. 0 syncs at once.")
	fs.Var(&optionalDuration{p: &s.batchPeriodAlias}, "endpointslice-updates-batch-period",
		"KCM's name of --endpoint-updates-batch-period; give one of the two.")
	fs.DurationVar(&s.EndpointUpdatesBurstQuietPeriod, "endpoint-updates-burst-quiet-period", s.EndpointUpdatesBurstQuietPeriod,
		"While Pod events of two or more Pods of one Service keep arriving (a rolling update), the EndpointSlice controller waits for a pause this long before planning, "+
			fmt.Sprintf("at most ten such periods, so that deletions and the Pods that replace them make one write per slice. A single Pod change is planned at once. 0 disables it; at most %s.",
				MaxEndpointUpdatesBurstQuietPeriod))
}

// AddRenderFlags adds the shared flags that shape output to fs:
// --controller-name, --max-endpoints-per-slice and --feature-gates.
func (s *Shared) AddRenderFlags(fs *pflag.FlagSet) {
	fs.StringVar(&s.ControllerName, "controller-name", s.ControllerName,
		"The EndpointSlice controller's managed-by value (label endpointslice.kubernetes.io/managed-by) and field manager. "+
			"The default is kube-controller-manager's, so that the slices it wrote are adopted without a rewrite.")
	fs.Int32Var(&s.MaxEndpointsPerSlice, "max-endpoints-per-slice", s.MaxEndpointsPerSlice,
		fmt.Sprintf("The most endpoints in one EndpointSlice, 1..%d.", reconciler.MaxEndpointsPerSliceLimit))
	s.FeatureGates.AddFlag(fs)
	s.AddressGuard.AddFlags(fs)
}

// Complete folds the KCM alias --endpointslice-updates-batch-period into
// BatchPeriod (--endpoint-updates-batch-period). It reports an error when both flags were
// given different values.
func (s *Shared) Complete() error {
	if s.batchPeriodAlias == nil {
		return nil
	}
	if err := NonNegative("--endpointslice-updates-batch-period", *s.batchPeriodAlias); err != nil {
		return err
	}
	if s.BatchPeriod != 0 && s.BatchPeriod != *s.batchPeriodAlias {
		return fmt.Errorf("--endpoint-updates-batch-period=%s and --endpointslice-updates-batch-period=%s disagree; give one",
			s.BatchPeriod, *s.batchPeriodAlias)
	}
	s.BatchPeriod = *s.batchPeriodAlias
	s.batchPeriodAlias = nil
	return nil
}

// Validate reports every invalid shared setting, joined.
func (s *Shared) Validate() error {
	var errs []error
	if err := ControllerName("--controller-name", s.ControllerName); err != nil {
		errs = append(errs, err)
	}
	if err := WorkerCount("--concurrent-service-endpoint-syncs", s.ConcurrentServiceEndpointSyncs); err != nil {
		errs = append(errs, err)
	}
	if err := InRange("--max-endpoints-per-slice", s.MaxEndpointsPerSlice, reconciler.MaxEndpointsPerSliceLimit); err != nil {
		errs = append(errs, err)
	}
	if err := NonNegative("--endpoint-updates-batch-period", s.BatchPeriod); err != nil {
		errs = append(errs, err)
	}
	if d := s.EndpointUpdatesBurstQuietPeriod; d < 0 || d > MaxEndpointUpdatesBurstQuietPeriod {
		errs = append(errs, fmt.Errorf("--endpoint-updates-burst-quiet-period=%s must be between 0 and %s", d, MaxEndpointUpdatesBurstQuietPeriod))
	}
	if err := s.AddressGuard.Validate(); err != nil {
		errs = append(errs, err)
	}
	for _, err := range s.FeatureGates.Validate() {
		errs = append(errs, fmt.Errorf("--feature-gates: %w", err))
	}
	return errors.Join(errs...)
}

// ExternalEndpointControllerEnabled reports the KEP-4770 feature gate.
func (s *Shared) ExternalEndpointControllerEnabled() bool {
	return s.FeatureGates.Enabled(wellknown.ExternalEndpointController)
}

// SelectorRemovalCleanupEnabled reports the SelectorRemovalCleanup
// feature gate.
func (s *Shared) SelectorRemovalCleanupEnabled() bool {
	return s.FeatureGates.Enabled(wellknown.SelectorRemovalCleanup)
}

// optionalDuration is a pflag.Value that records whether it was set.
type optionalDuration struct{ p **time.Duration }

// String implements pflag.Value: "" when not given (help then shows no
// default: the flag is an alias and has none of its own).
func (d *optionalDuration) String() string {
	if d.p == nil || *d.p == nil {
		return ""
	}
	return (*d.p).String()
}

// Set implements pflag.Value.
func (d *optionalDuration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d.p = &v
	return nil
}

// Type implements pflag.Value.
func (d *optionalDuration) Type() string { return "duration" }
