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
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/ratelimit"
	"github.com/slicekit/slicekit/pkg/reconciler"
)

// protobuf is the content type KCM's clients use for built-in types.
const protobuf = "application/vnd.kubernetes.protobuf"

// leaderHealthTimeout is how long past the lease duration a leader that
// fails to renew may stay healthy before /healthz fails (KCM uses 20s).
const leaderHealthTimeout = 20 * time.Second

// Manager runs the enabled controllers on one shared informer factory, with
// optional Lease leader election, a Prometheus /metrics endpoint and
// /healthz and /readyz probes. Create it with New and run it with Run.
//
// The informers start at once, also on replicas that are not leading, so a
// standby replica has warm caches and takes over quickly; the controllers
// run only while leading. Consequently:
//
//   - /healthz fails only when the process is wedged: as leader, when the
//     Lease has not been renewed for the lease duration plus 20s (client-go's
//     leader election watchdog).
//   - /readyz succeeds once every enabled controller's informers have synced
//     and the permission preflight found nothing missing (preflight.go)
//     and, with leader election, the elector has reached the Lease (it knows
//     a leader), whether the replica leads or stands by, and fails again
//     from the start of shutdown on. Readiness therefore says "this replica can lead", not
//     "this replica is leading"; /metrics' leader_election_master_status
//     tells which replica leads.
//
// With leader election, a Lease that can never be taken (namespace missing
// or terminating, create forbidden) ends Run with a *LeaseError
// (leasecheck.go) instead of an elector retrying forever.
//
// On shutdown (ctx done) the controllers stop first, then the Lease is
// released (ReleaseOnCancel), so that a standby takes over without waiting
// for the lease to expire, then the informers and HTTP servers stop.
type Manager struct {
	opts  *Options
	build BuildInfo

	client kubernetes.Interface
	// pacer is client's rate limiter, given to the controllers to plan
	// as late as it allows (registry.InitContext.Pacer); nil when
	// RESTConfig brought a rate limiter of its own that cannot tell.
	pacer       reconciler.Pacer
	leaseClient kubernetes.Interface
	// preflightClient asks the permission preflight's questions: a client
	// of its own, so that its rate limiter is not the controllers'.
	preflightClient kubernetes.Interface
	factory         informers.SharedInformerFactory
	registry        *prometheus.Registry
	controllers     []builtin.NamedController
	// disabled are the enabled controllers left out at start-up
	// (UnservedAPIs).
	disabled []DisabledController
	identity string

	metricsListener net.Listener
	healthListener  net.Listener

	leaderHealth *leaderelection.HealthzAdaptor
	leaderStatus prometheus.Gauge

	leading      atomic.Bool
	shuttingDown atomic.Bool
	// leaseObserved latches once the leader elector has read or written the
	// Lease (it knows a leader, possibly itself).
	leaseObserved atomic.Bool
	// synced latches once every controller has synced.
	synced atomic.Bool
	// permissions holds the outcome of the permission preflight.
	permissions permissionState
}

