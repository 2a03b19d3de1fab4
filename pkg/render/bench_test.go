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

package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	corelisters "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/endpointslice"
	endpointsliceutil "k8s.io/endpointslice/util"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"
)

// The render benchmarks time `slicekit render -f FILE` as the CLI runs it,
// from the input file to the output's bytes: read, decode and validate,
// each Pod compacted as soon as it is read (ReadFilesCompact), the API
// server's defaulting (DefaultServices, DefaultProtocols), Render and
// WriteYAML. The input is what a cluster dump of Deployments holds: Pods
// with the labels, containers (env, ports, resources), status and
// managedFields of a Deployment's Pods, spread over 10 Nodes in 3 zones,
// behind Services selecting them. Sub-benchmarks:
//
//   - pods=N: one Service with N Pods (N = 1k, 10k, 100k);
//   - pods=N-json: the same Pods as a JSON stream, one object a line
//     (`kubectl get -o json | jq -c '.items[]'`; N = 10k, 100k);
//   - pods=100k-list: the same Pods as one List, indented as
//     `kubectl get -o json` prints it (how a cluster dump usually comes);
//   - services=S×P: S Services of P Pods each (services=10k×10-json: as
//     a JSON stream);
//   - minpods=N: one Service with N minimal Pods (labels, node, one
//     container port, IP, Ready: about 0.6 KB of YAML each), to tell the
//     cost of reading a Deployment's Pod apart from the controllers'.
//
// Each size runs twice: .../slicekit is the render above; .../kcm is what
// KCM's controllers do with the same input where it fits: the same file
// read and decoded with client-go's scheme (no validation, no defaulting), then
// KCM's EndpointSlice reconciler (k8s.io/endpointslice, the code
// kube-controller-manager runs) on a client-go fake clientset, once per
// Service with the Pods its selector matches, and the slices marshalled as
// render prints them. KCM's controller around the reconciler (informers,
// queue, Endpoints controller, mirroring) is not part of that side.
//
// Besides ns/op and allocations, each reports cpu-s/op (user and system
// CPU time of the process per op, steadier than the wall time on a shared
// machine), input-MB (the input file's size; each side reads the file in
// its op), peak-RSS-MB: the process's
// peak resident set (VmHWM) during the sub-benchmark, reset before it
// through /proc/self/clear_refs (Linux; 0 elsewhere: it cannot go below
// what the process holds when it starts, so run sizes separately, smallest
// first, to compare it), and objects, the
// input's object count. The 100k sizes run only with
// SLICEKIT_BENCH_LARGE=1 (`make bench-render` sets it):
//
//	make bench-render
//	go test -run '^$' -bench 'BenchmarkRender/pods=10k' -benchtime 1x ./pkg/render/
func BenchmarkRender(b *testing.B) {
	sizes := []struct {
		name        string
		services    int
		podsPerSvc  int
		large       bool
		minimal     bool
		json        bool
		list        bool
		description string
	}{
		{name: "pods=1k", services: 1, podsPerSvc: 1000},
		{name: "pods=10k", services: 1, podsPerSvc: 10000},
		{name: "pods=100k", services: 1, podsPerSvc: 100000, large: true},
		{name: "pods=10k-json", services: 1, podsPerSvc: 10000, json: true},
		{name: "pods=100k-json", services: 1, podsPerSvc: 100000, large: true, json: true},
		{name: "pods=100k-list", services: 1, podsPerSvc: 100000, large: true, json: true, list: true},
		{name: "services=1k×10", services: 1000, podsPerSvc: 10},
		{name: "services=10k×10", services: 10000, podsPerSvc: 10, large: true},
		{name: "services=10k×10-json", services: 10000, podsPerSvc: 10, large: true, json: true},
		{name: "minpods=10k", services: 1, podsPerSvc: 10000, minimal: true},
		{name: "minpods=100k", services: 1, podsPerSvc: 100000, minimal: true, large: true},
	}
	for _, sz := range sizes {
		if sz.large && os.Getenv("SLICEKIT_BENCH_LARGE") == "" {
			continue
		}
		pod := benchPod
		if sz.minimal {
			pod = minimalBenchPod
		}
		// The input is written to a file once; each side reads it in
		// every op, as a command given -f FILE does.
		dir := b.TempDir()
		input := sync.OnceValue(func() string {
			name := filepath.Join(dir, "input.yaml")
			if sz.json {
				name = filepath.Join(dir, "input.json")
			}
			if sz.list {
				name = filepath.Join(dir, "input.list.json")
			}
			// Written from a function of its own, so that the generated
			// bytes are garbage when the memory is given back below (held
			// here, they stayed in the process's resident set through the
			// measurement).
			if err := func() error {
				data := benchInput(sz.services, sz.podsPerSvc, pod, sz.json)
				if sz.list {
					data = benchList(data)
				}
				return os.WriteFile(name, data, 0o600)
			}(); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			debug.FreeOSMemory()
			return name
		})
		b.Run(sz.name+"/slicekit", func(b *testing.B) {
			runRenderBench(b, input(), renderFile)
		})
		b.Run(sz.name+"/kcm", func(b *testing.B) {
			runRenderBench(b, input(), kcmRenderFile)
		})
	}
}

