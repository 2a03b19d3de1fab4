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
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/slicekit/slicekit/internal/localapply"
	"github.com/slicekit/slicekit/test/harness/procs"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

const (
	// nodeIP is the simulated node's address, on its namespace's loopback.
	nodeIP = "10.250.0.1"
	// clusterCIDR holds every Pod and client address.
	clusterCIDR = "10.244.0.0/16"
	// podPort is where every Pod's HTTP server listens.
	podPort = 8080
	// apiInNode is where components in the node namespace reach the API
	// server (a forwarder to the host's loopback).
	apiInNode = "127.0.0.1:6443"
	// dnsDomain is CoreDNS's cluster domain.
	dnsDomain = "cluster.local"
)

// The Nodes: kube-proxy and CoreDNS run as node-a (zone-a); node-b (zone-b)
// and node-c (zone-a) only exist as API objects, so that Pods "on" them are
// remote for internalTrafficPolicy: Local while their namespaces still hang
// off the one simulated node.
var nodes = []struct{ name, zone string }{{"node-a", "zone-a"}, {"node-b", "zone-b"}, {"node-c", "zone-a"}}

// localNode is the Node kube-proxy runs as.
const localNode = "node-a"

// world is one simulated node: its namespace, kube-proxy in one mode,
// CoreDNS, a client namespace and the Pod namespaces, against one control
// plane.
type world struct {
	t      *testing.T
	env    *testenv.Env
	binDir string
	dir    string
	mode   string
	prefix string // of every namespace and link name
	node   string // node namespace
	client string // client namespace

	mu      sync.Mutex
	nextIP  int
	servers map[string]*podServer // by Pod (or server) name, per Kubernetes namespace
}

// podServer is a Pod's network namespace and HTTP server.
type podServer struct {
	name, ns, ip string
	ln           net.Listener
	srv          *http.Server
}

var worldSeq int

// newWorld builds the node and client namespaces, starts the API
// forwarder, kube-proxy in mode and CoreDNS, and creates the Nodes.
func newWorld(t *testing.T, env *testenv.Env, binDir, mode string) *world {
	t.Helper()
	worldSeq++
	w := &world{
		t: t, env: env, binDir: binDir, dir: t.TempDir(), mode: mode,
		prefix:  fmt.Sprintf("skdp%d%d", os.Getpid()%1000, worldSeq),
		servers: map[string]*podServer{},
	}
	w.node = w.prefix + "-node"
	addNetNS(t, w.node)
	mustRun(t, "ip", "-n", w.node, "addr", "add", nodeIP+"/32", "dev", "lo")
	sysctl(t, w.node, "net.ipv4.ip_forward", "1")
	// Pitfall 1 of docs/dataplane.md: kube-proxy's reject rules answer with
	// ICMP errors that the kernel rate-limits.
	sysctl(t, w.node, "net.ipv4.icmp_ratelimit", "0")
	w.client = w.prefix + "-client"
	w.attach(w.client, w.allocIP())

	ctx := context.Background()
	for _, n := range nodes {
		node := &corev1.Node{
			TypeMeta: metav1.TypeMeta{Kind: "Node", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: n.name, Labels: map[string]string{
				corev1.LabelTopologyZone: n.zone, corev1.LabelHostname: n.name,
			}},
			Status: corev1.NodeStatus{
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
					LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now()}},
			},
		}
		if n.name == localNode {
			node.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: nodeIP}}
		}
		if _, err := localapply.Apply(ctx, env.Client, node, discard{}); err != nil {
			t.Fatal(err)
		}
	}

	u, err := url.Parse(env.Host())
	if err != nil {
		t.Fatal(err)
	}
	target := u.Host
	forwardInto(t, w.node, apiInNode, target)
	kubeconfig := w.nodeKubeconfig()
	w.startKubeProxy(kubeconfig)
	w.startCoreDNS(kubeconfig)
	return w
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// allocIP returns the next free address of clusterCIDR.
func (w *world) allocIP() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.nextIP++
	return fmt.Sprintf("10.244.%d.%d", w.nextIP/250, w.nextIP%250+1)
}