// New validates opts (which must have been completed), builds the API
// clients, the shared informer factory, the metrics registry and the
// enabled controllers, and binds the metrics and probe listeners, so that
// configuration and port errors surface before Run. ctx supplies the
// logger. The caller must call Run, or Close when it does not.
func New(ctx context.Context, opts *Options) (*Manager, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	m := &Manager{opts: opts, build: ReadBuildInfo()}

	cfg, err := m.restConfig()
	if err != nil {
		return nil, err
	}
	if m.client, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, fmt.Errorf("creating the API client: %w", err)
	}
	// The permission preflight asks about 20 questions at start-up, one per
	// verb and resource: through a client with a rate limiter of its own
	// they do not use up the burst the controllers' first writes need (KCM
	// gives each controller a client of its own, too). bench-live measured
	// slicekit's cold start 0.8 s slower than KCM's for 100 Services when
	// the preflight shared the controllers' limiter.
	pfCfg := rest.CopyConfig(cfg)
	pfCfg.RateLimiter = m.ownRateLimiter()
	pfCfg.UserAgent += " preflight"
	if m.preflightClient, err = kubernetes.NewForConfig(pfCfg); err != nil {
		return nil, fmt.Errorf("creating the preflight client: %w", err)
	}

	m.registry = prometheus.NewRegistry()
	m.registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		newBuildInfoCollector(m.build),
	)
	m.leaderStatus = prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "leader_election_master_status",
		Help:        "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
		ConstLabels: prometheus.Labels{"name": opts.LeaderElection.ResourceName},
	})
	if opts.LeaderElection.LeaderElect {
		m.registry.MustRegister(m.leaderStatus)
		leCfg := rest.CopyConfig(cfg)
		leCfg.RateLimiter = m.ownRateLimiter()
		leCfg.UserAgent += " leader-election"
		// A hung request must not cost the lease (client-go's heuristic,
		// resourcelock.NewFromKubeconfig).
		leCfg.Timeout = max(time.Second, opts.LeaderElection.RenewDeadline/2)
		if m.leaseClient, err = kubernetes.NewForConfig(leCfg); err != nil {
			return nil, fmt.Errorf("creating the leader election client: %w", err)
		}
		m.leaderHealth = leaderelection.NewLeaderHealthzAdaptor(leaderHealthTimeout)
		host, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("getting the hostname for the leader election identity: %w", err)
		}
		// The UUID keeps two processes on one host apart (KCM does the same).
		m.identity = host + "_" + string(uuid.NewUUID())
	}

	if opts.Preflight != PreflightOff {
		m.permissions.missing.Store(&errPreflightPending)
	}
	if err := m.disableUnserved(ctx); err != nil {
		return nil, err
	}
	skip := make([]string, 0, len(m.disabled))
	for _, d := range m.disabled {
		skip = append(skip, d.Name)
	}
	m.factory = informers.NewSharedInformerFactory(m.client, resyncPeriod(opts.MinResyncPeriod))
	if m.controllers, err = builtin.NewControllers(ctx, builtin.InitContext{
		Client:          m.client,
		InformerFactory: m.factory,
		Options:         &opts.ControllerOptions,
		Registerer:      m.registry,
		Pacer:           m.pacer,
		Disabled:        skip,
	}); err != nil {
		return nil, err
	}

	if m.metricsListener, err = listen(opts.MetricsBindAddress); err != nil {
		return nil, fmt.Errorf("--metrics-bind-address: %w", err)
	}
	if m.healthListener, err = listen(opts.HealthProbeBindAddress); err != nil {
		m.Close()
		return nil, fmt.Errorf("--health-probe-bind-address: %w", err)
	}
	return m, nil
}

// disableUnserved finds the enabled controllers whose API the server does
// not serve (UnservedAPIs, one discovery request), logs an error for each,
// sets slicekit_controller_disabled and keeps them in m.disabled, so that
// New leaves them out and /readyz does not wait for them. It returns an
// error when discovery fails or when no enabled controller is left.
func (m *Manager) disableUnserved(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	regs, err := enabledRegistrations(&m.opts.ControllerOptions)
	if err != nil {
		return err
	}
	if m.disabled, err = UnservedAPIs(m.preflightClient.Discovery(), regs); err != nil {
		return err
	}
	gauge := newDisabledGauge()
	m.registry.MustRegister(gauge)
	for _, d := range m.disabled {
		logger.Error(nil, d.Message+": controller disabled", "controller", d.Name, "api", d.API.String(), "since", "Kubernetes "+d.API.Since)
		gauge.WithLabelValues(d.Name, d.Reason).Set(1)
	}
	if len(m.disabled) > 0 && len(m.disabled) == len(regs) {
		return fmt.Errorf("no enabled controller can run on this server: %s", m.disabled[0].Message)
	}
	return nil
}

// Disabled returns the enabled controllers New left out because the API
// server does not serve an API they read, in name order.
func (m *Manager) Disabled() []DisabledController { return m.disabled }

// ClientConfigError is returned by New when no client configuration can be
// built: --kubeconfig cannot be loaded, or there is none and slicekit does
// not run in a Pod. It is a configuration error (slicekit run exits 2).
type ClientConfigError struct {
	// Err says what is wrong and how to give a configuration.
	Err error
}

// Error implements error.
func (e *ClientConfigError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ClientConfigError) Unwrap() error { return e.Err }

