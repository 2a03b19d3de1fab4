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
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/cmd/slicekit/app"
	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// runUntilError runs a manager with o and returns what Run returns, failing
// the test when it keeps running for 30s.
func runUntilError(t *testing.T, o *manager.Options) error {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m, err := manager.New(ctx, o)
	if err != nil {
		t.Fatalf("manager.New: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	select {
	case err := <-done:
		if m.Leading() {
			t.Error("the manager leads after Run returned")
		}
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("Run kept running for 30s with a Lease it can never take")
		return nil
	}
}

// TestLeaseNamespaceMissing: leader election with a Lease namespace that
// does not exist stops Run with a *LeaseError naming it, instead of
// retrying forever; nothing is created.
func TestLeaseNamespaceMissing(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	err := runUntilError(t, testOptions(t, env.Config, "no-such-namespace"))
	var le *manager.LeaseError
	if !errors.As(err, &le) || le.Problem != manager.LeaseNamespaceMissing || le.Namespace != "no-such-namespace" {
		t.Fatalf("Run error = %v, want a *LeaseError NamespaceMissing for no-such-namespace", err)
	}
	if _, err := env.Client.CoreV1().Namespaces().Get(t.Context(), "no-such-namespace", metav1.GetOptions{}); err == nil {
		t.Error("the namespace was created")
	}
}

// TestLeaseForbidden: credentials that may neither create nor read the
// Lease stop Run with a *LeaseError (Forbidden). The permission preflight
// (preflight.go) reports this first by default; the Lease check is what
// stops Run with --preflight=warn or off, tested here.
func TestLeaseForbidden(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	ns := testenv.Namespace(t, env.Client)
	cfg := rest.CopyConfig(env.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "no-rights@example.com"}
	o := testOptions(t, cfg, ns)
	o.Preflight = manager.PreflightOff
	err := runUntilError(t, o)
	var le *manager.LeaseError
	if !errors.As(err, &le) || le.Problem != manager.LeaseForbidden || le.Namespace != ns {
		t.Fatalf("Run error = %v, want a *LeaseError Forbidden in %s", err, ns)
	}
	if !strings.Contains(err.Error(), "no-rights@example.com") {
		t.Errorf("the message does not quote the API server's answer: %v", err)
	}
}

// TestRunCommandExitsOnMissingLeaseNamespace runs `slicekit run` as the
// README's Quick start did, against a cluster without the Lease namespace:
// exit status 2 and one message with the namespace and the three ways out.
func TestRunCommandExitsOnMissingLeaseNamespace(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := env.WriteKubeConfig(kubeconfig, "test"); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	code := app.Main(ctx, []string{"run", "--kubeconfig", kubeconfig, "--leader-elect-resource-namespace=lease-ns-missing",
		"--metrics-bind-address=127.0.0.1:0", "--health-probe-bind-address=127.0.0.1:0"},
		app.Streams{In: strings.NewReader(""), Out: &stdout, Err: &stderr})
	if ctx.Err() != nil {
		t.Fatal("slicekit run did not stop within 60s")
	}
	if code != app.ExitUsage {
		t.Errorf("exit status %d, want %d", code, app.ExitUsage)
	}
	for _, want := range []string{
		`slicekit run: leader election: cannot use the Lease lease-ns-missing/slicekit: namespace "lease-ns-missing" does not exist`,
		"kubectl create namespace lease-ns-missing", "--leader-elect-resource-namespace", "--leader-elect=false",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not contain %q:\n%s", want, stderr.String())
		}
	}
}

// TestLeaseExistingIsUsed: a Lease created beforehand (AlreadyExists on
// the dry-run create) passes the check and is taken over.
func TestLeaseExistingIsUsed(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	env := testenv.Shared(t)
	ns := testenv.Namespace(t, env.Client)
	if _, err := env.Client.CoordinationV1().Leases(ns).Create(t.Context(),
		&coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: manager.DefaultLeaderElectionResourceName}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	m := start(t, "existing-lease", testOptions(t, env.Config, ns))
	waitFor(t, "leadership on an existing Lease", func() (bool, error) { return m.Leading() && m.Ready(), nil })
}
