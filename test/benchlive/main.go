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

// Command benchlive is `make bench-live`: a live, side-by-side benchmark of
// kube-controller-manager's EndpointSlice controller and `slicekit run`
// against one real kube-apiserver.
//
// It starts etcd and kube-apiserver (test/harness/testenv, the API server with
// its default admission plugins, ServiceAccount included), creates Nodes
// and, per scenario, a namespace with its default ServiceAccount, the
// Services and their Pods (spec.nodeName set, status Running and Ready with
// an IP written through the status subresource; there is no kubelet or
// scheduler). Scenarios: one Service of N Pods for each -sizes N, then for
// each -services N, N Services of -pods-per-service Pods in one namespace,
// or spread in blocks over -namespaces M (with several N, a summary
// compares CPU per flip across them: the cost of a Pod event as the
// Services sharing its namespace grow, issue 27).
//
// In each scenario the controllers run one after the other (-order), each
// from the same starting state: no EndpointSlice in its namespaces (the
// slices of the previous controller are deleted after it stopped). Each
// runs with the same settings: KCM's default client QPS 20 and burst 30 (-qps,
// -burst), 5 workers, 100 endpoints per slice, no batching, no leader
// election, logging at -v. kube-controller-manager runs only its
// EndpointSlice controller (--controllers=endpointslice-controller, and no
// service-account private key, so the ServiceAccount token controller
// KCM always starts first stays off); slicekit runs `slicekit run
// --controllers=endpointslice` from -slicekit. Measured per controller:
//
//   - cold start: from the process start until every Service's slices list
//     exactly its Pods with their readiness (the arrival of the last slice
//     event needed), with the slice writes meanwhile;
//   - idle CPU over a few seconds with nothing changing;
//   - -flips readiness flips, one at a time (a Pod's Ready condition
//     patched through the status subresource, then wait until the slice
//     shows it, then -flip-pause): CPU per flip (utime+stime of the process
//     from /proc/<pid>/stat over all flips and a 1 s settle, divided by the
//     flips), flip → slice latency p50 and p99 (from just before the status
//     patch is sent to the arrival of the slice event on a watch), slice
//     writes per flip (watch events, and write requests from the API
//     server's apiserver_request_total);
//   - VmRSS and VmHWM from /proc/<pid>/status after the flips;
//   - in the one-Service scenarios, a rolling update of -roll-pods of its
//     Pods, chosen at random (-seed), in steps of -roll-step (delete that
//     many at once, create as many new ready ones, wait until the slices
//     show the step): CPU, slice writes and wall time of the whole roll.
//
// With -watch-only (the default), a watch-only process (this binary with
// the first argument "watch-only": client-go shared informers for Pods,
// Services, Nodes and EndpointSlices, nothing else) runs beside each
// controller from its convergence on, and its CPU over the flips and the
// roll is reported too: the floor under any client-go controller's CPU,
// and the controller's CPU above it.
//
// It prints a Markdown table per scenario, with the ratio KCM / slicekit,
// and writes them to -out (rewritten after every scenario, so a failed
// later scenario keeps the earlier tables). Component logs go to
// -artifacts. Only processes it started are stopped, by PID.
//
// Usage:
//
//	benchlive -slicekit bin/slicekit [-sizes 1000,10000] [-services 1,1000,5000] [-pods-per-service 5] [-namespaces 1]
//	          [-flips 100] [-roll-pods 1000] [-roll-step 25] [-order kcm,slicekit] [-out FILE]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/slicekit/slicekit/test/harness/procs"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// options are the command-line flags.
type options struct {
	binDir, slicekit, out, artifacts string
	sizes                            []int
	// services are the Service counts of the many-Services scenarios
	// (-services), each in a namespace of its own, or in namespaces of
	// their own (-namespaces).
	services                  []int
	podsPerService, nodes     int
	flips, rollPods, rollStep int
	flipPause, timeout        time.Duration
	order                     []string
	qps                       float64
	burst, verbosity          int
	seed                      uint64
	// namespaces is how many namespaces each many-Services scenario
	// spreads its Services over (-namespaces).
	namespaces int
	// slicekitArgs are further arguments of `slicekit run` (-slicekit-args),
	// after the benchmark's own: a later flag wins.
	slicekitArgs []string
	// watchOnly runs the watch-only process beside each controller
	// (-watch-only).
	watchOnly bool
	// realistic makes every Pod the size of a Deployment's Pod in a real
	// cluster (-realistic-pods).
	realistic bool
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == watchOnlyCommand {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		defer stop()
		if err := runWatchOnly(ctx, os.Args[2:]); err != nil {
			fmt.Fprintf(os.Stderr, "benchlive %s: %v\n", watchOnlyCommand, err)
			os.Exit(1)
		}
		return
	}
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintf(os.Stderr, "benchlive: %v\n", err)
		os.Exit(2)
	}
	ctrllog.SetLogger(klog.NewKlogr())
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintf(os.Stderr, "benchlive: %v\n", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("benchlive", flag.ContinueOnError)
	defaultBin, _ := testenv.BinDir()
	fs.StringVar(&o.binDir, "bin", defaultBin, "directory with etcd, kube-apiserver and kube-controller-manager ($SLICEKIT_BIN_DIR, else bin/)")
	fs.StringVar(&o.slicekit, "slicekit", "bin/slicekit", "the slicekit `binary` to run (built from this checkout by make build)")
	fs.StringVar(&o.out, "out", "bin/bench-live.md", "file for the Markdown tables")
	fs.StringVar(&o.artifacts, "artifacts", "bin/bench-live", "directory for the component logs")
	sizes := fs.String("sizes", "1000,10000", "Pods of the one-Service scenarios, comma-separated (empty: none)")
	services := fs.String("services", "1000", "Services of the many-Services scenarios, comma-separated, each N Services in one namespace (empty or 0: none); with several, a summary table compares CPU per flip across them")
	fs.IntVar(&o.podsPerService, "pods-per-service", 5, "Pods per Service in the many-Services scenario")
	fs.IntVar(&o.namespaces, "namespaces", 1, "namespaces each many-Services scenario spreads its Services over, in blocks (with 100 and -services 10000: svc-0 to svc-99 in the first, and so on; at most one per Service), as a real cluster spreads them; 1: all in one namespace")
	fs.IntVar(&o.nodes, "nodes", 10, "Nodes the Pods are spread over (three zones)")
	fs.IntVar(&o.flips, "flips", 100, "readiness flips per controller and scenario (rounded up to even: every Pod ends Ready)")
	fs.DurationVar(&o.flipPause, "flip-pause", 50*time.Millisecond, "pause after a flip is seen on the slice watch")
	fs.IntVar(&o.rollPods, "roll-pods", 1000, "Pods replaced by the rolling update in the one-Service scenarios (at most N; 0: no roll)")
	fs.IntVar(&o.rollStep, "roll-step", 25, "Pods replaced per step of the rolling update")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the random choice of the Pods the rolling update replaces")
	order := fs.String("order", "kcm,slicekit", "controllers to run, in order (kcm, slicekit)")
	fs.Float64Var(&o.qps, "qps", 20, "--kube-api-qps of both controllers (KCM's default)")
	fs.IntVar(&o.burst, "burst", 30, "--kube-api-burst of both controllers (KCM's default)")
	fs.IntVar(&o.verbosity, "v", 0, "log level -v of both controllers")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "bound of each wait for the slices")
	fs.BoolVar(&o.watchOnly, "watch-only", true, "run a watch-only process (client-go informers for the same objects, nothing else) beside each controller and report its CPU: the floor under both")
	fs.BoolVar(&o.realistic, "realistic-pods", false, "dress every Pod as a Deployment's Pod in a real cluster (chart labels, annotations, an owner, three containers with env, ports, resources and probes, the token volume; managedFields from the API server) instead of a minimal one")
	slicekitArgs := fs.String("slicekit-args", "", "further `arguments` of slicekit run, space-separated, after the benchmark's (for example \"--profiling --metrics-bind-address=127.0.0.1:18080\" to take heap profiles)")
	err := fs.Parse(args)
	if err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.slicekitArgs = strings.Fields(*slicekitArgs)
	if o.sizes, err = positives("-sizes", *sizes); err != nil {
		return o, err
	}
	if *services != "0" {
		if o.services, err = positives("-services", *services); err != nil {
			return o, err
		}
	}
	for c := range strings.SplitSeq(*order, ",") {
		if c != "kcm" && c != "slicekit" {
			return o, fmt.Errorf("-order: unknown controller %q (kcm, slicekit)", c)
		}
		o.order = append(o.order, c)
	}
	if o.flips%2 == 1 {
		o.flips++
	}
	switch {
	case len(o.sizes) == 0 && len(o.services) == 0:
		return o, errors.New("nothing to run: -sizes and -services are empty")
	case len(o.services) > 0 && o.podsPerService <= 0:
		return o, errors.New("-pods-per-service must be positive")
	case o.namespaces <= 0:
		return o, errors.New("-namespaces must be positive")
	case o.nodes <= 0 || o.flips < 0 || o.rollPods < 0 || o.rollStep <= 0 || o.qps <= 0 || o.burst <= 0:
		return o, errors.New("-nodes, -roll-step, -qps and -burst must be positive; -flips and -roll-pods not negative")
	}
	return o, nil
}

