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

package besidekcm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/endpoints"

	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/controllers/selectorlesscleanup"
	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/pkg/source/addressguard"
	"github.com/slicekit/slicekit/test/harness/casefile"
	"github.com/slicekit/slicekit/test/harness/procs"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// secondaryName is the secondary-network controller's name in case 36.
const secondaryName = "secondary.example.com"

// controlPlane starts etcd and kube-apiserver, and kube-controller-manager
// with all its default controllers when withKCM. It skips under -short and
// fails when a binary is missing.
func controlPlane(t *testing.T, withKCM bool) *testenv.Env {
	t.Helper()
	env, _ := controlPlaneWithKCM(t, withKCM)
	return env
}

// controlPlaneWithKCM is controlPlane that also returns the
// kube-controller-manager process (nil without KCM), which the test may stop
// early (its cleanup stops it otherwise).
func controlPlaneWithKCM(t *testing.T, withKCM bool) (*testenv.Env, *procs.Proc) {
	t.Helper()
	if testing.Short() {
		t.Skip("test/besidekcm starts etcd, kube-apiserver and kube-controller-manager; skipped under -short")
	}
	binDir, err := testenv.BinDir()
	if err != nil {
		t.Fatal(err)
	}
	if withKCM {
		if _, err := os.Stat(filepath.Join(binDir, procs.KubeControllerManager)); err != nil {
			t.Fatalf("%s is missing in %s: build it with `%s` (or `make controlplane`; `make test` does it)",
				procs.KubeControllerManager, binDir, procs.BuildKubeControllerManager)
		}
	}
	env := testenv.StartEnv(t)
	if !withKCM {
		return env, nil
	}
	dir := t.TempDir()
	kcm, err := procs.StartKubeControllerManager(env, procs.KCMOptions{
		BinDir: binDir, Dir: dir,
		// No kubelet renews the fake Node's lease: keep the node lifecycle
		// controller from marking it unknown (and its Pods not ready)
		// during the test. Every controller still runs.
		ExtraArgs: []string{"--node-monitor-grace-period=1h"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("kube-controller-manager log (tail):\n%s", procs.Tail(kcm.LogPath, 6000))
		}
		if err := kcm.Stop(); err != nil {
			t.Error(err)
		}
	})
	// KCM is up when its ServiceAccount controller has made default/default.
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := kcm.Exited(); err != nil {
			t.Fatal(err)
		}
		if _, err := env.Client.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kube-controller-manager did not create ServiceAccount default/default within 2m:\n%s", procs.Tail(kcm.LogPath, 4000))
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("kube-controller-manager (pid %d, --controllers=*) is up; log %s", kcm.Pid(), kcm.LogPath)
	return env, kcm
}

// runSlicekit runs slicekit's manager in the test process with controllers
// until the end of the test, and returns it (for its metrics).
func runSlicekit(t *testing.T, cfg *rest.Config, controllers ...string) *manager.Manager {
	t.Helper()
	logger, ctx := ktesting.NewTestContext(t)
	ctx = klog.NewContext(ctx, logger.WithName("slicekit"))
	ctx, cancel := context.WithCancel(ctx)
	o := manager.NewOptions()
	o.RESTConfig = cfg
	o.Controllers = controllers
	o.For(secondarynetwork.RegistrationName).(*secondarynetwork.Options).ControllerName = secondaryName
	o.MetricsBindAddress = "0"
	o.HealthProbeBindAddress = "0"
	o.LeaderElection.LeaderElect = false
	o.MinResyncPeriod = 0
	serviceCIDRs, err := addressguard.ParseCIDRs(testenv.ServiceClusterIPRange(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	o.AddressGuard.ServiceCIDRs = serviceCIDRs
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	m, err := manager.New(ctx, o)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("slicekit Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("slicekit did not stop within 30s")
		}
	})
	return m
}

// runCase runs case id live on client and fails t on any failed check.
func runCase(t *testing.T, ctx context.Context, client kubernetes.Interface, id string, wrap func(casefile.Backend) casefile.Backend) {
	t.Helper()
	c := casefile.MustLoad(t, id)
	lb := &casefile.LiveBackend{Client: client}
	var b casefile.Backend = lb
	if wrap != nil {
		b = wrap(lb)
	}
	res := casefile.Run(ctx, c, b, casefile.RunOptions{})
	casefile.Report(t, res)
	if len(res.Checks) == 0 {
		t.Errorf("case %s: no check ran", id)
	}
}

