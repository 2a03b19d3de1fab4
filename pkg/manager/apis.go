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
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/discovery"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/registry"
)

// ReasonMissingAPI is the reason label of slicekit_controller_disabled for
// a controller left out because the API server does not serve an API it
// reads (registry.Registration.Needs).
const ReasonMissingAPI = "missing-api"

// DisabledController is an enabled controller the manager leaves out.
type DisabledController struct {
	// Name is the controller's registry name.
	Name string
	// Reason is the reason label of slicekit_controller_disabled
	// (ReasonMissingAPI).
	Reason string
	// API is the API the server does not serve.
	API registry.API
	// Message says so, naming the API and the Kubernetes release that
	// introduced it (registry.Unserved.Message).
	Message string
}

// UnservedAPIs returns, among regs, the controllers that need an API the
// server behind dc does not serve (registry.FindUnserved: one discovery
// request, none when no registration needs an API), as disabled
// controllers with ReasonMissingAPI. Its errors are FindUnserved's.
func UnservedAPIs(dc discovery.DiscoveryInterface, regs []registry.Registration) ([]DisabledController, error) {
	unserved, err := registry.FindUnserved(dc, regs)
	if err != nil {
		return nil, err
	}
	var out []DisabledController
	for _, u := range unserved {
		out = append(out, DisabledController{Name: u.Controller, Reason: ReasonMissingAPI, API: u.API, Message: u.Message()})
	}
	return out, nil
}

// enabledRegistrations returns the registrations of the enabled
// controllers, in name order.
func enabledRegistrations(o *builtin.ControllerOptions) ([]registry.Registration, error) {
	names, err := o.EnabledControllers()
	if err != nil {
		return nil, err
	}
	regs := make([]registry.Registration, 0, len(names))
	for _, name := range names {
		if r, ok := builtin.Lookup(name); ok {
			regs = append(regs, r)
		}
	}
	return regs, nil
}

// newDisabledGauge returns slicekit_controller_disabled.
func newDisabledGauge() *prometheus.GaugeVec {
	return prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "slicekit_controller_disabled",
		Help: "1 for each enabled controller that slicekit run left out at start-up, by controller and reason (missing-api: the API server does not serve an API the controller reads; the log names it).",
	}, []string{"controller", "reason"})
}
