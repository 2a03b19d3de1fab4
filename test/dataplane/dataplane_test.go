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

//go:build linux

package dataplane

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/slicekit/slicekit/test/harness/procs"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// EnableEnv must be 1 for the tests to run (`make test-dataplane` sets it).
const EnableEnv = "SLICEKIT_DATAPLANE"

// Further knobs: SLICEKIT_DATAPLANE_MODES (default "nftables,iptables"),
// SLICEKIT_DATAPLANE_FLIPS (flips per controller for the latency figures,
// default 5), SLICEKIT_DATAPLANE_REPORT (a file the figures are appended to
// as Markdown), SLICEKIT_BINARY (default <repo>/bin/slicekit).

// Timeouts of the checks. A controller that works converges within a few
// hundred milliseconds; the generous bounds absorb a loaded machine.
const (
	convergeTimeout = 30 * time.Second
	// negativeTimeout bounds each check of the negative control, which
	// must fail.
	negativeTimeout = 8 * time.Second
)

// setup skips unless EnableEnv is 1, and otherwise fails unless the test
// can run: root, the binaries. It returns the control-plane bin directory
// and the slicekit binary.
func setup(t *testing.T) (binDir, slicekit string) {
	t.Helper()
	if os.Getenv(EnableEnv) != "1" {
		t.Skipf("the data-plane tests run with %s=1 (make test-dataplane)", EnableEnv)
	}
	if os.Geteuid() != 0 {
		t.Fatal("the data-plane tests create network namespaces: run them as root")
	}
	binDir, err := testenv.BinDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"kube-proxy", "coredns", procs.KubeControllerManager} {
		if _, err := os.Stat(filepath.Join(binDir, b)); err != nil {
			t.Fatalf("%s missing in %s: build it with `hack/build-controlplane.sh kube-controller-manager dataplane` (make test-dataplane does)", b, binDir)
		}
	}
	slicekit = os.Getenv("SLICEKIT_BINARY")
	if slicekit == "" {
		root, err := testenv.RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		slicekit = filepath.Join(root, "bin", "slicekit")
	}
	if _, err := os.Stat(slicekit); err != nil {
		t.Fatalf("%s missing: run `make build` (make test-dataplane does)", slicekit)
	}
	return binDir, slicekit
}

func modes() []string {
	if m := os.Getenv("SLICEKIT_DATAPLANE_MODES"); m != "" {
		return strings.Split(m, ",")
	}
	return []string{"nftables", "iptables"}
}

// controllers starts and stops the endpoint controllers of one world.
type controllers struct {
	t        *testing.T
	env      *testenv.Env
	binDir   string
	slicekit string
	dir      string
	kc       string
	seq      int
	// current are the slicekit replicas believed running.
	current []*procs.Proc
}

// slicekitRunning reports whether a slicekit replica still runs.
func (c *controllers) slicekitRunning() bool {
	for _, p := range c.current {
		if p.Exited() == nil {
			return true
		}
	}
	return false
}

func newControllers(t *testing.T, env *testenv.Env, binDir, slicekit string) *controllers {
	c := &controllers{t: t, env: env, binDir: binDir, slicekit: slicekit, dir: t.TempDir()}
	c.kc = filepath.Join(c.dir, "slicekit.kubeconfig")
	if err := env.WriteKubeConfig(c.kc, "slicekit"); err != nil {
		t.Fatal(err)
	}
	return c
}

// kcm starts kube-controller-manager with only its EndpointSlice and
// mirroring controllers.
func (c *controllers) kcm() *procs.Proc {
	c.t.Helper()
	p, err := procs.StartKubeControllerManager(c.env, procs.KCMOptions{
		BinDir: c.binDir, Dir: c.dir, Controllers: "endpointslice,endpointslicemirroring",
	})
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { _ = p.Stop() })
	return p
}

// slicekitReplica starts one `slicekit run` replica with its EndpointSlice
// and mirroring controllers and leader election (Lease kube-system/slicekit,
// shortened durations so that the test waits less for a crashed leader's
// Lease to expire).
func (c *controllers) slicekitReplica() *procs.Proc {
	c.t.Helper()
	c.seq++
	p, err := procs.Start(c.dir, fmt.Sprintf("slicekit-%d", c.seq), c.slicekit, "run",
		"--kubeconfig="+c.kc,
		"--controllers=endpointslice,endpointslice-mirroring",
		"--leader-elect=true",
		"--leader-elect-resource-namespace=kube-system",
		"--leader-elect-lease-duration=4s",
		"--leader-elect-renew-deadline=3s",
		"--leader-elect-retry-period=500ms",
		"--metrics-bind-address=0",
		"--health-probe-bind-address=0",
		"--v=2",
	)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() {
		if c.t.Failed() {
			c.t.Logf("%s log (tail):\n%s", p.Name, procs.Tail(p.LogPath, 3000))
		}
		_ = p.Stop()
	})
	return p
}

