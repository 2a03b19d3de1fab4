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
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection"
	logsapi "k8s.io/component-base/logs/api/v1"

	// Registers the json logging format (--logging-format=json).
	_ "k8s.io/component-base/logs/json/register"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
)

// Defaults of the flags. Where kube-controller-manager (KCM) has the flag,
// the default is KCM's.
const (
	// DefaultKubeAPIQPS and DefaultKubeAPIBurst are KCM's --kube-api-qps and
	// --kube-api-burst defaults.
	DefaultKubeAPIQPS   = 20
	DefaultKubeAPIBurst = 30
	// DefaultMinResyncPeriod is KCM's --min-resync-period: informers resync
	// at a random period between it and twice it.
	DefaultMinResyncPeriod = 12 * time.Hour

	// DefaultLeaseDuration, DefaultRenewDeadline and DefaultRetryPeriod are
	// KCM's leader election defaults.
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
	// DefaultLeaderElectionResourceName names the Lease slicekit replicas
	// compete for.
	DefaultLeaderElectionResourceName = "slicekit"
	// DefaultNamespace is the namespace slicekit is deployed in (config/)
	// and the Lease namespace when slicekit does not run in a Pod.
	DefaultNamespace = "slicekit-system"

	// DefaultMetricsBindAddress is the default listen address of /metrics:
	// kubebuilder's port 8080 (controller-runtime's metrics default), on
	// loopback only, because /metrics is plain HTTP without authentication
	// (kubebuilder kept it on 127.0.0.1:8080 behind kube-rbac-proxy; KCM
	// serves it only behind authentication on its secure port). A
	// Deployment that is scraped sets --metrics-bind-address=:8080, as
	// config/ does.
	DefaultMetricsBindAddress = "127.0.0.1:8080"
	// DefaultHealthProbeBindAddress is the default listen address of
	// /healthz and /readyz: kubebuilder's ":8081" on every interface, since
	// the kubelet probes the Pod IP; the probes tell only ok or failed.
	DefaultHealthProbeBindAddress = ":8081"
	// DisabledBindAddress as a bind address disables that server.
	DisabledBindAddress = "0"

	// UserAgent is the user agent of slicekit's API clients, followed by
	// the build version.
	UserAgent = "slicekit"
)

// serviceAccountNamespaceFile holds the namespace of the Pod slicekit runs
// in; a variable for tests.
var serviceAccountNamespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

// LeaderElectionOptions configure Lease-based leader election (KCM's
// --leader-elect flags).
type LeaderElectionOptions struct {
	// LeaderElect makes the replicas elect a leader; only the leader runs
	// the controllers.
	LeaderElect bool
	// LeaseDuration is how long standby replicas wait after the last renewal
	// before taking over.
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps trying to renew before it
	// gives up leadership.
	RenewDeadline time.Duration
	// RetryPeriod is the pause between two attempts to acquire or renew.
	RetryPeriod time.Duration
	// ResourceName names the Lease.
	ResourceName string
	// ResourceNamespace is the Lease's namespace; "" means the Pod's
	// namespace (environment variable POD_NAMESPACE, else the service
	// account's namespace file), else DefaultNamespace.
	ResourceNamespace string
}

// Options configure `slicekit run`. Create them with NewOptions, add them
// to a flag set with AddFlags, then call Complete and Validate.
type Options struct {
	builtin.ControllerOptions

	// Kubeconfig is the kubeconfig file; "" means in-cluster configuration.
	Kubeconfig string
	// RESTConfig, when not nil, is used instead of Kubeconfig (for tests
	// and embedding; no flag). QPS, Burst and UserAgent are still set. Its
	// RateLimiter, when set, replaces slicekit's token bucket in every
	// client (New), and paces the controllers only when it has a
	// WaitAvailable method (reconciler.Pacer) as ratelimit.TokenBucket.
	RESTConfig *rest.Config
	// KubeAPIQPS and KubeAPIBurst limit the requests to the API server.
	KubeAPIQPS   float32
	KubeAPIBurst int32
	// MinResyncPeriod is the least informer resync period; each informer
	// factory resyncs at a random period in [MinResyncPeriod,
	// 2*MinResyncPeriod), as in KCM. 0 disables resyncs.
	MinResyncPeriod time.Duration

	// LeaderElection configures leader election.
	LeaderElection LeaderElectionOptions

	// MetricsBindAddress is the host:port of /metrics; "0" disables it.
	MetricsBindAddress string
	// HealthProbeBindAddress is the host:port of /healthz and /readyz; "0"
	// disables it.
	HealthProbeBindAddress string
	// Profiling serves Go's pprof handlers under /debug/pprof/ on the
	// metrics endpoint (KCM's --profiling, which KCM enables by default;
	// slicekit does not, because the metrics endpoint may be reachable
	// from the cluster). Default false.
	Profiling bool
	// ShutdownTimeout bounds the graceful shutdown of the HTTP servers and
	// the wait for controllers to stop (no flag).
	ShutdownTimeout time.Duration

	// Preflight is the mode of the permission preflight at start-up:
	// PreflightFail (default), PreflightWarn or PreflightOff (preflight.go).
	Preflight string

	// Logs configures logging (-v, --logging-format, ...).
	Logs *logsapi.LoggingConfiguration
}