// scenario is one set of objects both controllers run against.
type scenario struct {
	title string
	// ns is the namespace, or with several, the prefix of their names.
	ns                       string
	services, podsPerService int
	// namespaces is how many namespaces the Services are spread over.
	namespaces int
	roll       int
	// many: one of the -services scenarios (N Services in one namespace,
	// or spread over several).
	many bool
}

func (o options) scenarios() []scenario {
	var out []scenario
	for _, n := range o.sizes {
		out = append(out, scenario{
			title: fmt.Sprintf("1 Service × %s Pods", thousands(n)), ns: fmt.Sprintf("bench-big-%d", n),
			services: 1, podsPerService: n, namespaces: 1, roll: min(o.rollPods, n),
		})
	}
	for _, n := range o.services {
		sc := scenario{
			title:    fmt.Sprintf("%s %s × %d Pods", thousands(n), plural(n, "Service"), o.podsPerService),
			ns:       fmt.Sprintf("bench-many-%dx%d", n, o.podsPerService),
			services: n, podsPerService: o.podsPerService, namespaces: min(o.namespaces, n), many: true,
		}
		if sc.namespaces > 1 {
			sc.title += fmt.Sprintf(" in %s namespaces", thousands(sc.namespaces))
		}
		out = append(out, sc)
	}
	return out
}

