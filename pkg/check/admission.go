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
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// RuleAdmissionPolicy is the rule of AdmissionFindings.
const RuleAdmissionPolicy RuleID = "admission-policy-missing"

// AdmissionFindings checks, in a live cluster, that the admission
// policies of docs/security.md guard the secondary-network controller
// (cfg.SecondaryNetworkControllerName) when inv holds slices it manages:
// the input policy (the network-status annotations) and the output policy
// (its managed-by value). Each need that is not met is a warning naming
// the policy's role (admissionpolicy.Check); none when the controller has
// no slice. CEL profiles are not known to the checker: `slicekit run`
// checks theirs.
func AdmissionFindings(ctx context.Context, client kubernetes.Interface, inv *Inventory, cfg Config) []Finding {
	name := cfg.SecondaryNetworkControllerName
	if name == "" {
		name = DefaultSecondaryNetworkControllerName
	}
	if !slices.ContainsFunc(inv.EndpointSlices, func(s *discovery.EndpointSlice) bool { return s.Labels[discovery.LabelManagedBy] == name }) {
		return nil
	}
	needs := []admissionpolicy.Need{
		{Controller: name, Policy: admissionpolicy.PolicyInputs, Keys: []string{wellknown.AnnotationNetworkStatus, wellknown.AnnotationNetworkStatusLegacy}},
		{Controller: name, Policy: admissionpolicy.PolicyOutputs, Keys: []string{name}},
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