// kill sends SIGKILL to p's process group and waits for it to exit.
func kill(p *procs.Proc) error {
	_ = syscall.Kill(-p.Pid(), syscall.SIGKILL)
	return p.Stop()
}

// TestDataplane runs, per proxy mode, the negative control, the checks
// with KCM as the reference, the change scenarios (KCM → slicekit,
// restart, kill -9, leader failover) and the checks with slicekit, and logs
// the flip → traffic change latency of both controllers.
func TestDataplane(t *testing.T) {
	binDir, slicekit := setup(t)
	for _, mode := range modes() {
		t.Run(mode, func(t *testing.T) {
			checkTools(t, mode)
			runMode(t, binDir, slicekit, mode)
		})
	}
}

func runMode(t *testing.T, binDir, slicekitBin, mode string) {
	env := testenv.StartEnv(t)
	w := newWorld(t, env, binDir, mode)
	ctrl := newControllers(t, env, binDir, slicekitBin)
	ctx := context.Background()

	// 1. Negative control: no endpoint controller; the checks must fail.
	none := newFixture(t, w, "none", false)
	t.Run("negative-control", func(t *testing.T) {
		c := w.newClient(okTimeout)
		if _, err := c.servesExactly(ctx, none.url("web"), []string{"web-a1", "web-a2", "web-b1", "web-c1"}, negativeTimeout); err == nil {
			t.Error("without an endpoint controller the ClusterIP check passed: it cannot fail")
		} else {
			t.Logf("ClusterIP check fails as it must: %v", err)
		}
		if _, err := w.resolvesExactly(ctx, "hl.none.svc."+dnsDomain+".", none.ipsOf("web-a1", "web-a2", "web-b1", "web-c1"), negativeTimeout); err == nil {
			t.Error("without an endpoint controller the DNS check passed: it cannot fail")
		} else {
			t.Logf("DNS check fails as it must: %v", err)
		}
	})
	// The controllers started next must not serve the negative control's
	// Services into the node's rules.
	none.deleteServices(ctx)

	// 2. The reference: KCM's EndpointSlice and mirroring controllers.
	kcm := ctrl.kcm()
	ref := newFixture(t, w, "kcm", true)
	t.Run("kcm", func(t *testing.T) { runChecks(t, ref, false) })
	kcmLat := measureFlips(t, ref, flips())

	// 3. Changes under continuous requests, on the reference's Services:
	// KCM → slicekit, restart, kill -9, leader failover.
	t.Run("changes", func(t *testing.T) { runChanges(t, ref, ctrl, kcm) })
	if !ctrl.slicekitRunning() {
		ctrl.current = append(ctrl.current, ctrl.slicekitReplica())
	}

	// slicekit's latency on the very Service KCM's was measured on (it
	// adopted its slices), before more Services exist: in iptables mode
	// every sync rewrites all rules, so more Services would make
	// kube-proxy, not the controller, slower.
	skLat := measureFlips(t, ref, flips())
	reportLatency(t, mode, kcmLat, skLat)

	// 4. slicekit as the endpoint controller.
	sk := newFixture(t, w, "slicekit", true)
	t.Run("slicekit", func(t *testing.T) { runChecks(t, sk, true) })
}

// ipsOf returns the addresses of the named Pods.
func (f *fixture) ipsOf(names ...string) []string {
	var ips []string
	for _, n := range names {
		ips = append(ips, f.pods[n].ip)
	}
	return ips
}

// deleteServices deletes every Service of the fixture.
func (f *fixture) deleteServices(ctx context.Context) {
	for name := range f.ips {
		if err := f.w.env.Client.CoreV1().Services(f.ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			f.w.t.Error(err)
		}
	}
}