// restConfig builds the main client's configuration: RESTConfig, else the
// kubeconfig file, else the in-cluster configuration; with KCM's QPS and
// burst, protobuf, no compression, and slicekit's user agent. Its
// RateLimiter is a ratelimit.TokenBucket with that QPS and burst (what
// client-go would build from them), kept in m.pacer for the controllers;
// a RateLimiter RESTConfig sets is kept, and is the pacer only when it
// can tell when a token is available.
func (m *Manager) restConfig() (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	switch {
	case m.opts.RESTConfig != nil:
		cfg = rest.CopyConfig(m.opts.RESTConfig)
	case m.opts.Kubeconfig != "":
		if cfg, err = clientcmd.BuildConfigFromFlags("", m.opts.Kubeconfig); err != nil {
			return nil, &ClientConfigError{Err: fmt.Errorf("loading --kubeconfig %s: %w", m.opts.Kubeconfig, err)}
		}
	default:
		if cfg, err = rest.InClusterConfig(); err != nil {
			return nil, &ClientConfigError{Err: fmt.Errorf("no kubeconfig: give --kubeconfig FILE (for `make up`: --kubeconfig .local/kubeconfig), or run in a Pod for the in-cluster configuration; like kube-controller-manager, slicekit run does not read $KUBECONFIG (%w)", err)}
		}
	}
	cfg.QPS = m.opts.KubeAPIQPS
	cfg.Burst = int(m.opts.KubeAPIBurst)
	if cfg.RateLimiter == nil {
		cfg.RateLimiter = ratelimit.NewTokenBucket(cfg.QPS, cfg.Burst)
	}
	m.pacer, _ = cfg.RateLimiter.(reconciler.Pacer)
	cfg.UserAgent = m.build.UserAgent()
	cfg.ContentType = protobuf
	cfg.AcceptContentTypes = protobuf + ",application/json"
	// As KCM (cmd/kube-controller-manager/app/options/options.go): gzip
	// costs more CPU than it saves between a controller and its API
	// server (kubernetes#80919); in a 10,000-endpoint rolling update it was
	// 7% of slicekit's CPU.
	cfg.DisableCompression = true
	return cfg, nil
}

// ownRateLimiter returns the rate limiter of a client other than the main
// one (preflight, leader election): nil, so that client-go builds one of
// its own from QPS and burst and the client's requests do not use up the
// controllers' tokens; or RESTConfig's RateLimiter when it has one, which
// every client shares (as without a pacer).
func (m *Manager) ownRateLimiter() flowcontrol.RateLimiter {
	if m.opts.RESTConfig != nil && m.opts.RESTConfig.RateLimiter != nil {
		return m.opts.RESTConfig.RateLimiter
	}
	return nil
}

// resyncPeriod returns a random period in [minPeriod, 2*minPeriod), so that
// informers do not resync all at once (KCM ResyncPeriod); 0 stays 0.
func resyncPeriod(minPeriod time.Duration) time.Duration {
	if minPeriod <= 0 {
		return 0
	}
	return time.Duration(float64(minPeriod) * (rand.Float64() + 1))
}

// listen binds addr; "0" returns a nil listener.
func listen(addr string) (net.Listener, error) {
	if addr == DisabledBindAddress {
		return nil, nil
	}
	return net.Listen("tcp", addr)
}

// MetricsAddress returns the address /metrics listens on ("" when
// disabled). With port 0 it tells the port picked.
func (m *Manager) MetricsAddress() string { return addrOf(m.metricsListener) }

// HealthProbeAddress returns the address /healthz and /readyz listen on
// ("" when disabled).
func (m *Manager) HealthProbeAddress() string { return addrOf(m.healthListener) }

// Identity returns the leader election identity ("" without leader
// election).
func (m *Manager) Identity() string { return m.identity }

// Leading reports whether the controllers run: the replica holds the Lease,
// or leader election is off and Run has started them.
func (m *Manager) Leading() bool { return m.leading.Load() }

// Registry returns the Prometheus registry served on /metrics.
func (m *Manager) Registry() *prometheus.Registry { return m.registry }

func addrOf(l net.Listener) string {
	if l == nil {
		return ""
	}
	return l.Addr().String()
}

// Close releases the listeners of a Manager whose Run is never called.
func (m *Manager) Close() {
	for _, l := range []net.Listener{m.metricsListener, m.healthListener} {
		if l != nil {
			_ = l.Close()
		}
	}
}

