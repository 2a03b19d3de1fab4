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

package selectorless

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

func TestSelectsNoPods(t *testing.T) {
	for _, tc := range []struct {
		name       string
		svc        *corev1.Service
		want       bool
		wantReason string
	}{
		{"nil", nil, false, ""},
		{"selector", &corev1.Service{Spec: corev1.ServiceSpec{Selector: map[string]string{"a": "b"}}}, false, ""},
		{"empty selector selects nothing but is not nil", &corev1.Service{Spec: corev1.ServiceSpec{Selector: map[string]string{}}}, false, ""},
		{"no selector", &corev1.Service{}, true, ReasonNoSelector},
		{"ExternalName with selector", &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, Selector: map[string]string{"a": "b"}}}, true, ReasonExternalName},
		{"ExternalName without selector", &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName}}, true, ReasonExternalName},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, reason, why := SelectsNoPods(tc.svc)
			if got != tc.want || reason != tc.wantReason || (got && why == "") {
				t.Errorf("SelectsNoPods = %v, %q, %q; want %v, %q", got, reason, why, tc.want, tc.wantReason)
			}
		})
	}
}

func TestParseSelector(t *testing.T) {
	pod := labels.Set{"app": "m", "tier": "b", "canary": "true"}
	for _, tc := range []struct {
		annotation string
		present    bool
		wantErr    string
		matches    bool
	}{
		{annotation: "", present: false},
		{annotation: "app=m", present: true, matches: true},
		{annotation: "app==m,tier=b", present: true, matches: true},
		{annotation: "app!=m", present: true, matches: false},
		{annotation: "tier in (a,b)", present: true, matches: true},
		{annotation: "tier notin (a,b)", present: true, matches: false},
		{annotation: "app=m,!canary", present: true, matches: false},
		{annotation: "canary", present: true, matches: true},
		{annotation: "  ", present: true, wantErr: "empty"},
		{annotation: "app=", present: true, matches: false},
		{annotation: "app in (", present: true, wantErr: "not a label selector"},
		{annotation: "app=m,", present: true, wantErr: "not a label selector"},
		{annotation: "-app=m", present: true, wantErr: "not a label selector"},
	} {
		t.Run(tc.annotation, func(t *testing.T) {
			svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{}}}
			if tc.present {
				svc.Annotations[wellknown.AnnotationSelector] = tc.annotation
			}
			sel, present, err := ParseSelector(svc)
			if present != tc.present {
				t.Fatalf("present = %v, want %v", present, tc.present)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), wellknown.AnnotationSelector) {
					t.Fatalf("err = %v, want one containing %q and the annotation's name", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !present {
				if sel != nil {
					t.Errorf("selector %v for a missing annotation", sel)
				}
				return
			}
			if got := sel.Matches(pod); got != tc.matches {
				t.Errorf("%q matches %v = %v, want %v", tc.annotation, pod, got, tc.matches)
			}
		})
	}
}

func TestParseTooManyRequirements(t *testing.T) {
	var parts []string
	for i := 0; i <= MaxRequirements; i++ {
		parts = append(parts, "k"+strings.Repeat("x", i%5)+string(rune('a'+i%26))+"=v")
	}
	if _, err := Parse(strings.Join(parts, ",")); err == nil {
		t.Errorf("%d requirements accepted", len(parts))
	}
}

// FuzzParse checks that the selector parsing path never panics, that an
// accepted selector is never empty (it would select every Pod), and that
// it round-trips: its String form parses to the same selector.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"app=m", "tier in (a,b),!canary", "a!=b", "x", "", " ", "a in (", "a=b,", "k8s.io/app=web", "a>1", "a=b,c notin (d)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := Parse(s)
		if err != nil {
			return
		}
		if sel.Empty() {
			t.Fatalf("Parse(%q) accepted an empty selector", s)
		}
		again, err := Parse(sel.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, sel.String(), err)
		}
		if again.String() != sel.String() {
			t.Fatalf("round trip of %q: %q != %q", s, again.String(), sel.String())
		}
		svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{wellknown.AnnotationSelector: s}}}
		if _, present, err := ParseSelector(svc); !present || err != nil {
			t.Fatalf("ParseSelector disagrees with Parse on %q: %v %v", s, present, err)
		}
	})
}
