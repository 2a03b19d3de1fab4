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
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/preflight"
)

// Modes of the permission preflight (--preflight).
const (
	// PreflightFail stops the start-up when a permission is missing: Run
	// returns, before leader election, an error wrapping a
	// *preflight.MissingPermissionsError (`slicekit run` exits with status
	// 2).
	PreflightFail = "fail"
	// PreflightWarn logs every missing permission at error level and keeps
	// /readyz failing until a later check (every minute) finds them all;
	// the controllers run.
	PreflightWarn = "warn"
	// PreflightOff skips the preflight.
	PreflightOff = "off"
	// DefaultPreflight is the default of --preflight.
	DefaultPreflight = PreflightFail
)

// preflightRecheckPeriod is how often the warn mode asks again, so that a
// fixed RBAC makes the replica ready without a restart; a variable for
// tests.
var preflightRecheckPeriod = time.Minute

// LeaderElectionRBACRules returns the RBAC rules leader election needs in
// the Lease's namespace: client-go's LeaseLock gets, creates and updates
// the Lease. config/rbac's leader election Role is tested against them.
// Each call returns a new slice.
func LeaderElectionRBACRules() []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{
		{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "create", "update"}},
	}
}

// ControllerRBACRules returns the RBAC rules the named controllers (names or
// aliases of --controllers) need in every namespace, each controller's
// rules in the order of names; an error names an unknown controller. The
// rules are not merged: two controllers may list the same permission.
func ControllerRBACRules(names ...string) ([]rbacv1.PolicyRule, error) {
	var rules []rbacv1.PolicyRule
	for _, name := range names {
		r, ok := builtin.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown controller %q; known controllers: %v", name, builtin.KnownControllers())
		}
		if r.RBACRules == nil {
			return nil, fmt.Errorf("controller %q declares no RBAC rules", r.Name)
		}
		rules = append(rules, r.RBACRules()...)
	}
	return rules, nil
}

// PermissionRequirements returns what `slicekit run` with o needs from the
// API server: each enabled controller's RBAC rules in every namespace and,
// with leader election, LeaderElectionRBACRules in the Lease's namespace.
// o must have been completed; the error is EnabledControllers'.
func (o *Options) PermissionRequirements() ([]preflight.Requirement, error) {
	enabled, err := o.EnabledControllers()
	if err != nil {
		return nil, err
	}
	var reqs []preflight.Requirement
	for _, name := range enabled {
		rules, err := ControllerRBACRules(name)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, preflight.Requirement{Component: fmt.Sprintf("controller %q", name), Rules: rules})
	}
	if le := o.LeaderElection; le.LeaderElect {
		reqs = append(reqs, preflight.Requirement{Component: "leader election", Namespace: le.ResourceNamespace, Rules: LeaderElectionRBACRules()})
	}
	return reqs, nil
}

// addPreflightFlag adds --preflight to fs.
func (o *Options) addPreflightFlag(fs *pflag.FlagSet) {
	fs.StringVar(&o.Preflight, "preflight", o.Preflight,
		"At start-up, ask the API server (SelfSubjectAccessReview) for every permission the enabled controllers and leader election need. "+
			"'fail' stops with exit status 2 and names each missing rule; 'warn' logs them at error level and keeps /readyz failing until they are granted; 'off' skips the check.")
}

// validatePreflight checks --preflight.
func (o *Options) validatePreflight() error {
	if !slices.Contains([]string{PreflightFail, PreflightWarn, PreflightOff}, o.Preflight) {
		return fmt.Errorf("--preflight=%q must be one of %s, %s, %s", o.Preflight, PreflightFail, PreflightWarn, PreflightOff)
	}
	return nil
}

// permissionState is the outcome of the preflight for /readyz.
type permissionState struct {
	// missing is errPreflightPending until the preflight ran, then the
	// last preflight's error; nil once everything was allowed or when the
	// preflight is off.
	missing atomic.Pointer[error]
}