// plural returns word with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// positives parses a comma-separated list of positive numbers (empty: none)
// of flag name.
func positives(name, list string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s: %q is not a positive number", name, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// bench is a running benchmark: the control plane, its clients, the slice
// tracker.
type bench struct {
	o       options
	env     *testenv.Env
	client  kubernetes.Interface
	tracker *tracker
	// kubeconfig is the controllers' (admin) kubeconfig.
	kubeconfig string
	// watchOnly is the watch-only process beside the controller being
	// measured, or nil.
	watchOnly       *procs.Proc
	nextPod         int
	nextIP          uint32
	header, results []string
	// many are the results of the many-Services scenarios, for the summary
	// across Service counts.
	many []scenarioResult
}

func run(ctx context.Context, o options) error {
	slicekitPath, err := filepath.Abs(o.slicekit)
	if err != nil {
		return err
	}
	o.slicekit = slicekitPath
	for _, p := range []string{o.slicekit, filepath.Join(o.binDir, procs.KubeControllerManager)} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%w (make bench-live builds it)", err)
		}
	}
	if err := os.MkdirAll(o.artifacts, 0o755); err != nil {
		return err
	}
	cpLog, err := os.Create(filepath.Join(o.artifacts, "controlplane.log"))
	if err != nil {
		return err
	}
	defer func() { _ = cpLog.Close() }()
	fmt.Println("starting etcd and kube-apiserver ...")
	env, err := testenv.New(testenv.Options{
		BinDir: o.binDir,
		Output: cpLog,
		// envtest disables the ServiceAccount admission plugin; the
		// benchmark runs the API server with its default admission plugins
		// and creates each namespace's default ServiceAccount itself.
		APIServerFlags: map[string]string{"disable-admission-plugins": ""},
	})
	if err != nil {
		return err
	}
	defer func() {
		if err := env.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "benchlive: stopping the control plane: %v\n", err)
		}
	}()
	cfg := rest.CopyConfig(env.Config)
	cfg.QPS, cfg.Burst = 1000, 2000
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	b := &bench{o: o, env: env, client: client, tracker: newTracker(), kubeconfig: filepath.Join(o.artifacts, "admin.kubeconfig")}
	if err := env.WriteKubeConfig(b.kubeconfig, "bench-live"); err != nil {
		return err
	}
	fmt.Printf("kube-apiserver at %s, ready in %v\n", env.Host(), env.StartDuration.Round(time.Millisecond))
	if err := createNodes(ctx, client, o.nodes); err != nil {
		return err
	}
	// The slice watch ends before the control plane stops (deferred calls
	// run in reverse order).
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	if err := b.tracker.run(watchCtx, client); err != nil {
		return err
	}
	b.header = b.describe()
	for _, sc := range o.scenarios() {
		res, err := b.scenario(ctx, sc)
		res.services = sc.services
		if sc.many {
			b.many = append(b.many, res)
		}
		b.results = append(b.results, res.markdown())
		if werr := b.write(); werr != nil {
			return werr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", sc.title, err)
		}
	}
	fmt.Printf("\n%s\n", b.document())
	fmt.Printf("written to %s; logs in %s\n", o.out, o.artifacts)
	return nil
}

