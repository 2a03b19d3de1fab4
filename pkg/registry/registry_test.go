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

package registry_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/slicekit/slicekit/pkg/registry"
)

func TestSharedFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		render  bool
		wantErr string
		check   func(*registry.Shared) bool
	}{
		{name: "defaults", check: func(s *registry.Shared) bool {
			return s.MaxEndpointsPerSlice == 100 && s.ConcurrentServiceEndpointSyncs == 5 && s.ControllerName == "endpointslice-controller.k8s.io" &&
				s.ExternalEndpointControllerEnabled() && s.SelectorRemovalCleanupEnabled() &&
				s.EndpointUpdatesBurstQuietPeriod == registry.DefaultEndpointUpdatesBurstQuietPeriod
		}},
		{name: "burst quiet period off", args: []string{"--endpoint-updates-burst-quiet-period=0"}, check: func(s *registry.Shared) bool { return s.EndpointUpdatesBurstQuietPeriod == 0 }},
		{name: "negative burst quiet period", args: []string{"--endpoint-updates-burst-quiet-period=-1ms"}, wantErr: "--endpoint-updates-burst-quiet-period=-1ms must be between 0 and 1s"},
		{name: "burst quiet period at the limit", args: []string{"--endpoint-updates-burst-quiet-period=1s"}, check: func(s *registry.Shared) bool { return s.EndpointUpdatesBurstQuietPeriod == time.Second }},
		{name: "burst quiet period too long", args: []string{"--endpoint-updates-burst-quiet-period=10h"}, wantErr: "--endpoint-updates-burst-quiet-period=10h0m0s must be between 0 and 1s"},
		{name: "negative alias names the alias", args: []string{"--endpointslice-updates-batch-period=-1s"}, wantErr: "--endpointslice-updates-batch-period=-1s must not be negative"},
		{name: "alias", args: []string{"--endpointslice-updates-batch-period=2s"}, check: func(s *registry.Shared) bool { return s.BatchPeriod.String() == "2s" }},
		{name: "alias agrees", args: []string{"--endpoint-updates-batch-period=2s", "--endpointslice-updates-batch-period=2s"}},
		{name: "alias disagrees", args: []string{"--endpoint-updates-batch-period=1s", "--endpointslice-updates-batch-period=2s"}, wantErr: "disagree"},
		{name: "max 0", args: []string{"--max-endpoints-per-slice=0"}, wantErr: "--max-endpoints-per-slice=0 must be between 1 and 1000"},
		{name: "max 0 in render", render: true, args: []string{"--max-endpoints-per-slice=0"}, wantErr: "--max-endpoints-per-slice=0 must be between 1 and 1000"},
		{name: "workers 51", args: []string{"--concurrent-service-endpoint-syncs=51"}, wantErr: "--concurrent-service-endpoint-syncs=51 must be between 1 and 50"},
		{name: "workers not in render", render: true, args: []string{"--concurrent-service-endpoint-syncs=2"}, wantErr: "unknown flag"},
		{name: "negative batch", args: []string{"--endpoint-updates-batch-period=-1s"}, wantErr: "must not be negative"},
		{name: "empty name", args: []string{"--controller-name="}, wantErr: "--controller-name"},
		{name: "gate off", args: []string{"--feature-gates=ExternalEndpointController=false"}, check: func(s *registry.Shared) bool { return !s.ExternalEndpointControllerEnabled() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := registry.NewShared()
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			if tc.render {
				s.AddRenderFlags(fs)
			} else {
				s.AddFlags(fs)
			}
			err := fs.Parse(tc.args)
			if err == nil {
				err = s.Complete()
			}
			if err == nil {
				err = s.Validate()
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
			}
			if tc.check != nil && !tc.check(&s) {
				t.Errorf("unexpected settings: %+v", s)
			}
		})
	}
}

type opts struct{ n int }

func (*opts) AddFlags(*pflag.FlagSet)       {}
func (*opts) AddRenderFlags(*pflag.FlagSet) {}
func (*opts) Validate(bool) error           { return nil }

func TestOptionsAs(t *testing.T) {
	def := func() *opts { return &opts{n: 1} }
	if got := registry.OptionsAs(registry.InitContext{}, def); got.n != 1 {
		t.Errorf("without options: %d, want the defaults", got.n)
	}
	if got := registry.OptionsAs(registry.InitContext{Options: &opts{n: 2}}, def); got.n != 2 {
		t.Errorf("with options: %d, want 2", got.n)
	}
}

func TestRegistrationValidate(t *testing.T) {
	complete := registry.Registration{
		Name:      "x",
		Workers:   func(registry.InitContext) int { return 1 },
		New:       func(context.Context, registry.InitContext) (registry.Controller, error) { return nil, nil },
		RBACRules: func() []rbacv1.PolicyRule { return nil },
	}
	for _, tc := range []struct {
		name    string
		mutate  func(*registry.Registration)
		wantErr string
	}{
		{name: "complete", mutate: func(*registry.Registration) {}},
		{name: "no name", mutate: func(r *registry.Registration) { r.Name = "" }, wantErr: `controller registration "": Name required`},
		{name: "no workers", mutate: func(r *registry.Registration) { r.Workers = nil }, wantErr: `controller registration "x": Workers required`},
		{name: "no New", mutate: func(r *registry.Registration) { r.New = nil }, wantErr: `controller registration "x": New required`},
		{name: "no rules", mutate: func(r *registry.Registration) { r.RBACRules = nil }, wantErr: `controller registration "x": RBACRules required`},
		{name: "empty", mutate: func(r *registry.Registration) { *r = registry.Registration{} },
			wantErr: `controller registration "": Name, Workers, New, RBACRules required`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := complete
			tc.mutate(&r)
			err := r.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("Validate() = %q, want %q", got, tc.wantErr)
			}
		})
	}
}
