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

package reconciler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/reconciler/metrics"
	"github.com/slicekit/slicekit/pkg/reconciler/topology"
)

// DefaultMaxEndpointsPerSlice is KCM's default for --max-endpoints-per-slice
// (behaviour C1).
const DefaultMaxEndpointsPerSlice = 100

// MaxEndpointsPerSliceLimit is the most endpoints the API accepts in one
// EndpointSlice (pkg/apis/discovery/validation).
const MaxEndpointsPerSliceLimit = 1000

// ServiceGVK is the group/version/kind of a Service owner.
var ServiceGVK = schema.GroupVersionKind{Version: "v1", Kind: "Service"}

// EndpointsGVK is the group/version/kind of an Endpoints owner.
var EndpointsGVK = schema.GroupVersionKind{Version: "v1", Kind: "Endpoints"}

// Config is the required configuration of a Reconciler.
type Config struct {
	// ControllerName is the value of the endpointslice.kubernetes.io/managed-by
	// label of every slice written. Required. Slices with another value are
	// never written.
	ControllerName string
	// OwnerGVK is the kind of the owner object, used for owner references
	// and the ownership check. Required.
	OwnerGVK schema.GroupVersionKind
	// MaxEndpointsPerSlice is the most endpoints packed into one slice
	// (1..1000). 0 means DefaultMaxEndpointsPerSlice.
	MaxEndpointsPerSlice int32
	// Placeholder, when true, keeps one empty slice per supported address
	// type that has no endpoints (KCM's EndpointSlice controller, C27; the
	// mirroring controller has none).
	Placeholder bool
	// EnforceOwnership, when true, deletes slices without a controller owner
	// reference to the owner's UID (C23), e.g. slices of an earlier object
	// of the same name, and recycles only owned slices. When false, such a
	// slice is adopted instead: rewritten with the current owner reference
	// (the mirroring controller's rule, needRebuildExistingSlices).
	EnforceOwnership bool
	// Metadata decides labels and annotations. nil means ServiceMetadata.
	Metadata MetadataPolicy
	// OneSlicePerGroup selects the mirroring controller's packing (KCM
	// endpointslicemirroring reconciler.go reconcileByPortMapping, rule b3
	// of docs/kep4770.md): an owner keeps at most one existing slice per
	// address type and port list. When several share one, Plan keeps the one
	// with the most endpoints (the first in the order given to Plan on a tie)
	// and deletes the others, each recycled, after Plan's own recycling, as
	// an update that gives its name to a slice Plan creates for the same
	// address type (KCM recycleSlices). Plan also counts the endpoints of
	// the kept slices that are still desired in another version
	// (AddressTypePlan.Updated, KCM totals.updated), and Apply records in
	// the tracker the kept slices it leaves alone (KCM: "Always ensure each
	// EndpointSlice is being tracked"), so that their deletion by someone
	// else is noticed. Packing into a slice itself is unchanged: the
	// caller's MaxEndpointsPerSlice bounds each slice.
	OneSlicePerGroup bool

	// SliceNamePrefix, when not nil, gives the metadata.generateName of
	// the new slices of owner (its SliceNamePrefix method; set is the slice
	// set, ForSet, "" without SetLabel; SliceNamePrefixFunc adapts a
	// function). The API server appends five random characters, after
	// cutting the prefix to 58 characters. The result must be a valid
	// generateName prefix (a DNS subdomain name once the random suffix is
	// added): Plan returns an error otherwise. nil means KCM's rule
	// "<owner name>-" (or the name alone when that is not valid; KCM
	// utils.go getEndpointSlicePrefix, C22). Names are not identities: the
	// reconciler finds its slices by labels, so changing the prefix renames
	// only slices created afterwards.
	SliceNamePrefix SliceNamer
	// ServiceNameLabel is the label that names the owner on every slice
	// written, by which OwnerSlices lists them and the Tracker groups them.
	// "" means kubernetes.io/service-name (KCM): the slices are then the
	// owner's endpoints for every consumer (kube-proxy, CoreDNS, ...) when
	// the owner is a Service of that name. Another key makes slices that no
	// such consumer reads as a Service's (a second network's copy, for
	// instance); the reconciler then removes kubernetes.io/service-name
	// from the labels the MetadataPolicy returns, so that a slice is never
	// found by both keys (a Service's consumers would take its addresses
	// as the Service's). The key must be a valid label key and differ from
	// endpointslice.kubernetes.io/managed-by and SetLabel. The index of
	// AddServiceNameIndex files slices by kubernetes.io/service-name only:
	// with another key, NewSliceLister lists a namespace's slices.
	ServiceNameLabel string
	// SetLabel, when not empty, is the key of a label that tells apart
	// several slice sets of one owner (one per remote cluster, e.g.
	// multicluster.kubernetes.io/source-cluster, or one per network). A
	// Reconciler with a SetLabel plans and applies one set at a time,
	// through ForSet(value); every slice it writes carries SetLabel=value;
	// a set's OwnerSlices, stale-cache detection (the tracker keys by the
	// set), Release, DeleteAll, metrics and topology hints see only the
	// set's slices; slices of other sets handed to Plan are Ignored, never
	// written. The Reconciler New returns (no set) lists and releases every
	// set of an owner, and handles the slice informer's events of all sets.
	// The key must be a valid label key and differ from
	// endpointslice.kubernetes.io/managed-by, kubernetes.io/service-name
	// and ServiceNameLabel.
	SetLabel string
	// DisableBlockOwnerDeletion, when true, writes the owner reference of
	// new and adopted slices without blockOwnerDeletion (KCM sets it). The
	// owner's foreground deletion then does not wait for its slices; the
	// garbage collector still deletes them. Setting blockOwnerDeletion needs
	// the update permission on the owner's finalizers subresource (the
	// OwnerReferencesPermissionEnforcement admission plugin), which a
	// controller of a custom resource or of another project's Services may
	// not have. Existing slices keep the owner reference they have until the
	// reconciler rewrites it.
	DisableBlockOwnerDeletion bool
}

