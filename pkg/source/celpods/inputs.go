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

package celpods

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Why profiles declare what they read: Pod annotations and labels are
// written by anyone who may edit Pods in the namespace (the edit role), so
// an expression that turns them into addresses lets those users choose
// where a Service's traffic goes (docs/security.md). The keys a profile
// declares in podAnnotations and podLabels are what the input admission
// policy (config/components/admission-policies, the chart's
// admissionPolicies) restricts to trusted writers; a profile that reads
// others would be unguarded: Program.UndeclaredReads reports it, and the
// CEL controllers warn at start-up (a warning, not a refusal, so that a
// profile reading only trusted data through a computed key still runs;
// the address guard, pkg/source/addressguard, applies in any case).

// podMetaMaps are the Pod metadata maps a profile must declare its keys of.
var podMetaMaps = map[string]string{"annotations": "podAnnotations", "labels": "podLabels"}

// validateDeclaredKeys checks the podAnnotations and podLabels keys of p
// (qualified names, as the API server requires of annotation and label
// keys).
func validateDeclaredKeys(p *Profile) []error {
	var errs []error
	for field, keys := range map[string][]string{"podAnnotations": p.PodAnnotations, "podLabels": p.PodLabels} {
		for _, k := range keys {
			if msgs := validation.IsQualifiedName(k); len(msgs) > 0 {
				errs = append(errs, fmt.Errorf("%s: %q is not an annotation or label key: %s", field, k, strings.Join(msgs, "; ")))
			}
		}
	}
	return errs
}

// podMetaReads is what an expression reads of pod.metadata.annotations and
// pod.metadata.labels: the constant keys, and whether it also uses a map
// otherwise (iterates it, indexes it with a computed key, passes it on).
type podMetaReads struct {
	keys    map[string][]string // map name → keys, sorted
	dynamic map[string]bool
}

// readsOf walks the checked AST of expr.
func readsOf(expr celast.Expr) podMetaReads {
	r := podMetaReads{keys: map[string][]string{}, dynamic: map[string]bool{}}
	consumed := map[int64]bool{} // ids of map expressions used with a constant key
	add := func(m, k string) {
		if !slices.Contains(r.keys[m], k) {
			r.keys[m] = append(r.keys[m], k)
		}
	}
	celast.PostOrderVisit(expr, celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.SelectKind:
			// pod.metadata.annotations.key, has(pod.metadata.annotations.key)
			s := e.AsSelect()
			if m := podMetaMap(s.Operand()); m != "" {
				add(m, s.FieldName())
				consumed[s.Operand().ID()] = true
			}
		case celast.CallKind:
			c := e.AsCall()
			args := c.Args()
			switch c.FunctionName() {
			case operators.Index, operators.OptIndex, operators.OptSelect:
				// pod.metadata.annotations['key'], [?'key'], .?key
				if len(args) == 2 {
					if m := podMetaMap(args[0]); m != "" {
						if k, ok := stringLiteral(args[1]); ok {
							add(m, k)
							consumed[args[0].ID()] = true
						}
					}
				}
			case operators.In:
				// 'key' in pod.metadata.annotations
				if len(args) == 2 {
					if m := podMetaMap(args[1]); m != "" {
						if k, ok := stringLiteral(args[0]); ok {
							add(m, k)
							consumed[args[1].ID()] = true
						}
					}
				}
			}
		}
	}))
	// Every use of a map not consumed by a constant key is dynamic.
	celast.PostOrderVisit(expr, celast.NewExprVisitor(func(e celast.Expr) {
		if m := podMetaMap(e); m != "" && !consumed[e.ID()] {
			r.dynamic[m] = true
		}
	}))
	for m := range r.keys {
		sort.Strings(r.keys[m])
	}
	return r
}

// podMetaMap returns "annotations" or "labels" when e is
// pod.metadata.annotations or pod.metadata.labels, in any of CEL's forms
// (field selection, optional selection, index with a string literal),
// else "".
func podMetaMap(e celast.Expr) string {
	operand, name, ok := fieldOf(e)
	if !ok || podMetaMaps[name] == "" {
		return ""
	}
	inner, meta, ok := fieldOf(operand)
	if !ok || meta != "metadata" || inner.Kind() != celast.IdentKind || inner.AsIdent() != VarPod {
		return ""
	}
	return name
}

// fieldOf returns the operand and field of x.f, x.?f, x['f'] or x[?'f'].
func fieldOf(e celast.Expr) (celast.Expr, string, bool) {
	switch e.Kind() {
	case celast.SelectKind:
		s := e.AsSelect()
		if s.IsTestOnly() {
			return nil, "", false
		}
		return s.Operand(), s.FieldName(), true
	case celast.CallKind:
		c := e.AsCall()
		switch c.FunctionName() {
		case operators.Index, operators.OptIndex, operators.OptSelect:
			if args := c.Args(); len(args) == 2 {
				if k, ok := stringLiteral(args[1]); ok {
					return args[0], k, true
				}
			}
		}
	}
	return nil, "", false
}

func stringLiteral(e celast.Expr) (string, bool) {
	if e.Kind() != celast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}

// checkDeclaredReads returns an error when the expression of field reads
// a Pod annotation or label p does not declare (podAnnotations,
// podLabels), or uses either map (dynamically or not) while p declares no
// key of it. A mention of "annotations" or "labels" the walk cannot place
// (such as pod['metadata'][x]) counts as a read.
func checkDeclaredReads(p Profile, field, src string, expr celast.Expr) error {
	r := readsOf(expr)
	declared := map[string][]string{"annotations": p.PodAnnotations, "labels": p.PodLabels}
	var errs []error
	for _, m := range []string{"annotations", "labels"} {
		decl := declared[m]
		for _, k := range r.keys[m] {
			if !slices.Contains(decl, k) {
				errs = append(errs, fmt.Errorf("reads pod.metadata.%s[%q], which %s does not declare", m, k, podMetaMaps[m]))
			}
		}
		if len(decl) == 0 && (r.dynamic[m] || (len(r.keys[m]) == 0 && strings.Contains(src, m))) {
			errs = append(errs, fmt.Errorf("reads pod.metadata.%s but declares no %s", m, podMetaMaps[m]))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("profile %q: %s: %w (declare every Pod annotation and label the expressions read, so that the input admission policy guards them; docs/security.md)", p.Name, field, err)
	}
	return nil
}

// undeclaredReads checks both expressions of p (already compiled without
// error) with checkDeclaredReads and returns the problems joined.
func undeclaredReads(env interface {
	Compile(string) (*cel.Ast, *cel.Issues)
}, p Profile) error {
	var errs []error
	for _, f := range []struct{ field, expr string }{{"addresses", p.Addresses}, {"ready", p.Ready}} {
		if strings.TrimSpace(f.expr) == "" {
			continue
		}
		ast, iss := env.Compile(f.expr)
		if iss.Err() != nil {
			continue // Compile reported it
		}
		if err := checkDeclaredReads(p, f.field, f.expr, ast.NativeRep().Expr()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// UndeclaredReads returns an error naming every Pod annotation or label
// the profile's expressions read without declaring it in podAnnotations or
// podLabels (see Profile.PodAnnotations), or nil. Such reads are not
// guarded by the input admission policy: whoever may edit the Pods chooses
// what they say (docs/security.md). The CEL controllers log it as a
// warning at start-up.
func (p *Program) UndeclaredReads() error { return p.undeclared }
