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
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

func TestParseStatCPU(t *testing.T) {
	for _, tc := range []struct {
		name, stat string
		want       time.Duration
		wantErr    bool
	}{
		{
			name: "plain",
			stat: "1234 (kube-controller) S 1 1234 1234 0 -1 4194560 5000 0 0 0 250 75 0 0 20 0 12 0 100 0 0",
			want: 3250 * time.Millisecond,
		},
		{
			// The command may hold spaces and ')': fields count after the last ')'.
			name: "command with spaces and parenthesis",
			stat: "42 (a b) c)) R 1 42 42 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 100 0 0",
			want: 100 * time.Millisecond,
		},
		{name: "no command", stat: "42 S 1 2 3", wantErr: true},
		{name: "truncated", stat: "42 (x) S 1 2 3 4 5", wantErr: true},
		{name: "not a number", stat: "42 (x) S 1 42 42 0 -1 0 0 0 0 0 x 3 0", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStatCPU(tc.stat)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error: %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestProcCPUAndMemoryOfSelf(t *testing.T) {
	pid := os.Getpid()
	if _, err := procCPU(pid); err != nil {
		t.Fatal(err)
	}
	m, err := procMemory(pid)
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS <= 0 || m.HWM < m.RSS {
		t.Errorf("implausible memory of this process: %+v", m)
	}
}

func TestParseStatus(t *testing.T) {
	status := "Name:\tkube-controller\nVmPeak:\t 2000000 kB\nVmHWM:\t  141312 kB\nVmRSS:\t  131072 kB\nThreads:\t12\n"
	m, err := parseStatus(strings.NewReader(status))
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS != 128<<20 || m.HWM != 138<<20 {
		t.Errorf("got %+v, want RSS 128 MiB and HWM 138 MiB", m)
	}
	for _, bad := range []string{
		"VmRSS:\t 1 kB\n",                // no VmHWM
		"VmRSS:\t 1 MB\nVmHWM:\t 1 kB\n", // unit
		"VmRSS:\t x kB\nVmHWM:\t 1 kB\n", // number
	} {
		if _, err := parseStatus(strings.NewReader(bad)); err == nil {
			t.Errorf("parseStatus(%q): no error", bad)
		}
	}
}

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var out []time.Duration
		for _, x := range v {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100..1, unsorted
	}
	for _, tc := range []struct {
		name string
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one", ms(7), 99, 7 * time.Millisecond},
		{"median of odd", ms(5, 1, 3), 50, 3 * time.Millisecond},
		{"median of even is the lower", ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{"p99 of 100", ms(hundred...), 99, 99 * time.Millisecond},
		{"p50 of 100", ms(hundred...), 50, 50 * time.Millisecond},
		{"p100", ms(hundred...), 100, 100 * time.Millisecond},
		{"p99 of 10 is the max", ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 99, 10 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]time.Duration(nil), tc.in...)
			if got := percentile(tc.in, tc.p); got != tc.want {
				t.Errorf("percentile(%v, %v) = %v, want %v", tc.in, tc.p, got, tc.want)
			}
			for i := range in {
				if in[i] != tc.in[i] {
					t.Fatal("percentile reordered its input")
				}
			}
		})
	}
}

func TestSliceWriteRequests(t *testing.T) {
	metrics := `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="201",component="apiserver",dry_run="",group="discovery.k8s.io",resource="endpointslices",scope="resource",subresource="",verb="POST",version="v1"} 10
apiserver_request_total{code="200",component="apiserver",dry_run="",group="discovery.k8s.io",resource="endpointslices",scope="resource",subresource="",verb="PUT",version="v1"} 5
apiserver_request_total{code="409",component="apiserver",dry_run="",group="discovery.k8s.io",resource="endpointslices",scope="resource",subresource="",verb="PUT",version="v1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="discovery.k8s.io",resource="endpointslices",scope="resource",subresource="",verb="DELETE",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="discovery.k8s.io",resource="endpointslices",scope="namespace",subresource="",verb="DELETECOLLECTION",version="v1"} 3
apiserver_request_total{code="200",component="apiserver",dry_run="",group="discovery.k8s.io",resource="endpointslices",scope="cluster",subresource="",verb="LIST",version="v1"} 40
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 1000
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="status",verb="PATCH",version="v1"} 100
apiserver_request_total_other{group="discovery.k8s.io",resource="endpointslices",verb="POST"} 99
apiserver_request_duration_seconds_count{group="discovery.k8s.io",resource="endpointslices",verb="POST"} 99
`
	got, err := sliceWriteRequests(strings.NewReader(metrics))
	if err != nil {
		t.Fatal(err)
	}
	if got != 18 {
		t.Errorf("got %v slice write requests, want 18 (POST 10, PUT 5+2, DELETE 1)", got)
	}
	if _, err := sliceWriteRequests(strings.NewReader(`apiserver_request_total{verb="POST 1` + "\n")); err == nil {
		t.Error("no error on a malformed sample")
	}
}

