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

package skew

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/test/harness/testenv"
)

// watchListClientEnv is client-go's environment switch for its
// WatchListClient gate (k8s.io/client-go/features: Beta, on by default
// since client-go v0.35). slicekit's --feature-gates does not carry
// client-go's gates; this variable is the only switch.
const watchListClientEnv = "KUBE_FEATURE_WatchListClient"

// fallbackLog is what client-go's reflector logs at -v=4 when a streaming
// list fails and it lists instead (k8s.io/client-go/tools/cache,
// Reflector.ListAndWatchWithContext).
const fallbackLog = "Falling back to regular list"

// TestWatchListFallback: on a kube-apiserver that refuses streaming lists
// (--feature-gates=WatchList=false; the gate is Beta and settable on every
// supported release, and off by default on 1.33), slicekit's informers,
// which try a streaming list first (client-go's WatchListClient gate, on by
// default), fall back to LIST and WATCH: the default controllers and the
// Endpoints controller turn ready and write the slices and Endpoints of a
// Service with ready Pods and the mirrored slice of a selectorless Service.
//
// It first proves the server refuses a streaming list (a watch with
// sendInitialEvents=true answers 422), then that the replica's informers
// took the fallback (client-go's message at -v=4), so it cannot pass on a
// server or client where no streaming list was ever tried.
func TestWatchListFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("starts etcd, kube-apiserver and slicekit; skipped under -short")
	}
	// The replica must try streaming lists whatever the caller's
	// environment says, or the fallback is never taken.
	t.Setenv(watchListClientEnv, "true")
	env, err := testenv.New(testenv.Options{APIServerFlags: map[string]string{"feature-gates": "WatchList=false"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	version, _, err := testenv.ServerVersion(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.Getenv(KubeVersionEnv); want != "" && version != want {
		t.Fatalf("the API server is %s, not %s=%s: $%s points at other binaries", version, KubeVersionEnv, want, testenv.BinDirEnv)
	}
	t.Logf("API server %s with --feature-gates=WatchList=false, started in %v", version, env.StartDuration.Round(time.Millisecond))
	ctx := t.Context()
	requireStreamingListRefused(t, ctx, env.Client)

	bin := slicekitBinary(t)
	kc := kubeconfig(t, env)
	ns := testenv.Namespace(t, env.Client)
	createWorkload(t, ctx, env.Client, ns, "web", 3)
	createMirrored(t, ctx, env.Client, ns, "external", "192.0.2.10", "192.0.2.11")

	r := startRun(t, bin, kc, "skew-watchlist", "--controllers=*,endpoints", "--v=4")
	if got, detail := r.wait(); got != ready {
		t.Fatalf("not ready on a server refusing streaming lists: %s", detail)
	}
	waitSlice(t, ctx, env.Client, ns, "web", 3)      // endpointslice: Services, Pods, Nodes, EndpointSlices
	waitSlice(t, ctx, env.Client, ns, "external", 2) // endpointslice-mirroring: Endpoints, Services, EndpointSlices
	waitEndpoints(t, ctx, env.Client, ns, "web", 3)  // endpoints: Services, Pods, Endpoints
	if log := r.log(); !strings.Contains(log, fallbackLog) {
		t.Fatalf("slicekit's log (-v=4) lacks client-go's %q: its informers never tried a streaming list, so the fallback was not exercised", fallbackLog)
	}
	t.Logf("informers fell back to LIST and WATCH %d times", strings.Count(r.log(), fallbackLog))
}

// requireStreamingListRefused fails the test unless the server answers a
// streaming list (a watch with sendInitialEvents=true, as client-go's
// reflector sends it) with 422 Invalid.
func requireStreamingListRefused(t *testing.T, ctx context.Context, c kubernetes.Interface) {
	t.Helper()
	send := true
	w, err := c.CoreV1().Services(metav1.NamespaceDefault).Watch(ctx, metav1.ListOptions{
		SendInitialEvents:    &send,
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		AllowWatchBookmarks:  true,
	})
	if err == nil {
		w.Stop()
		t.Fatal("the server accepted a streaming list (watch with sendInitialEvents=true): it does not exercise the fallback")
	}
	if !apierrors.IsInvalid(err) {
		t.Fatalf("streaming list: %v, want 422 Invalid (WatchList disabled)", err)
	}
	t.Logf("the server refuses streaming lists: %v", err)
}

// createMirrored creates a selectorless Service name and its Endpoints with
// ips, ready, on port 8080 (the mirroring controller's input).
func createMirrored(t *testing.T, ctx context.Context, c kubernetes.Interface, ns, name string, ips ...string) {
	t.Helper()
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}}},
	}
	if _, err := c.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	subset := corev1.EndpointSubset{Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}}
	for _, ip := range ips {
		subset.Addresses = append(subset.Addresses, corev1.EndpointAddress{IP: ip})
	}
	ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Subsets: []corev1.EndpointSubset{subset}}
	if _, err := c.CoreV1().Endpoints(ns).Create(ctx, ep, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitEndpoints waits until Endpoints name holds n ready addresses.
func waitEndpoints(t *testing.T, ctx context.Context, c kubernetes.Interface, ns, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	got := -1
	for time.Now().Before(deadline) {
		ep, err := c.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			got = -1
		case err != nil:
			t.Fatal(err)
		default:
			got = 0
			for _, s := range ep.Subsets {
				got += len(s.Addresses)
			}
			if got == n {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("Endpoints %s/%s: %d ready addresses after %v, want %d", ns, name, got, readyTimeout, n)
}
