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

package differential

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/endpointslice"
	kcmmetrics "k8s.io/endpointslice/metrics"
	"k8s.io/endpointslice/topologycache"
	endpointsliceutil "k8s.io/endpointslice/util"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/serviceindex"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/reconciler/metrics"
	"github.com/slicekit/slicekit/pkg/reconciler/topology"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// The benchmarks run KCM's reconciler and slicekit's (servicepods source +
// reconciler) side by side on identical inputs, as sub-benchmarks named
// .../kcm and .../slicekit. Both sides include turning Pods into endpoints
// (KCM does it inside Reconcile). Both have a topology cache with the
// Nodes set and metrics registered (KCM's global ones through
// RegisterMetrics, slicekit's on a private registry), as in a running
// controller. Trigger times are fixed: the tracker is the controller's, not
// the reconciler's, and is the same algorithm on both sides.
//
// The client is a sliceStore without copies or write log: a map behind a
// bare fake clientset, reached without the fake's action machinery (see
// directClient), so the client does not dominate. Each benchmark
// reports writes/op, the EndpointSlice creates, updates and deletes per op,
// and cpu-ns/op, the process's CPU time per op (see cpuMeter).
//
// hack/bench-table.sh runs them and prints a table with kcm/slicekit ratios.

const benchNodes = 10

var benchTT = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// benchReconciler is one side: one sync of svc with pods and existing.
type benchReconciler interface {
	reconcile(svc *corev1.Service, pods []*corev1.Pod, existing []*discovery.EndpointSlice) error
}

type kcmBench struct {
	r      *endpointslice.Reconciler
	logger klog.Logger
}

func (k *kcmBench) reconcile(svc *corev1.Service, pods []*corev1.Pod, existing []*discovery.EndpointSlice) error {
	return k.r.Reconcile(k.logger, svc, pods, existing, benchTT)
}

type ourBench struct {
	ctx   context.Context
	r     *reconciler.Reconciler
	nodes podendpoint.NodeGetter
}

func (o *ourBench) reconcile(svc *corev1.Service, pods []*corev1.Pod, existing []*discovery.EndpointSlice) error {
	desired, err := servicepods.Desired(o.ctx, svc, pods, o.nodes, podendpoint.Options{})
	if desired == nil {
		return err
	}
	if rerr := o.r.Reconcile(o.ctx, svc, desired, existing, benchTT); rerr != nil {
		return rerr
	}
	return err
}

// newBenchSide returns the reconciler of one side ("kcm" or "slicekit")
// writing to store, max 100 endpoints per slice (KCM's default).
func newBenchSide(tb testing.TB, side string, store *sliceStore, nodes []*corev1.Node) benchReconciler {
	tb.Helper()
	logger := logr.Discard()
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, n := range nodes {
		if err := idx.Add(n); err != nil {
			tb.Fatal(err)
		}
	}
	lister := corelisters.NewNodeLister(idx)
	switch side {
	case "kcm":
		kcmmetrics.RegisterMetrics()
		topo := topologycache.NewTopologyCache()
		topo.SetNodes(logger, nodes)
		r := endpointslice.NewReconciler(store.directClient(), lister, 100, endpointsliceutil.NewEndpointSliceTracker(),
			topo, record.NewFakeRecorder(100), controllerName, endpointslice.WithPreferSameTrafficDistributionEnabled(true))
		return &kcmBench{r: r, logger: logger}
	case "slicekit":
		topo := topology.NewTopologyCache()
		topo.SetNodes(logger, nodes)
		m, err := metrics.New(prometheus.NewRegistry(), metrics.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		r, err := reconciler.New(store.directClient(), reconciler.Config{
			ControllerName:       controllerName,
			OwnerGVK:             reconciler.ServiceGVK,
			MaxEndpointsPerSlice: 100,
			Placeholder:          true,
			EnforceOwnership:     true,
			Metadata:             reconciler.ServiceMetadata{},
		}, reconciler.WithTopologyCache(topo), reconciler.WithMetrics(m), reconciler.WithEventRecorder(record.NewFakeRecorder(100)))
		if err != nil {
			tb.Fatal(err)
		}
		return &ourBench{ctx: klog.NewContext(context.Background(), logger), r: r, nodes: lister}
	}
	tb.Fatalf("unknown side %q", side)
	return nil
}

func benchNodeList() []*corev1.Node {
	var out []*corev1.Node
	for i := range benchNodes {
		out = append(out, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%d", i), Labels: map[string]string{corev1.LabelTopologyZone: zones[i%len(zones)]}},
			Status: corev1.NodeStatus{
				Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")},
				Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
			},
		})
	}
	return out
}

// benchService is a ClusterIP IPv4 Service whose one port targets the
// named container port "http".
func benchService(name string) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace, UID: types.UID("uid-" + name),
			Labels: map[string]string{"app": name}, CreationTimestamp: metav1.NewTime(baseTime)},
		Spec: corev1.ServiceSpec{
			ClusterIP:  "10.96.0.10",
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")}},
		},
	}
}