func TestParseLabels(t *testing.T) {
	got, err := parseLabels(`a="x",b="q\"uo\\te\n",c=""`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "x", "b": "q\"uo\\te\n", "c": ""}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("label %s = %q, want %q", k, got[k], v)
		}
	}
	for _, bad := range []string{`a`, `a="x`} {
		if _, err := parseLabels(bad); err == nil {
			t.Errorf("parseLabels(%q): no error", bad)
		}
	}
}

func TestMarkdown(t *testing.T) {
	kcm := &result{
		ColdStart: 49 * time.Second, ColdWrites: 1000, ColdRequests: 1000,
		IdleCPU: 30 * time.Millisecond, IdleWindow: 3 * time.Second,
		Flips: 100, FlipCPU: 10 * time.Second, FlipWrites: 100, FlipRequests: 100,
		Latencies: []time.Duration{100 * time.Millisecond, 400 * time.Millisecond},
		Mem:       memory{RSS: 138 << 20, HWM: 150 << 20},
		RollPods:  1000, RollStep: 25, RollCPU: 1500 * time.Millisecond, RollWrites: 361, RollRequests: 361, RollWall: 20 * time.Second,
	}
	sk := &result{
		ColdStart: 49 * time.Second, ColdWrites: 1000, ColdRequests: 1000,
		IdleCPU: 0, IdleWindow: 3 * time.Second,
		Flips: 100, FlipCPU: 2500 * time.Millisecond, FlipWrites: 100, FlipRequests: 100,
		Latencies: []time.Duration{40 * time.Millisecond, 300 * time.Millisecond},
		Mem:       memory{RSS: 69 << 20, HWM: 75 << 20},
		RollPods:  1000, RollStep: 25, RollCPU: 300 * time.Millisecond, RollWrites: 361, RollRequests: 361, RollWall: 10 * time.Second,
	}
	got := scenarioResult{Title: "1 Service × 10,000 Pods", KCM: kcm, Slicekit: sk}.markdown()
	for _, line := range []string{
		"#### 1 Service × 10,000 Pods",
		"Rolling update: 1,000 Pods chosen at random replaced in steps of 25 (delete 25, create 25 ready), waiting for the slices after each step.\n",
		"| | KCM | slicekit | KCM / slicekit |",
		"| cold start to convergence | 49.0 s | 49.0 s | 1.00× |",
		"| slice writes during cold start (watch events) | 1,000 | 1,000 | 1.00× |",
		"| idle CPU (ms per s) | 10 | 0 | - |",
		"| CPU per flip | 100 ms | 25.0 ms | 4.00× |",
		"| flip → slice p50 (watch) | 100 ms | 40.0 ms | 2.50× |",
		"| flip → slice p99 (watch) | 400 ms | 300 ms | 1.33× |",
		"| slice writes per flip (watch events) | 1 | 1 | 1.00× |",
		"| VmRSS after the flips | 138.0 MiB | 69.0 MiB | 2.00× |",
		"| VmHWM (peak RSS) | 150.0 MiB | 75.0 MiB | 2.00× |",
		"| rolling update: CPU | 1.50 s | 300 ms | 5.00× |",
		"| rolling update: slice write requests (apiserver) | 361 | 361 | 1.00× |",
		"| rolling update: wall time | 20.0 s | 10.0 s | 2.00× |",
	} {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("table lacks the line\n%s\ntable:\n%s", line, got)
		}
	}

	if strings.Contains(got, "watch-only") || strings.Contains(got, "above the floor") {
		t.Errorf("watch-only rows without a watch-only process:\n%s", got)
	}

	// With the watch-only process: its CPU per flip and over the roll, and
	// the roll's CPU above it.
	kcm.WatchOnly, kcm.FlipWatchOnlyCPU, kcm.RollWatchOnlyCPU = true, 200*time.Millisecond, 500*time.Millisecond
	sk.WatchOnly, sk.FlipWatchOnlyCPU, sk.RollWatchOnlyCPU = true, 0, 200*time.Millisecond
	got = scenarioResult{Title: "x", KCM: kcm, Slicekit: sk}.markdown()
	for _, line := range []string{
		"| watch-only process: CPU per flip (floor) | 2.00 ms | 0.00 ms | - |",
		"| rolling update: watch-only process CPU (floor) | 500 ms | 200 ms | 2.50× |",
		"| rolling update: CPU above the floor | 1.00 s | 100 ms | 10.00× |",
	} {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("table lacks the line\n%s\ntable:\n%s", line, got)
		}
	}

	// One side missing (it failed): its column says "-", no ratio; rows
	// no side has (no roll) are left out.
	sk.RollPods = 0
	got = scenarioResult{Title: "x", Slicekit: sk}.markdown()
	if !strings.Contains(got, "| CPU per flip | - | 25.0 ms | - |\n") {
		t.Errorf("a missing KCM result is not shown as -:\n%s", got)
	}
	if strings.Contains(got, "rolling update") || strings.Contains(got, "Rolling update") {
		t.Errorf("rolling-update rows without a roll:\n%s", got)
	}
}