// SliceNamer names new slices: SliceNamePrefix returns the generateName of
// the new slices of owner in the slice set set ("" without
// Config.SetLabel).
type SliceNamer interface {
	SliceNamePrefix(owner Owner, set string) string
}

// SliceNamePrefixFunc is a function that is a SliceNamer.
type SliceNamePrefixFunc func(owner Owner, set string) string

// SliceNamePrefix implements SliceNamer.
func (f SliceNamePrefixFunc) SliceNamePrefix(owner Owner, set string) string { return f(owner, set) }

// Option configures optional behaviour of a Reconciler.
type Option func(*Reconciler)

// WithTracker makes the reconciler record its writes in t (see Tracker).
// Without it the reconciler uses a private tracker, available as Tracker().
func WithTracker(t *Tracker) Option { return func(r *Reconciler) { r.tracker = t } }

// WithTopologyCache enables topology-aware hints (Hints.TopologyAuto,
// behaviour C34) using tc, whose nodes the caller keeps current with
// tc.SetNodes. Without it, topology mode is ignored as in KCM without a
// topology cache.
func WithTopologyCache(tc *topology.TopologyCache) Option {
	return func(r *Reconciler) { r.topologyCache = tc }
}

// WithMetrics reports to m (KCM metric names, C36). Without it, or with a
// nil m, nothing is reported. Give each Reconciler its own m (see
// metrics.NewWithConstLabels): a Reconciler sets the endpoint and slice
// gauges from its own counts, so two sharing one m overwrite each other's.
func WithMetrics(m *metrics.Metrics) Option {
	return func(r *Reconciler) {
		if m == nil {
			return
		}
		r.metrics = m
		r.metricsCache = metrics.NewCache(r.cfg.MaxEndpointsPerSlice, m)
	}
}