// attach creates namespace ns linked to the node by a veth pair, with ip/32,
// a default route via the node, and the node's /32 route back.
func (w *world) attach(ns, ip string) {
	t := w.t
	t.Helper()
	addNetNS(t, ns)
	w.mu.Lock()
	link := fmt.Sprintf("v%s", strings.TrimPrefix(ns, w.prefix+"-"))
	w.mu.Unlock()
	if len(link) > 15 {
		link = link[:15]
	}
	mustRun(t, "ip", "link", "add", link, "netns", w.node, "type", "veth", "peer", "name", "eth0", "netns", ns)
	mustRun(t, "ip", "-n", ns, "addr", "add", ip+"/32", "dev", "eth0")
	mustRun(t, "ip", "-n", ns, "link", "set", "eth0", "up")
	mustRun(t, "ip", "-n", ns, "route", "add", nodeIP, "dev", "eth0", "scope", "link")
	mustRun(t, "ip", "-n", ns, "route", "add", "default", "via", nodeIP, "dev", "eth0")
	mustRun(t, "ip", "-n", w.node, "link", "set", link, "up")
	mustRun(t, "ip", "-n", w.node, "route", "add", ip+"/32", "dev", link)
	// Pitfall 5 of docs/dataplane.md: TIME_WAIT state in the servers made
	// later connections with reused client ports time out.
	sysctl(t, ns, "net.ipv4.tcp_max_tw_buckets", "0")
}

// serve creates a namespace for a Pod (or a bare server) called name in
// Kubernetes namespace kns, with an HTTP server on podPort answering name,
// and returns it.
func (w *world) serve(kns, name string) *podServer {
	t := w.t
	t.Helper()
	w.mu.Lock()
	idx := len(w.servers)
	w.mu.Unlock()
	ns := fmt.Sprintf("%s-p%d", w.prefix, idx)
	ip := w.allocIP()
	w.attach(ns, ip)
	ln, err := listenIn(ns, fmt.Sprintf("%s:%d", ip, podPort))
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
			_, _ = rw.Write([]byte(name))
		}),
		ReadHeaderTimeout: 5 * time.Second,
	}
	srv.SetKeepAlivesEnabled(false)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	ps := &podServer{name: name, ns: ns, ip: ip, ln: ln, srv: srv}
	w.mu.Lock()
	w.servers[kns+"/"+name] = ps
	w.mu.Unlock()
	return ps
}

