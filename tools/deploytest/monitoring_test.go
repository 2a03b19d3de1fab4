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

package deploytest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/prometheus/promql/parser"
	"sigs.k8s.io/yaml"
)

const monitoringDir = "../../config/monitoring"

// ruleFile is a Prometheus rules file.
type ruleFile struct {
	Groups []struct {
		Name  string `json:"name"`
		Rules []struct {
			Alert       string            `json:"alert,omitempty"`
			Record      string            `json:"record,omitempty"`
			Expr        string            `json:"expr"`
			For         string            `json:"for,omitempty"`
			Labels      map[string]string `json:"labels,omitempty"`
			Annotations map[string]string `json:"annotations,omitempty"`
		} `json:"rules"`
	} `json:"groups"`
}

func readRules(t *testing.T) ruleFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(monitoringDir, "slicekit.rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rf ruleFile
	if err := yaml.UnmarshalStrict(data, &rf); err != nil {
		t.Fatalf("slicekit.rules.yaml: %v", err)
	}
	return rf
}

// TestPrometheusRuleMatchesRulesFile checks that the PrometheusRule
// carries exactly the groups of the plain rules file.
func TestPrometheusRuleMatchesRulesFile(t *testing.T) {
	rf := readRules(t)
	data, err := os.ReadFile(filepath.Join(monitoringDir, "prometheusrule.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var pr struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Spec       ruleFile       `json:"spec"`
	}
	if err := yaml.UnmarshalStrict(data, &pr); err != nil {
		t.Fatalf("prometheusrule.yaml: %v", err)
	}
	if pr.APIVersion != "monitoring.coreos.com/v1" || pr.Kind != "PrometheusRule" {
		t.Errorf("prometheusrule.yaml is a %s %s", pr.APIVersion, pr.Kind)
	}
	if d := cmp.Diff(rf, pr.Spec); d != "" {
		t.Errorf("PrometheusRule spec differs from slicekit.rules.yaml (-file +PrometheusRule):\n%s", d)
	}
}

// TestRules checks every rule: an alert name, a parsing expression, a
// severity, a summary; and the alerts the operations guide needs exist.
func TestRules(t *testing.T) {
	rf := readRules(t)
	var alerts []string
	for _, g := range rf.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				t.Errorf("group %s: a rule without alert name", g.Name)
			}
			alerts = append(alerts, r.Alert)
			if _, err := metricNames(r.Expr); err != nil {
				t.Errorf("%s: %v", r.Alert, err)
			}
			if s := r.Labels["severity"]; s != "warning" && s != "critical" {
				t.Errorf("%s: severity %q", r.Alert, s)
			}
			if r.Annotations["summary"] == "" {
				t.Errorf("%s: no summary", r.Alert)
			}
		}
	}
	for _, want := range []string{"SlicekitEndpointSliceSyncErrors", "SlicekitMirroringSyncErrors", "SlicekitSyncRetries",
		"SlicekitConflictingWriters", "SlicekitWorkQueueDepthHigh", "SlicekitWorkQueueLatencyHigh",
		"SlicekitNoLeader", "SlicekitLeadershipLost", "SlicekitAbsent"} {
		if !slices.Contains(alerts, want) {
			t.Errorf("no alert %s", want)
		}
	}
}

// promQLParser parses PromQL as Prometheus does.
var promQLParser = parser.NewParser(parser.Options{})

// metricNames returns the metric names expr selects. A selector without a
// literal metric name (only {__name__=~...}) is an error: its metrics could
// not be checked.
func metricNames(expr string) ([]string, error) {
	e, err := promQLParser.ParseExpr(expr)
	if err != nil {
		return nil, fmt.Errorf("parsing %q: %w", expr, err)
	}
	var names []string
	var bad error
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			if vs.Name == "" {
				bad = fmt.Errorf("%q: selector %s has no metric name", expr, vs)
			}
			names = append(names, vs.Name)
		}
		return nil
	})
	return names, bad
}

// grafanaVariables are replaced before parsing dashboard queries.
var grafanaVariables = strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h")

// labelValuesQuery matches Grafana's label_values(metric{...}, label).
var labelValuesQuery = regexp.MustCompile(`^label_values\((.*),\s*[a-zA-Z_][a-zA-Z0-9_]*\)$`)

// dashboardQueries returns every PromQL expression of the dashboard: the
// panels' targets and the template variables' label_values selectors.
func dashboardQueries(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(monitoringDir, "grafana-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title  string `json:"title"`
		UID    string `json:"uid"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Name  string `json:"name"`
				Type  string `json:"type"`
				Query any    `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("grafana-dashboard.json: %v", err)
	}
	if d.Title == "" || d.UID == "" || len(d.Panels) < 10 {
		t.Errorf("dashboard %q uid %q has %d panels", d.Title, d.UID, len(d.Panels))
	}
	var out []string
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			out = append(out, grafanaVariables.Replace(tg.Expr))
		}
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		q, _ := v.Query.(map[string]any)
		s, _ := q["query"].(string)
		m := labelValuesQuery.FindStringSubmatch(s)
		if m == nil {
			t.Errorf("variable %s: query %q is not label_values(selector, label)", v.Name, s)
			continue
		}
		out = append(out, m[1])
	}
	return out
}

// usedMetrics returns every metric name the rules and the dashboard use.
func usedMetrics(t *testing.T) []string {
	t.Helper()
	set := map[string]bool{}
	var exprs []string
	for _, g := range readRules(t).Groups {
		for _, r := range g.Rules {
			exprs = append(exprs, r.Expr)
		}
	}
	exprs = append(exprs, dashboardQueries(t)...)
	for _, e := range exprs {
		names, err := metricNames(e)
		if err != nil {
			t.Error(err)
		}
		for _, n := range names {
			set[n] = true
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// TestDashboardQueriesParse parses every dashboard query.
func TestDashboardQueriesParse(t *testing.T) {
	for _, q := range dashboardQueries(t) {
		if _, err := metricNames(q); err != nil {
			t.Error(err)
		}
	}
}

// TestMetricNames checks metricNames itself: it must find every selector,
// inside functions, aggregations, binary operations and subqueries, and
// nothing else (label names, function names, strings).
func TestMetricNames(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{`up`, []string{"up"}},
		{`histogram_quantile(0.99, sum by (le) (rate(a_bucket{name="x"}[5m])))`, []string{"a_bucket"}},
		{`sum(rate(a[5m])) / sum(rate(b{result="error"}[5m])) > 0.1`, []string{"a", "b"}},
		{`x * on (job) group_left () info`, []string{"x", "info"}},
		{`max_over_time(rate(c[1m])[10m:1m])`, []string{"c"}},
		{`absent(slicekit_build_info)`, []string{"slicekit_build_info"}},
		{`label_replace(d, "dst", "$1", "src", "(.*)")`, []string{"d"}},
	} {
		got, err := metricNames(tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.expr, d)
		}
	}
	for _, bad := range []string{`{__name__=~"endpoint_.*"}`, `rate(x[5m]`, `sum by (`} {
		if _, err := metricNames(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// exportedSeries returns the series names of a /metrics text exposition
// (histograms as _bucket, _sum and _count, as PromQL sees them).
func exportedSeries(text string) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexAny(line, "{ "); i > 0 {
			out[line[:i]] = true
		}
	}
	return out
}
