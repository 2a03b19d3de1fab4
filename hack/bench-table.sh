#!/usr/bin/env bash
# Copyright 2026 The slicekit Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Runs the side-by-side benchmarks of test/differential (KCM's EndpointSlice
# reconciler vs slicekit's) and prints a markdown table: the median over the
# runs of ns/op, cpu-ns/op, B/op, allocs/op and writes/op for each side, and
# the ratio kcm/slicekit (above 1: slicekit uses less). Benchmarks with an
# "incremental" side (slicekit's incremental path, issue 14) get a second
# row, "<benchmark> (incremental)", with that side in the slicekit columns.
# ns/op is wall time;
# cpu-ns/op is the process's CPU time per op, which is the fairer measure on
# a busy machine.
#
# Usage:
#   hack/bench-table.sh                 # run: COUNT (default 5), BENCH (regexp,
#                                       # default .), BENCHTIME (optional)
#   hack/bench-table.sh bench.txt       # only format an earlier run's output
#
# The raw `go test` output goes to stderr, the table to stdout.
set -o errexit -o nounset -o pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  input=$1
else
  input=$(mktemp)
  trap 'rm -f "$input"' EXIT
  args=(-run '^$' -bench "${BENCH:-.}" -benchmem -count "${COUNT:-5}")
  if [ -n "${BENCHTIME:-}" ]; then
    args+=(-benchtime "$BENCHTIME")
  fi
  go test "${args[@]}" ./test/differential/ | tee "$input" >&2
fi

awk '
function median(key,    n, a, i, j, t, parts) {
  n = split(vals[key], parts, " ")
  if (n == 0) return ""
  for (i = 1; i <= n; i++) a[i] = parts[i] + 0
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
  if (n % 2) return a[(n+1)/2]
  return (a[n/2] + a[n/2+1]) / 2
}
function fmtnum(x) {
  if (x == "") return "-"
  if (x == int(x)) return sprintf("%.0f", x)
  return sprintf("%.2f", x)
}
function ratio(k, s) {
  if (k == "" || s == "") return "-"
  if (s == 0) return (k == 0 ? "1.00" : "inf")
  return sprintf("%.2f", k / s)
}
/^Benchmark/ {
  name = $1
  sub(/-[0-9]+$/, "", name)
  n = split(name, parts, "/")
  side = parts[n]
  if (side != "kcm" && side != "slicekit" && side != "incremental") next
  bench = substr(name, 1, length(name) - length(side) - 1)
  if (!(bench in seen)) { seen[bench] = 1; order[++nb] = bench }
  runs[bench SUBSEP side]++
  for (i = 3; i < NF; i += 2) vals[bench SUBSEP side SUBSEP $(i+1)] = vals[bench SUBSEP side SUBSEP $(i+1)] " " $i
}
END {
  if (nb == 0) { print "no benchmark results found" > "/dev/stderr"; exit 1 }
  nu = split("ns/op cpu-ns/op B/op allocs/op writes/op", units, " ")
  printf "| benchmark | runs |"
  for (u = 1; u <= nu; u++) printf " %s kcm | %s slicekit | kcm/slicekit |", units[u], units[u]
  printf "\n|---|---|"
  for (u = 1; u <= nu; u++) printf "---:|---:|---:|"
  printf "\n"
  for (b = 1; b <= nb; b++) {
    bench = order[b]
    for (si = 1; si <= 2; si++) {
      side = (si == 1 ? "slicekit" : "incremental")
      if (!((bench SUBSEP side) in runs)) continue
      label = (si == 1 ? bench : bench " (incremental)")
      printf "| %s | %d/%d |", label, runs[bench SUBSEP "kcm"], runs[bench SUBSEP side]
      for (u = 1; u <= nu; u++) {
        k = median(bench SUBSEP "kcm" SUBSEP units[u])
        s = median(bench SUBSEP side SUBSEP units[u])
        printf " %s | %s | %s |", fmtnum(k), fmtnum(s), ratio(k, s)
      }
      printf "\n"
    }
  }
}' "$input"