// TestCasesBesideKCM runs cases 33, 34 and 36 live beside an unmodified
// kube-controller-manager running all its default controllers, with
// slicekit running `secondary-network,selectorless-cleanup`. Case 36 is
// watched (see TestCasesBesideKCM/36 and checkPrimaryWindow).
func TestCasesBesideKCM(t *testing.T) {
	for _, id := range []string{"33", "34", "36"} {
		t.Run(id, func(t *testing.T) {
			// Each case on its own control plane: without kubelets, Pods
			// never finish terminating, so a case's namespace cannot be
			// deleted for the next one.
			env := controlPlane(t, true)
			runSlicekit(t, env.Config, secondarynetwork.RegistrationName, selectorlesscleanup.RegistrationName)
			_, ctx := ktesting.NewTestContext(t)
			if id != "36" {
				runCase(t, ctx, env.Client, id, nil)
				return
			}
			rec := &recorder{}
			stop := rec.watch(t, ctx, env.Client, "ns-a")
			var removedAt time.Time
			runCase(t, ctx, env.Client, id, func(b casefile.Backend) casefile.Backend {
				return &patchTimer{Backend: b, at: &removedAt}
			})
			stop()
			checkPrimaryWindow(t, rec.all(), removedAt, "svc-m", []string{"10.0.0.41", "10.0.0.42"})
		})
	}
}

// TestCase36WithoutCleanupFails is the negative control: beside KCM with
// only the secondary-network controller (no selectorless-cleanup), KCM's
// leftovers stay and case 36 fails, as the upstream bug says.
func TestCase36WithoutCleanupFails(t *testing.T) {
	env := controlPlane(t, true)
	runSlicekit(t, env.Config, secondarynetwork.RegistrationName)
	_, ctx := ktesting.NewTestContext(t)
	res := casefile.Run(ctx, casefile.MustLoad(t, "36"), &casefile.LiveBackend{Client: env.Client}, casefile.RunOptions{})
	if !res.Failed() {
		t.Errorf("case 36 passed beside KCM without selectorless-cleanup; KCM's leftovers should have made it fail:\n%s", res)
	}
}

// TestCasesSlicekitAlone runs cases 33, 34 and 36 live against slicekit
// alone, as `slicekit run --controllers=*,endpoints,secondary-network`
// (no kube-controller-manager), each on its own control plane.
func TestCasesSlicekitAlone(t *testing.T) {
	for _, id := range []string{"33", "34", "36"} {
		t.Run(id, func(t *testing.T) {
			env := controlPlane(t, false)
			runSlicekit(t, env.Config, "*", endpoints.RegistrationName, secondarynetwork.RegistrationName)
			_, ctx := ktesting.NewTestContext(t)
			runCase(t, ctx, env.Client, id, nil)
		})
	}
}

// patchTimer records when the Service patch step (the selector removal of
// case 36) returned.
type patchTimer struct {
	casefile.Backend
	at *time.Time
}

func (p *patchTimer) Patch(ctx context.Context, patch *casefile.Patch) error {
	err := p.Backend.Patch(ctx, patch)
	if patch.Kind == "Service" {
		*p.at = time.Now()
	}
	return err
}

// UIDMap forwards to the live backend.
func (p *patchTimer) UIDMap() map[types.UID]types.UID {
	return p.Backend.(casefile.UIDMapper).UIDMap()
}

// event is one watch event of an EndpointSlice or Endpoints object.
type event struct {
	at   time.Time
	typ  watch.EventType
	kind string
	name string
	// service is the Service the object belongs to.
	service string
	// addresses are the addresses it lists (none for a deletion).
	addresses []string
}

// recorder keeps every EndpointSlice and Endpoints watch event of a
// namespace, in order.
type recorder struct {
	mu     sync.Mutex
	events []event
}

func (r *recorder) add(e event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) all() []event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// watch starts watches of EndpointSlices and Endpoints in ns; stop ends
// them and waits for the goroutines.
func (r *recorder) watch(t *testing.T, ctx context.Context, client kubernetes.Interface, ns string) (stop func()) {
	t.Helper()
	sw, err := client.DiscoveryV1().EndpointSlices(ns).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ew, err := client.CoreV1().Endpoints(ns).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		sw.Stop()
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for ev := range sw.ResultChan() {
			s, ok := ev.Object.(*discovery.EndpointSlice)
			if !ok {
				continue
			}
			e := event{at: time.Now(), typ: ev.Type, kind: "EndpointSlice " + s.Labels[discovery.LabelManagedBy], name: s.Name, service: s.Labels[discovery.LabelServiceName]}
			if ev.Type != watch.Deleted {
				for _, ep := range s.Endpoints {
					e.addresses = append(e.addresses, ep.Addresses...)
				}
			}
			r.add(e)
		}
	})
	wg.Go(func() {
		for ev := range ew.ResultChan() {
			ep, ok := ev.Object.(*corev1.Endpoints)
			if !ok {
				continue
			}
			e := event{at: time.Now(), typ: ev.Type, kind: "Endpoints", name: ep.Name, service: ep.Name}
			if ev.Type != watch.Deleted {
				for _, ss := range ep.Subsets {
					for _, a := range append(slices.Clone(ss.Addresses), ss.NotReadyAddresses...) {
						e.addresses = append(e.addresses, a.IP)
					}
				}
			}
			r.add(e)
		}
	})
	return func() {
		sw.Stop()
		ew.Stop()
		wg.Wait()
	}
}

