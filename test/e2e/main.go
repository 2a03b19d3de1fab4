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

// Command e2e runs Kubernetes' own e2e tests for EndpointSlices, EndpointSlice
// mirroring and Endpoints (k8s.io/kubernetes v1.37.2
// test/e2e/network/{endpointslice,endpointslicemirroring,endpoints}.go)
// against a simulated cluster on loopback, once per mode, and judges each
// mode's results. It is what `make e2e` runs.
//
// A simulated cluster is etcd and kube-apiserver (test/harness/testenv),
// kube-controller-manager, kube-scheduler and the kwok controller faking
// -nodes Nodes (Nodes turn Ready; scheduled Pods turn Running and Ready with
// a Pod IP from 198.18.0.0/16, a never-routed range, since EndpointSlice
// validation rejects loopback addresses). Every binary comes from -bin, built
// by `hack/build-controlplane.sh e2e` and `make build`.
//
// Modes (-modes, comma-separated, run in order, each on a fresh cluster):
//
//	slicekit  KCM without its three endpoint controllers (endpoints-controller,
//	          endpointslice-controller, endpointslice-mirroring-controller);
//	          `slicekit run --controllers=*,endpoints` replaces them.
//	          Expected: every runnable test passes.
//	none      the negative control: the same KCM and no replacement.
//	          Expected: the five tests that need an endpoint controller fail
//	          and the two pure API tests pass, so that a green slicekit run
//	          means slicekit did the work.
//	kcm       the baseline: KCM with all its default controllers, no
//	          slicekit. Expected: every runnable test passes.
//
// The three tests that `kubectl exec` a curl to a ClusterIP need a kubelet,
// a container runtime and kube-proxy, none of which a simulated cluster has;
// they are skipped (see [dataPlaneTests]).
//
// Output: a per-test table for each mode and a summary table on stdout; the
// ginkgo JSON report, the e2e output and each component's log in
// -artifacts/<mode>/. The exit status is 0 when every mode met its
// expectation, 1 otherwise (including a cluster that did not come up), 2 for
// bad flags. Only processes it started are stopped, by PID.
//
// Usage:
//
//	e2e [-modes slicekit,none] [-bin DIR] [-artifacts DIR] [-nodes N] [-procs N] [-timeout D] [-v] [-dry-run]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/slicekit/slicekit/test/harness/testenv"
)

// endpointControllers are kube-controller-manager's names of the three
// controllers slicekit replaces (cmd/kube-controller-manager/names).
var endpointControllers = []string{
	"endpoints-controller",
	"endpointslice-controller",
	"endpointslice-mirroring-controller",
}

// focusFile selects the upstream test files; ginkgo matches it against each
// spec's file path.
const focusFile = `test/e2e/network/(endpoints|endpointslice|endpointslicemirroring)\.go`

// dataPlaneTests are the tests of the focused files that are out of reach
// without kubelets, a container runtime and kube-proxy: they run Pods and
// `kubectl exec` a curl to the Service's ClusterIP. Keys are leaf texts.
var dataPlaneTests = map[string]bool{
	"should support a Service with multiple ports specified in multiple EndpointSlices":        true,
	"should support a Service with multiple endpoint IPs specified in multiple EndpointSlices": true,
	"should mirror a custom Endpoint with multiple subsets and same IP address":                true,
}

// dataPlaneCell is a data-plane test's table cell, dataPlaneNote the note
// under the tables.
const (
	dataPlaneCell = "not run: data plane"
	dataPlaneNote = "not run: data plane = the test curls a ClusterIP from inside a Pod; that needs a kubelet, a container runtime and kube-proxy, which a simulated cluster does not have."
)

// apiOnlyTests are the runnable tests that exercise only the API server; they
// pass whether or not an endpoint controller runs.
var apiOnlyTests = map[string]bool{
	"should support creating EndpointSlice API operations": true,
	"should test the lifecycle of an Endpoint":             true,
}

// runnableTests is how many tests of the focused files run here.
const runnableTests = 7

// mode is one cluster configuration and what its results must be.
type mode struct {
	name        string
	description string
	// kcmControllers is kube-controller-manager's --controllers value.
	kcmControllers string
	// slicekit starts `slicekit run` when true.
	slicekit bool
	// negative marks the negative control: controller-dependent tests must fail.
	negative bool
}

var modes = map[string]mode{
	"slicekit": {
		name:           "slicekit",
		description:    "KCM minus its endpoint controllers, slicekit run instead",
		kcmControllers: "*,-" + strings.Join(endpointControllers, ",-"),
		slicekit:       true,
	},
	"none": {
		name:           "none",
		description:    "negative control: KCM minus its endpoint controllers, nothing instead",
		kcmControllers: "*,-" + strings.Join(endpointControllers, ",-"),
		negative:       true,
	},
	"kcm": {
		name:           "kcm",
		description:    "baseline: KCM with its own endpoint controllers",
		kcmControllers: "*",
	},
}

