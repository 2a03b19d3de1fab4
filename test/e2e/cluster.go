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

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/test/harness/procs"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

const (
	// podCIDR is where kwok takes Pod IPs from: never routed (RFC 2544
	// benchmarking range), and not loopback, which EndpointSlice validation
	// rejects.
	podCIDR = "198.18.0.0/16"
	// nodeIP is every fake Node's InternalIP, from the same unrouted block.
	nodeIP = "198.19.0.1"
	// kwokNodeAnnotation marks the Nodes kwok manages.
	kwokNodeAnnotation = "kwok.x-k8s.io/node"
	// readyTimeout bounds each wait for the cluster to come up.
	readyTimeout = 2 * time.Minute
)

// outcome is one mode's run.
type outcome struct {
	mode    mode
	results []result
	// up, tests and down are the wall times of cluster start, the e2e run
	// and teardown.
	up, tests, down time.Duration
	err             error
}

func (o outcome) summary() string {
	counts := map[string]int{}
	for _, r := range o.results {
		state := r.state
		if r.skipped() {
			state = "skipped"
		}
		counts[state]++
	}
	parts := []string{
		fmt.Sprintf("%d passed", counts["passed"]),
		fmt.Sprintf("%d failed", counts["failed"]),
		fmt.Sprintf("%d skipped", counts["skipped"]),
	}
	// Other failure states (timedout, panicked, interrupted, aborted) are
	// counted apart: they are never the negative control's expected failure.
	for _, state := range slices.Sorted(maps.Keys(counts)) {
		if state != "passed" && state != "failed" && state != "skipped" {
			parts = append(parts, fmt.Sprintf("%d %s", counts[state], state))
		}
	}
	return fmt.Sprintf("%s; cluster up %v, tests %v, teardown %v", strings.Join(parts, ", "),
		o.up.Round(100*time.Millisecond), o.tests.Round(100*time.Millisecond), o.down.Round(100*time.Millisecond))
}

// runMode starts a fresh simulated cluster for m, runs the upstream tests
// against it, tears it down and judges the results.
func runMode(ctx context.Context, o options, m mode) (oc outcome) {
	oc.mode = m
	dir := filepath.Join(o.artifacts, m.name)
	if err := os.RemoveAll(dir); err != nil {
		oc.err = err
		return oc
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		oc.err = err
		return oc
	}

	start := time.Now()
	c, err := startCluster(ctx, o, m, dir)
	oc.up = time.Since(start)
	defer func() {
		start := time.Now()
		if err := c.stop(); err != nil && oc.err == nil {
			oc.err = fmt.Errorf("teardown: %w", err)
		}
		oc.down = time.Since(start)
	}()
	if err != nil {
		oc.err = fmt.Errorf("starting the cluster (logs in %s): %w", dir, err)
		return oc
	}
	fmt.Printf("cluster up in %v: kube-apiserver %s, %d kwok Nodes Ready%s\n",
		oc.up.Round(100*time.Millisecond), c.env.Host(), o.nodes, map[bool]string{true: ", slicekit ready"}[m.slicekit])

	start = time.Now()
	oc.results, err = c.runTests(ctx, o, dir)
	oc.tests = time.Since(start)
	if err != nil {
		oc.err = err
		return oc
	}
	if err := c.died(); err != nil {
		oc.err = err
		return oc
	}
	oc.err = judge(m, oc.results)
	return oc
}

// cluster is a running simulated cluster.
type cluster struct {
	env        *testenv.Env
	client     kubernetes.Interface
	kubeconfig string
	procs      []*procs.Proc
}

