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
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	discovery "k8s.io/api/discovery/v1"
	"sigs.k8s.io/yaml"
)

// Steps is the content of a case's steps.yaml (the schema of
// testdata/cases/README.md, "steps.yaml"): the actions to run after the controllers have
// processed input.yaml, in order. Mutations (patch, delete, apply, resync)
// change the world; a checkpoint first runs the controllers until idle if
// anything changed since the last run, then compares; run forces a run
// until idle.
type Steps []Action

// Action is one step. Exactly one of Checkpoint, Patch, Delete, Apply,
// Resync and Run is set.
type Action struct {
	// Note is free text (for example the README step it encodes).
	Note string `json:"note,omitempty"`
	// Optional marks README follow-ups, run only on request, after all
	// required actions.
	Optional bool `json:"optional,omitempty"`

	Checkpoint *Checkpoint    `json:"checkpoint,omitempty"`
	Patch      *Patch         `json:"patch,omitempty"`
	Delete     *Ref           `json:"delete,omitempty"`
	Apply      map[string]any `json:"apply,omitempty"`
	Resync     *Ref           `json:"resync,omitempty"`
	Run        *struct{}      `json:"run,omitempty"`
}

// Kind returns the action's verb ("checkpoint", "patch", ...).
func (a *Action) Kind() string {
	switch {
	case a.Checkpoint != nil:
		return "checkpoint"
	case a.Patch != nil:
		return "patch"
	case a.Delete != nil:
		return "delete"
	case a.Apply != nil:
		return "apply"
	case a.Resync != nil:
		return "resync"
	case a.Run != nil:
		return "run"
	}
	return ""
}

// Ref names one object. Kind is the plain kind ("Pod"); APIVersion is
// needed only outside core/v1 and discovery.k8s.io/v1; Namespace is empty
// for cluster-scoped kinds.
type Ref struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

func (r Ref) String() string {
	if r.Namespace == "" {
		return r.Kind + "/" + r.Name
	}
	return r.Kind + "/" + r.Namespace + "/" + r.Name
}

// Patch changes one object. Type is "merge" (RFC 7386, the default), "json"
// (RFC 6902) or "strategic" (strategic merge patch). Subresource "status"
// matters only against an API server; in memory the object is patched.
type Patch struct {
	Ref
	Type        string          `json:"type,omitempty"`
	Subresource string          `json:"subresource,omitempty"`
	Patch       json.RawMessage `json:"patch"`
}

// Checkpoint compares the EndpointSlices in scope with an expected set and
// checks assertions. In steps.yaml it is a file name or an object.
type Checkpoint struct {
	// Name labels the checkpoint in reports.
	Name string `json:"name,omitempty"`
	// File holds expected slices, relative to the case folder.
	File string `json:"file,omitempty"`
	// Slices are expected slices given inline; `slices: []` expects none.
	Slices *[]discovery.EndpointSlice `json:"slices,omitempty"`
	// Services limits both sides to these kubernetes.io/service-name values
	// (default: every slice).
	Services []string `json:"services,omitempty"`
	// ManagedBy further limits both sides to these managed-by values.
	ManagedBy []string `json:"managedBy,omitempty"`
	// Union compares, per slice shape, the multiset of endpoints instead of
	// the split into slices.
	Union bool `json:"union,omitempty"`
	// IgnoreTriggerTime drops the trigger-time annotation of unnamed slices
	// (default true).
	IgnoreTriggerTime *bool `json:"ignoreTriggerTime,omitempty"`
	// Assert lists extra checks.
	Assert []Assertion `json:"assert,omitempty"`
}

// HasExpected reports whether the checkpoint compares with expected slices.
func (c *Checkpoint) HasExpected() bool { return c.File != "" || c.Slices != nil }

// UnmarshalJSON accepts a bare file name or an object (strictly).
func (c *Checkpoint) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = Checkpoint{File: s}
		return nil
	}
	type plain Checkpoint
	var p plain
	if err := strictJSON(b, &p); err != nil {
		return err
	}
	*c = Checkpoint(p)
	return nil
}

// Assertion is one extra check over every slice of the world (not only
// the checkpoint's scope). Exactly one field but Note is set.
type Assertion struct {
	Note string `json:"note,omitempty"`
	// NoSlice: no slice matches.
	NoSlice *Selector `json:"noSlice,omitempty"`
	// NoAddress: no endpoint of a matching slice has one of the addresses.
	NoAddress *AddressCheck `json:"noAddress,omitempty"`
	// Unchanged: the slice exists and equals its input.yaml form; when the
	// backend knows resourceVersions, it was not written either.
	Unchanged *Ref `json:"unchanged,omitempty"`
	// SliceCount: exactly Count slices match.
	SliceCount *CountCheck `json:"sliceCount,omitempty"`
	// NoEmptySlice: no matching slice has zero endpoints.
	NoEmptySlice *Selector `json:"noEmptySlice,omitempty"`
	// Event: such an Event exists (skipped by backends without events).
	Event *EventCheck `json:"event,omitempty"`
}