func TestFormatting(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{thousands(0), "0"},
		{thousands(999), "999"},
		{thousands(1000), "1,000"},
		{thousands(1234567), "1,234,567"},
		{thousands(-50000), "-50,000"},
		{showMs(0.5), "0.50 ms"},
		{showMs(12.34), "12.3 ms"},
		{showMs(123.4), "123 ms"},
		{showMs(1234), "1.23 s"},
		{showMs(49000), "49.0 s"},
		{showRatio(10, 4), "2.50×"},
		{showRatio(0, 0), "1.00×"},
		{showRatio(3, 0), "-"},
		{showNum(1), "1"},
		{showNum(1.5), "1.50"},
		{showBytes(1.5 * (1 << 20)), "1.5 MiB"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-sizes", "200, 1000", "-services", "0", "-flips", "7", "-order", "slicekit,kcm"})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.sizes) != 2 || o.sizes[0] != 200 || o.sizes[1] != 1000 || o.flips != 8 || o.order[0] != "slicekit" {
		t.Errorf("parsed %+v", o)
	}
	sc := o.scenarios()
	if len(sc) != 2 || sc[0].roll != 200 || sc[1].roll != 1000 || sc[1].title != "1 Service × 1,000 Pods" {
		t.Errorf("scenarios %+v", sc)
	}
	for _, bad := range [][]string{
		{"-sizes", "x"},
		{"-sizes", "0"},
		{"-order", "kcm,kube-proxy"},
		{"-sizes", "", "-services", "0"},
		{"-roll-step", "0"},
		{"extra"},
	} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("parseFlags(%q): no error", bad)
		}
	}
}

func TestParseServices(t *testing.T) {
	o, err := parseFlags([]string{"-sizes", "", "-services", "1,1000,5000", "-pods-per-service", "4"})
	if err != nil {
		t.Fatal(err)
	}
	sc := o.scenarios()
	if len(sc) != 3 || !sc[0].many || sc[0].services != 1 || sc[2].services != 5000 || sc[2].podsPerService != 4 ||
		sc[1].title != "1,000 Services × 4 Pods" || sc[0].ns == sc[1].ns {
		t.Errorf("scenarios %+v", sc)
	}
	if _, err := parseFlags([]string{"-services", "10,x"}); err == nil {
		t.Error("-services 10,x: no error")
	}
	if sc[1].namespaces != 1 {
		t.Errorf("default -namespaces: %d namespaces", sc[1].namespaces)
	}
	o, err = parseFlags([]string{"-sizes", "1000", "-services", "3,10000", "-namespaces", "100"})
	if err != nil {
		t.Fatal(err)
	}
	sc = o.scenarios()
	if len(sc) != 3 || sc[0].namespaces != 1 || sc[1].namespaces != 3 || sc[2].namespaces != 100 ||
		sc[1].title != "3 Services × 5 Pods in 3 namespaces" || sc[2].title != "10,000 Services × 5 Pods in 100 namespaces" {
		t.Errorf("scenarios %+v", sc)
	}
	if _, err := parseFlags([]string{"-namespaces", "0"}); err == nil {
		t.Error("-namespaces 0: no error")
	}
}

func TestSpread(t *testing.T) {
	if got := spread("ns", 3, 1); !slices.Equal(got, []string{"ns", "ns", "ns"}) {
		t.Errorf("one namespace: %q", got)
	}
	if got := spread("ns", 7, 3); !slices.Equal(got, []string{"ns-0", "ns-0", "ns-0", "ns-1", "ns-1", "ns-2", "ns-2"}) {
		t.Errorf("7 Services over 3 namespaces: %q", got)
	}
	per := map[string]int{}
	for _, ns := range spread("ns", 10000, 100) {
		per[ns]++
	}
	if len(per) != 100 || per["ns-0"] != 100 || per["ns-99"] != 100 {
		t.Errorf("10,000 Services over 100 namespaces: %d namespaces, %d in ns-0, %d in ns-99", len(per), per["ns-0"], per["ns-99"])
	}
}

