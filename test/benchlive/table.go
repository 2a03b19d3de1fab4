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
	"fmt"
	"strings"
	"time"
)

// result is what one controller did in one scenario.
type result struct {
	// ColdStart is from the process start to the last slice event needed
	// for every Service of the scenario to be published exactly.
	ColdStart time.Duration
	// ColdWrites are the slice watch events, ColdRequests the slice write
	// requests the API server counted, until convergence.
	ColdWrites   int
	ColdRequests float64
	// IdleCPU is the CPU used over IdleWindow with nothing changing.
	IdleCPU, IdleWindow time.Duration
	// Flips readiness flips took FlipCPU in all, wrote FlipWrites slice
	// events (FlipRequests requests); Latencies are flip → slice.
	Flips        int
	FlipCPU      time.Duration
	FlipWrites   int
	FlipRequests float64
	Latencies    []time.Duration
	// WatchOnly says whether the watch-only process ran beside the
	// controller; FlipWatchOnlyCPU and RollWatchOnlyCPU are its CPU over
	// the same windows as FlipCPU and RollCPU.
	WatchOnly                          bool
	FlipWatchOnlyCPU, RollWatchOnlyCPU time.Duration
	// Mem is read after the flips.
	Mem memory
	// RollPods were replaced in steps of RollStep, using RollCPU and
	// RollWrites slice events (RollRequests requests) over RollWall.
	RollPods, RollStep int
	RollCPU            time.Duration
	RollWrites         int
	RollRequests       float64
	RollWall           time.Duration
}

// scenarioResult is one scenario run with both controllers.
type scenarioResult struct {
	// Title describes the objects, e.g. "1 Service × 1,000 Pods".
	Title string
	// KCM and Slicekit are nil when that controller did not run (or failed).
	KCM, Slicekit *result
	// services is the number of Services in the scenario's namespace.
	services int
	// PodBytes is the mean size of the scenario's Pods in JSON as the API
	// server returns them.
	PodBytes int
}

// servicesSummary returns the table that compares CPU per flip across
// many-Services scenarios (issue 27: the cost of a Pod event should not grow
// with the Services that share its namespace): per Service count, each
// controller's CPU per flip, KCM / slicekit, and each controller's figure
// relative to its own at the smallest count.
func servicesSummary(many []scenarioResult) string {
	perFlip := func(r *result) (float64, bool) {
		if r == nil || r.Flips == 0 {
			return 0, false
		}
		return float64(r.FlipCPU) / float64(time.Millisecond) / float64(r.Flips), true
	}
	base := many[0]
	for _, s := range many {
		if s.services < base.services {
			base = s
		}
	}
	kb, kbok := perFlip(base.KCM)
	sb, sbok := perFlip(base.Slicekit)
	var b strings.Builder
	fmt.Fprintf(&b, "#### CPU per flip by Services in the namespace\n\n")
	b.WriteString("| Services in the namespace | KCM | slicekit | KCM / slicekit | KCM / KCM at " + thousands(base.services) + " | slicekit / slicekit at " + thousands(base.services) + " |\n|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range many {
		k, kok := perFlip(s.KCM)
		sk, sok := perFlip(s.Slicekit)
		cells := []string{"-", "-", "-", "-", "-"}
		if kok {
			cells[0] = showMs(k)
			if kbok {
				cells[3] = showRatio(k, kb)
			}
		}
		if sok {
			cells[1] = showMs(sk)
			if sbok {
				cells[4] = showRatio(sk, sb)
			}
		}
		if kok && sok {
			cells[2] = showRatio(k, sk)
		}
		fmt.Fprintf(&b, "| %s | %s |\n", thousands(s.services), strings.Join(cells, " | "))
	}
	return b.String()
}

// row is one line of the table: how to read a value off a result and how
// to show it.
type row struct {
	name  string
	value func(r *result) (float64, bool)
	show  func(v float64) string
}

