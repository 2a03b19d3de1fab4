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

package casefile

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Backend is what a case runs against: the controllers under test plus the
// objects they read and write.
type Backend interface {
	// Load creates the case's initial objects (input.yaml).
	Load(ctx context.Context, objs []runtime.Object) error
	// Settle runs the controllers until idle.
	Settle(ctx context.Context) error
	// Patch, Delete and Apply change one object (steps patch, delete and
	// apply).
	Patch(ctx context.Context, p *Patch) error
	Delete(ctx context.Context, ref Ref) error
	Apply(ctx context.Context, obj runtime.Object) error
	// Slices returns every EndpointSlice that exists now.
	Slices(ctx context.Context) ([]discovery.EndpointSlice, error)
}

// Optional Backend capabilities.
type (
	// UIDMapper maps the case's readable uids to the backend's real ones.
	UIDMapper interface {
		UIDMap() map[types.UID]types.UID
	}
	// ResourceVersionReporter returns the resourceVersion a slice had right
	// after Load created it ("" when unknown), for the unchanged assertion.
	ResourceVersionReporter interface {
		CreatedResourceVersion(namespace, name string) string
	}
	// EventLister lists the Events recorded about an object. Without it,
	// event assertions are skipped.
	EventLister interface {
		Events(ctx context.Context, kind, namespace, name string) ([]corev1.Event, error)
	}
	// Resyncer makes the controllers see an object again without a change
	// (step resync). Without it, resync does nothing (every Settle then
	// reads everything afresh).
	Resyncer interface {
		Resync(ctx context.Context, ref Ref) error
	}
)

// RunOptions tune Run.
type RunOptions struct {
	// Optional also runs the steps marked optional.
	Optional bool
}

// Check is the outcome of one checkpoint comparison or assertion.
type Check struct {
	Name    string
	OK      bool
	Skipped bool
	// Lines explain a failure or a skip.
	Lines []string
}

// Result is the outcome of a case run.
type Result struct {
	Case   string
	Checks []Check
	// Err is set when the run stopped: a step failed or Settle returned an
	// error.
	Err error
}

// Failed reports whether the run stopped or a check failed.
func (r *Result) Failed() bool {
	if r.Err != nil {
		return true
	}
	for _, c := range r.Checks {
		if !c.OK && !c.Skipped {
			return true
		}
	}
	return false
}

// String is a readable report of the failures and skips.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "case %s", r.Case)
	if r.Err != nil {
		fmt.Fprintf(&b, "\n  error: %v", r.Err)
	}
	for _, c := range r.Checks {
		switch {
		case c.Skipped:
			fmt.Fprintf(&b, "\n  SKIP %s: %s", c.Name, strings.Join(c.Lines, "; "))
		case !c.OK:
			fmt.Fprintf(&b, "\n  FAIL %s", c.Name)
			for _, l := range c.Lines {
				fmt.Fprintf(&b, "\n       %s", l)
			}
		}
	}
	return b.String()
}

// Report fails t when the run failed, logging the whole result, and logs
// skipped checks. A run without any passing, non-skipped check fails too.
func Report(t testing.TB, r *Result) {
	t.Helper()
	passed := 0
	for _, c := range r.Checks {
		if c.OK && !c.Skipped {
			passed++
		}
	}
	switch {
	case r.Failed():
		t.Error(r.String())
	case passed == 0:
		t.Errorf("case %s: nothing was checked\n%s", r.Case, r.String())
	default:
		for _, c := range r.Checks {
			if c.Skipped {
				t.Logf("case %s: SKIP %s: %s", r.Case, c.Name, strings.Join(c.Lines, "; "))
			}
		}
	}
}

