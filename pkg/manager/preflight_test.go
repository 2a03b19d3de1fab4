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

package manager

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/preflight"
)

// TestRegistrationsDeclareRBACRules makes every controller of the registry
// declare its RBAC rules, without wildcards, so that the preflight and
// config/rbac's test cover it.
func TestRegistrationsDeclareRBACRules(t *testing.T) {
	for _, name := range builtin.KnownControllers() {
		rules, err := ControllerRBACRules(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(rules) == 0 {
			t.Errorf("%s declares no RBAC rules", name)
		}
		for _, r := range rules {
			for _, s := range append(append(append([]string(nil), r.Verbs...), r.Resources...), r.APIGroups...) {
				if s == "*" {
					t.Errorf("%s: wildcard in rule %+v", name, r)
				}
			}
		}
		// Each call returns a new slice: changing one must not change the
		// next.
		rules[0].Verbs[0] = "changed"
		again, _ := ControllerRBACRules(name)
		if again[0].Verbs[0] == "changed" {
			t.Errorf("%s: RBACRules returns shared slices", name)
		}
	}
	if _, err := ControllerRBACRules("nope"); err == nil {
		t.Error("ControllerRBACRules(nope) did not fail")
	}
}

func TestPermissionRequirements(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string // "component namespace"
	}{
		{name: "defaults", args: []string{"--leader-elect-resource-namespace=kube-system"},
			want: []string{`controller "endpointslice" `, `controller "endpointslice-mirroring" `, "leader election kube-system"}},
		{name: "endpoints too, no leader election", args: []string{"--controllers=*,endpoints", "--leader-elect=false"},
			want: []string{`controller "endpoints" `, `controller "endpointslice" `, `controller "endpointslice-mirroring" `}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parse(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			reqs, err := o.PermissionRequirements()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range reqs {
				got = append(got, r.Component+" "+r.Namespace)
				if len(r.Rules) == 0 {
					t.Errorf("%s has no rules", r.Component)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("requirements (-want +got):\n%s", d)
			}
		})
	}
}

func TestPreflightFlag(t *testing.T) {
	o, err := parse(t)
	if err != nil || o.Preflight != PreflightFail {
		t.Errorf("default --preflight = %q (%v), want %q", o.Preflight, err, PreflightFail)
	}
	for _, mode := range []string{PreflightFail, PreflightWarn, PreflightOff} {
		if o, err := parse(t, "--preflight="+mode); err != nil || o.Preflight != mode {
			t.Errorf("--preflight=%s: %q, %v", mode, o.Preflight, err)
		}
	}
	if _, err := parse(t, "--preflight=maybe"); err == nil || !strings.Contains(err.Error(), "--preflight") {
		t.Errorf("--preflight=maybe: error %v", err)
	}
}

// TestStartupPreflight runs the start-up preflight on a fake API server
// that denies writing Endpoints, in each mode.
func TestStartupPreflight(t *testing.T) {
	client := fake.NewClientset()
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		ssar := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview).DeepCopy()
		ra := ssar.Spec.ResourceAttributes
		ssar.Status.Allowed = ra.Resource != "endpoints" || ra.Subresource != "" || ra.Verb != "create"
		return true, ssar, nil
	})
	for _, tc := range []struct {
		mode, controllers  string
		wantErr, wantReady bool
	}{
		{mode: PreflightFail, controllers: "*", wantReady: true},
		{mode: PreflightFail, controllers: "*,endpoints", wantErr: true},
		{mode: PreflightWarn, controllers: "*,endpoints"},
		{mode: PreflightOff, controllers: "*,endpoints", wantReady: true},
	} {
		t.Run(tc.mode+" "+tc.controllers, func(t *testing.T) {
			o, err := parse(t, "--preflight="+tc.mode, "--controllers="+tc.controllers, "--leader-elect=false")
			if err != nil {
				t.Fatal(err)
			}
			logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.BufferLogs(true)))
			ctx := klog.NewContext(t.Context(), logger)
			m := &Manager{opts: o, client: client, preflightClient: client}
			if o.Preflight != PreflightOff {
				m.permissions.missing.Store(&errPreflightPending)
			}
			err = m.startupPreflight(ctx)
			if got := preflight.IsMissingPermissions(err); got != tc.wantErr {
				t.Errorf("startupPreflight() = %v, want a missing permission error: %v", err, tc.wantErr)
			}
			if tc.wantErr && !strings.Contains(err.Error(), `controller "endpoints" cannot create endpoints`) {
				t.Errorf("error %q does not name the endpoints controller and verb", err)
			}
			ready := m.permissions.check(nil)
			if (ready == nil) != tc.wantReady {
				t.Errorf("readiness %v, want ready %v", ready, tc.wantReady)
			}
			var errorLines int
			for _, e := range logger.GetSink().(ktesting.Underlier).GetBuffer().Data() {
				if e.Type == ktesting.LogError && e.Message == "Missing permission" {
					errorLines++
				}
			}
			if want := map[bool]int{true: 1}[tc.wantErr || tc.mode == PreflightWarn && !tc.wantReady]; errorLines != want {
				t.Errorf("%d error lines about missing permissions, want %d", errorLines, want)
			}
		})
	}
}

// TestPreflightWarnRecovers: in warn mode the replica becomes ready once
// the missing permission is granted, without a restart.
func TestPreflightWarnRecovers(t *testing.T) {
	period := preflightRecheckPeriod
	preflightRecheckPeriod = 10 * time.Millisecond
	t.Cleanup(func() { preflightRecheckPeriod = period })
	var granted atomic.Bool
	client := fake.NewClientset()
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		ssar := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview).DeepCopy()
		ssar.Status.Allowed = granted.Load() || ssar.Spec.ResourceAttributes.Resource != "endpoints"
		return true, ssar, nil
	})
	o, err := parse(t, "--preflight=warn", "--controllers=*,endpoints", "--leader-elect=false")
	if err != nil {
		t.Fatal(err)
	}
	_, ctx := ktesting.NewTestContext(t)
	m := &Manager{opts: o, client: client, preflightClient: client}
	if err := m.startupPreflight(ctx); err != nil {
		t.Fatal(err)
	}
	if m.permissions.check(nil) == nil {
		t.Fatal("ready with a missing permission")
	}
	granted.Store(true)
	deadline := time.Now().Add(30 * time.Second)
	for m.permissions.check(nil) != nil {
		if time.Now().After(deadline) {
			t.Fatal("still not ready 30s after the permission was granted")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
