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
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
)

// TestRunWithoutAPIServer runs the manager against an address where no API
// server listens: it serves /healthz (ok) and /readyz (not ready, caches
// not synced) and /metrics, and shuts down cleanly on cancel, with and
// without leader election.
func TestRunWithoutAPIServer(t *testing.T) {
	for _, leaderElect := range []bool{false, true} {
		name := "no leader election"
		if leaderElect {
			name = "leader election"
		}
		t.Run(name, func(t *testing.T) {
			logger, ctx := ktesting.NewTestContext(t)
			ctx = klog.NewContext(ctx, logger)
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()

			o := NewOptions()
			o.RESTConfig = &rest.Config{Host: "http://127.0.0.1:1"} // nothing listens on port 1
			o.MetricsBindAddress = "127.0.0.1:0"
			o.HealthProbeBindAddress = "127.0.0.1:0"
			o.LeaderElection.LeaderElect = leaderElect
			o.LeaderElection.ResourceNamespace = "default"
			o.Profiling = leaderElect // one run with, one without
			m, err := New(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- m.Run(ctx) }()

			health := "http://" + m.HealthProbeAddress()
			if code, body := httpGet(t, health+"/healthz"); code != http.StatusOK || body != "ok" {
				t.Errorf("/healthz = %d %q, want 200 ok", code, body)
			}
			code, body := httpGet(t, health+"/readyz")
			if code != http.StatusInternalServerError || !strings.Contains(body, "[-]informerSync failed") {
				t.Errorf("/readyz = %d %q, want 500 naming informerSync", code, body)
			}
			if leaderElect && !strings.Contains(body, "[-]leaderElection failed: the leader election Lease default/slicekit has not been reached yet") {
				t.Errorf("/readyz = %q, want the leaderElection check failed", body)
			}
			if m.Ready() || m.Leading() && leaderElect {
				t.Errorf("Ready() = %v, Leading() = %v without an API server", m.Ready(), m.Leading())
			}
			code, body = httpGet(t, "http://"+m.MetricsAddress()+"/metrics")
			if code != http.StatusOK || !strings.Contains(body, "slicekit_build_info{") || !strings.Contains(body, "go_goroutines") {
				t.Errorf("/metrics = %d, missing slicekit_build_info or go_goroutines:\n%.2000s", code, body)
			}
			if got := strings.Contains(body, "leader_election_master_status"); got != leaderElect {
				t.Errorf("leader_election_master_status exposed = %v, want %v", got, leaderElect)
			}
			wantPprof := http.StatusNotFound
			if o.Profiling {
				wantPprof = http.StatusOK
			}
			if code, body := httpGet(t, "http://"+m.MetricsAddress()+"/debug/pprof/heap?debug=1"); code != wantPprof {
				t.Errorf("/debug/pprof/heap with --profiling=%v = %d, want %d:\n%.500s", o.Profiling, code, wantPprof, body)
			}

			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run returned %v after cancel, want nil", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Run did not return within 20s of cancel")
			}
			if _, err := http.Get(health + "/healthz"); err == nil { //nolint:noctx // test
				t.Error("the probe server still answers after Run returned")
			}
		})
	}
}