func rows() []row {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return []row{
		{"cold start to convergence", func(r *result) (float64, bool) { return ms(r.ColdStart), true }, showMs},
		{"slice writes during cold start (watch events)", func(r *result) (float64, bool) { return float64(r.ColdWrites), true }, showCount},
		{"slice write requests during cold start (apiserver)", func(r *result) (float64, bool) { return r.ColdRequests, true }, showCount},
		{"idle CPU (ms per s)", func(r *result) (float64, bool) {
			return ms(r.IdleCPU) / r.IdleWindow.Seconds(), r.IdleWindow > 0
		}, showNum},
		{"CPU per flip", func(r *result) (float64, bool) { return ms(r.FlipCPU) / float64(r.Flips), r.Flips > 0 }, showMs},
		{"flip → slice p50 (watch)", func(r *result) (float64, bool) {
			return ms(percentile(r.Latencies, 50)), len(r.Latencies) > 0
		}, showMs},
		{"flip → slice p99 (watch)", func(r *result) (float64, bool) {
			return ms(percentile(r.Latencies, 99)), len(r.Latencies) > 0
		}, showMs},
		{"watch-only process: CPU per flip (floor)", func(r *result) (float64, bool) {
			return ms(r.FlipWatchOnlyCPU) / float64(r.Flips), r.Flips > 0 && r.WatchOnly
		}, showMs},
		{"slice writes per flip (watch events)", func(r *result) (float64, bool) {
			return float64(r.FlipWrites) / float64(r.Flips), r.Flips > 0
		}, showNum},
		{"slice write requests per flip (apiserver)", func(r *result) (float64, bool) {
			return r.FlipRequests / float64(r.Flips), r.Flips > 0
		}, showNum},
		{"VmRSS after the flips", func(r *result) (float64, bool) { return float64(r.Mem.RSS), r.Mem.RSS > 0 }, showBytes},
		{"VmHWM (peak RSS)", func(r *result) (float64, bool) { return float64(r.Mem.HWM), r.Mem.HWM > 0 }, showBytes},
		{"rolling update: CPU", func(r *result) (float64, bool) { return ms(r.RollCPU), r.RollPods > 0 }, showMs},
		{"rolling update: watch-only process CPU (floor)", func(r *result) (float64, bool) {
			return ms(r.RollWatchOnlyCPU), r.RollPods > 0 && r.WatchOnly
		}, showMs},
		{"rolling update: CPU above the floor", func(r *result) (float64, bool) {
			return ms(r.RollCPU - r.RollWatchOnlyCPU), r.RollPods > 0 && r.WatchOnly
		}, showMs},
		{"rolling update: slice writes (watch events)", func(r *result) (float64, bool) {
			return float64(r.RollWrites), r.RollPods > 0
		}, showCount},
		{"rolling update: slice write requests (apiserver)", func(r *result) (float64, bool) {
			return r.RollRequests, r.RollPods > 0
		}, showCount},
		{"rolling update: wall time", func(r *result) (float64, bool) { return ms(r.RollWall), r.RollPods > 0 }, showMs},
	}
}

// markdown returns the table of one scenario: a row per measure, columns
// KCM, slicekit and the ratio KCM / slicekit (above 1: slicekit uses less).
func (s scenarioResult) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#### %s\n\n", s.Title)
	if s.PodBytes > 0 {
		fmt.Fprintf(&b, "Mean Pod size (JSON as the API server returns it, managedFields included): %s bytes.\n\n", thousands(s.PodBytes))
	}
	if r := s.roll(); r != nil {
		fmt.Fprintf(&b, "Rolling update: %s Pods chosen at random replaced in steps of %d (delete %d, create %d ready), waiting for the slices after each step.\n\n",
			thousands(r.RollPods), r.RollStep, r.RollStep, r.RollStep)
	}
	b.WriteString("| | KCM | slicekit | KCM / slicekit |\n|---|---:|---:|---:|\n")
	for _, rw := range rows() {
		k, kok := cell(s.KCM, rw)
		sk, sok := cell(s.Slicekit, rw)
		if !kok && !sok {
			continue
		}
		ks, ss, ratio := "-", "-", "-"
		if kok {
			ks = rw.show(k)
		}
		if sok {
			ss = rw.show(sk)
		}
		if kok && sok {
			ratio = showRatio(k, sk)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", rw.name, ks, ss, ratio)
	}
	return b.String()
}

// roll returns a result that did a rolling update, or nil.
func (s scenarioResult) roll() *result {
	for _, r := range []*result{s.KCM, s.Slicekit} {
		if r != nil && r.RollPods > 0 {
			return r
		}
	}
	return nil
}

func cell(r *result, rw row) (float64, bool) {
	if r == nil {
		return 0, false
	}
	return rw.value(r)
}

// showMs shows a number of milliseconds with three significant digits, in
// seconds from 1 s on.
func showMs(v float64) string {
	switch {
	case v >= 10000:
		return fmt.Sprintf("%.1f s", v/1000)
	case v >= 1000:
		return fmt.Sprintf("%.2f s", v/1000)
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	default:
		return fmt.Sprintf("%.2f ms", v)
	}
}

func showCount(v float64) string { return thousands(int(v)) }

func showNum(v float64) string {
	if v == float64(int64(v)) {
		return thousands(int(v))
	}
	return fmt.Sprintf("%.2f", v)
}

func showBytes(v float64) string { return fmt.Sprintf("%.1f MiB", v/(1<<20)) }

// showRatio shows k/s: "-" when s is 0 (unless both are, "1.00×").
func showRatio(k, s float64) string {
	if s == 0 {
		if k == 0 {
			return "1.00×"
		}
		return "-"
	}
	return fmt.Sprintf("%.2f×", k/s)
}

// thousands writes n with comma thousands separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
