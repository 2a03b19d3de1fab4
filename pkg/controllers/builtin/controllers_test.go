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

package builtin

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
	"github.com/slicekit/slicekit/pkg/ratelimit"
	"github.com/slicekit/slicekit/pkg/registry"
)

func TestEnabledControllers(t *testing.T) {
	for _, tc := range []struct {
		name        string
		controllers []string
		want        []string
		wantErr     string
	}{
		{name: "star", controllers: []string{"*"}, want: []string{"endpointslice", "endpointslice-mirroring"}},
		{name: "all three", controllers: []string{"endpointslice", "endpointslice-mirroring", "endpoints"}, want: []string{"endpoints", "endpointslice", "endpointslice-mirroring"}},
		{name: "star plus endpoints", controllers: []string{"*", "endpoints-controller"}, want: []string{"endpoints", "endpointslice", "endpointslice-mirroring"}},
		{name: "explicit", controllers: []string{"endpointslice"}, want: []string{"endpointslice"}},
		{name: "alias", controllers: []string{"endpointslice-controller"}, want: []string{"endpointslice"}},
		{name: "duplicates", controllers: []string{"endpointslice", "*", "endpointslice"}, want: []string{"endpointslice", "endpointslice-mirroring"}},
		{name: "disable wins over star", controllers: []string{"*", "-endpointslice"}, want: []string{"endpointslice-mirroring"}},
		{name: "disable all", controllers: []string{"*", "-endpointslice", "-endpointslice-mirroring-controller"}, wantErr: "enables no controller"},
		{name: "empty", controllers: nil, wantErr: "enables no controller"},
		{name: "unknown", controllers: []string{"*", "endpoints-bogus", "-nope"}, wantErr: "unknown controller(s) endpoints-bogus, -nope"},
		{name: "spaces", controllers: []string{" endpointslice "}, want: []string{"endpointslice"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := NewControllerOptions()
			o.Controllers = tc.controllers
			got, err := o.EnabledControllers()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("enabled (-want +got):\n%s", d)
			}
		})
	}
}

func TestRegistryIsConsistent(t *testing.T) {
	seen := map[string]string{}
	for key, r := range byName {
		if key != r.Name {
			t.Errorf("registry key %q names %q", key, r.Name)
		}
		if err := r.Validate(); err != nil {
			t.Error(err)
		}
		if len(r.Reads.Informers) == 0 {
			t.Errorf("%s: Reads are required", key)
		}
		for _, n := range append([]string{r.Name}, r.Aliases...) {
			if other, dup := seen[n]; dup {
				t.Errorf("name %q used by %s and %s", n, other, key)
			}
			seen[n] = key
		}
	}
	if d := cmp.Diff([]string{"endpointslice", "endpointslice-mirroring"}, DefaultControllers()); d != "" {
		t.Errorf("default controllers (-want +got):\n%s", d)
	}
}

func TestValidateRegistrations(t *testing.T) {
	if err := validateRegistrations(); err != nil {
		t.Fatal(err)
	}
	saved := registrations
	t.Cleanup(func() { registrations = saved })
	registrations = append(slices.Clone(saved), registry.Registration{Name: "broken"})
	err := validateRegistrations()
	if err == nil || !strings.Contains(err.Error(), `"broken": Workers, New, RBACRules required`) {
		t.Fatalf("validateRegistrations() = %v, want the broken registration named", err)
	}
}

// TestNewControllersHandsOverTheBoundOptions: each controller is
// constructed with the very options its flags were bound to (its own
// Options and the shared settings, not copies) and with the caller's
// pacer, registerer and recorder.
func TestNewControllersHandsOverTheBoundOptions(t *testing.T) {
	o := NewControllerOptions()
	o.Controllers = []string{mirroring.RegistrationName}
	name := mirroring.RegistrationName
	var got registry.InitContext
	saved := byName[name]
	t.Cleanup(func() { byName[name] = saved })
	r := saved
	r.New = func(_ context.Context, ic registry.InitContext) (registry.Controller, error) {
		got = ic
		return nil, nil
	}
	byName[name] = r

	client := fake.NewClientset()
	pacer := ratelimit.NewTokenBucket(1, 1)
	reg := prometheus.NewRegistry()
	_, ctx := ktesting.NewTestContext(t)
	if _, err := NewControllers(ctx, InitContext{
		Client: client, InformerFactory: informers.NewSharedInformerFactory(client, 0),
		Options: o, Pacer: pacer, Registerer: reg,
	}); err != nil {
		t.Fatal(err)
	}
	if got.Options != o.For(name) || got.Options == nil {
		t.Errorf("Options = %p, want the bound %p", got.Options, o.For(name))
	}
	if got.Shared != &o.Shared {
		t.Errorf("Shared = %p, want the bound %p", got.Shared, &o.Shared)
	}
	if got.Pacer != pacer || got.Registerer != reg || got.Client != client {
		t.Errorf("InitContext = %+v, want the caller's pacer, registerer and client", got)
	}
}