func TestServicesSummary(t *testing.T) {
	res := func(cpu time.Duration) *result { return &result{Flips: 10, FlipCPU: 10 * cpu} }
	got := servicesSummary([]scenarioResult{
		{services: 1, KCM: res(2 * time.Millisecond), Slicekit: res(2 * time.Millisecond)},
		{services: 1000, KCM: res(8 * time.Millisecond), Slicekit: res(3 * time.Millisecond)},
		{services: 5000, KCM: res(30 * time.Millisecond)},
	})
	for _, want := range []string{
		"| 1 | 2.00 ms | 2.00 ms | 1.00× | 1.00× | 1.00× |",
		"| 1,000 | 8.00 ms | 3.00 ms | 2.67× | 4.00× | 1.50× |",
		"| 5,000 | 30.0 ms | - | - | 15.00× | - |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

func TestNthIP(t *testing.T) {
	for n, want := range map[uint32]string{0: "10.128.0.1", 254: "10.128.0.255", 255: "10.128.1.0", 70000: "10.129.17.113"} {
		if got := nthIP(n); got != want {
			t.Errorf("nthIP(%d) = %s, want %s", n, got, want)
		}
	}
}

// slice returns an EndpointSlice of service in ns with the addresses,
// ready as given.
func slice(ns, name, service string, eps map[string]bool) *discovery.EndpointSlice {
	s := &discovery.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{discovery.LabelServiceName: service}},
		AddressType: discovery.AddressTypeIPv4,
	}
	for ip, r := range eps {
		s.Endpoints = append(s.Endpoints, discovery.Endpoint{Addresses: []string{ip}, Conditions: discovery.EndpointConditions{Ready: ptr.To(r)}})
	}
	return s
}

func TestTracker(t *testing.T) {
	tr := newTracker()
	now := time.Unix(1000, 0)
	ok := func(want map[string]bool) bool {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		return tr.serviceOK("ns/svc", want)
	}
	want := map[string]bool{"10.0.0.1": true, "10.0.0.2": false, "10.0.0.3": true}

	tr.apply(watch.Added, slice("ns", "a", "svc", map[string]bool{"10.0.0.1": true, "10.0.0.2": false}), now, false)
	if ok(want) {
		t.Error("converged with an address missing")
	}
	tr.apply(watch.Added, slice("ns", "b", "svc", map[string]bool{"10.0.0.3": true, "10.0.0.1": true}), now, true)
	if ok(want) {
		t.Error("converged with an address in two slices")
	}
	tr.apply(watch.Modified, slice("ns", "b", "svc", map[string]bool{"10.0.0.3": true}), now, true)
	if !ok(want) {
		t.Error("not converged on exactly the wanted endpoints")
	}
	if tr.count() != 2 {
		t.Errorf("count %d, want 2 (the listed slice is not a write)", tr.count())
	}
	tr.mu.Lock()
	if n := tr.slicesIn("ns"); n != 2 {
		t.Errorf("slicesIn(ns) = %d, want 2", n)
	}
	if n := tr.slicesIn("n"); n != 0 {
		t.Errorf("slicesIn(n) = %d, want 0 (prefix of another namespace)", n)
	}
	tr.mu.Unlock()

	// A flip: the time the address changed is recorded.
	later := now.Add(time.Second)
	tr.apply(watch.Modified, slice("ns", "a", "svc", map[string]bool{"10.0.0.1": true, "10.0.0.2": true}), later, true)
	if ok(want) {
		t.Error("converged with a wrong ready value")
	}
	if got := tr.ipChanged["10.0.0.2"]; !got.Equal(later) {
		t.Errorf("10.0.0.2 changed at %v, want %v", got, later)
	}
	if got := tr.ipChanged["10.0.0.1"]; !got.Equal(now) {
		t.Errorf("10.0.0.1 (unchanged) changed at %v, want %v", got, now)
	}
	at, err := tr.waitIP(t.Context(), time.Second, "10.0.0.2", true)
	if err != nil || !at.Equal(later) {
		t.Errorf("waitIP = %v, %v; want %v", at, err, later)
	}
	if _, err := tr.waitIP(t.Context(), 10*time.Millisecond, "10.0.0.2", false); err == nil {
		t.Error("waitIP of a state never reached returned no error")
	}

	tr.apply(watch.Deleted, slice("ns", "a", "svc", nil), later, true)
	if ok(map[string]bool{"10.0.0.3": true}) != true {
		t.Error("a deleted slice is still counted")
	}
}

func TestRunWatchOnlyArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"-kubeconfig", ""}, {"-unknown"}, {"-kubeconfig", "k", "extra"}} {
		if err := runWatchOnly(t.Context(), args); err == nil {
			t.Errorf("runWatchOnly(%q) = nil, want an error", args)
		}
	}
	if err := runWatchOnly(t.Context(), []string{"-kubeconfig", filepath.Join(t.TempDir(), "missing")}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("runWatchOnly with a missing kubeconfig = %v, want an error naming it", err)
	}
}