// runRenderBench runs render on the input file b.N times, reporting peak
// RSS.
func runRenderBench(b *testing.B, input string, render func(context.Context, string, io.Writer) (int, error)) {
	ctx := klog.NewContext(context.Background(), klog.Background())
	fi, err := os.Stat(input)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	var objects int
	for range b.N {
		n, err := render(ctx, input, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		objects = n
	}
	b.StopTimer()
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(objects), "objects")
	b.ReportMetric(float64(fi.Size())/1e6, "input-MB")
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
}

// renderFile is `slicekit render -f FILE` (without --with-inputs, so the
// Pods are compacted as they are read: ReadFilesCompact): it returns the
// number of input objects.
func renderFile(ctx context.Context, file string, out io.Writer) (int, error) {
	// The CLI's garbage collector target (cmd/slicekit/app batchGCPercent).
	defer debug.SetGCPercent(debug.SetGCPercent(300))
	objs, _, _, err := ReadFilesCompact([]string{file}, nil, nil)
	if err != nil {
		return 0, err
	}
	in := make([]kruntime.Object, 0, len(objs))
	for _, o := range objs {
		in = append(in, o.Object)
	}
	DefaultServices(in, []corev1.IPFamily{corev1.IPv4Protocol})
	DefaultProtocols(in)
	res, err := Render(ctx, in, Options{})
	if err != nil {
		return 0, err
	}
	if len(res.Warnings) > 0 {
		return 0, fmt.Errorf("render warned: %v", res.Warnings)
	}
	return len(in), WriteYAML(out, res.EndpointSlices)
}

// kcmRenderFile is KCM's side (see BenchmarkRender): read the file, decode
// with client-go's scheme, KCM's reconciler per Service on a fake
// clientset, marshal the slices.
func kcmRenderFile(ctx context.Context, file string, out io.Writer) (int, error) {
	logger := klog.FromContext(ctx)
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	decoder := scheme.Codecs.UniversalDeserializer()
	var services []*corev1.Service
	var pods []*corev1.Pod
	nodes := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	n := 0
	sep := []byte("\n---\n")
	if strings.HasSuffix(file, ".json") {
		sep = []byte("\n") // a JSON stream, one object a line
	}
	docs := bytes.SplitSeq(data, sep)
	if strings.HasSuffix(file, ".list.json") {
		// One List (benchList): client-go decodes it with its items raw.
		obj, _, err := decoder.Decode(data, nil, nil)
		if err != nil {
			return 0, err
		}
		l, ok := obj.(*corev1.List)
		if !ok {
			return 0, fmt.Errorf("%s: %T, want a List", file, obj)
		}
		docs = func(yield func([]byte) bool) {
			for _, it := range l.Items {
				if !yield(it.Raw) {
					return
				}
			}
		}
	}
	for doc := range docs {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, _, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			return 0, err
		}
		n++
		switch o := obj.(type) {
		case *corev1.Service:
			services = append(services, o)
		case *corev1.Pod:
			pods = append(pods, o)
		case *corev1.Node:
			if err := nodes.Add(o); err != nil {
				return 0, err
			}
		}
	}
	client := fake.NewClientset()
	// The API server names the slices KCM creates with generateName.
	var generated int
	client.PrependReactor("create", "endpointslices", func(a k8stesting.Action) (bool, kruntime.Object, error) {
		if es, ok := a.(k8stesting.CreateAction).GetObject().(*discovery.EndpointSlice); ok && es.Name == "" {
			generated++
			es.Name = es.GenerateName + suffix(int64(generated))
		}
		return false, nil, nil
	})
	r := endpointslice.NewReconciler(client, corelisters.NewNodeLister(nodes), 100, endpointsliceutil.NewEndpointSliceTracker(), nil,
		&record.FakeRecorder{}, "endpointslice-controller.k8s.io")
	byApp := map[string][]*corev1.Pod{}
	for _, p := range pods {
		byApp[p.Labels["app"]] = append(byApp[p.Labels["app"]], p)
	}
	for _, svc := range services {
		if err := r.Reconcile(logger, svc, byApp[svc.Spec.Selector["app"]], nil, time.Time{}); err != nil {
			return 0, err
		}
	}
	list, err := client.DiscoveryV1().EndpointSlices("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	slices := make([]*discovery.EndpointSlice, 0, len(list.Items))
	for i := range list.Items {
		slices = append(slices, &list.Items[i])
	}
	return n, WriteYAML(out, slices)
}

