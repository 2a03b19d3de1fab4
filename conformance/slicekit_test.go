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

package conformance_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/conformance"
	"github.com/slicekit/slicekit/conformance/utils/suite"
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/addressguard"
	"github.com/slicekit/slicekit/pkg/source/celpods"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// startDefaultController runs slicekit's default EndpointSlice controller
// in-process against the shared control plane until the test ends.
func startDefaultController(t *testing.T, env *testenv.Env) {
	t.Helper()
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.Verbosity(0)))
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))
	factory := informers.NewSharedInformerFactory(env.Client, 0)
	c, err := endpointslice.New(ctx, env.Client, factory, endpointslice.Options{})
	if err != nil {
		cancel()
		t.Fatalf("endpointslice.New: %v", err)
	}
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := c.Run(ctx, 2); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})
}

// TestSlicekitDefaultController runs the suite against slicekit's default
// EndpointSlice controller (pkg/controllers/endpointslice, managed-by
// endpointslice-controller.k8s.io) on the local control plane, Pods run
// through the status subresource. The tests of labelled (custom)
// controllers are skipped: TestSlicekitCELController covers them.
func TestSlicekitDefaultController(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	startDefaultController(t, env)
	rep := conformance.RunConformance(t, conformance.Options{
		RestConfig:        env.Config,
		ControllerName:    wellknown.EndpointSliceControllerName,
		Implementation:    conformance.Implementation{Name: "slicekit", URL: "https://github.com/slicekit/slicekit"},
		SupportedFeatures: suite.DefaultControllerFeatures(),
		PodMode:           conformance.PodModeStatusSubresource,
	})
	checkSummary(t, rep, 13, suite.SupportControllerNameLabel, suite.SupportDRANetworkData)
}

// celControllerName is the CEL profile (and so the KEP-4770 label value
// and managed-by value) of TestSlicekitCELController.
const celControllerName = "podips.cel.slicekit.io"

// startCELController runs slicekit's CEL controller (one pod-source
// controller per profile, pkg/controllers/celprofiles) with a
// profile that publishes the Pods' status.podIPs, on a factory of its own
// without informer transforms (CEL may read any field).
func startCELController(t *testing.T, env *testenv.Env) {
	t.Helper()
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.Verbosity(0)))
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))
	factory := informers.NewSharedInformerFactory(env.Client, 0)
	c, err := celprofiles.New(ctx, env.Client, factory, celprofiles.Options{
		Config: &celpods.Config{Profiles: []celpods.Profile{{
			Name:      celControllerName,
			Addresses: "pod.status.podIPs.map(p, p.ip)",
		}}},
		Common: slicecontroller.Common{AddressGuard: addressguard.Options{ServiceCIDRs: testenv.ServiceCIDRs(t, env.Config)}},
	})
	if err != nil {
		cancel()
		t.Fatalf("celprofiles.New: %v", err)
	}
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := c.Run(ctx, 2); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})
}

// TestSlicekitCELController runs the suite against a custom-name
// controller: slicekit's CEL controller with a status.podIPs profile,
// which serves exactly the Services labelled with its name. The default
// controller runs beside it, as in a cluster, so that hand-overs are real.
func TestSlicekitCELController(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	startDefaultController(t, env)
	startCELController(t, env)
	rep := conformance.RunConformance(t, conformance.Options{
		RestConfig:        env.Config,
		ControllerName:    celControllerName,
		Implementation:    conformance.Implementation{Name: "slicekit CEL controller (pod-source)", URL: "https://github.com/slicekit/slicekit"},
		SupportedFeatures: append(suite.LabelledControllerFeatures(), suite.SupportSelectorlessForm),
		PodMode:           conformance.PodModeStatusSubresource,
	})
	checkSummary(t, rep, 15, suite.SupportDefaultController, suite.SupportDRANetworkData)
}

// checkSummary fails t unless passed tests passed, none failed, and the
// others were skipped for lack of one of the features unsupported.
func checkSummary(t *testing.T, rep *conformance.Report, passed int, unsupported ...suite.Feature) {
	t.Helper()
	if rep.Summary.Failed > 0 || rep.Summary.Passed != passed {
		t.Errorf("summary %+v, want %d passed and none failed", rep.Summary, passed)
	}
	for _, r := range rep.Tests {
		if r.Result != suite.ResultSkipped {
			continue
		}
		ok := false
		for _, f := range unsupported {
			ok = ok || strings.HasPrefix(r.Reason, "unsupported features: "+string(f))
		}
		if !ok {
			t.Errorf("%s skipped: %s", r.ShortName, r.Reason)
		}
	}
}

// startDRANetworkController runs slicekit's dra-network controller with
// the informer transforms `slicekit run` installs for it.
func startDRANetworkController(t *testing.T, env *testenv.Env) {
	t.Helper()
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.Verbosity(0)))
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))
	factory := informers.NewSharedInformerFactory(env.Client, 0)
	if err := informertransform.Compose(dranetwork.Registration.Reads).Install(factory, dranetwork.ResourceClaimKind); err != nil {
		cancel()
		t.Fatal(err)
	}
	c, err := dranetwork.New(ctx, env.Client, factory, dranetwork.Options{
		Common: slicecontroller.Common{AddressGuard: addressguard.Options{ServiceCIDRs: testenv.ServiceCIDRs(t, env.Config)}},
	})
	if err != nil {
		cancel()
		t.Fatalf("dranetwork.New: %v", err)
	}
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := c.Run(ctx, 2); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})
}

// TestSlicekitDRANetworkController runs the suite's DRA feature against
// slicekit's dra-network controller (pkg/controllers/dranetwork), beside
// the default controller. Its addresses are not status.podIPs, which the
// other tests expect, so it claims the DRA feature only.
func TestSlicekitDRANetworkController(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	env := testenv.Shared(t)
	testenv.SkipUnlessServed(t, env.Config, "resource.k8s.io/v1", "resourceclaims", "Kubernetes 1.34+")
	startDefaultController(t, env)
	startDRANetworkController(t, env)
	rep := conformance.RunConformance(t, conformance.Options{
		RestConfig:        env.Config,
		ControllerName:    wellknown.DRANetworkControllerName,
		Implementation:    conformance.Implementation{Name: "slicekit dra-network controller", URL: "https://github.com/slicekit/slicekit"},
		SupportedFeatures: []suite.Feature{suite.SupportDRANetworkData},
		PodMode:           conformance.PodModeStatusSubresource,
	})
	checkSummary(t, rep, 1, suite.SupportEndpointSlices)
}