// runChecks runs the functional checks on f's Services; withLabel adds the
// endpoint-controller-name label scenario (slicekit's, KEP-4770).
func runChecks(t *testing.T, f *fixture, withLabel bool) {
	ctx := context.Background()
	c := f.w.newClient(okTimeout)
	all := []string{"web-a1", "web-a2", "web-b1", "web-c1"}
	step := func(name string, fn func() (time.Duration, error)) bool {
		t.Helper()
		d, err := fn()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return false
		}
		t.Logf("%-58s ok in %v", name, d.Round(time.Millisecond))
		return true
	}
	do := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	step("ClusterIP reaches all ready Pods, never the not-ready one", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("web"), all, convergeTimeout)
	})
	step("DNS: headless Service name → ready Pods", func() (time.Duration, error) {
		return f.w.resolvesExactly(ctx, "hl."+f.ns+".svc."+dnsDomain+".", f.ipsOf(all...), convergeTimeout)
	})
	step("DNS: per-Pod hostname web-a1.hl", func() (time.Duration, error) {
		return f.w.resolvesExactly(ctx, "web-a1.hl."+f.ns+".svc."+dnsDomain+".", f.ipsOf("web-a1"), convergeTimeout)
	})
	step("internalTrafficPolicy: Local → the node's Pods only", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("web-local"), []string{"web-a1", "web-a2"}, convergeTimeout)
	})
	step("trafficDistribution: PreferClose → zone-a's Pods only", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("web-close"), []string{"web-a1", "web-a2", "web-c1"}, convergeTimeout)
	})
	step("selectorless Service, hand-written Endpoints (mirrored)", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("ext"), []string{"ext-1"}, convergeTimeout)
	})

	do("flip web-a2 not ready", f.setReady(ctx, "web-a2", false))
	step("readiness flip: not-ready web-a2 taken out", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("web"), []string{"web-a1", "web-b1", "web-c1"}, convergeTimeout)
	})
	do("flip web-a2 ready", f.setReady(ctx, "web-a2", true))
	step("readiness flip: ready web-a2 back", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("web"), all, convergeTimeout)
	})

	step("terminating: both ready", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("term"), []string{"term-1", "term-2"}, convergeTimeout)
	})
	do("terminate term-1", f.terminate(ctx, "term-1"))
	step("terminating: a ready Pod left → terminating term-1 unused", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("term"), []string{"term-2"}, convergeTimeout)
	})
	do("terminate term-2", f.terminate(ctx, "term-2"))
	step("terminating: none ready → serving terminating Pods used", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("term"), []string{"term-1", "term-2"}, convergeTimeout)
	})
	do("term-1 not ready", f.setReady(ctx, "term-1", false))
	step("terminating: not-serving term-1 dropped", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("term"), []string{"term-2"}, convergeTimeout)
	})

	if !withLabel {
		// KCM v1.37.2 does not know KEP-4770's label: it serves the
		// Service labelled for another controller. Logged, not checked.
		d, err := c.servesExactly(ctx, f.url("web-other"), all, convergeTimeout)
		t.Logf("reference: Service labelled %s=other, served by KCM (which ignores the label): %v in %v", labelEndpointControllerName, err == nil, d.Round(time.Millisecond))
		return
	}
	step("labelled for another controller: no traffic, no slice", func() (time.Duration, error) {
		d, err := f.w.newClient(failTimeout).servesNothing(ctx, f.url("web-other"), convergeTimeout)
		if err != nil {
			return d, err
		}
		return d, f.noSlices(ctx, "web-other")
	})
	do("remove the label", f.setLabel(ctx, "web-other", ""))
	step("label removed: traffic restored", func() (time.Duration, error) {
		return c.servesExactly(ctx, f.url("web-other"), all, convergeTimeout)
	})
	do("label again", f.setLabel(ctx, "web-other", "other"))
	step("labelled again: slicekit's slices removed, no traffic", func() (time.Duration, error) {
		d, err := f.w.newClient(failTimeout).servesNothing(ctx, f.url("web-other"), convergeTimeout)
		if err != nil {
			return d, err
		}
		return d, f.noSlices(ctx, "web-other")
	})
}

// noSlices returns an error when Service svc has EndpointSlices.
func (f *fixture) noSlices(ctx context.Context, svc string) error {
	l, err := f.w.env.Client.DiscoveryV1().EndpointSlices(f.ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + svc})
	if err != nil {
		return err
	}
	if len(l.Items) > 0 {
		return fmt.Errorf("%d EndpointSlices of %s, managed by %s", len(l.Items), svc, l.Items[0].Labels[discovery.LabelManagedBy])
	}
	return nil
}