// Run loads c into b, settles, then walks c.Steps: mutations are applied
// through b, and each checkpoint settles first when something changed,
// then compares and asserts. It stops at the first error of b.
func Run(ctx context.Context, c *Case, b Backend, o RunOptions) *Result {
	res := &Result{Case: c.Name}
	if err := b.Load(ctx, c.Input); err != nil {
		res.Err = fmt.Errorf("load input.yaml: %w", err)
		return res
	}
	if err := b.Settle(ctx); err != nil {
		res.Err = fmt.Errorf("settle after load: %w", err)
		return res
	}
	dirty := false
	cp := 0
	for i := range c.Steps {
		a := &c.Steps[i]
		if a.Optional && !o.Optional {
			continue
		}
		step := fmt.Sprintf("step %d (%s)", i+1, a.Kind())
		if a.Note != "" {
			step += " " + a.Note
		}
		var err error
		switch {
		case a.Checkpoint != nil:
			cp++
			if dirty {
				if err := b.Settle(ctx); err != nil {
					res.Err = fmt.Errorf("%s: settle: %w", step, err)
					return res
				}
				dirty = false
			}
			res.Checks = append(res.Checks, checkpoint(ctx, c, b, a, cp, i+1)...)
			continue
		case a.Run != nil:
			if err := b.Settle(ctx); err != nil {
				res.Err = fmt.Errorf("%s: settle: %w", step, err)
				return res
			}
			dirty = false
			continue
		case a.Patch != nil:
			err = b.Patch(ctx, a.Patch)
		case a.Delete != nil:
			err = b.Delete(ctx, *a.Delete)
		case a.Apply != nil:
			var obj runtime.Object
			if obj, err = ObjectFromMap(a.Apply); err == nil {
				err = b.Apply(ctx, obj)
			}
		case a.Resync != nil:
			if rs, ok := b.(Resyncer); ok {
				err = rs.Resync(ctx, *a.Resync)
			}
		}
		if err != nil {
			res.Err = fmt.Errorf("%s: %w", step, err)
			return res
		}
		dirty = true
	}
	return res
}

func checkpoint(ctx context.Context, c *Case, b Backend, a *Action, n, stepNo int) []Check {
	cp := a.Checkpoint
	name := fmt.Sprintf("checkpoint %d (step %d)", n, stepNo)
	if cp.Name != "" {
		name = fmt.Sprintf("checkpoint %s (step %d)", cp.Name, stepNo)
	}
	all, err := b.Slices(ctx)
	if err != nil {
		return []Check{{Name: name, Lines: []string{"listing slices: " + err.Error()}}}
	}
	var uidMap map[types.UID]types.UID
	if m, ok := b.(UIDMapper); ok {
		uidMap = m.UIDMap()
	}
	var checks []Check
	if cp.HasExpected() {
		var exp []discovery.EndpointSlice
		what := "slices"
		if len(cp.Services) > 0 {
			what += " of " + strings.Join(cp.Services, ",")
		}
		if cp.File != "" {
			if exp, err = ReadSlices(filepath.Join(c.Dir, cp.File)); err != nil {
				return []Check{{Name: name, Lines: []string{err.Error()}}}
			}
			what += " vs " + cp.File
		}
		if cp.Slices != nil {
			exp = append(exp, *cp.Slices...)
			what += fmt.Sprintf(" vs %d inline slice(s)", len(*cp.Slices))
		}
		exp = Filter(exp, cp.Services, cp.ManagedBy)
		act := Filter(all, cp.Services, cp.ManagedBy)
		keep := cp.IgnoreTriggerTime != nil && !*cp.IgnoreTriggerTime
		lines := Compare(exp, act, CompareOptions{KeepTriggerTime: keep, Union: cp.Union, UIDMap: uidMap})
		checks = append(checks, Check{Name: name + ": " + what, OK: len(lines) == 0, Lines: lines})
	}
	for j := range cp.Assert {
		checks = append(checks, assertion(ctx, c, b, &cp.Assert[j], name, all, uidMap))
	}
	if len(checks) == 0 {
		checks = append(checks, Check{Name: name, Skipped: true, Lines: []string{"nothing to check"}})
	}
	return checks
}