// check is the /readyz check: nil, or why the permissions make the
// replica unready.
func (p *permissionState) check(*http.Request) error {
	if err := p.missing.Load(); err != nil {
		return fmt.Errorf("permissions: %w", *err)
	}
	return nil
}

// errPreflightPending makes /readyz fail until the preflight has run.
var errPreflightPending = errors.New("the permission preflight has not completed yet")

// preflightRetryCap bounds the back-off between attempts to ask the API
// server when it cannot be reached.
const preflightRetryCap = 30 * time.Second

// startupPreflight runs the preflight when Run starts, before leader
// election and the controllers. When the API server cannot be asked it
// retries with back-off (1s doubling to 30s) until it can or ctx is done.
// It returns an error wrapping the *preflight.MissingPermissionsError in
// fail mode, and nil otherwise: in warn mode after logging the missing
// permissions and starting recheckPermissions, and when ctx is done.
func (m *Manager) startupPreflight(ctx context.Context) error {
	if m.opts.Preflight == PreflightOff {
		return nil
	}
	logger := klog.FromContext(ctx)
	reqs, err := m.opts.PermissionRequirements()
	if err != nil {
		return fmt.Errorf("permission preflight: %w", err) // a controller without rules: a programming error
	}
	delay := time.Second
	for {
		err := m.runPreflight(ctx, reqs)
		switch {
		case err == nil:
			m.permissions.missing.Store(nil)
			return nil
		case preflight.IsMissingPermissions(err) && m.opts.Preflight == PreflightFail:
			return fmt.Errorf("permission preflight (--preflight=%s): %w", PreflightFail, err)
		case preflight.IsMissingPermissions(err):
			m.permissions.missing.Store(&err)
			go m.recheckPermissions(ctx, reqs, preflightRecheckPeriod)
			return nil
		case ctx.Err() != nil:
			return nil
		}
		logger.Error(err, "Permission preflight could not ask the API server, retrying", "delay", delay)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(delay):
		}
		delay = min(2*delay, preflightRetryCap)
	}
}

// runPreflight asks the API server once about reqs. It logs success at
// verbosity 1 and each missing permission at error level (one line per
// component and resource, with the rule to add).
func (m *Manager) runPreflight(ctx context.Context, reqs []preflight.Requirement) error {
	logger := klog.FromContext(ctx)
	err := preflight.Check(ctx, m.preflightClient, reqs)
	var missing *preflight.MissingPermissionsError
	switch {
	case err == nil:
		logger.V(1).Info("Permission preflight passed", "components", len(reqs))
	case errors.As(err, &missing):
		for _, g := range missing.Grouped() {
			logger.Error(nil, "Missing permission", "component", g.Component, "verbs", g.Verbs,
				"resource", g.Rule.Resources[0], "apiGroup", g.Rule.APIGroups[0], "namespace", g.Namespace,
				"user", missing.User, "ruleToAdd", preflight.FormatRule(g.Rule), "preflight", m.opts.Preflight)
		}
	}
	return err
}

// recheckPermissions, in warn mode after missing permissions, asks again
// every period until everything is allowed or ctx is done,
// so that /readyz recovers once the RBAC rules are fixed.
func (m *Manager) recheckPermissions(ctx context.Context, reqs []preflight.Requirement, period time.Duration) {
	if m.permissions.missing.Load() == nil {
		return
	}
	logger := klog.FromContext(ctx)
	_ = wait.PollUntilContextCancel(ctx, period, false, func(ctx context.Context) (bool, error) {
		err := m.runPreflight(ctx, reqs)
		switch {
		case ctx.Err() != nil:
			return false, ctx.Err()
		case preflight.IsMissingPermissions(err):
			m.permissions.missing.Store(&err)
			return false, nil
		case err != nil:
			logger.Error(err, "Permission preflight could not ask the API server")
			return false, nil
		}
		m.permissions.missing.Store(nil)
		logger.Info("Permission preflight passed after missing permissions were granted")
		return true, nil
	})
}