// Pacer tells when the API client can send a request at once: WaitAvailable
// blocks until its rate limiter has a token available, without taking it,
// and returns an error (the context's when ctx ends) when it gave up.
// ratelimit.TokenBucket (pkg/ratelimit), set as the client's rate limiter,
// is one.
type Pacer interface {
	WaitAvailable(ctx context.Context) error
}

// WithPacer makes ApplyUntil wait on p before every write but the first
// and only then ask whether the plan was superseded, so that the check
// covers the events that arrived while the write waited for the client's
// rate limiter (p must tell about the client's limiter). Without it, or
// when ApplyUntil is given no superseded function (Apply), nothing waits
// on a pacer.
func WithPacer(p Pacer) Option { return func(r *Reconciler) { r.pacer = p } }

// WithEventRecorder records hint events and write failures on the owner.
func WithEventRecorder(rec record.EventRecorder) Option {
	return func(r *Reconciler) { r.recorder = rec }
}

// Reconciler turns the desired endpoints of an owner into EndpointSlices.
// It owns the diff and the writes; callers own informers, queues and
// retries. A Reconciler is safe for concurrent use on different owners.
type Reconciler struct {
	client kubernetes.Interface
	cfg    Config
	// tracker is the tracker an Option chose, until New moves it to
	// trackerRef, which the Reconcilers of ForSet share.
	tracker    *Tracker
	trackerRef *atomic.Pointer[Tracker]
	// set is the slice set of a Reconciler returned by ForSet; bound tells
	// it is one.
	set           string
	bound         bool
	topologyCache *topology.TopologyCache
	metrics       *metrics.Metrics
	metricsCache  *metrics.Cache
	recorder      record.EventRecorder
	pacer         Pacer
}

// New returns a Reconciler that writes through client. It returns an error
// when cfg is invalid (missing controller name or owner kind, max endpoints
// per slice outside 1..1000).
func New(client kubernetes.Interface, cfg Config, opts ...Option) (*Reconciler, error) {
	if client == nil {
		return nil, errors.New("reconciler: client is nil")
	}
	if cfg.ControllerName == "" {
		return nil, errors.New("reconciler: ControllerName is required")
	}
	if errs := validation.IsValidLabelValue(cfg.ControllerName); len(errs) > 0 {
		return nil, fmt.Errorf("reconciler: ControllerName %q is not a valid label value: %s", cfg.ControllerName, strings.Join(errs, "; "))
	}
	if cfg.OwnerGVK.Kind == "" || cfg.OwnerGVK.Version == "" {
		return nil, errors.New("reconciler: OwnerGVK needs a version and a kind")
	}
	if cfg.MaxEndpointsPerSlice == 0 {
		cfg.MaxEndpointsPerSlice = DefaultMaxEndpointsPerSlice
	}
	if cfg.MaxEndpointsPerSlice < 1 || cfg.MaxEndpointsPerSlice > MaxEndpointsPerSliceLimit {
		return nil, fmt.Errorf("reconciler: MaxEndpointsPerSlice %d is outside 1..%d", cfg.MaxEndpointsPerSlice, MaxEndpointsPerSliceLimit)
	}
	if cfg.Metadata == nil {
		cfg.Metadata = ServiceMetadata{}
	}
	if err := validateLabels(&cfg); err != nil {
		return nil, err
	}
	r := &Reconciler{client: client, cfg: cfg}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("reconciler: option %d is nil", i)
		}
		o(r)
	}
	if r.tracker == nil {
		r.tracker = NewTrackerForLabels(cfg.ServiceNameLabel, cfg.SetLabel)
	}
	if err := r.checkTracker(r.tracker); err != nil {
		return nil, err
	}
	r.trackerRef = &atomic.Pointer[Tracker]{}
	r.trackerRef.Store(r.tracker)
	r.tracker = nil
	return r, nil
}