// NewOptions returns the default options of `slicekit run`.
func NewOptions() *Options {
	return &Options{
		ControllerOptions: *builtin.NewControllerOptions(),
		KubeAPIQPS:        DefaultKubeAPIQPS,
		KubeAPIBurst:      DefaultKubeAPIBurst,
		MinResyncPeriod:   DefaultMinResyncPeriod,
		LeaderElection: LeaderElectionOptions{
			LeaderElect:   true,
			LeaseDuration: DefaultLeaseDuration,
			RenewDeadline: DefaultRenewDeadline,
			RetryPeriod:   DefaultRetryPeriod,
			ResourceName:  DefaultLeaderElectionResourceName,
		},
		MetricsBindAddress:     DefaultMetricsBindAddress,
		HealthProbeBindAddress: DefaultHealthProbeBindAddress,
		ShutdownTimeout:        30 * time.Second,
		Preflight:              DefaultPreflight,
		Logs:                   logsapi.NewLoggingConfiguration(),
	}
}

// AddFlags adds every flag of `slicekit run` to fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig,
		"Path to a kubeconfig file. Without it slicekit uses the in-cluster configuration of its Pod.")
	fs.Float32Var(&o.KubeAPIQPS, "kube-api-qps", o.KubeAPIQPS, "Queries per second to the API server.")
	fs.Int32Var(&o.KubeAPIBurst, "kube-api-burst", o.KubeAPIBurst, "Burst of queries to the API server.")
	fs.DurationVar(&o.MinResyncPeriod, "min-resync-period", o.MinResyncPeriod,
		"Informers resync at a random period between this and twice this. 0 disables resyncs.")
	o.ControllerOptions.AddFlags(fs)

	le := &o.LeaderElection
	fs.BoolVar(&le.LeaderElect, "leader-elect", le.LeaderElect,
		"Elect a leader among the replicas through a Lease before running the controllers. Disable only when a single replica runs.")
	fs.DurationVar(&le.LeaseDuration, "leader-elect-lease-duration", le.LeaseDuration,
		"How long standby replicas wait after the leader's last renewal before they take over.")
	fs.DurationVar(&le.RenewDeadline, "leader-elect-renew-deadline", le.RenewDeadline,
		"How long the leader tries to renew the Lease before it stops leading. Must be shorter than the lease duration.")
	fs.DurationVar(&le.RetryPeriod, "leader-elect-retry-period", le.RetryPeriod,
		"The pause between two attempts to acquire or renew the Lease.")
	fs.StringVar(&le.ResourceName, "leader-elect-resource-name", le.ResourceName, "The name of the Lease.")
	fs.StringVar(&le.ResourceNamespace, "leader-elect-resource-namespace", le.ResourceNamespace,
		"The namespace of the Lease (default: the Pod's namespace, from $POD_NAMESPACE or the service account, else "+DefaultNamespace+").")

	fs.StringVar(&o.MetricsBindAddress, "metrics-bind-address", o.MetricsBindAddress,
		"The host:port of the Prometheus /metrics endpoint. '0' disables it.")
	fs.StringVar(&o.HealthProbeBindAddress, "health-probe-bind-address", o.HealthProbeBindAddress,
		"The host:port of the /healthz and /readyz endpoints. '0' disables them.")
	fs.BoolVar(&o.Profiling, "profiling", o.Profiling,
		"Serve Go's profiling handlers under /debug/pprof/ on the metrics endpoint (--metrics-bind-address).")
	o.addPreflightFlag(fs)

	logsapi.AddFlags(o.Logs, fs)
}