// benchZones are the zones of the benchmark's Nodes.
var benchZones = []string{"zone-a", "zone-b", "zone-c"}

const benchNodeCount = 10

// benchInput returns multi-document YAML: a Namespace, 10 Nodes, and
// services Services each selecting podsPerService Pods made by pod.
func benchInput(services, podsPerService int, pod func(s, p, i int) *corev1.Pod, asJSON bool) []byte {
	var buf bytes.Buffer
	write := func(obj any) {
		if asJSON {
			// A JSON stream, one object a line (`kubectl get -o json |
			// jq -c '.items[]'`).
			data, err := json.Marshal(obj)
			if err != nil {
				panic(err) // test input built here: a bug in this file
			}
			buf.Write(data)
			buf.WriteByte('\n')
			return
		}
		data, err := yaml.Marshal(obj)
		if err != nil {
			panic(err) // test input built here: a bug in this file
		}
		buf.WriteString("---\n")
		buf.Write(data)
	}
	write(&corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: metav1.ObjectMeta{Name: "bench"}})
	for i := range benchNodeCount {
		write(benchNode(i))
	}
	for s := range services {
		write(benchService(s))
		for p := range podsPerService {
			write(pod(s, p, s*podsPerService+p))
		}
	}
	return buf.Bytes()
}

// benchList returns the objects of a JSON stream (benchInput) as one
// List, indented as `kubectl get -o json` prints it.
func benchList(stream []byte) []byte {
	var items []json.RawMessage
	for line := range bytes.Lines(stream) {
		items = append(items, bytes.TrimSpace(line))
	}
	data, err := json.MarshalIndent(map[string]any{
		"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""},
	}, "", "    ")
	if err != nil {
		panic(err) // test input built here: a bug in this file
	}
	return append(data, '\n')
}

func benchNode(i int) *corev1.Node {
	zone := benchZones[i%len(benchZones)]
	return &corev1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("node-%d", i),
			Labels: map[string]string{
				corev1.LabelTopologyZone:   zone,
				corev1.LabelTopologyRegion: "region-1",
				corev1.LabelHostname:       fmt.Sprintf("node-%d", i),
				"kubernetes.io/os":         "linux",
			},
		},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8")},
			Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}
}

func benchService(s int) *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("svc-%d", s), Namespace: "bench"},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": fmt.Sprintf("app-%d", s)},
			Ports: []corev1.ServicePort{
				{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP},
				{Name: "metrics", Port: 9090, TargetPort: intstr.FromInt32(9090), Protocol: corev1.ProtocolTCP},
			},
		},
	}
}

