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
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
)

// AdmissionPolicyMetricName is the gauge of the admission policy check:
// 1 when the policy guards the controller, 0 when it does not or cannot
// be told (labels controller, policy, state).
const AdmissionPolicyMetricName = "slicekit_admission_policy_installed"

// admissionRecheckPeriod is how often the admission policies are checked
// again after start-up, so that the metric follows installs and removals.
const admissionRecheckPeriod = 10 * time.Minute

// newAdmissionGauge registers AdmissionPolicyMetricName on reg.
func newAdmissionGauge(reg prometheus.Registerer) (*prometheus.GaugeVec, error) {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: AdmissionPolicyMetricName,
		Help: "[ALPHA] 1 when slicekit's admission policy (policy: pod-address-inputs or endpointslice-writers) is installed, bound and covers the controller, else 0; state says why (Installed, Missing, Incomplete, Unknown). docs/security.md.",
	}, []string{"controller", "policy", "state"})
	if err := reg.Register(g); err != nil {
		return nil, err
	}
	return g, nil
}

// checkAdmissionPolicies checks the enabled controllers' admission needs
// now and every admissionRecheckPeriod until ctx is done: a warning per
// unmet need (once per change of state), and the gauge. It never blocks
// the controllers: the policies are a defence in depth beside the address
// guard (docs/security.md).
func (m *Manager) checkAdmissionPolicies(ctx context.Context) {
	needs, err := m.opts.ControllerOptions.AdmissionNeeds()
	logger := klog.FromContext(ctx)
	if err != nil || len(needs) == 0 {
		return
	}
	gauge, err := newAdmissionGauge(m.registry)
	if err != nil {
		logger.Error(err, "Registering the admission policy metric")
		return
	}
	last := map[[2]string]admissionpolicy.State{} // by controller and policy
	_ = wait.PollUntilContextCancel(ctx, admissionRecheckPeriod, true, func(ctx context.Context) (bool, error) {
		gauge.Reset()
		for i, r := range admissionpolicy.Check(ctx, m.preflightClient, needs) {
			key := [2]string{needs[i].Controller, needs[i].Policy}
			v := 0.0
			if r.State == admissionpolicy.Installed {
				v = 1
			}
			gauge.WithLabelValues(r.Controller, r.Policy, string(r.State)).Set(v)
			if prev, ok := last[key]; ok && prev == r.State {
				continue
			}
			last[key] = r.State
			if r.State == admissionpolicy.Installed {
				logger.Info("Admission policy in place", "controller", r.Controller, "policy", r.Policy, "name", r.PolicyName)
			} else {
				logger.Info("WARNING: admission policy not in place", "controller", r.Controller, "policy", r.Policy, "state", r.State, "message", r.Message)
			}
		}
		return false, nil
	})
}