// validateLabels checks Config.ServiceNameLabel and Config.SetLabel and
// sets the default ServiceNameLabel.
func validateLabels(cfg *Config) error {
	if cfg.ServiceNameLabel == "" {
		cfg.ServiceNameLabel = discovery.LabelServiceName
	}
	if errs := validation.IsQualifiedName(cfg.ServiceNameLabel); len(errs) > 0 {
		return fmt.Errorf("reconciler: ServiceNameLabel %q is not a valid label key: %s", cfg.ServiceNameLabel, strings.Join(errs, "; "))
	}
	if cfg.ServiceNameLabel == discovery.LabelManagedBy {
		return fmt.Errorf("reconciler: ServiceNameLabel cannot be %s", discovery.LabelManagedBy)
	}
	if cfg.SetLabel == "" {
		return nil
	}
	if errs := validation.IsQualifiedName(cfg.SetLabel); len(errs) > 0 {
		return fmt.Errorf("reconciler: SetLabel %q is not a valid label key: %s", cfg.SetLabel, strings.Join(errs, "; "))
	}
	switch cfg.SetLabel {
	case discovery.LabelManagedBy, discovery.LabelServiceName, cfg.ServiceNameLabel:
		return fmt.Errorf("reconciler: SetLabel cannot be %s", cfg.SetLabel)
	}
	return nil
}

// checkTracker reports an error when t groups slices by other labels than
// the configuration's.
func (r *Reconciler) checkTracker(t *Tracker) error {
	if t == nil {
		return errors.New("reconciler: tracker is nil")
	}
	if sn, set := t.Labels(); sn != r.cfg.ServiceNameLabel || set != r.cfg.SetLabel {
		return fmt.Errorf("reconciler: the tracker groups slices by the labels %q and %q, the configuration by %q and %q (NewTrackerForLabels)", sn, set, r.cfg.ServiceNameLabel, r.cfg.SetLabel)
	}
	return nil
}

// ForSet returns a Reconciler for the slice set value of every owner
// (Config.SetLabel): its slices carry SetLabel=value, and its Plan, Apply,
// Reconcile, OwnerSlices, Release, DeleteAll and DeleteOwner concern that
// set only. It shares the client, the tracker, the metrics and every
// option with r; it is cheap, and may be called per sync. It returns an
// error when the configuration has no SetLabel, when r is already bound to
// a set, or when value is empty or not a valid label value.
func (r *Reconciler) ForSet(value string) (*Reconciler, error) {
	if r.cfg.SetLabel == "" {
		return nil, errors.New("reconciler: ForSet needs Config.SetLabel")
	}
	if r.bound {
		return nil, fmt.Errorf("reconciler: this reconciler is bound to the set %q already", r.set)
	}
	if value == "" {
		return nil, errors.New("reconciler: a set value cannot be empty")
	}
	if errs := validation.IsValidLabelValue(value); len(errs) > 0 {
		return nil, fmt.Errorf("reconciler: set %q is not a valid label value: %s", value, strings.Join(errs, "; "))
	}
	v := *r
	v.set, v.bound = value, true
	return &v, nil
}

// Set returns the slice set this reconciler is bound to (ForSet), and
// whether it is bound to one.
func (r *Reconciler) Set() (string, bool) { return r.set, r.bound }

// needsSet returns an error when the configuration has a SetLabel and r is
// not bound to a set: planning and writing are per set.
func (r *Reconciler) needsSet(what string) error {
	if r.cfg.SetLabel != "" && !r.bound {
		return fmt.Errorf("reconciler: %s needs a slice set: Config.SetLabel is %s, call ForSet first", what, r.cfg.SetLabel)
	}
	return nil
}

// ControllerName returns the managed-by value this reconciler writes.
func (r *Reconciler) ControllerName() string { return r.cfg.ControllerName }

// Tracker returns the generation tracker the reconciler records writes in.
func (r *Reconciler) Tracker() *Tracker { return r.trackerRef.Load() }

