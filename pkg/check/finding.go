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

package check

import (
	"cmp"
	"fmt"
	"slices"
)

// Severity is how bad a finding is.
type Severity string

const (
	// SeverityError marks a state that is wrong: consumers (kube-proxy, DNS,
	// load balancers) route to the wrong place, or the EndpointSlice
	// contract is broken. Any error makes the check exit with status 1.
	SeverityError Severity = "error"
	// SeverityWarning marks a state that is legal but suspicious or
	// incomplete (for example a missing zone). Warnings alone exit 0.
	SeverityWarning Severity = "warning"
)

// ObjectRef names the object a finding is about.
type ObjectRef struct {
	// Kind is "EndpointSlice" or "Service".
	Kind string `json:"kind"`
	// Namespace is the object's namespace.
	Namespace string `json:"namespace,omitempty"`
	// Name is the object's name.
	Name string `json:"name"`
}

// String returns "Kind namespace/name".
func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Finding is one problem found by Check.
type Finding struct {
	// Severity is error or warning.
	Severity Severity `json:"severity"`
	// Rule is the identifier of the rule that found the problem (see
	// Rules).
	Rule RuleID `json:"rule"`
	// Object is the EndpointSlice or Service concerned.
	Object ObjectRef `json:"object"`
	// Reason explains the problem in one line.
	Reason string `json:"reason"`
}

// String returns "severity rule object: reason".
func (f Finding) String() string {
	return fmt.Sprintf("%s %s %s: %s", f.Severity, f.Rule, f.Object, f.Reason)
}

// Counts are the numbers of objects of each kind a check read.
type Counts struct {
	// Services is the number of Services read.
	Services int `json:"services"`
	// Pods is the number of Pods read.
	Pods int `json:"pods"`
	// Nodes is the number of Nodes read.
	Nodes int `json:"nodes"`
	// Endpoints is the number of Endpoints objects read.
	Endpoints int `json:"endpoints"`
	// EndpointSlices is the number of EndpointSlices checked.
	EndpointSlices int `json:"endpointSlices"`
}

// Skip records rules that could not run because the input lacked a kind
// of object.
type Skip struct {
	// Rules are the rules that were skipped.
	Rules []RuleID `json:"rules"`
	// Reason says why (which kind was missing).
	Reason string `json:"reason"`
}

// Report is the outcome of Check.
type Report struct {
	// Findings are every finding (none is left out), sorted by namespace,
	// object kind and name, rule, severity and reason; never nil.
	Findings []Finding `json:"findings"`
	// Checked counts the objects read.
	Checked Counts `json:"checked"`
	// Skipped lists rules that did not run.
	Skipped []Skip `json:"skipped,omitempty"`
}

// Errors returns the number of findings of severity error.
func (r *Report) Errors() int { return r.count(SeverityError) }

// Warnings returns the number of findings of severity warning.
func (r *Report) Warnings() int { return r.count(SeverityWarning) }

func (r *Report) count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// ExitCode returns the exit status of `slicekit check` for the report:
// ExitFindings (1) when there is at least one error, else ExitOK (0).
func (r *Report) ExitCode() int {
	if r.Errors() > 0 {
		return ExitFindings
	}
	return ExitOK
}

// sortFindings orders findings by namespace, kind, name, rule, severity
// (errors first) and reason, and removes exact duplicates. The findings of
// one rule on one object are thus consecutive, errors first (WriteText
// relies on it).
func sortFindings(fs []Finding) []Finding {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Object.Namespace, b.Object.Namespace),
			cmp.Compare(a.Object.Kind, b.Object.Kind),
			cmp.Compare(a.Object.Name, b.Object.Name),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Severity, b.Severity), // errors first
			cmp.Compare(a.Reason, b.Reason),
		)
	})
	return slices.Compact(fs)
}
