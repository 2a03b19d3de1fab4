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
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
)

// parse returns completed options after parsing args, or the first error.
func parse(t *testing.T, args ...string) (*Options, error) {
	t.Helper()
	o := NewOptions()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.SetOutput(discard{})
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if err := o.Complete(); err != nil {
		return nil, err
	}
	return o, o.Validate()
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestDefaults(t *testing.T) {
	t.Setenv("POD_NAMESPACE", "")
	serviceAccountNamespaceFile = filepath.Join(t.TempDir(), "missing")
	o, err := parse(t)
	if err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	type view struct {
		Controllers               []string
		ControllerName            string
		Syncs, MaxPerSlice        int32
		Batch                     time.Duration
		Gate                      bool
		QPS                       float32
		Burst                     int32
		LeaderElect               bool
		Lease, Renew, Retry       time.Duration
		LeaseName, LeaseNamespace string
		Metrics, Health           string
		Enabled                   []string
		LogFormat                 string
		Verbosity                 uint32
		MinResync                 time.Duration
	}
	enabled, _ := o.EnabledControllers()
	got := view{
		Controllers: o.Controllers, ControllerName: o.ControllerName,
		Syncs: o.ConcurrentServiceEndpointSyncs, MaxPerSlice: o.MaxEndpointsPerSlice,
		Batch: o.BatchPeriod, Gate: o.ExternalEndpointControllerEnabled(),
		QPS: o.KubeAPIQPS, Burst: o.KubeAPIBurst,
		LeaderElect: o.LeaderElection.LeaderElect, Lease: o.LeaderElection.LeaseDuration,
		Renew: o.LeaderElection.RenewDeadline, Retry: o.LeaderElection.RetryPeriod,
		LeaseName: o.LeaderElection.ResourceName, LeaseNamespace: o.LeaderElection.ResourceNamespace,
		Metrics: o.MetricsBindAddress, Health: o.HealthProbeBindAddress,
		Enabled: enabled, LogFormat: o.Logs.Format, Verbosity: uint32(o.Logs.Verbosity),
		MinResync: o.MinResyncPeriod,
	}
	want := view{
		Controllers: []string{"*"}, ControllerName: "endpointslice-controller.k8s.io",
		Syncs: 5, MaxPerSlice: 100, Batch: 0, Gate: true, QPS: 20, Burst: 30,
		LeaderElect: true, Lease: 15 * time.Second, Renew: 10 * time.Second, Retry: 2 * time.Second,
		LeaseName: "slicekit", LeaseNamespace: "slicekit-system",
		Metrics: "127.0.0.1:8080", Health: ":8081", Enabled: []string{"endpointslice", "endpointslice-mirroring"},
		LogFormat: "text", Verbosity: 0, MinResync: 12 * time.Hour,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("defaults (-want +got):\n%s", d)
	}
}

func TestLeaseNamespaceDefault(t *testing.T) {
	dir := t.TempDir()
	saFile := filepath.Join(dir, "namespace")
	if err := os.WriteFile(saFile, []byte("from-sa\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	serviceAccountNamespaceFile = saFile
	t.Cleanup(func() { serviceAccountNamespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace" })

	for _, tc := range []struct {
		name, env string
		args      []string
		want      string
	}{
		{name: "service account file", want: "from-sa"},
		{name: "POD_NAMESPACE wins", env: "from-env", want: "from-env"},
		{name: "flag wins", env: "from-env", args: []string{"--leader-elect-resource-namespace=flag"}, want: "flag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("POD_NAMESPACE", tc.env)
			o, err := parse(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if got := o.LeaderElection.ResourceNamespace; got != tc.want {
				t.Errorf("lease namespace = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		// wantErr is a substring of the error; "" means valid.
		wantErr string
	}{
		{name: "defaults"},
		{name: "max endpoints per slice 1", args: []string{"--max-endpoints-per-slice=1"}},
		{name: "max endpoints per slice 1000", args: []string{"--max-endpoints-per-slice=1000"}},
		{name: "max endpoints per slice 0", args: []string{"--max-endpoints-per-slice=0"}, wantErr: "--max-endpoints-per-slice=0 must be between 1 and 1000"},
		{name: "max endpoints per slice 1001", args: []string{"--max-endpoints-per-slice=1001"}, wantErr: "--max-endpoints-per-slice=1001"},
		{name: "syncs 50", args: []string{"--concurrent-service-endpoint-syncs=50"}},
		{name: "syncs 0", args: []string{"--concurrent-service-endpoint-syncs=0"}, wantErr: "--concurrent-service-endpoint-syncs=0 must be between 1 and 50"},
		{name: "syncs 51", args: []string{"--concurrent-service-endpoint-syncs=51"}, wantErr: "--concurrent-service-endpoint-syncs=51"},
		{name: "syncs not a number", args: []string{"--concurrent-service-endpoint-syncs=many"}, wantErr: "invalid argument"},
		{name: "batch period", args: []string{"--endpoint-updates-batch-period=1s"}},
		{name: "batch period negative", args: []string{"--endpoint-updates-batch-period=-1s"}, wantErr: "must not be negative"},
		{name: "batch period KCM alias", args: []string{"--endpointslice-updates-batch-period=2s"}},
		{name: "batch period both agree", args: []string{"--endpoint-updates-batch-period=2s", "--endpointslice-updates-batch-period=2s"}},
		{name: "batch period both disagree", args: []string{"--endpoint-updates-batch-period=1s", "--endpointslice-updates-batch-period=2s"}, wantErr: "disagree"},
		{name: "profiling", args: []string{"--profiling"}},
		{name: "profiling without metrics", args: []string{"--profiling", "--metrics-bind-address=0"}, wantErr: "--profiling serves on the metrics endpoint"},
		{name: "controllers star", args: []string{"--controllers=*"}},
		{name: "controllers by name", args: []string{"--controllers=endpointslice"}},
		{name: "controllers KCM alias", args: []string{"--controllers=endpointslice-controller"}},
		{name: "controllers unknown", args: []string{"--controllers=*,bogus"}, wantErr: "unknown controller(s) bogus"},
		{name: "controllers none", args: []string{"--controllers=-endpointslice"}, wantErr: "enables no controller"},
		{name: "controller name is the mirroring controller's", args: []string{"--controller-name=endpointslicemirroring-controller.k8s.io"}, wantErr: "mirroring controller's managed-by value"},
		{name: "secondary-network name is the controller name", args: []string{"--controllers=*,secondary-network", "--secondary-network-controller-name=endpointslice-controller.k8s.io"},
			wantErr: `--controller-name and --secondary-network-controller-name are both "endpointslice-controller.k8s.io"`},
		{name: "secondary-network name is the mirroring controller's", args: []string{"--controllers=*,secondary-network", "--secondary-network-controller-name=endpointslicemirroring-controller.k8s.io"},
			wantErr: "the mirroring controller's managed-by value and --secondary-network-controller-name are both"},
		{name: "cleanup dry run with the cleanup controller", args: []string{"--controllers=selectorless-cleanup", "--selectorless-cleanup-dry-run"}},
		{name: "cleanup dry run without the cleanup controller", args: []string{"--selectorless-cleanup-dry-run"}, wantErr: "--selectorless-cleanup-dry-run needs the selectorless-cleanup controller"},
		{name: "cel without config", args: []string{"--controllers=*,cel"}, wantErr: "--cel-config is required"},
		{name: "cel config without cel", args: []string{"--cel-config=examples/cel/profiles.yaml"}, wantErr: "--cel-config needs the cel controller"},
		{name: "controllers star minus", args: []string{"--controllers=*,-endpointslice,-endpointslice-mirroring"}, wantErr: "enables no controller"},
		{name: "controller name invalid", args: []string{"--controller-name=not a label!"}, wantErr: "--controller-name"},
		{name: "controller name empty", args: []string{"--controller-name="}, wantErr: "--controller-name"},
		{name: "feature gate off", args: []string{"--feature-gates=ExternalEndpointController=false"}},
		{name: "feature gate unknown", args: []string{"--feature-gates=Bogus=true"}, wantErr: "unrecognized feature gate: Bogus"},
		{name: "feature gate bad value", args: []string{"--feature-gates=ExternalEndpointController=maybe"}, wantErr: "invalid value"},
		{name: "lease not longer than renew", args: []string{"--leader-elect-lease-duration=10s"}, wantErr: "must be greater than --leader-elect-renew-deadline"},
		{name: "renew too short for retry", args: []string{"--leader-elect-retry-period=9s"}, wantErr: "must be greater than 1.2 times"},
		{name: "retry zero", args: []string{"--leader-elect-retry-period=0s"}, wantErr: "must be positive"},
		{name: "lease rules ignored without leader election", args: []string{"--leader-elect=false", "--leader-elect-lease-duration=1s"}},
		{name: "lease name invalid", args: []string{"--leader-elect-resource-name=Bad_Name"}, wantErr: "--leader-elect-resource-name"},
		{name: "lease namespace invalid", args: []string{"--leader-elect-resource-namespace=Bad.NS"}, wantErr: "--leader-elect-resource-namespace"},
		{name: "metrics disabled", args: []string{"--metrics-bind-address=0"}},
		{name: "metrics host port", args: []string{"--metrics-bind-address=127.0.0.1:9090"}},
		{name: "metrics no port", args: []string{"--metrics-bind-address=localhost"}, wantErr: "--metrics-bind-address"},
		{name: "health bad port", args: []string{"--health-probe-bind-address=:http"}, wantErr: "--health-probe-bind-address"},
		{name: "same address", args: []string{"--metrics-bind-address=:9000", "--health-probe-bind-address=:9000"}, wantErr: "must differ"},
		{name: "both random ports", args: []string{"--metrics-bind-address=127.0.0.1:0", "--health-probe-bind-address=127.0.0.1:0"}},
		{name: "qps zero", args: []string{"--kube-api-qps=0"}, wantErr: "--kube-api-qps"},
		{name: "json logs", args: []string{"--logging-format=json", "-v=4"}},
		{name: "unknown log format", args: []string{"--logging-format=xml"}, wantErr: "format"},
		{name: "unknown flag", args: []string{"--bogus"}, wantErr: "unknown flag: --bogus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("POD_NAMESPACE", "")
			_, err := parse(t, tc.args...)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Errorf("no error, want one containing %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Errorf("error %q does not contain %q", err, tc.wantErr)
			}
		})
	}
}

func TestValidateReportsEveryError(t *testing.T) {
	_, err := parse(t, "--max-endpoints-per-slice=0", "--concurrent-service-endpoint-syncs=0", "--controllers=nope")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"--max-endpoints-per-slice", "--concurrent-service-endpoint-syncs", "nope"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestFeatureGateIsPerOptions(t *testing.T) {
	a, b := builtin.NewControllerOptions(), builtin.NewControllerOptions()
	if err := a.FeatureGates.Set("ExternalEndpointController=false"); err != nil {
		t.Fatal(err)
	}
	if a.ExternalEndpointControllerEnabled() || !b.ExternalEndpointControllerEnabled() {
		t.Errorf("gates are shared: a=%v b=%v", a.ExternalEndpointControllerEnabled(), b.ExternalEndpointControllerEnabled())
	}
}