// Ready reports readiness as /readyz does: every controller has synced,
// the permission preflight has not found a missing permission (warn mode),
// with leader election the Lease has been reached at least once (a leader
// is known), and shutdown has not begun.
func (m *Manager) Ready() bool {
	return !m.shuttingDown.Load() && m.cachesSynced() && m.permissions.check(nil) == nil && m.leaseReached() == nil
}

// leaseReached returns nil without leader election or once the elector
// has observed a leader, else why not.
func (m *Manager) leaseReached() error {
	if !m.opts.LeaderElection.LeaderElect || m.leaseObserved.Load() {
		return nil
	}
	le := m.opts.LeaderElection
	return fmt.Errorf("the leader election Lease %s/%s has not been reached yet", le.ResourceNamespace, le.ResourceName)
}

func (m *Manager) cachesSynced() bool {
	if m.synced.Load() {
		return true
	}
	for _, c := range m.controllers {
		if !c.HasSynced() {
			return false
		}
	}
	m.synced.Store(true)
	return true
}

// Run serves /metrics and the probes, starts the informers, runs the
// permission preflight (opts.Preflight, preflight.go), runs the controllers
// (after acquiring the Lease with leader election) until ctx is done, then
// shuts down in order: controllers, Lease, informers, HTTP servers. It
// returns nil after a shutdown through ctx, an error wrapping a
// *preflight.MissingPermissionsError when the preflight in fail mode finds
// a permission missing, and an error when a server or controller fails or
// the Lease is lost (after which the process
// should exit and restart, as KCM does). Run must be called once.
func (m *Manager) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	enabled := make([]string, 0, len(m.controllers))
	for _, c := range m.controllers {
		enabled = append(enabled, c.Name)
	}
	logger.Info("Starting slicekit manager",
		"version", m.build.Version, "revision", m.build.Revision, "goVersion", m.build.GoVersion,
		"controllers", enabled, "leaderElection", m.opts.LeaderElection.LeaderElect, "identity", m.identity,
		"metricsAddress", m.MetricsAddress(), "healthProbeAddress", m.HealthProbeAddress())

	// Servers run until the very end, so that probes and metrics answer
	// during shutdown.
	srvCtx, stopServers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopServers()
	srvErr := make(chan error, 2)
	var srvWG sync.WaitGroup
	if m.metricsListener != nil {
		srvWG.Go(func() { m.serve(srvCtx, "metrics", m.metricsListener, m.metricsHandler(), srvErr) })
	}
	if m.healthListener != nil {
		srvWG.Go(func() { m.serve(srvCtx, "health", m.healthListener, m.healthHandler(), srvErr) })
	}

	// Informers run until the controllers have stopped.
	informerCtx, stopInformers := context.WithCancel(context.WithoutCancel(ctx))
	m.factory.StartWithContext(informerCtx)

	runCtx, cancelRun := context.WithCancelCause(ctx)
	defer cancelRun(nil)
	go func() {
		select {
		case err := <-srvErr:
			cancelRun(err)
		case <-runCtx.Done():
		}
	}()

	// The admission policy check (admission.go) only warns.
	go m.checkAdmissionPolicies(runCtx)
	// The permission preflight (preflight.go) comes before leader
	// election: a replica that lacks permissions never leads.
	err := m.startupPreflight(runCtx)
	switch {
	case err != nil, runCtx.Err() != nil:
		// A missing permission with --preflight=fail, or shutdown.
	case m.opts.LeaderElection.LeaderElect:
		err = m.runWithLeaderElection(runCtx)
	default:
		m.leading.Store(true)
		err = m.runControllers(runCtx)
		m.leading.Store(false)
	}
	if cause := context.Cause(runCtx); err == nil && cause != nil && !errors.Is(cause, context.Canceled) {
		err = cause // a server failed
	}

	m.shuttingDown.Store(true)
	logger.Info("Shutting down slicekit manager")
	stopInformers()
	m.factory.Shutdown()
	stopServers()
	srvWG.Wait()
	logger.Info("Stopped slicekit manager")
	return err
}

// runControllers runs every controller until ctx is done or one of them
// fails, and returns the first failure.
func (m *Manager) runControllers(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for _, c := range m.controllers {
		wg.Go(func() {
			logger := klog.LoggerWithValues(klog.FromContext(ctx), "controller", c.Name)
			cctx := klog.NewContext(ctx, logger)
			err := c.Run(cctx, c.Workers)
			if ctx.Err() != nil {
				return // shutting down: an error here only says so
			}
			if err == nil {
				err = errors.New("stopped unexpectedly")
			}
			cancel(fmt.Errorf("controller %s: %w", c.Name, err))
		})
	}
	wg.Wait()
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return nil
}