// startCluster starts etcd and kube-apiserver, then kube-controller-manager,
// kube-scheduler, kwok and (for the slicekit mode) slicekit, creates the fake
// Nodes and waits until the cluster can run the e2e framework. On error the
// returned cluster is still non-nil and must be stopped.
func startCluster(ctx context.Context, o options, m mode, dir string) (*cluster, error) {
	c := &cluster{kubeconfig: filepath.Join(dir, "kubeconfig")}
	cpLog, err := os.Create(filepath.Join(dir, "controlplane.log"))
	if err != nil {
		return c, err
	}
	env, err := testenv.New(testenv.Options{
		BinDir: o.binDir,
		Output: cpLog,
		APIServerFlags: map[string]string{
			// envtest disables the ServiceAccount admission plugin because it
			// runs no controllers; here KCM creates the ServiceAccounts, so
			// the API server admits Pods as a real cluster does.
			"disable-admission-plugins": "",
		},
	})
	if err != nil {
		_ = cpLog.Close()
		return c, err
	}
	c.env = env
	c.client = env.Client
	if err := env.WriteKubeConfig(c.kubeconfig, "e2e"); err != nil {
		return c, err
	}
	kcm, err := procs.StartKubeControllerManager(env, procs.KCMOptions{BinDir: o.binDir, Dir: dir, Controllers: m.kcmControllers})
	if err != nil {
		return c, err
	}
	c.add(kcm)
	bin := func(name string) string { return filepath.Join(o.binDir, name) }
	if err := c.start(dir, "kube-scheduler", bin("kube-scheduler"),
		"--kubeconfig="+c.kubeconfig,
		"--leader-elect=false",
		"--secure-port=0",
		"--v=2",
	); err != nil {
		return c, err
	}
	if err := c.start(dir, "kwok", bin("kwok"),
		"--kubeconfig="+c.kubeconfig,
		"--config="+bin("kwok-stages.yaml"),
		"--manage-nodes-with-annotation-selector="+kwokNodeAnnotation+"=fake",
		"--cidr="+podCIDR,
		"--node-ip="+nodeIP,
	); err != nil {
		return c, err
	}
	if err := c.createNodes(ctx, o.nodes); err != nil {
		return c, err
	}
	if m.slicekit {
		port, err := freePort()
		if err != nil {
			return c, err
		}
		health := fmt.Sprintf("127.0.0.1:%d", port)
		if err := c.start(dir, "slicekit", bin("slicekit"), "run",
			"--kubeconfig="+c.kubeconfig,
			"--controllers=*,endpoints",
			"--leader-elect=false",
			"--metrics-bind-address=0",
			"--health-probe-bind-address="+health,
			"--v=2",
		); err != nil {
			return c, err
		}
		if err := c.waitFor(ctx, "slicekit /readyz", func(ctx context.Context) (bool, error) {
			return httpOK(ctx, "http://"+health+"/readyz"), nil
		}); err != nil {
			return c, err
		}
	}
	if err := c.waitFor(ctx, "Nodes Ready and untainted", c.nodesReady(o.nodes)); err != nil {
		return c, err
	}
	// What the e2e framework needs in every test namespace: KCM's
	// ServiceAccount controller and root CA publisher at work.
	if err := c.waitFor(ctx, "ServiceAccount default/default and ConfigMap default/kube-root-ca.crt", func(ctx context.Context) (bool, error) {
		if _, err := c.client.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{}); err != nil {
			return false, ignoreNotFound(err)
		}
		_, err := c.client.CoreV1().ConfigMaps("default").Get(ctx, "kube-root-ca.crt", metav1.GetOptions{})
		return err == nil, ignoreNotFound(err)
	}); err != nil {
		return c, err
	}
	return c, nil
}

// createNodes creates n Nodes for kwok to manage.
func (c *cluster) createNodes(ctx context.Context, n int) error {
	for i := range n {
		name := fmt.Sprintf("kwok-node-%d", i)
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name: name,
				Labels: map[string]string{
					"type":                   "kwok",
					"kubernetes.io/hostname": name,
					"kubernetes.io/os":       "linux",
					"kubernetes.io/arch":     "amd64",
				},
				Annotations: map[string]string{
					kwokNodeAnnotation:             "fake",
					"node.alpha.kubernetes.io/ttl": "0",
				},
			},
		}
		if _, err := c.client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating Node %s: %w", name, err)
		}
	}
	return nil
}

// nodesReady is a condition: n Nodes are Ready, schedulable and carry no
// NoSchedule or NoExecute taint (the e2e framework's WaitForAllNodesSchedulable).
func (c *cluster) nodesReady(n int) wait.ConditionWithContextFunc {
	return func(ctx context.Context) (bool, error) {
		nodes, err := c.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil //nolint:nilerr // retried until the timeout
		}
		ready := 0
		for _, node := range nodes.Items {
			ok := !node.Spec.Unschedulable
			for _, t := range node.Spec.Taints {
				if t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute {
					ok = false
				}
			}
			isReady := false
			for _, cond := range node.Status.Conditions {
				if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue {
					isReady = true
				}
			}
			if ok && isReady {
				ready++
			}
		}
		return ready >= n, nil
	}
}

// waitFor polls cond until it holds, a component dies, or readyTimeout passes.
func (c *cluster) waitFor(ctx context.Context, what string, cond wait.ConditionWithContextFunc) error {
	start := time.Now()
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, readyTimeout, true, func(ctx context.Context) (bool, error) {
		if err := c.died(); err != nil {
			return false, err
		}
		return cond(ctx)
	})
	if err != nil {
		return fmt.Errorf("waiting for %s: %w", what, err)
	}
	fmt.Printf("  %s after %v\n", what, time.Since(start).Round(10*time.Millisecond))
	return nil
}

// died returns an error naming the first component that exited.
func (c *cluster) died() error {
	for _, p := range c.procs {
		if err := p.Exited(); err != nil {
			return err
		}
	}
	return nil
}

// stop stops the components in reverse start order, then the API server and
// etcd.
func (c *cluster) stop() error {
	var errs []error
	for i := len(c.procs) - 1; i >= 0; i-- {
		if err := c.procs[i].Stop(); err != nil {
			errs = append(errs, err)
		}
	}
	if c.env != nil {
		if err := c.env.Stop(); err != nil {
			errs = append(errs, fmt.Errorf("stopping kube-apiserver and etcd: %w", err))
		}
	}
	return errors.Join(errs...)
}

// start starts a component with its output in dir/<name>.log.
func (c *cluster) start(dir, name, path string, args ...string) error {
	p, err := procs.Start(dir, name, path, args...)
	if err != nil {
		return err
	}
	c.add(p)
	return nil
}

// add records a started component, to be stopped in reverse order.
func (c *cluster) add(p *procs.Proc) {
	c.procs = append(c.procs, p)
	fmt.Printf("  started %s (pid %d), log %s\n", p.Name, p.Pid(), p.LogPath)
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func httpOK(ctx context.Context, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode == http.StatusOK
}