// trk is Tracker, for the reconciler's own use.
func (r *Reconciler) trk() *Tracker { return r.trackerRef.Load() }

// ReplaceTracker makes r, and every Reconciler of its sets (ForSet), record
// its writes in t from now on; Tracker().Reset() is the same with a new
// tracker of one's own. Do it when this process starts to write again (a
// leader election won) and no sync is running: writes of a sync running
// meanwhile may be recorded in the previous tracker. It returns an error
// when t is nil or groups slices by other labels than the configuration
// (NewTrackerForLabels).
func (r *Reconciler) ReplaceTracker(t *Tracker) error {
	if err := r.checkTracker(t); err != nil {
		return err
	}
	r.trackerRef.Store(t)
	return nil
}

// ServiceNameLabel returns the label key that names the owner on the slices
// (Config.ServiceNameLabel; kubernetes.io/service-name by default).
func (r *Reconciler) ServiceNameLabel() string { return r.cfg.ServiceNameLabel }

// SliceOwner returns the owner and the set of slice as its labels name them
// (the service-name label, and Config.SetLabel; set is "" without one), and
// whether slice carries this reconciler's managed-by value and names an
// owner: the key an informer event handler queues.
func (r *Reconciler) SliceOwner(slice *discovery.EndpointSlice) (namespace, name, set string, ok bool) {
	if slice == nil {
		return "", "", "", false
	}
	name = slice.Labels[r.cfg.ServiceNameLabel]
	if r.cfg.SetLabel != "" {
		set = slice.Labels[r.cfg.SetLabel]
	}
	return slice.Namespace, name, set, name != "" && r.ManagedByController(slice)
}

// ManagedByController reports whether slice carries this reconciler's
// managed-by value (false for nil).
func (r *Reconciler) ManagedByController(slice *discovery.EndpointSlice) bool {
	if slice == nil {
		return false
	}
	return slice.Labels[discovery.LabelManagedBy] == r.cfg.ControllerName
}

// Reconcile plans and applies: it brings the owner's slices from existing to
// desired and records metrics and events. triggerTime is optional: when
// non-zero, it is written as the endpoints.kubernetes.io/last-change-trigger-time
// annotation on every created or updated slice; the zero time.Time (a
// caller that does not know when the change happened) removes it, as KCM
// does when it has none (C25). It returns Plan's errors before any write
// (ErrInvalidInput), then the first write error
// of each address type, aggregated and wrapped with the owner's identity:
// after a failed write the rest of that address type's writes are not
// sent (the next sync plans them again from the informer's view).
func (r *Reconciler) Reconcile(ctx context.Context, owner Owner, desired *Desired, existing []*discovery.EndpointSlice, triggerTime time.Time) error {
	plan, err := r.Plan(ctx, owner, desired, existing)
	if err != nil {
		return err
	}
	return r.Apply(ctx, owner, plan, desired, triggerTime)
}

// Apply performs a plan's writes: per address type creates, then updates,
// then deletes; then the deletes of unsupported address types (C32). Creates
// are skipped while the owner is being deleted; a create refused because the
// namespace is terminating ends that address type silently. Every successful
// write is recorded in the tracker and the changes metric; when every write
// succeeded, so are the plan's Unchanged slices the tracker does not know
// (Config.OneSlicePerGroup). desired (may be
// nil) supplies the hints mode for metrics. Events in the plan are recorded
// on the owner. Errors are wrapped with the owner and slice names.
func (r *Reconciler) Apply(ctx context.Context, owner Owner, plan *Plan, desired *Desired, triggerTime time.Time) error {
	return r.ApplyUntil(ctx, owner, plan, desired, triggerTime, nil)
}

// SupersededError is returned by ApplyUntil when it stopped before a write
// because the plan was superseded. The writes made before are recorded as
// Apply records them; the rest of the plan is not applied, its events are
// not recorded and no per-sync metric is observed: plan the owner again.
type SupersededError struct {
	// Written is the number of writes made before stopping (at least 1).
	Written int
}