// errLeaderElectionLost is returned by Run when the Lease was lost.
var errLeaderElectionLost = errors.New("leader election lost")

// runWithLeaderElection competes for the Lease and runs the controllers
// while leading. When ctx is done it stops the controllers before it
// releases the Lease.
func (m *Manager) runWithLeaderElection(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	le := m.opts.LeaderElection
	// A Lease that can never be taken (no namespace, no permission) ends
	// Run instead of an elector retrying forever (leasecheck.go).
	if err := waitLeaseUsable(ctx, m.leaseClient, le.ResourceNamespace, le.ResourceName, le.RetryPeriod); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("leader election: %w", err)
	}
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, le.ResourceNamespace, le.ResourceName,
		m.leaseClient.CoreV1(), m.leaseClient.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: m.identity})
	if err != nil {
		return fmt.Errorf("creating the Lease lock: %w", err)
	}

	var started atomic.Bool
	controllersDone := make(chan struct{})
	var (
		errMu          sync.Mutex
		controllersErr error
	)
	getErr := func() error {
		errMu.Lock()
		defer errMu.Unlock()
		return controllersErr
	}
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   le.LeaseDuration,
		RenewDeadline:   le.RenewDeadline,
		RetryPeriod:     le.RetryPeriod,
		ReleaseOnCancel: true,
		Name:            le.ResourceName,
		WatchDog:        m.leaderHealth,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(leadCtx context.Context) {
				started.Store(true)
				m.leaseObserved.Store(true)
				defer close(controllersDone)
				logger.Info("Started leading", "lease", klog.KRef(le.ResourceNamespace, le.ResourceName), "identity", m.identity)
				m.setLeading(true)
				// Controllers stop when the Lease is lost (leadCtx) or on
				// shutdown (ctx), whichever comes first.
				cctx, cancel := context.WithCancel(leadCtx)
				defer cancel()
				stop := context.AfterFunc(ctx, cancel)
				defer stop()
				err := m.runControllers(cctx)
				errMu.Lock()
				controllersErr = err
				errMu.Unlock()
			},
			OnStoppedLeading: func() {
				if m.leading.Load() {
					logger.Info("Stopped leading", "lease", klog.KRef(le.ResourceNamespace, le.ResourceName), "identity", m.identity)
				}
				m.setLeading(false)
			},
			OnNewLeader: func(id string) {
				m.leaseObserved.Store(true)
				if id != m.identity {
					logger.Info("New leader elected", "lease", klog.KRef(le.ResourceNamespace, le.ResourceName), "leader", id)
				}
			},
		},
	})
	if err != nil {
		return fmt.Errorf("creating the leader elector: %w", err)
	}

	electorCtx, stopElector := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElector()
	electorDone := make(chan struct{})
	go func() {
		defer close(electorDone)
		elector.Run(electorCtx)
	}()
	logger.Info("Waiting for the Lease", "lease", klog.KRef(le.ResourceNamespace, le.ResourceName), "identity", m.identity)

	waitControllers := func() {
		if !started.Load() {
			return
		}
		select {
		case <-controllersDone:
		case <-time.After(m.opts.ShutdownTimeout):
			logger.Info("Controllers did not stop in time", "timeout", m.opts.ShutdownTimeout)
		}
	}

	select {
	case <-ctx.Done():
		// Shutdown: the controllers stop through ctx.
	case <-electorDone:
		// Before ctx is done, elector.Run returns only when the Lease was
		// lost; the controllers stop through leadCtx.
	case <-controllersDone:
		// A controller failed, or the Lease was lost.
	}
	// Release the Lease only after the controllers stopped, so that the
	// next leader never writes at the same time as this one.
	waitControllers()
	stopElector()
	<-electorDone
	switch err := getErr(); {
	case err != nil:
		return err
	case ctx.Err() != nil:
		return nil
	default:
		return errLeaderElectionLost
	}
}

func (m *Manager) setLeading(v bool) {
	m.leading.Store(v)
	if v {
		m.leaderStatus.Set(1)
	} else {
		m.leaderStatus.Set(0)
	}
}