// nodeKubeconfig writes an admin kubeconfig whose server is the forwarder
// inside the node namespace, and returns its path.
func (w *world) nodeKubeconfig() string {
	t := w.t
	data, err := w.env.KubeConfig("dataplane")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Clusters["dataplane"].Server = "https://" + apiInNode
	path := filepath.Join(w.dir, "node.kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// startInNode starts bin with args inside the node namespace, stopped at
// the end of the test.
func (w *world) startInNode(name, bin string, args ...string) *procs.Proc {
	t := w.t
	t.Helper()
	p, err := procs.Start(w.dir, name, "ip", append([]string{"netns", "exec", w.node, bin}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s log (tail):\n%s", name, tailNoFlags(p.LogPath))
		}
		if err := p.Stop(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// startKubeProxy starts kube-proxy in w.mode as localNode, with a
// configuration that needs no kernel conntrack tuning (docs/dataplane.md).
func (w *world) startKubeProxy(kubeconfig string) {
	t := w.t
	cfg := fmt.Sprintf(`apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection:
  kubeconfig: %s
mode: %s
hostnameOverride: %s
clusterCIDR: %s
bindAddress: %s
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
oomScoreAdj: 0
conntrack:
  maxPerCore: 0
  min: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
iptables:
  localhostNodePorts: false
`, kubeconfig, w.mode, localNode, clusterCIDR, nodeIP)
	path := filepath.Join(w.dir, "kube-proxy.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	p := w.startInNode("kube-proxy-"+w.mode, filepath.Join(w.binDir, "kube-proxy"), "--config="+path, "--v=2")
	// kube-proxy is ready when its healthz answers inside the node.
	deadline := time.Now().Add(90 * time.Second)
	for {
		if err := p.Exited(); err != nil {
			t.Fatal(err)
		}
		if c, err := dialIn(context.Background(), w.node, "tcp", "127.0.0.1:10256", time.Second); err == nil {
			_ = c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kube-proxy (%s) not serving healthz within 90s:\n%s", w.mode, tailNoFlags(p.LogPath))
		}
		time.Sleep(200 * time.Millisecond)
	}
	// Its healthz answers 200 once the proxier has synced its rules: by
	// then it has registered all its handlers.
	hc := &http.Client{Timeout: time.Second, Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return dialIn(ctx, w.node, network, addr, time.Second)
		},
	}}
	for {
		resp, err := hc.Get("http://127.0.0.1:10256/healthz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("kube-proxy (%s) healthz not 200 within 90s (%v):\n%s", w.mode, err, tailNoFlags(p.LogPath))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("kube-proxy %s running in %s (log %s)", w.mode, w.node, p.LogPath)
	w.nudgeZone()
}

// nudgeZone relabels localNode's zone away and back once kube-proxy runs.
// kube-proxy v1.37.2 (cmd/kube-proxy/app/server.go) adds its Node topology
// handler to an informer that is already running and registers the proxier
// with it only afterwards: when the Node's Add event comes first, the zone
// is recorded but never handed to the proxier, and later events with the
// same labels are ignored, so hints are dropped ("node is missing label").
// Seen here in about one run in ten; a change of the label delivers it.
func (w *world) nudgeZone() {
	t := w.t
	ctx := context.Background()
	for _, zone := range []string{"zone-a-nudge", "zone-a"} {
		patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, corev1.LabelTopologyZone, zone)
		if _, err := w.env.Client.CoreV1().Nodes().Patch(ctx, localNode, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// startCoreDNS starts CoreDNS with the kubernetes plugin on nodeIP:53.
func (w *world) startCoreDNS(kubeconfig string) {
	t := w.t
	corefile := fmt.Sprintf(`.:53 {
    errors
    kubernetes %s {
        kubeconfig %s dataplane
    }
}
`, dnsDomain, kubeconfig)
	path := filepath.Join(w.dir, "Corefile")
	if err := os.WriteFile(path, []byte(corefile), 0o600); err != nil {
		t.Fatal(err)
	}
	p := w.startInNode("coredns-"+w.mode, filepath.Join(w.binDir, "coredns"), "-conf", path)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := p.Exited(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := w.resolver().LookupHost(ctx, "kubernetes.default.svc."+dnsDomain+".")
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("CoreDNS does not answer kubernetes.default within 60s (%v):\n%s", err, procs.Tail(p.LogPath, 3000))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("CoreDNS running in %s", w.node)
}

// resolver asks CoreDNS from the client namespace.
func (w *world) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return dialIn(ctx, w.client, network, net.JoinHostPort(nodeIP, "53"), time.Second)
	}}
}

// checkTools fails t unless the commands the data plane needs exist.
func checkTools(t *testing.T, mode string) {
	t.Helper()
	need := []string{"ip", "sysctl"}
	switch mode {
	case "nftables":
		need = append(need, "nft")
	case "iptables":
		need = append(need, "iptables", "iptables-save", "iptables-restore")
	}
	var missing []string
	for _, c := range need {
		if _, err := exec.LookPath(c); err != nil {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("missing commands %v: apt-get install -y iproute2 procps nftables iptables conntrack", missing)
	}
}

// tailNoFlags is the end of a component's log without its FLAG lines.
func tailNoFlags(path string) string {
	var keep []string
	for _, l := range strings.Split(procs.Tail(path, 40000), "\n") {
		if !strings.Contains(l, "] FLAG: --") {
			keep = append(keep, l)
		}
	}
	if len(keep) > 40 {
		keep = keep[len(keep)-40:]
	}
	return strings.Join(keep, "\n")
}