// benchPod returns Pod p of Service s, the i-th Pod overall: as a
// Deployment's Pod reads back from the API server (about 6 KB of YAML).
func benchPod(s, p, i int) *corev1.Pod {
	app := fmt.Sprintf("app-%d", s)
	name := fmt.Sprintf("%s-7d9c8b6f5-%05d", app, p)
	node := fmt.Sprintf("node-%d", i%benchNodeCount)
	ip := fmt.Sprintf("10.%d.%d.%d", 1+i/65536%200, i/256%256, i%256)
	created := metav1.NewTime(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	env := []corev1.EnvVar{
		{Name: "LOG_LEVEL", Value: "info"},
		{Name: "SERVICE_NAME", Value: app},
		{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
		{Name: "OTEL_EXPORTER_OTLP_ENDPOINT", Value: "http://otel-collector.observability:4317"},
	}
	resources := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
	}
	container := func(name string, ports ...corev1.ContainerPort) corev1.Container {
		return corev1.Container{
			Name: name, Image: "registry.example.com/team/" + name + ":1.4.2", Env: env, Ports: ports, Resources: resources,
			ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePath: "/dev/termination-log",
			TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		}
	}
	cs := func(name string) corev1.ContainerStatus {
		return corev1.ContainerStatus{
			Name: name, Ready: true, Image: "registry.example.com/team/" + name + ":1.4.2",
			ImageID:     "registry.example.com/team/" + name + "@sha256:" + strings.Repeat("ab", 32),
			ContainerID: "containerd://" + strings.Repeat("0f", 32),
			State:       corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: created}},
		}
	}
	fields := func(manager, op, sub string, json string) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{
			Manager: manager, Operation: metav1.ManagedFieldsOperationType(op), APIVersion: "v1", Time: &created,
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(json), Subresource: sub,
		}
	}
	cond := func(t corev1.PodConditionType) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: created}
	}
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "bench", GenerateName: app + "-7d9c8b6f5-", CreationTimestamp: created,
			Labels: map[string]string{"app": app, "pod-template-hash": "7d9c8b6f5", "app.kubernetes.io/version": "1.4.2", "team": "payments"},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/restartedAt": "2026-03-01T11:00:00Z",
				"prometheus.io/scrape":              "true",
			},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app + "-7d9c8b6f5",
				UID: types.UID(fmt.Sprintf("0c7f6d7e-0000-4000-8000-%012d", s)), Controller: ptrTo(true), BlockOwnerDeletion: ptrTo(true)}},
			ManagedFields: []metav1.ManagedFieldsEntry{
				fields("kube-controller-manager", "Update", "", `{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"x\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{},"f:image":{},"f:name":{},"f:ports":{}}}}}`),
				fields("kubelet", "Update", "status", `{"f:status":{"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"x\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`),
			},
		},
		Spec: corev1.PodSpec{
			NodeName: node,
			Containers: []corev1.Container{
				container("app", corev1.ContainerPort{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
					corev1.ContainerPort{Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP}),
				container("sidecar", corev1.ContainerPort{Name: "admin", ContainerPort: 15000, Protocol: corev1.ProtocolTCP}),
				container("log-shipper"),
			},
			RestartPolicy: corev1.RestartPolicyAlways, DNSPolicy: corev1.DNSClusterFirst, SchedulerName: "default-scheduler",
			ServiceAccountName: "default", TerminationGracePeriodSeconds: ptrTo(int64(30)),
		},
		Status: corev1.PodStatus{
			Phase:  corev1.PodRunning,
			HostIP: fmt.Sprintf("192.168.0.%d", 10+i%benchNodeCount), HostIPs: []corev1.HostIP{{IP: fmt.Sprintf("192.168.0.%d", 10+i%benchNodeCount)}},
			PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}}, StartTime: &created, QOSClass: corev1.PodQOSBurstable,
			Conditions: []corev1.PodCondition{
				cond(corev1.PodReadyToStartContainers), cond(corev1.PodInitialized), cond(corev1.PodReady),
				cond(corev1.ContainersReady), cond(corev1.PodScheduled),
			},
			ContainerStatuses: []corev1.ContainerStatus{cs("app"), cs("sidecar"), cs("log-shipper")},
		},
	}
}

// minimalBenchPod is benchPod with only what the controllers read: labels,
// node, one container port, IP, phase and the Ready condition.
func minimalBenchPod(s, p, i int) *corev1.Pod {
	full := benchPod(s, p, i)
	return &corev1.Pod{
		TypeMeta:   full.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{Name: full.Name, Namespace: full.Namespace, Labels: map[string]string{"app": full.Labels["app"]}},
		Spec: corev1.PodSpec{
			NodeName:   full.Spec.NodeName,
			Containers: []corev1.Container{{Name: "app", Image: "app", Ports: full.Spec.Containers[0].Ports[:1]}},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: full.Status.PodIP, PodIPs: full.Status.PodIPs,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	}
}

func ptrTo[T any](v T) *T { return &v }

// cpuTime returns the process's user and system CPU time (all threads,
// the collector's included): on a shared machine it varies less than the
// wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS resets the process's peak resident set (VmHWM) on Linux.
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0o600)
}

// peakRSSMB returns VmHWM of /proc/self/status in MB, 0 when unavailable.
func peakRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}