// Error implements error: it names the number of writes made before the
// stop.
func (e *SupersededError) Error() string {
	return fmt.Sprintf("the plan was superseded after %d write(s)", e.Written)
}

// IsSuperseded reports whether err is or wraps a *SupersededError.
func IsSuperseded(err error) bool {
	var s *SupersededError
	return errors.As(err, &s)
}

// ApplyUntil is Apply, except that before every write but the first it
// calls superseded (when not nil) and, when it returns true, stops and
// returns a *SupersededError. A controller passes a function that reports
// new events for the owner: while it waits for the client's rate limiter
// (at its QPS every write waits), the events that arrive are folded into
// the next plan instead of being written by a later one, so that a burst
// of changes costs fewer writes (a removal and an addition that fall into
// one plan share a slice write). At least one write is made per call, so
// a steady stream of events cannot stop progress.
//
// With a pacer (WithPacer) and superseded not nil, every write but the
// first first waits for the pacer (a token of the client's rate limiter
// available) and only then asks superseded, so that the write that
// follows goes out at once and no event of the wait is left to a later
// write. When the pacer returns an error (the context ended), ApplyUntil
// stops before that write and returns the error, wrapped, as a failed
// write; the writes made before are recorded. The first write does not
// wait: the caller waits on the pacer before planning.
func (r *Reconciler) ApplyUntil(ctx context.Context, owner Owner, plan *Plan, desired *Desired, triggerTime time.Time, superseded func() bool) error {
	if err := checkOwner("apply", owner); err != nil {
		return err
	}
	if plan == nil {
		return invalid("apply %s/%s: plan is nil", owner.GetNamespace(), owner.GetName())
	}
	if err := r.needsSet("Apply"); err != nil {
		return err
	}
	var gate *writeGate
	if superseded != nil {
		gate = &writeGate{superseded: superseded, pacer: r.pacer}
	}
	logger := klog.FromContext(ctx)
	var errs []error
	var hints Hints
	if desired != nil {
		hints = desired.Hints
	}
	if r.metricsCache != nil {
		// One port cache across address types, keyed by address type and
		// port list. KCM updates it per address type, so a dual-stack
		// Service counts only its last address type's port groups; we
		// count both.
		pc := metrics.NewServicePortCache()
		for i := range plan.AddressTypes {
			for _, g := range plan.AddressTypes[i].PortGroups {
				pc.Set(string(plan.AddressTypes[i].AddressType)+"|"+g.Key, metrics.EfficiencyInfo{Endpoints: g.Endpoints, Slices: g.Slices})
			}
		}
		r.metricsCache.UpdateServicePortCache(r.metricsKey(owner.GetNamespace(), owner.GetName()), pc)
	}
	for i := range plan.AddressTypes {
		atp := &plan.AddressTypes[i]
		r.metrics.ObserveEndpointsAddedPerSync(atp.Added)
		r.metrics.ObserveEndpointsRemovedPerSync(atp.Removed)
		complete, err := r.applyAddressType(ctx, owner, atp, triggerTime, gate)
		if gate != nil && gate.stopped {
			return r.stopped(owner, gate, errs)
		}
		if err != nil {
			errs = append(errs, err)
		}
		if !complete {
			// KCM's finalize returns before observing the per-sync change
			// count when a write failed or the namespace is terminating.
			continue
		}
		topologyLabel := "Disabled"
		if r.topologyCache != nil && hints.TopologyAuto {
			topologyLabel = "Auto"
		}
		td := ""
		if hints.TrafficDistribution != nil && !hints.TopologyAuto {
			td = *hints.TrafficDistribution
		}
		r.metrics.ObserveEndpointSlicesChangedPerSync(topologyLabel, td, len(atp.Create)+len(atp.Update)+len(atp.Delete))
	}
	if r.metricsCache != nil {
		var td *string
		if !hints.TopologyAuto {
			td = hints.TrafficDistribution
		}
		r.metricsCache.UpdateTrafficDistributionForService(r.metricsKey(owner.GetNamespace(), owner.GetName()), td)
	}
	for _, s := range plan.DeleteUnsupported {
		if gate.stop(ctx) {
			return r.stopped(owner, gate, errs)
		}
		if err := r.delete(ctx, s); err != nil {
			errs = append(errs, fmt.Errorf("deleting %s EndpointSlice %s for %s %s: %w", s.AddressType, s.Name, r.cfg.OwnerGVK.Kind, klog.KObj(owner), err))
		}
	}
	if r.recorder != nil {
		for _, e := range plan.Events {
			r.recorder.Event(owner, e.Type, e.Reason, e.Message)
		}
	}
	if len(errs) > 0 {
		logger.V(2).Info("Failed to apply EndpointSlice changes", "owner", klog.KObj(owner), "errors", len(errs))
		return errors.Join(errs...)
	}
	// OneSlicePerGroup: the slices left alone are tracked too, so that
	// their deletion by someone else is noticed (KCM endpointslicemirroring
	// reconcileByPortMapping: "Always ensure each EndpointSlice is being
	// tracked").
	for i := range plan.AddressTypes {
		for _, s := range plan.AddressTypes[i].Unchanged {
			if !r.trk().Has(s) {
				r.trk().Update(s)
			}
		}
	}
	return nil
}