// benchPod is ready pod number i (unique name and IPv4 address for i below
// 2^24) on one of the bench nodes.
func benchPod(i int) *corev1.Pod {
	ip := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Namespace: testNamespace, UID: types.UID(fmt.Sprintf("pod-uid-%d", i))},
		Spec: corev1.PodSpec{
			NodeName:   fmt.Sprintf("node-%d", i%benchNodes),
			Containers: []corev1.Container{{Name: "app", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}},
		},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			PodIP:      ip,
			PodIPs:     []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(baseTime)}},
		},
	}
}

// initialSlices returns the slices KCM makes for svc and pods from
// scratch: the identical starting point of both sides.
func initialSlices(tb testing.TB, svc *corev1.Service, pods []*corev1.Pod, nodes []*corev1.Node) []*discovery.EndpointSlice {
	tb.Helper()
	store := newSliceStore("i", true, false)
	if err := newBenchSide(tb, "kcm", store, nodes).reconcile(svc, pods, nil); err != nil {
		tb.Fatal(err)
	}
	return store.list()
}

var benchSides = []string{"kcm", "slicekit"}

// cpuMeter reports cpu-ns/op: the process's CPU time (user + system,
// garbage collection included) per op. Unlike ns/op (wall time) it does
// not grow when other processes compete for the CPU, which makes the
// kcm/slicekit ratio stable on a busy machine.
type cpuMeter struct{ start time.Duration }

func startCPU() cpuMeter {
	t, _ := processCPU()
	return cpuMeter{t}
}

