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
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of utime and stime in /proc/<pid>/stat (USER_HZ,
// sysconf(_SC_CLK_TCK)): 100 on every Linux architecture Go supports.
const userHZ = 100

// parseStatCPU returns utime+stime of a /proc/<pid>/stat line (proc(5),
// fields 14 and 15) as a duration. The command name (field 2) may hold
// spaces and parentheses, so fields are counted after its last ')'.
func parseStatCPU(stat string) (time.Duration, error) {
	end := strings.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, fmt.Errorf("stat line without ')': %q", stat)
	}
	// After ")": field 3 (state) is rest[0]; utime (14) is rest[11], stime (15) rest[12].
	rest := strings.Fields(stat[end+1:])
	if len(rest) < 13 {
		return 0, fmt.Errorf("stat line has %d fields after the command, want at least 13", len(rest))
	}
	utime, err := strconv.ParseUint(rest[11], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("utime %q: %w", rest[11], err)
	}
	stime, err := strconv.ParseUint(rest[12], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("stime %q: %w", rest[12], err)
	}
	return time.Duration(utime+stime) * time.Second / userHZ, nil
}

// procCPU returns the CPU time (user+system, all threads) the process pid
// has used so far.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(b))
}

// memory is what /proc/<pid>/status says about a process's resident set.
type memory struct {
	// RSS is VmRSS, HWM is VmHWM (the peak RSS), in bytes.
	RSS, HWM int64
}

// parseStatus reads VmRSS and VmHWM (in kB) from a /proc/<pid>/status
// file. It returns an error when either is missing.
func parseStatus(r io.Reader) (memory, error) {
	var m memory
	var seen int
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		f := strings.Fields(value)
		if len(f) != 2 || f[1] != "kB" {
			return m, fmt.Errorf("%s: unexpected value %q", name, value)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return m, fmt.Errorf("%s: %w", name, err)
		}
		if name == "VmRSS" {
			m.RSS = kb << 10
		} else {
			m.HWM = kb << 10
		}
		seen++
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	if seen != 2 {
		return m, fmt.Errorf("VmRSS or VmHWM missing")
	}
	return m, nil
}

// procMemory returns VmRSS and VmHWM of the process pid.
func procMemory(pid int) (memory, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memory{}, err
	}
	defer func() { _ = f.Close() }()
	return parseStatus(f)
}

// percentile returns the p-th percentile (0 < p <= 100) of ds by the
// nearest-rank method: the smallest value such that at least p% of the
// values are at or below it. It returns 0 for no values.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	rank = max(1, min(rank, len(s)))
	return s[rank-1]
}

// writeVerbs are the apiserver_request_total verbs that write an object.
var writeVerbs = map[string]bool{"POST": true, "PUT": true, "PATCH": true, "APPLY": true, "DELETE": true}

// sliceWriteRequests sums kube-apiserver's apiserver_request_total samples
// for writes (create, update, patch, apply, delete; not deletecollection)
// of discovery.k8s.io endpointslices, whatever their response code, from
// the Prometheus text exposition of /metrics.
func sliceWriteRequests(r io.Reader) (float64, error) {
	var total float64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "apiserver_request_total{")
		if !ok {
			continue
		}
		labelText, valueText, ok := strings.Cut(rest, "} ")
		if !ok {
			return 0, fmt.Errorf("malformed sample %q", line)
		}
		labels, err := parseLabels(labelText)
		if err != nil {
			return 0, fmt.Errorf("sample %q: %w", line, err)
		}
		if labels["resource"] != "endpointslices" || labels["group"] != "discovery.k8s.io" || !writeVerbs[labels["verb"]] || labels["subresource"] != "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.Fields(valueText)[0], 64)
		if err != nil {
			return 0, fmt.Errorf("sample %q: %w", line, err)
		}
		total += v
	}
	return total, sc.Err()
}

// parseLabels parses the inside of a Prometheus label set,
// `a="x",b="y"`, with the text format's escapes (\\, \", \n).
func parseLabels(s string) (map[string]string, error) {
	labels := map[string]string{}
	for s != "" {
		name, rest, ok := strings.Cut(s, `="`)
		if !ok {
			return nil, fmt.Errorf("label without value in %q", s)
		}
		var v strings.Builder
		i := 0
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				switch rest[i] {
				case 'n':
					v.WriteByte('\n')
				default:
					v.WriteByte(rest[i])
				}
				continue
			}
			v.WriteByte(rest[i])
		}
		if i == len(rest) {
			return nil, fmt.Errorf("unterminated value of label %q", name)
		}
		labels[strings.TrimSpace(name)] = v.String()
		s = strings.TrimPrefix(rest[i+1:], ",")
	}
	return labels, nil
}