type options struct {
	modes     []string
	binDir    string
	artifacts string
	nodes     int
	timeout   time.Duration
	procs     int
	verbose   bool
	dryRun    bool
}

func main() {
	opts, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		os.Exit(2)
	}
	if opts.dryRun {
		printPlan(os.Stdout, opts)
		os.Exit(0)
	}
	ctrllog.SetLogger(klog.NewKlogr())
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		// From now on a second signal has its default effect: exit at once.
		stop()
		fmt.Fprintln(os.Stderr, "e2e: interrupted, stopping the cluster (interrupt again to exit at once, leaving its processes running)")
	}()
	os.Exit(run(ctx, opts))
}

func parseFlags(args []string) (options, error) {
	var o options
	root, err := testenv.RepoRoot()
	if err != nil {
		root = "."
	}
	fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
	modeList := fs.String("modes", "slicekit,none", "comma-separated modes to run in order: slicekit, none (negative control), kcm (baseline)")
	fs.StringVar(&o.binDir, "bin", filepath.Join(root, "bin"), "directory holding etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, kwok-stages.yaml, e2e.test, ginkgo and slicekit")
	fs.StringVar(&o.artifacts, "artifacts", filepath.Join(root, "_output", "e2e"), "directory for logs and reports, one subdirectory per mode (replaced when that mode runs)")
	fs.IntVar(&o.nodes, "nodes", 2, "fake Nodes kwok manages")
	fs.DurationVar(&o.timeout, "timeout", 20*time.Minute, "ginkgo's timeout for one mode's tests")
	fs.IntVar(&o.procs, "procs", 2, "ginkgo's parallel processes; the negative control's failing tests each wait out their timeout (30 s to 2 min), so 2 halves its run")
	fs.BoolVar(&o.dryRun, "dry-run", false, "only check the flags and print what would run (make e2e calls it before building)")
	fs.BoolVar(&o.verbose, "v", false, "stream the e2e output to stdout as well as to the artifacts")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for _, m := range strings.Split(*modeList, ",") {
		m = strings.TrimSpace(m)
		if _, ok := modes[m]; !ok {
			return o, fmt.Errorf("unknown mode %q in -modes (known: slicekit, none, kcm)", m)
		}
		o.modes = append(o.modes, m)
	}
	if o.procs < 1 {
		return o, fmt.Errorf("-procs must be at least 1, got %d", o.procs)
	}
	if o.nodes < 1 {
		return o, fmt.Errorf("-nodes must be at least 1, got %d", o.nodes)
	}
	if o.binDir, err = filepath.Abs(o.binDir); err != nil {
		return o, err
	}
	if o.artifacts, err = filepath.Abs(o.artifacts); err != nil {
		return o, err
	}
	return o, nil
}

// printPlan prints the modes o would run and with what.
func printPlan(w io.Writer, o options) {
	for _, name := range o.modes {
		m := modes[name]
		_, _ = fmt.Fprintf(w, "mode %s: %s\n  kube-controller-manager --controllers=%s\n", m.name, m.description, m.kcmControllers)
		if m.slicekit {
			_, _ = fmt.Fprintln(w, "  slicekit run --controllers=*,endpoints")
		}
	}
	_, _ = fmt.Fprintf(w, "binaries from %s, %d kwok Nodes, ginkgo --procs=%d --timeout=%v, artifacts in %s\n", o.binDir, o.nodes, o.procs, o.timeout, o.artifacts)
	if err := checkBinaries(o.binDir); err != nil {
		_, _ = fmt.Fprintf(w, "not ready to run: %v\n", err)
	}
}

// run runs every mode and returns the exit status.
func run(ctx context.Context, o options) int {
	if err := checkBinaries(o.binDir); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	var outcomes []outcome
	failed := false
	for _, name := range o.modes {
		m := modes[name]
		fmt.Printf("\n=== mode %s: %s\n", m.name, m.description)
		oc := runMode(ctx, o, m)
		outcomes = append(outcomes, oc)
		printModeTable(os.Stdout, oc)
		if oc.err != nil {
			failed = true
			fmt.Printf("=== mode %s: FAIL: %v\n", m.name, oc.err)
		} else {
			fmt.Printf("=== mode %s: as expected (%s)\n", m.name, oc.summary())
		}
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Println()
	printSummaryTable(os.Stdout, outcomes)
	if failed {
		return 1
	}
	return 0
}

// checkBinaries reports every missing binary at once, with the command that
// builds them.
func checkBinaries(dir string) error {
	var missing []string
	for _, name := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml", "e2e.test", "ginkgo", "slicekit"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing in %s: %s (build them with: SLICEKIT_BIN_DIR=%s hack/build-controlplane.sh e2e && go build -o %s ./cmd/slicekit)",
			dir, strings.Join(missing, ", "), dir, filepath.Join(dir, "slicekit"))
	}
	return nil
}