// stopped is ApplyUntil's result when gate stopped it: the write errors of
// the address types before (errs), which a retry must see, else the
// pacer's error, else a *SupersededError.
func (r *Reconciler) stopped(owner Owner, gate *writeGate, errs []error) error {
	if gate.err != nil {
		errs = append(errs, fmt.Errorf("waiting for the client's rate limiter to write EndpointSlices for %s %s: %w", r.cfg.OwnerGVK.Kind, klog.KObj(owner), gate.err))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return &SupersededError{Written: gate.written}
}

// metricsKey is the key of the owner's slice set in the metrics cache: the
// owner's namespace and name, the name followed by "/set" for a set
// (ForSet; no object name holds a "/").
func (r *Reconciler) metricsKey(namespace, name string) types.NamespacedName {
	if r.bound {
		name += "/" + r.set
	}
	return types.NamespacedName{Namespace: namespace, Name: name}
}

// applyAddressType writes one address type's plan and reports whether every
// write was made. gate (nil: none) may stop it before a write (ApplyUntil).
func (r *Reconciler) applyAddressType(ctx context.Context, owner Owner, atp *AddressTypePlan, triggerTime time.Time, gate *writeGate) (bool, error) {
	client := r.client.DiscoveryV1().EndpointSlices(owner.GetNamespace())
	if owner.GetDeletionTimestamp() == nil {
		for _, s := range atp.Create {
			if gate.stop(ctx) {
				return false, nil
			}
			setTriggerTime(s, triggerTime)
			created, err := client.Create(ctx, s, metav1.CreateOptions{FieldManager: r.cfg.ControllerName})
			if err != nil {
				if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
					return false, nil
				}
				return false, fmt.Errorf("creating EndpointSlice for %s %s: %w", r.cfg.OwnerGVK.Kind, klog.KObj(owner), err)
			}
			r.trk().Update(created)
			r.metrics.IncEndpointSliceChanges("create")
		}
	}
	for _, s := range atp.Update {
		if gate.stop(ctx) {
			return false, nil
		}
		setTriggerTime(s, triggerTime)
		updated, err := r.updateSlice(ctx, owner.GetNamespace(), s, metav1.UpdateOptions{FieldManager: r.cfg.ControllerName})
		if err != nil {
			return false, fmt.Errorf("updating EndpointSlice %s for %s %s: %w", s.Name, r.cfg.OwnerGVK.Kind, klog.KObj(owner), err)
		}
		r.trk().Update(updated)
		r.metrics.IncEndpointSliceChanges("update")
	}
	for _, s := range atp.Delete {
		if gate.stop(ctx) {
			return false, nil
		}
		if err := r.delete(ctx, s); err != nil {
			return false, fmt.Errorf("deleting EndpointSlice %s for %s %s: %w", s.Name, r.cfg.OwnerGVK.Kind, klog.KObj(owner), err)
		}
	}
	return true, nil
}