// Complete fills in the defaults that depend on the environment (the
// Lease namespace) and folds flag aliases. Call it after parsing the flags
// and before Validate.
func (o *Options) Complete() error {
	if o.LeaderElection.ResourceNamespace == "" {
		o.LeaderElection.ResourceNamespace = podNamespace()
	}
	return o.ControllerOptions.Complete()
}

// podNamespace returns the namespace of the Pod slicekit runs in, or
// DefaultNamespace.
func podNamespace() string {
	if ns := strings.TrimSpace(os.Getenv("POD_NAMESPACE")); ns != "" {
		return ns
	}
	if b, err := os.ReadFile(serviceAccountNamespaceFile); err == nil {
		if ns := strings.TrimSpace(string(b)); ns != "" {
			return ns
		}
	}
	return DefaultNamespace
}

// Validate reports every invalid option. It does not change o.
func (o *Options) Validate() error {
	errs := []error{o.ControllerOptions.Validate()}
	if o.KubeAPIQPS <= 0 {
		errs = append(errs, fmt.Errorf("--kube-api-qps=%v must be positive", o.KubeAPIQPS))
	}
	if o.KubeAPIBurst <= 0 {
		errs = append(errs, fmt.Errorf("--kube-api-burst=%d must be positive", o.KubeAPIBurst))
	}
	if o.MinResyncPeriod < 0 {
		errs = append(errs, fmt.Errorf("--min-resync-period=%s must not be negative", o.MinResyncPeriod))
	}
	if le := o.LeaderElection; le.LeaderElect {
		// The rules of client-go's leaderelection.NewLeaderElector, checked
		// here so that they are usage errors.
		if le.LeaseDuration <= le.RenewDeadline {
			errs = append(errs, fmt.Errorf("--leader-elect-lease-duration=%s must be greater than --leader-elect-renew-deadline=%s", le.LeaseDuration, le.RenewDeadline))
		}
		if le.RetryPeriod <= 0 {
			errs = append(errs, fmt.Errorf("--leader-elect-retry-period=%s must be positive", le.RetryPeriod))
		} else if le.RenewDeadline <= time.Duration(leaderelection.JitterFactor*float64(le.RetryPeriod)) {
			errs = append(errs, fmt.Errorf("--leader-elect-renew-deadline=%s must be greater than %v times --leader-elect-retry-period=%s", le.RenewDeadline, leaderelection.JitterFactor, le.RetryPeriod))
		}
		if msgs := validation.IsDNS1123Subdomain(le.ResourceName); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("--leader-elect-resource-name %q: %s", le.ResourceName, strings.Join(msgs, "; ")))
		}
		if le.ResourceNamespace != "" {
			if msgs := validation.IsDNS1123Label(le.ResourceNamespace); len(msgs) > 0 {
				errs = append(errs, fmt.Errorf("--leader-elect-resource-namespace %q: %s", le.ResourceNamespace, strings.Join(msgs, "; ")))
			}
		}
	}
	for _, a := range []struct{ flag, addr string }{
		{"--metrics-bind-address", o.MetricsBindAddress},
		{"--health-probe-bind-address", o.HealthProbeBindAddress},
	} {
		if err := validateBindAddress(a.addr); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", a.flag, err))
		}
	}
	if o.Profiling && o.MetricsBindAddress == DisabledBindAddress {
		errs = append(errs, fmt.Errorf("--profiling serves on the metrics endpoint, which --metrics-bind-address=%s disables", DisabledBindAddress))
	}
	if o.MetricsBindAddress != DisabledBindAddress && o.MetricsBindAddress == o.HealthProbeBindAddress && !strings.HasSuffix(o.MetricsBindAddress, ":0") {
		errs = append(errs, fmt.Errorf("--metrics-bind-address and --health-probe-bind-address must differ, both are %q", o.MetricsBindAddress))
	}
	if err := o.validatePreflight(); err != nil {
		errs = append(errs, err)
	}
	if o.Logs != nil {
		if fieldErrs := logsapi.Validate(o.Logs, o.FeatureGates, nil); len(fieldErrs) > 0 {
			errs = append(errs, fieldErrs.ToAggregate())
		}
	}
	return errors.Join(errs...)
}

// validateBindAddress accepts "0" (disabled) and host:port with a numeric
// port; port 0 picks a free port.
func validateBindAddress(addr string) error {
	if addr == DisabledBindAddress {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is neither host:port nor %q: %w", addr, DisabledBindAddress, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("%q: port %q is not a number from 0 to 65535", addr, port)
	}
	return nil
}
