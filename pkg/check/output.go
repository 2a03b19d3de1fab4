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
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Output formats.
const (
	OutputText = "text"
	OutputJSON = "json"
)

// MaxTextFindingsPerObjectRule is the most findings of one rule on one
// object that WriteText lists; a note line after them says how many more
// there are. The report, its counts and WriteJSON keep every finding.
const MaxTextFindingsPerObjectRule = 5

// jsonReport is the -o json document.
type jsonReport struct {
	// Source describes where the objects came from.
	Source   string      `json:"source,omitempty"`
	Findings []Finding   `json:"findings"`
	Summary  jsonSummary `json:"summary"`
	Skipped  []Skip      `json:"skipped,omitempty"`
	// Notes are remarks on the input (such as "no objects read from
	// ..."); they are not findings.
	Notes []string `json:"notes,omitempty"`
}

// jsonError is the -o json document of a check that could not be made
// (exit status 2, or 1 when interrupted).
type jsonError struct {
	// Error says why the check could not be made.
	Error string `json:"error"`
	// ExitStatus is the exit status of `slicekit check`.
	ExitStatus int `json:"exitStatus"`
}

// WriteJSONError writes {"error": msg, "exitStatus": code} as one
// indented JSON document, for -o json consumers of a check that could not
// be made (invalid options or input). It returns the write error.
func WriteJSONError(w io.Writer, code int, err error) error {
	return writeJSONDocument(w, jsonError{Error: err.Error(), ExitStatus: code})
}

// writeJSONDocument writes v to w as one JSON document indented by two
// spaces and ended by a newline, with <, > and & as they are (file names
// such as <stdin> are not HTML). It returns the encoding or write error.
func writeJSONDocument(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

type jsonSummary struct {
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Checked  Counts `json:"checked"`
	// Ignored counts input objects of kinds the check does not read.
	Ignored int `json:"ignored,omitempty"`
}

// WriteJSON writes the report as one indented JSON document:
// {"source", "findings": [...], "summary": {"errors", "warnings",
// "checked": {...}, "ignored"}, "skipped": [...], "notes": [...]}. Every
// finding is listed (no truncation) and the summary counts them all.
// source, ignored and notes describe the input and may be empty.
func WriteJSON(w io.Writer, r *Report, source string, ignored int, notes ...string) error {
	doc := jsonReport{
		Source:   source,
		Findings: r.Findings,
		Summary:  jsonSummary{Errors: r.Errors(), Warnings: r.Warnings(), Checked: r.Checked, Ignored: ignored},
		Skipped:  r.Skipped,
		Notes:    notes,
	}
	if doc.Findings == nil {
		doc.Findings = []Finding{}
	}
	return writeJSONDocument(w, doc)
}

// WriteText writes the report as a table (SEVERITY, RULE, OBJECT, REASON)
// followed by a summary line, and notes on skipped rules and ignored
// objects. Of the findings of one rule on one object it lists the first
// MaxTextFindingsPerObjectRule and then one note row, with an empty
// SEVERITY, saying how many more there are (the note is not a finding; the
// summary line counts every finding).
func WriteText(w io.Writer, r *Report, source string, ignored int) error {
	var b strings.Builder
	if len(r.Findings) > 0 {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SEVERITY\tRULE\tOBJECT\tREASON")
		fs := r.Findings
		for i := 0; i < len(fs); {
			// fs is sorted: the findings of one rule on one object are
			// consecutive.
			j := i + 1
			for j < len(fs) && fs[j].Object == fs[i].Object && fs[j].Rule == fs[i].Rule {
				j++
			}
			for _, f := range fs[i:min(j, i+MaxTextFindingsPerObjectRule)] {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Severity, f.Rule, f.Object, f.Reason)
			}
			if more := j - i - MaxTextFindingsPerObjectRule; more > 0 {
				fmt.Fprintf(tw, "\t%s\t%s\t... and %s of this rule on this object (-o json lists them all)\n",
					fs[i].Rule, fs[i].Object, plural(more, "more finding"))
			}
			i = j
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		b.WriteString("\n")
	}
	c := r.Checked
	checked := fmt.Sprintf("%s of %s checked (read %s, %s, %s)",
		plural(c.EndpointSlices, "EndpointSlice"), plural(c.Services, "Service"),
		plural(c.Pods, "Pod"), plural(c.Nodes, "Node"), plural(c.Endpoints, "Endpoints object"))
	if source != "" {
		checked += " from " + source
	}
	if len(r.Findings) == 0 {
		fmt.Fprintf(&b, "No findings: %s.\n", checked)
	} else {
		fmt.Fprintf(&b, "%s, %s: %s.\n", plural(r.Errors(), "error"), plural(r.Warnings(), "warning"), checked)
	}
	for _, s := range r.Skipped {
		ids := make([]string, len(s.Rules))
		for i, id := range s.Rules {
			ids[i] = string(id)
		}
		fmt.Fprintf(&b, "Skipped %s: %s.\n", strings.Join(ids, ", "), s.Reason)
	}
	if ignored > 0 {
		fmt.Fprintf(&b, "Ignored %s of other kinds.\n", plural(ignored, "object"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