func (m cpuMeter) report(b *testing.B) {
	if t, ok := processCPU(); ok {
		b.ReportMetric(float64(t-m.start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkReadinessFlip: one op is one sync after one pod of a Service of
// n ready endpoints (n = 1,000, 10,000 and 50,000; slices of 100) flipped
// its readiness. Each op flips the next pod, so the work per op is steady:
// one endpoint changes, one slice is updated. Besides kcm and slicekit
// (the full planner), the incremental side is slicekit's incremental path
// (issue 14): the Pod event marks the pod (serviceindex.Index.PodChanged), and
// the sync reads only that pod (serviceindex.Index.Update, including the
// trigger-time update, which the other sides leave to the controller),
// plans with PlanIndexed and applies. It reports full/op, the syncs that
// fell back to the full planner (0 expected).
func BenchmarkReadinessFlip(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchReadinessFlip(b, n) })
	}
}

func benchReadinessFlip(b *testing.B, n int) {
	nodes := benchNodeList()
	svc := benchService("flip")
	template := func() []*corev1.Pod {
		pods := make([]*corev1.Pod, n)
		for i := range pods {
			pods[i] = benchPod(i)
		}
		return pods
	}
	start := initialSlices(b, svc, template(), nodes)
	for _, side := range []string{"kcm", "slicekit", "incremental"} {
		b.Run(side, func(b *testing.B) {
			pods := template()
			store := newSliceStore("b", false, false)
			store.reset(copySlices(start))
			var r benchReconciler
			if side == "incremental" {
				r = newIncrementalBench(b, store, nodes, pods)
				// The first sync builds the index from every Pod.
				if err := r.reconcile(svc, pods, store.list()); err != nil {
					b.Fatal(err)
				}
			} else {
				r = newBenchSide(b, side, store, nodes)
			}
			notify, _ := r.(podNotifier)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				p := pods[i%n]
				c := &p.Status.Conditions[0]
				if c.Status == corev1.ConditionTrue {
					c.Status = corev1.ConditionFalse
				} else {
					c.Status = corev1.ConditionTrue
				}
				c.LastTransitionTime = metav1.NewTime(baseTime.Add(time.Duration(i+1) * time.Second))
				if notify != nil {
					notify.podChanged(p.Name)
				}
				if err := r.reconcile(svc, pods, store.list()); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
			b.ReportMetric(float64(store.writeCount())/float64(b.N), "writes/op")
			if ib, ok := r.(*incrementalBench); ok {
				b.ReportMetric(float64(ib.full-1)/float64(b.N), "full/op")
			}
		})
	}
}

// podNotifier is a side that is told which Pod changed (the Pod event
// handler's work).
type podNotifier interface{ podChanged(name string) }

// incrementalBench is slicekit's incremental path: a serviceindex.Index kept
// from Pod events, PlanIndexed, Apply.
type incrementalBench struct {
	ctx   context.Context
	r     *reconciler.Reconciler
	nodes podendpoint.NodeGetter
	pods  benchPodLister
	idx   *serviceindex.Index
	full  int // syncs planned by the full planner
}

func newIncrementalBench(tb testing.TB, store *sliceStore, nodes []*corev1.Node, pods []*corev1.Pod) *incrementalBench {
	tb.Helper()
	side := newBenchSide(tb, "slicekit", store, nodes).(*ourBench)
	lister := benchPodLister{}
	for _, p := range pods {
		lister[p.Name] = p
	}
	return &incrementalBench{ctx: side.ctx, r: side.r, nodes: side.nodes, pods: lister,
		idx: serviceindex.New(servicepods.Source(podendpoint.Options{}))}
}

func (o *incrementalBench) podChanged(name string) { o.idx.PodChanged(name) }

func (o *incrementalBench) reconcile(svc *corev1.Service, _ []*corev1.Pod, existing []*discovery.EndpointSlice) error {
	if _, err := o.idx.Update(o.ctx, svc, labels.Everything(), o.pods, o.nodes); err != nil {
		return err
	}
	plan, desired, reason, err := o.r.PlanIndexed(o.ctx, svc, o.idx.Endpoints(), existing)
	if err != nil {
		return err
	}
	if reason != "" {
		o.full++
	}
	return o.r.Apply(o.ctx, svc, plan, desired, benchTT)
}

// benchPodLister is a PodLister over the benchmark's Pods (by name).
type benchPodLister map[string]*corev1.Pod

func (l benchPodLister) Get(name string) (*corev1.Pod, error) {
	if p, ok := l[name]; ok {
		return p, nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("pods"), name)
}

func (l benchPodLister) List(sel labels.Selector) ([]*corev1.Pod, error) {
	out := make([]*corev1.Pod, 0, len(l))
	for _, p := range l {
		if sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out, nil
}

// BenchmarkRollingUpdate: one op is a whole rolling update of a Service of
// 1,000 pods in steps of 25: each step replaces the 25 oldest pods with 25
// new ones (new names and addresses) and syncs, starting from the previous
// step's slices. The incremental side is told the 50 Pods of each step
// (serviceindex.Index.PodChanged) and reports full/op, the steps that fell back
// to the full planner.
func BenchmarkRollingUpdate(b *testing.B) {
	const n, step = 1000, 25
	nodes := benchNodeList()
	svc := benchService("rolling")
	all := make([]*corev1.Pod, 2*n)
	for i := range all {
		all[i] = benchPod(i)
	}
	var steps [][]*corev1.Pod
	for s := step; s <= n; s += step {
		steps = append(steps, all[s:n+s])
	}
	start := initialSlices(b, svc, all[:n], nodes)
	for _, side := range append(benchSides, "incremental") {
		b.Run(side, func(b *testing.B) {
			store := newSliceStore("b", false, false)
			var r benchReconciler
			if side != "incremental" {
				r = newBenchSide(b, side, store, nodes)
			}
			writes, full := 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			// Includes the untimed store resets (negligible) and, for the
			// incremental side, the untimed first sync of each op that
			// builds the index from the 1,000 Pods (a full sync's work).
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				writes += store.writeCount()
				store.reset(copySlices(start))
				var ib *incrementalBench
				if side == "incremental" {
					// The index of the Service before the roll, built by a
					// first sync that writes nothing.
					ib = newIncrementalBench(b, store, nodes, all[:n])
					if err := ib.reconcile(svc, nil, store.list()); err != nil {
						b.Fatal(err)
					}
					writes -= store.writeCount()
					r = ib
				}
				b.StartTimer()
				for k, pods := range steps {
					if ib != nil {
						// The step's Pod events: 25 deleted, 25 created.
						for _, p := range all[k*step : (k+1)*step] {
							delete(ib.pods, p.Name)
							ib.podChanged(p.Name)
						}
						for _, p := range all[n+k*step : n+(k+1)*step] {
							ib.pods[p.Name] = p
							ib.podChanged(p.Name)
						}
					}
					if err := r.reconcile(svc, pods, store.list()); err != nil {
						b.Fatal(err)
					}
				}
				if ib != nil {
					full += ib.full - 1
				}
			}
			writes += store.writeCount()
			cpu.report(b)
			b.ReportMetric(float64(writes)/float64(b.N), "writes/op")
			if side == "incremental" {
				b.ReportMetric(float64(full)/float64(b.N), "full/op")
			}
		})
	}
}

// BenchmarkColdSync: one op syncs 1,000 Services of 20 ready pods each,
// with no slices yet (a controller's first sync after start-up).
func BenchmarkColdSync(b *testing.B) {
	const services, perService = 1000, 20
	nodes := benchNodeList()
	svcs := make([]*corev1.Service, services)
	pods := make([][]*corev1.Pod, services)
	for s := range svcs {
		svcs[s] = benchService(fmt.Sprintf("svc-%d", s))
		for p := range perService {
			pods[s] = append(pods[s], benchPod(s*perService+p))
		}
	}
	for _, side := range benchSides {
		b.Run(side, func(b *testing.B) {
			store := newSliceStore("b", false, false)
			r := newBenchSide(b, side, store, nodes)
			writes := 0
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU() // includes the untimed store resets: negligible
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				writes += store.writeCount()
				store.reset(nil)
				b.StartTimer()
				for s, svc := range svcs {
					if err := r.reconcile(svc, pods[s], nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			writes += store.writeCount()
			cpu.report(b)
			b.ReportMetric(float64(writes)/float64(b.N), "writes/op")
		})
	}
}