// checkPrimaryWindow replays the recorded events of service from removedAt
// (the selector removal) on. It fails when, at the end, an EndpointSlice
// or Endpoints object of the Service still lists a primary address; when
// primary addresses come back once no object listed one any more (a
// built-in controller rewriting what the clean-up deleted), except a
// slice of KCM's own controllers within staleCacheGrace of the first
// clean-up: KCM's mirroring controller may still mirror, from its cache,
// an Endpoints object the clean-up has just deleted (seen in CI: the
// Endpoints deleted at +21ms, KCM's mirrored slice created at +35ms and
// deleted by the clean-up at +41ms); that slice is logged and must go
// again; or when one object lists primary and secondary addresses
// together. It logs the window: from the selector removal until no object
// of the Service listed a primary address any more.
func checkPrimaryWindow(t *testing.T, events []event, removedAt time.Time, service string, primary []string) {
	t.Helper()
	if removedAt.IsZero() {
		t.Fatal("the selector removal (Service patch) was not seen")
	}
	hasPrimary := func(addrs []string) bool {
		return slices.ContainsFunc(addrs, func(a string) bool { return slices.Contains(primary, a) })
	}
	state := map[string]bool{} // kind/name -> lists a primary address
	any := func() bool {
		for _, v := range state {
			if v {
				return true
			}
		}
		return false
	}
	// staleCacheGrace bounds how long after the first clean-up KCM may
	// still act on a cache that has not seen it; a rewrite later than that
	// is a fight between controllers.
	const staleCacheGrace = time.Second
	kcmSlice := func(kind string) bool {
		return kind == "EndpointSlice endpointslicemirroring-controller.k8s.io" || kind == "EndpointSlice endpointslice-controller.k8s.io"
	}
	var timeline []string
	var cleanAt, firstCleanAt time.Time
	primaryAtRemoval := false
	for _, e := range events {
		if e.service != service {
			continue
		}
		key := e.kind + "/" + e.name
		before := any()
		if e.typ == watch.Deleted {
			delete(state, key)
		} else {
			state[key] = hasPrimary(e.addresses)
			if state[key] && slices.ContainsFunc(e.addresses, func(a string) bool { return !slices.Contains(primary, a) }) {
				t.Errorf("%s %s lists primary and secondary addresses together: %v", e.kind, e.name, e.addresses)
			}
		}
		if e.at.Before(removedAt) {
			primaryAtRemoval = any()
			continue
		}
		timeline = append(timeline, fmt.Sprintf("+%v %s %s %s %v", e.at.Sub(removedAt).Round(time.Millisecond), e.typ, e.kind, e.name, e.addresses))
		if before && !any() {
			cleanAt = e.at
			if firstCleanAt.IsZero() {
				firstCleanAt = e.at
			}
		}
		if !before && any() && !cleanAt.IsZero() {
			if kcmSlice(e.kind) && e.at.Sub(firstCleanAt) <= staleCacheGrace {
				t.Logf("KCM rewrote primary addresses of %s from a cache older than the clean-up: %s", service, timeline[len(timeline)-1])
			} else {
				t.Errorf("primary addresses of %s came back after the clean-up: %s", service, timeline[len(timeline)-1])
			}
		}
	}
	t.Logf("events of %s after the selector removal:\n%s", service, strings.Join(timeline, "\n"))
	if !primaryAtRemoval {
		t.Errorf("no primary address was published before the selector removal: the test did not see the state it must clean up")
	}
	if any() {
		t.Fatalf("primary addresses of %s are still published at the end: %v", service, state)
	}
	if cleanAt.IsZero() {
		t.Fatalf("never saw primary addresses of %s go away", service)
	}
	t.Logf("primary addresses of %s visible for %v after the selector removal (until the clean-up finished)",
		service, cleanAt.Sub(removedAt).Round(time.Millisecond))
}