func assertion(ctx context.Context, c *Case, b Backend, as *Assertion, cpName string, all []discovery.EndpointSlice, uidMap map[types.UID]types.UID) Check {
	ch := Check{Name: cpName + ": " + as.Kind()}
	if as.Note != "" {
		ch.Name += " (" + as.Note + ")"
	}
	fail := func(format string, args ...any) { ch.Lines = append(ch.Lines, fmt.Sprintf(format, args...)) }
	switch {
	case as.NoSlice != nil:
		ch.Name += " " + as.NoSlice.String()
		for i := range all {
			if as.NoSlice.Matches(&all[i]) {
				fail("found slice %s/%s (service=%s managed-by=%s, %d endpoints)", all[i].Namespace, all[i].Name,
					all[i].Labels[discovery.LabelServiceName], all[i].Labels[discovery.LabelManagedBy], len(all[i].Endpoints))
			}
		}
	case as.NoAddress != nil:
		addrs := as.NoAddress.All()
		ch.Name += fmt.Sprintf(" %v in %s", addrs, as.NoAddress.String())
		bad := map[string]bool{}
		for _, x := range addrs {
			bad[x] = true
		}
		for i := range all {
			if !as.NoAddress.Matches(&all[i]) {
				continue
			}
			for _, e := range all[i].Endpoints {
				for _, ad := range e.Addresses {
					if bad[ad] {
						fail("address %s found in slice %s/%s (service=%s)", ad, all[i].Namespace, all[i].Name, all[i].Labels[discovery.LabelServiceName])
					}
				}
			}
		}
	case as.SliceCount != nil:
		ch.Name += fmt.Sprintf(" %s == %d", as.SliceCount.String(), as.SliceCount.Count)
		var names []string
		for i := range all {
			if as.SliceCount.Matches(&all[i]) {
				names = append(names, all[i].Name)
			}
		}
		if len(names) != as.SliceCount.Count {
			sort.Strings(names)
			fail("found %d slice(s) %v, want %d", len(names), names, as.SliceCount.Count)
		}
	case as.NoEmptySlice != nil:
		ch.Name += " " + as.NoEmptySlice.String()
		for i := range all {
			if as.NoEmptySlice.Matches(&all[i]) && len(all[i].Endpoints) == 0 {
				fail("slice %s/%s has no endpoints", all[i].Namespace, all[i].Name)
			}
		}
	case as.Unchanged != nil:
		ref := *as.Unchanged
		ch.Name += " " + ref.Name
		var orig *discovery.EndpointSlice
		for _, o := range c.Input {
			if s, ok := o.(*discovery.EndpointSlice); ok && s.Name == ref.Name && (ref.Namespace == "" || ref.Namespace == s.Namespace) {
				orig = s
			}
		}
		if orig == nil {
			fail("no slice named %s in input.yaml", ref.Name)
			break
		}
		var cur *discovery.EndpointSlice
		for i := range all {
			if all[i].Name == orig.Name && all[i].Namespace == orig.Namespace {
				cur = &all[i]
			}
		}
		if cur == nil {
			fail("slice %s/%s no longer exists", orig.Namespace, orig.Name)
			break
		}
		ch.Lines = append(ch.Lines, Compare([]discovery.EndpointSlice{*orig}, []discovery.EndpointSlice{*cur}, CompareOptions{UIDMap: uidMap})...)
		if rr, ok := b.(ResourceVersionReporter); ok {
			if rv := rr.CreatedResourceVersion(cur.Namespace, cur.Name); rv != "" && rv != cur.ResourceVersion {
				fail("resourceVersion changed since creation (%s -> %s): the slice was written", rv, cur.ResourceVersion)
			}
		}
	case as.Event != nil:
		e := as.Event
		ch.Name += fmt.Sprintf(" %s %s/%s reason=%s", e.Kind, e.Namespace, e.Name, e.Reason)
		el, ok := b.(EventLister)
		if !ok {
			ch.Skipped = true
			ch.Lines = []string{"the backend records no events"}
			return ch
		}
		evs, err := el.Events(ctx, e.Kind, e.Namespace, e.Name)
		if err != nil {
			fail("listing events: %v", err)
			break
		}
		var seen []string
		found := false
		for _, ev := range evs {
			seen = append(seen, ev.Reason)
			if ev.Reason == e.Reason && (e.MessageContains == "" || strings.Contains(ev.Message, e.MessageContains)) {
				found = true
			}
		}
		if !found {
			fail("no event with reason %s (message containing %q); events seen: %v", e.Reason, e.MessageContains, seen)
		}
	default:
		fail("empty assertion")
	}
	ch.OK = len(ch.Lines) == 0
	return ch
}
