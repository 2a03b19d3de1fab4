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

package manager_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/pkg/preflight"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// shippedServiceAccount is the user config/'s ServiceAccount authenticates
// as.
const shippedServiceAccount = "system:serviceaccount:slicekit-system:slicekit"

// shippedRBACOptions returns options that run as the shipped ServiceAccount
// (impersonation), bound to exactly config/'s roles, with controllers and
// the preflight mode.
func shippedRBACOptions(t *testing.T, env *testenv.Env, controllers []string, mode, lease string) *manager.Options {
	t.Helper()
	applyRBAC(t, env.Client)
	cfg := rest.CopyConfig(env.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: shippedServiceAccount}
	o := testOptions(t, cfg, manager.DefaultNamespace)
	o.LeaderElection.ResourceName = lease
	o.Controllers = controllers
	o.Preflight = mode
	return o
}

// TestPreflightShippedRBACEndpoints enables the Endpoints controller under
// the shipped RBAC, which does not grant writing Endpoints: with
// --preflight=fail the start stops before leader election with an error
// naming the controller, the verbs, the resource and the rule to add.
func TestPreflightShippedRBACEndpoints(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	const lease = "slicekit-preflight-fail"
	o := shippedRBACOptions(t, env, []string{"*", "endpoints"}, manager.PreflightFail, lease)
	logger, ctx := ktesting.NewTestContext(t)
	ctx = klog.NewContext(ctx, logger)
	m, err := manager.New(ctx, o)
	if err != nil {
		t.Fatalf("manager.New: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	select {
	case err = <-done:
	case <-time.After(waitTimeout):
		t.Fatalf("Run did not stop within %s", waitTimeout)
	}
	if !preflight.IsMissingPermissions(err) {
		t.Fatalf("Run returned %v, want a missing permissions error", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"the API server denies " + shippedServiceAccount + " 3 permission(s)",
		`controller "endpoints" cannot create, update, delete endpoints in all namespaces: add the rule {apiGroups: [""], resources: [endpoints], verbs: [create, update, delete]} to a ClusterRole bound to ` + shippedServiceAccount,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if n := strings.Count(msg, "\n"); n != 1 {
		t.Errorf("error has %d lines about missing permissions, want 1 (the default controllers and leader election are granted):\n%s", n, msg)
	}
	if m.Leading() {
		t.Error("the manager leads after a failed preflight")
	}
	if _, err := env.Client.CoordinationV1().Leases(manager.DefaultNamespace).Get(t.Context(), lease, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Lease %s: %v; want none: the preflight comes before leader election", lease, err)
	}
}

// TestPreflightShippedRBACDefaults: under the shipped RBAC the default
// controllers pass the preflight and the replica becomes ready (the rest of
// their work is TestShippedRBAC's).
func TestPreflightShippedRBACDefaults(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	m := start(t, "preflight-defaults", shippedRBACOptions(t, env, []string{"*"}, manager.PreflightFail, "slicekit-preflight-defaults"))
	waitFor(t, "readiness with the default controllers", func() (bool, error) { return m.Ready(), nil })
	waitFor(t, "leadership with the default controllers", func() (bool, error) { return m.Leading(), nil })
}

// TestPreflightWarnShippedRBACEndpoints: with --preflight=warn the
// Endpoints controller runs under the shipped RBAC, /readyz fails naming
// the permissions, and the forbidden Endpoints writes are logged at error
// level at once (not after the retry budget, not only at -v=2).
func TestPreflightWarnShippedRBACEndpoints(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	ns := testenv.Namespace(t, env.Client)
	o := shippedRBACOptions(t, env, []string{"*", "endpoints"}, manager.PreflightWarn, "slicekit-preflight-warn")

	// Verbosity 0: only what an operator sees by default.
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.BufferLogs(true), ktesting.Verbosity(0)))
	ctx, cancel := context.WithCancel(klog.NewContext(t.Context(), logger))
	m, err := manager.New(ctx, o)
	if err != nil {
		cancel()
		t.Fatalf("manager.New: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("Run did not return within 30s of cancel")
		}
	})
	buffer := logger.GetSink().(ktesting.Underlier).GetBuffer()
	logged := func(msg, contains string) (bool, error) {
		for _, e := range buffer.Data() {
			if e.Type == ktesting.LogError && e.Message == msg && (e.Err == nil || strings.Contains(e.Err.Error(), contains)) {
				return true, nil
			}
		}
		return false, nil
	}

	waitFor(t, "leadership despite the missing permissions", func() (bool, error) { return m.Leading(), nil })
	if ok, _ := logged("Missing permission", ""); !ok {
		t.Error("no error line about the missing permission")
	}
	health := "http://" + m.HealthProbeAddress()
	code, body, err := get(health + "/readyz")
	if err != nil || code != http.StatusInternalServerError || !strings.Contains(body, `[-]permissions failed: permissions: the API server denies `+shippedServiceAccount) {
		t.Errorf("/readyz = %d %q %v, want 500 naming the missing permissions", code, body, err)
	}
	if m.Ready() {
		t.Error("Ready() with missing permissions")
	}

	createBackend(t, env.Client, ns, 1)
	waitFor(t, "the forbidden Endpoints write logged at error level", func() (bool, error) {
		return logged("Error syncing endpoints, retrying", "forbidden")
	})
	// The slices, which the shipped RBAC allows, are still written.
	waitEndpoints(t, env.Client, ns, 1)
}