// TestReadyNeedsTheLease: with leader election, a replica whose caches
// have synced is still not ready until its elector has reached the Lease
// (a leader is known): a standby that never reached the API server for
// the Lease must not receive traffic or count as available.
func TestReadyNeedsTheLease(t *testing.T) {
	o := NewOptions()
	o.RESTConfig = &rest.Config{Host: "http://127.0.0.1:1"}
	o.MetricsBindAddress = DisabledBindAddress
	o.HealthProbeBindAddress = DisabledBindAddress
	o.LeaderElection.ResourceNamespace = "default"
	o.Preflight = PreflightOff // its own readiness check is tested in preflight_test.go
	m, err := New(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	m.synced.Store(true) // as if every informer had synced
	h := m.healthHandler()
	get := func() (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz?verbose", nil))
		return rec.Code, rec.Body.String()
	}
	if code, body := get(); code != http.StatusInternalServerError || !strings.Contains(body, "[-]leaderElection failed") || m.Ready() {
		t.Errorf("before the Lease was reached: /readyz = %d %q, Ready() = %v; want 500 naming leaderElection, false", code, body, m.Ready())
	}
	m.leaseObserved.Store(true)
	if code, body := get(); code != http.StatusOK || !strings.Contains(body, "[+]leaderElection ok") || !m.Ready() {
		t.Errorf("after the Lease was reached: /readyz = %d %q, Ready() = %v; want 200, true", code, body, m.Ready())
	}
}

func TestLeaseErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		problem LeaseProblem
		want    []string
	}{
		{LeaseNamespaceMissing, []string{`Lease slicekit-system/slicekit: namespace "slicekit-system" does not exist`, "kubectl create namespace slicekit-system", "--leader-elect-resource-namespace", "--leader-elect=false"}},
		{LeaseNamespaceTerminating, []string{`namespace "slicekit-system" is being deleted`, "--leader-elect-resource-namespace", "--leader-elect=false"}},
		{LeaseForbidden, []string{`may not create Leases in namespace "slicekit-system" (nope)`, "config/rbac/leader_election_role.yaml", "--leader-elect-resource-namespace", "--leader-elect=false"}},
	} {
		msg := (&LeaseError{Namespace: "slicekit-system", Name: "slicekit", Problem: tc.problem, Err: errors.New("nope")}).Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message %q does not contain %q", tc.problem, msg, w)
			}
		}
	}
}

func TestNewRejectsInvalidOptions(t *testing.T) {
	o := NewOptions()
	o.RESTConfig = &rest.Config{Host: "http://127.0.0.1:1"}
	o.MaxEndpointsPerSlice = 0
	if _, err := New(t.Context(), o); err == nil || !strings.Contains(err.Error(), "--max-endpoints-per-slice") {
		t.Errorf("New error = %v", err)
	}
}

func TestNewReportsBusyPort(t *testing.T) {
	o := NewOptions()
	o.RESTConfig = &rest.Config{Host: "http://127.0.0.1:1"}
	o.MetricsBindAddress = "127.0.0.1:0"
	o.HealthProbeBindAddress = "127.0.0.1:0"
	o.LeaderElection.ResourceNamespace = "default"
	m, err := New(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	o2 := NewOptions()
	o2.RESTConfig = o.RESTConfig
	o2.MetricsBindAddress = m.MetricsAddress()
	o2.HealthProbeBindAddress = "0"
	o2.LeaderElection.ResourceNamespace = "default"
	if _, err := New(t.Context(), o2); err == nil || !strings.Contains(err.Error(), "--metrics-bind-address") {
		t.Errorf("New on a busy port: error = %v", err)
	}
}

func TestDisabledServers(t *testing.T) {
	o := NewOptions()
	o.RESTConfig = &rest.Config{Host: "http://127.0.0.1:1"}
	o.MetricsBindAddress = DisabledBindAddress
	o.HealthProbeBindAddress = DisabledBindAddress
	o.LeaderElection.ResourceNamespace = "default"
	m, err := New(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	if m.MetricsAddress() != "" || m.HealthProbeAddress() != "" {
		t.Errorf("addresses %q %q, want none", m.MetricsAddress(), m.HealthProbeAddress())
	}
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url) //nolint:noctx // test
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestRESTConfigIsKCMs checks the client settings KCM's options.go sets:
// QPS and burst from the flags, protobuf, and no gzip compression.
func TestRESTConfigIsKCMs(t *testing.T) {
	o := NewOptions()
	o.RESTConfig = &rest.Config{Host: "http://127.0.0.1:1"}
	m := &Manager{opts: o}
	cfg, err := m.restConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.DisableCompression {
		t.Error("DisableCompression = false; KCM disables compression")
	}
	if cfg.ContentType != protobuf || cfg.QPS != DefaultKubeAPIQPS || cfg.Burst != int(DefaultKubeAPIBurst) {
		t.Errorf("ContentType %q, QPS %v, Burst %d; want %q, %v, %d", cfg.ContentType, cfg.QPS, cfg.Burst, protobuf, DefaultKubeAPIQPS, DefaultKubeAPIBurst)
	}
}