// delete deletes s with a UID precondition, so a slice recreated under the
// same name in the meantime is never removed. NotFound counts as done (KCM
// returns it as an error and retries the whole sync; the outcome is the
// same without the retry); it is not recorded in the tracker, whose entry
// would otherwise wait for a deletion event that already went by.
func (r *Reconciler) delete(ctx context.Context, s *discovery.EndpointSlice) error {
	opts := metav1.DeleteOptions{}
	if s.UID != "" {
		uid := s.UID
		opts.Preconditions = &metav1.Preconditions{UID: &uid}
	}
	err := r.client.DiscoveryV1().EndpointSlices(s.Namespace).Delete(ctx, s.Name, opts)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	r.trk().ExpectDeletion(s)
	r.metrics.IncEndpointSliceChanges("delete")
	return nil
}

// setTriggerTime sets or clears the trigger-time annotation (C25) on s,
// which the reconciler owns.
func setTriggerTime(s *discovery.EndpointSlice, t time.Time) {
	if s.Annotations == nil {
		s.Annotations = map[string]string{}
	}
	if t.IsZero() {
		delete(s.Annotations, corev1.EndpointsLastChangeTriggerTime)
		return
	}
	s.Annotations[corev1.EndpointsLastChangeTriggerTime] = t.UTC().Format(time.RFC3339Nano)
}

// DeleteOwner forgets the owner namespace/name in the tracker and the
// metrics; call it when the owner is gone. A Reconciler of a set (ForSet)
// forgets that set of the owner; the Reconciler New returned forgets every
// set of it.
func (r *Reconciler) DeleteOwner(namespace, name string) {
	switch {
	case r.bound:
		r.trk().DeleteOwnerSet(namespace, name, r.set)
		if r.metricsCache != nil {
			r.metricsCache.DeleteService(r.metricsKey(namespace, name))
		}
	case r.cfg.SetLabel != "":
		r.trk().DeleteOwner(namespace, name)
		if r.metricsCache != nil {
			r.metricsCache.DeleteServices(func(k types.NamespacedName) bool {
				return k.Namespace == namespace && (k.Name == name || strings.HasPrefix(k.Name, name+"/"))
			})
		}
	default:
		r.trk().DeleteOwner(namespace, name)
		if r.metricsCache != nil {
			r.metricsCache.DeleteService(types.NamespacedName{Namespace: namespace, Name: name})
		}
	}
}

// generateNamePrefix is "<name>-", or name when that is not a valid
// DNS-subdomain prefix (KCM utils.go getEndpointSlicePrefix, C22).
func generateNamePrefix(name string) string {
	prefix := name + "-"
	if len(apimachineryvalidation.NameIsDNSSubdomain(prefix, true)) != 0 {
		return name
	}
	return prefix
}

// writeGate is ApplyUntil's state: it lets the first write through and,
// before every later one, waits for the pacer (when not nil) and then
// asks superseded.
type writeGate struct {
	superseded func() bool
	pacer      Pacer
	written    int
	stopped    bool
	// err is the pacer's error that stopped the writes.
	err error
}

// stop reports whether the next write must not be made, and otherwise
// counts it. A nil gate never stops.
func (g *writeGate) stop(ctx context.Context) bool {
	if g == nil {
		return false
	}
	if g.written > 0 {
		if g.pacer != nil {
			if err := g.pacer.WaitAvailable(ctx); err != nil {
				g.err, g.stopped = err, true
				return true
			}
		}
		if g.superseded() {
			g.stopped = true
			return true
		}
	}
	g.written++
	return false
}
