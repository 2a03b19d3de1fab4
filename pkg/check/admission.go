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

package check

import (
	"context"
	"slices"

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
)

// RuleAdmissionPolicy is the rule of AdmissionFindings.
const RuleAdmissionPolicy RuleID = "admission-policy-missing"

// AdmissionFindings checks, in a live cluster, that the admission
// policies of docs/security.md guard each controller with an oracle that
// names policies (registry.Oracle.AdmissionPolicies, the
// secondary-network controller's: the input policy of its network-status
// annotations and the output policy of its managed-by value) when inv
// holds slices it manages. Each need that is not met is a warning naming
// the policy's role (admissionpolicy.Check); none when no such controller
// has a slice. Controllers without an oracle (CEL profiles) are not known
// to the checker: `slicekit run` checks theirs.
func AdmissionFindings(ctx context.Context, client kubernetes.Interface, inv *Inventory, cfg Config) []Finding {
	var needs []admissionpolicy.Need
	for _, o := range cfg.Oracles {
		name := o.ControllerName
		if len(o.AdmissionPolicies) == 0 || !slices.ContainsFunc(inv.EndpointSlices, func(s *discovery.EndpointSlice) bool { return s.Labels[discovery.LabelManagedBy] == name }) {
			continue
		}
		needs = append(needs, o.AdmissionPolicies...)
	}
	if len(needs) == 0 {
		return nil
	}
	var out []Finding
	for _, r := range admissionpolicy.Check(ctx, client, needs) {
		if r.State == admissionpolicy.Installed {
			continue
		}
		out = append(out, Finding{Severity: SeverityWarning, Rule: RuleAdmissionPolicy,
			Object: ObjectRef{Kind: "ValidatingAdmissionPolicy", Name: admissionpolicy.LabelPolicy + "=" + r.Policy},
			Reason: string(r.State) + ": " + r.Message})
	}
	return out
}