// describe returns the header lines: when, where, which versions and
// settings.
func (b *bench) describe() []string {
	version := func(path string, args ...string) string {
		out, err := exec.Command(path, args...).Output()
		if err != nil {
			return "unknown (" + err.Error() + ")"
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return line
	}
	host, _ := os.Hostname()
	load, _ := os.ReadFile("/proc/loadavg")
	loadFields := strings.Fields(string(load))
	if len(loadFields) > 3 {
		loadFields = loadFields[:3]
	}
	kcmDefaults := ""
	if b.o.qps == 20 && b.o.burst == 30 {
		kcmDefaults = " (KCM's defaults)"
	}
	lines := []string{
		fmt.Sprintf("Run %s on %s: %d CPUs, load average at start %s.", time.Now().UTC().Format("2006-01-02 15:04 MST"), host, runtime.NumCPU(), strings.Join(loadFields, " ")),
		fmt.Sprintf("kube-controller-manager: %s, `--controllers=endpointslice-controller`; slicekit: %s, `run --controllers=endpointslice`.",
			version(filepath.Join(b.o.binDir, procs.KubeControllerManager), "--version"), version(b.o.slicekit, "version")),
		fmt.Sprintf("Both: client QPS %v, burst %d%s, 5 workers, 100 endpoints per slice, no batching, no leader election, -v=%d; started from no EndpointSlice, one after the other.",
			b.o.qps, b.o.burst, kcmDefaults, b.o.verbosity),
		fmt.Sprintf("Flips: %d per controller, one at a time (Ready patched through the status subresource, wait for the slice, pause %v); CPU is utime+stime from /proc over the flips and a 1 s settle.",
			b.o.flips, b.o.flipPause),
	}
	if b.o.watchOnly {
		lines = append(lines, "Floor: beside each controller, from its convergence on, a watch-only process (client-go shared informers for Pods, Services, Nodes and EndpointSlices over protobuf, no handler, no transform, no write) receives the same watch events; its CPU over the same windows is what watching alone costs any client-go controller.")
	}
	return lines
}

// document is the Markdown written to -out.
func (b *bench) document() string {
	doc := strings.Join(b.header, "\n") + "\n\n" + strings.Join(b.results, "\n")
	if len(b.many) > 1 {
		doc += "\n" + servicesSummary(b.many)
	}
	return doc
}

func (b *bench) write() error {
	if err := os.MkdirAll(filepath.Dir(b.o.out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(b.o.out, []byte(b.document()), 0o644)
}

// scenario creates the scenario's objects, runs each controller against
// them and deletes them.
func (b *bench) scenario(ctx context.Context, sc scenario) (scenarioResult, error) {
	res := scenarioResult{Title: sc.title}
	w := &world{client: b.client, ns: sc.ns, nodes: b.o.nodes, nextPod: &b.nextPod, nextIP: &b.nextIP, realistic: b.o.realistic}
	where := "namespace " + sc.ns
	if sc.namespaces > 1 {
		where = fmt.Sprintf("namespaces %s-0 to %s-%d", sc.ns, sc.ns, sc.namespaces-1)
	}
	fmt.Printf("\n== %s: creating the objects in %s ...\n", sc.title, where)
	start := time.Now()
	if err := w.setUp(ctx, sc.services, sc.podsPerService, sc.namespaces); err != nil {
		return res, err
	}
	fmt.Printf("   created %d Service(s) and %d ready Pods in %v\n", len(w.services), len(w.pods), time.Since(start).Round(100*time.Millisecond))
	size, err := w.meanPodSize(ctx, 50)
	if err != nil {
		return res, fmt.Errorf("reading Pods back: %w", err)
	}
	res.PodBytes = size
	for _, c := range b.o.order {
		r, err := b.measure(ctx, sc, w, c)
		if c == "kcm" {
			res.KCM = r
		} else {
			res.Slicekit = r
		}
		if err != nil {
			return res, fmt.Errorf("%s: %w", c, err)
		}
	}
	if err := w.tearDown(ctx); err != nil {
		return res, fmt.Errorf("deleting the objects: %w", err)
	}
	return res, nil
}

// start starts controller c with its log in dir.
func (b *bench) start(c, dir string) (*procs.Proc, error) {
	common := []string{
		fmt.Sprintf("--kube-api-qps=%v", b.o.qps),
		fmt.Sprintf("--kube-api-burst=%d", b.o.burst),
		"--concurrent-service-endpoint-syncs=5",
		"--max-endpoints-per-slice=100",
		"--leader-elect=false",
		fmt.Sprintf("--v=%d", b.o.verbosity),
	}
	if c == "kcm" {
		return procs.StartKubeControllerManager(b.env, procs.KCMOptions{
			BinDir: b.o.binDir, Dir: dir, Controllers: "endpointslice-controller",
			// No private key: KCM then skips the ServiceAccount token
			// controller, which it starts whatever --controllers says.
			ExtraArgs: append([]string{"--service-account-private-key-file=", "--endpointslice-updates-batch-period=0"}, common...),
		})
	}
	return procs.Start(dir, "slicekit", b.o.slicekit, append([]string{"run",
		"--kubeconfig=" + b.kubeconfig,
		"--controllers=endpointslice",
		"--endpoint-updates-batch-period=0",
		"--metrics-bind-address=0",
		"--health-probe-bind-address=0",
	}, append(common, b.o.slicekitArgs...)...)...)
}

// measure runs controller c against the scenario's objects, from no slices.
func (b *bench) measure(ctx context.Context, sc scenario, w *world, c string) (*result, error) {
	r := &result{}
	if err := w.deleteSlices(ctx); err != nil {
		return nil, fmt.Errorf("deleting the slices: %w", err)
	}
	if _, err := b.tracker.waitUntil(ctx, b.o.timeout, "no EndpointSlice in "+sc.ns, func() bool {
		n := 0
		for _, ns := range w.namespaces {
			n += b.tracker.slicesIn(ns)
		}
		return n == 0
	}); err != nil {
		return nil, err
	}
	dir := filepath.Join(b.o.artifacts, sc.ns)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	req0, err := b.requests(ctx)
	if err != nil {
		return nil, err
	}
	ev0 := b.tracker.count()
	start := time.Now()
	p, err := b.start(c, dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := p.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "benchlive: %v\n", err)
		}
	}()
	fmt.Printf("   %s: started (pid %d), log %s\n", c, p.Pid(), p.LogPath)
	at, err := b.tracker.waitServices(ctx, b.o.timeout, w.want(), p.Exited)
	if err != nil {
		return nil, err
	}
	r.ColdStart = at.Sub(start)
	r.ColdWrites = b.tracker.count() - ev0
	req1, err := b.requests(ctx)
	if err != nil {
		return nil, err
	}
	r.ColdRequests = req1 - req0
	fmt.Printf("   %s: cold start %v, %d slice writes\n", c, r.ColdStart.Round(time.Millisecond), r.ColdWrites)
	if b.o.watchOnly {
		wo, err := b.startWatchOnly(ctx, dir)
		if err != nil {
			return r, err
		}
		b.watchOnly = wo
		r.WatchOnly = true
		defer func() {
			b.watchOnly = nil
			if err := wo.Stop(); err != nil {
				fmt.Fprintf(os.Stderr, "benchlive: %v\n", err)
			}
		}()
	}

	// Idle: let any tail of the cold start pass, then measure.
	if err := settle(ctx, 2*time.Second); err != nil {
		return r, err
	}
	r.IdleWindow = 3 * time.Second
	cpu0, err := procCPU(p.Pid())
	if err != nil {
		return r, err
	}
	if err := settle(ctx, r.IdleWindow); err != nil {
		return r, err
	}
	cpu1, err := procCPU(p.Pid())
	if err != nil {
		return r, err
	}
	r.IdleCPU = cpu1 - cpu0

	if err := b.flips(ctx, w, p, r); err != nil {
		return r, err
	}
	if r.Mem, err = procMemory(p.Pid()); err != nil {
		return r, err
	}
	fmt.Printf("   %s: %d flips, CPU %v per flip, p50 %v p99 %v, %d slice writes, VmRSS %.1f MiB\n", c, r.Flips,
		(r.FlipCPU / time.Duration(max(r.Flips, 1))).Round(10*time.Microsecond), percentile(r.Latencies, 50).Round(100*time.Microsecond),
		percentile(r.Latencies, 99).Round(100*time.Microsecond), r.FlipWrites, float64(r.Mem.RSS)/(1<<20))
	if sc.roll > 0 {
		if err := b.roll(ctx, w, sc, p, r); err != nil {
			return r, err
		}
		fmt.Printf("   %s: rolling update of %d Pods: CPU %v, %d slice writes, %v\n", c, r.RollPods,
			r.RollCPU.Round(time.Millisecond), r.RollWrites, r.RollWall.Round(time.Millisecond))
	}
	return r, p.Exited()
}

// flips flips the readiness of Pods spread over the scenario, one at a
// time, each back to ready the flip after.
func (b *bench) flips(ctx context.Context, w *world, p *procs.Proc, r *result) error {
	if b.o.flips == 0 {
		return nil
	}
	targets := b.o.flips / 2
	stride := max(1, len(w.pods)/targets)
	u0, err := b.usage(ctx, p)
	if err != nil {
		return err
	}
	for k := range b.o.flips {
		pd := w.pods[(k/2*stride)%len(w.pods)]
		ready := !pd.ready
		sent := time.Now()
		if err := w.setReady(ctx, pd, ready); err != nil {
			return err
		}
		seen, err := b.tracker.waitIP(ctx, b.o.timeout, pd.ip, ready)
		if err != nil {
			return errors.Join(err, p.Exited())
		}
		r.Latencies = append(r.Latencies, seen.Sub(sent))
		if err := settle(ctx, b.o.flipPause); err != nil {
			return err
		}
	}
	d, err := b.usageSince(ctx, p, u0)
	if err != nil {
		return err
	}
	r.Flips = b.o.flips
	r.FlipCPU, r.FlipWrites, r.FlipRequests, r.FlipWatchOnlyCPU = d.cpu, d.writes, d.requests, d.watchOnlyCPU
	return nil
}

// roll replaces sc.roll Pods of the Service, chosen at random, in steps,
// waiting for the slices after each step.
func (b *bench) roll(ctx context.Context, w *world, sc scenario, p *procs.Proc, r *result) error {
	// The Pods to replace in a random order: the order of their names (or
	// creation) could match how one controller packs endpoints into slices
	// and not the other, and a ReplicaSet does not delete by name either.
	rng := rand.New(rand.NewPCG(b.o.seed, 0))
	old := make([]*pod, sc.roll)
	for i, j := range rng.Perm(len(w.pods))[:sc.roll] {
		old[i] = w.pods[j]
	}
	u0, err := b.usage(ctx, p)
	if err != nil {
		return err
	}
	start := time.Now()
	for i := 0; i < len(old); i += b.o.rollStep {
		if _, err := w.replace(ctx, old[i:min(i+b.o.rollStep, len(old))]); err != nil {
			return err
		}
		if _, err := b.tracker.waitServices(ctx, b.o.timeout, w.wantOf(w.services[0]), p.Exited); err != nil {
			return err
		}
	}
	r.RollWall = time.Since(start)
	d, err := b.usageSince(ctx, p, u0)
	if err != nil {
		return err
	}
	r.RollPods, r.RollStep = len(old), b.o.rollStep
	r.RollCPU, r.RollWrites, r.RollRequests, r.RollWatchOnlyCPU = d.cpu, d.writes, d.requests, d.watchOnlyCPU
	return nil
}

// usage is what a controller has used so far: its CPU time, and the slice
// writes seen on the watch and counted by the API server (all
// controllers'); watchOnlyCPU is the watch-only process's CPU time (0
// without one).
type usage struct {
	cpu, watchOnlyCPU time.Duration
	writes            int
	requests          float64
}

// usage reads the usage of the controller process p now.
func (b *bench) usage(ctx context.Context, p *procs.Proc) (usage, error) {
	cpu, err := procCPU(p.Pid())
	if err != nil {
		return usage{}, err
	}
	req, err := b.requests(ctx)
	if err != nil {
		return usage{}, err
	}
	var floor time.Duration
	if b.watchOnly != nil {
		if floor, err = procCPU(b.watchOnly.Pid()); err != nil {
			return usage{}, errors.Join(err, b.watchOnly.Exited())
		}
	}
	return usage{cpu: cpu, watchOnlyCPU: floor, writes: b.tracker.count(), requests: req}, nil
}

// usageSince waits 1 s (for the controller to finish what the last change
// started) and returns the usage since u0.
func (b *bench) usageSince(ctx context.Context, p *procs.Proc, u0 usage) (usage, error) {
	if err := settle(ctx, time.Second); err != nil {
		return usage{}, err
	}
	u1, err := b.usage(ctx, p)
	if err != nil {
		return usage{}, err
	}
	return usage{cpu: u1.cpu - u0.cpu, watchOnlyCPU: u1.watchOnlyCPU - u0.watchOnlyCPU, writes: u1.writes - u0.writes, requests: u1.requests - u0.requests}, nil
}

// requests returns the API server's count of EndpointSlice write requests.
func (b *bench) requests(ctx context.Context) (float64, error) {
	body, err := b.client.Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return 0, fmt.Errorf("reading the API server's /metrics: %w", err)
	}
	return sliceWriteRequests(bytes.NewReader(body))
}