// Kind returns the assertion's verb.
func (a *Assertion) Kind() string {
	switch {
	case a.NoSlice != nil:
		return "noSlice"
	case a.NoAddress != nil:
		return "noAddress"
	case a.Unchanged != nil:
		return "unchanged"
	case a.SliceCount != nil:
		return "sliceCount"
	case a.NoEmptySlice != nil:
		return "noEmptySlice"
	case a.Event != nil:
		return "event"
	}
	return ""
}

// Selector picks slices; empty fields match anything.
type Selector struct {
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name,omitempty"`
	Service     string `json:"service,omitempty"`
	ManagedBy   string `json:"managedBy,omitempty"`
	AddressType string `json:"addressType,omitempty"`
}

// Matches reports whether s matches.
func (sel Selector) Matches(s *discovery.EndpointSlice) bool {
	return (sel.Namespace == "" || sel.Namespace == s.Namespace) &&
		(sel.Name == "" || sel.Name == s.Name) &&
		(sel.Service == "" || sel.Service == s.Labels[discovery.LabelServiceName]) &&
		(sel.ManagedBy == "" || sel.ManagedBy == s.Labels[discovery.LabelManagedBy]) &&
		(sel.AddressType == "" || sel.AddressType == string(s.AddressType))
}

func (sel Selector) String() string {
	b, _ := json.Marshal(sel)
	return string(b)
}

// AddressCheck is a Selector plus the addresses that must not appear.
type AddressCheck struct {
	Selector
	Address   string   `json:"address,omitempty"`
	Addresses []string `json:"addresses,omitempty"`
}

// All returns Address and Addresses together.
func (a *AddressCheck) All() []string {
	out := append([]string{}, a.Addresses...)
	if a.Address != "" {
		out = append(out, a.Address)
	}
	return out
}

// CountCheck is a Selector plus the number of matching slices.
type CountCheck struct {
	Selector
	Count int `json:"count"`
}

// EventCheck names an Event by involved object and reason.
type EventCheck struct {
	Kind            string `json:"kind"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name"`
	Reason          string `json:"reason"`
	MessageContains string `json:"messageContains,omitempty"`
}

// ReadSteps reads and validates a steps.yaml file strictly. A missing file
// gives an error wrapping os.ErrNotExist.
func ReadSteps(path string) (Steps, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	st, err := ParseSteps(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}

// ParseSteps parses and validates the YAML of a steps file.
func ParseSteps(raw []byte) (Steps, error) {
	j, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return nil, err
	}
	var st Steps
	if err := strictJSON(j, &st); err != nil {
		return nil, err
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	return st, nil
}

// Validate checks that every action and assertion sets exactly one verb and
// its required fields, and that optional actions come last.
func (st Steps) Validate() error {
	seenOptional := false
	for i := range st {
		a := &st[i]
		if n := count(a.Checkpoint != nil, a.Patch != nil, a.Delete != nil, a.Apply != nil, a.Resync != nil, a.Run != nil); n != 1 {
			return fmt.Errorf("step %d: exactly one of checkpoint/patch/delete/apply/resync/run must be set (got %d)", i+1, n)
		}
		if a.Optional {
			seenOptional = true
		} else if seenOptional {
			return fmt.Errorf("step %d: required step after an optional one", i+1)
		}
		switch {
		case a.Patch != nil:
			p := a.Patch
			if p.Kind == "" || p.Name == "" || len(p.Patch) == 0 {
				return fmt.Errorf("step %d: patch needs kind, name and patch", i+1)
			}
			switch p.Type {
			case "", "merge", "json", "strategic":
			default:
				return fmt.Errorf("step %d: patch type %q (want merge, json or strategic)", i+1, p.Type)
			}
			if p.Subresource != "" && p.Subresource != "status" {
				return fmt.Errorf("step %d: subresource %q (only status)", i+1, p.Subresource)
			}
		case a.Delete != nil:
			if a.Delete.Kind == "" || a.Delete.Name == "" {
				return fmt.Errorf("step %d: delete needs kind and name", i+1)
			}
		case a.Resync != nil:
			if a.Resync.Kind == "" || a.Resync.Name == "" {
				return fmt.Errorf("step %d: resync needs kind and name", i+1)
			}
		case a.Apply != nil:
			if k, _ := a.Apply["kind"].(string); k == "" {
				return fmt.Errorf("step %d: apply needs an object with kind", i+1)
			}
		case a.Checkpoint != nil:
			for j := range a.Checkpoint.Assert {
				as := &a.Checkpoint.Assert[j]
				if n := count(as.NoSlice != nil, as.NoAddress != nil, as.Unchanged != nil, as.SliceCount != nil, as.NoEmptySlice != nil, as.Event != nil); n != 1 {
					return fmt.Errorf("step %d assertion %d: exactly one check must be set (got %d)", i+1, j+1, n)
				}
				if as.NoAddress != nil && len(as.NoAddress.All()) == 0 {
					return fmt.Errorf("step %d assertion %d: noAddress needs address(es)", i+1, j+1)
				}
			}
		}
	}
	return nil
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func strictJSON(b []byte, into any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(into); err != nil {
		return err
	}
	if d.More() {
		return errors.New("trailing data")
	}
	return nil
}
