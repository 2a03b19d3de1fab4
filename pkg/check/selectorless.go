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
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"

	"github.com/slicekit/slicekit/pkg/policy/selectorless"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// The rules of the selector-removal fault class (kubernetes#118376; cases
// 33, 34 and 36 of testdata/cases). The default controller's slice of a
// Service without selector is RuleDefaultNoSelec (checkDefault); these
// rules cover the other leftovers and the hint towards the selectorless
// form. They are kept apart from the other rules on purpose.
const (
	// RuleEndpointsLeftover: an Endpoints object written by the Endpoints
	// controller (selectorless.KCMEndpoints: the label
	// endpoints.kubernetes.io/managed-by=endpoint-controller, or, on an
	// unlabelled object, kube-controller-manager's managedFields entry)
	// for a Service that has no selector or is of type ExternalName.
	RuleEndpointsLeftover RuleID = "endpoints-selector-leftover"
	// RuleMirrorLeftover: a mirrored slice of such an Endpoints object.
	RuleMirrorLeftover RuleID = "mirror-of-selector-leftover"
)

// endpointsRef names an Endpoints object in findings.
func endpointsRef(ep *corev1.Endpoints) ObjectRef {
	return ObjectRef{Kind: "Endpoints", Namespace: ep.Namespace, Name: ep.Name}
}

// isEndpointsLeftover reports whether ep is the Endpoints controller's
// object for a Service that selects no Pods, why, and the mark by which it
// was recognised as the Endpoints controller's (in words for findings).
func isEndpointsLeftover(ep *corev1.Endpoints, svc *corev1.Service) (ok bool, why, mark string) {
	kcm, by := selectorless.KCMEndpoints(ep)
	if !kcm || svc == nil {
		return false, "", ""
	}
	none, _, why := selectorless.SelectsNoPods(svc)
	if by == selectorless.ByManagedFields {
		mark = "managedFields manager " + selectorless.KCMFieldManager + ", no managed-by label"
	} else {
		mark = wellknown.LabelEndpointsManagedBy + "=" + wellknown.EndpointsControllerName
	}
	return none, why, mark
}

// checkSelectorLeftovers applies RuleEndpointsLeftover and
// RuleMirrorLeftover. It needs Services and Endpoints in the inventory.
func (c *checker) checkSelectorLeftovers() {
	if !c.inv.Have.Services || !c.inv.Have.Endpoints {
		return
	}
	mirrored := map[string]bool{} // namespace/name of Endpoints with a mirrored slice
	for _, s := range c.inv.EndpointSlices {
		if c.role(s.Labels[discovery.LabelManagedBy]) != roleMirror {
			continue
		}
		name := s.Labels[discovery.LabelServiceName]
		ep := c.endpoints[nn(s.Namespace, name)]
		if ok, why, mark := isEndpointsLeftover(ep, c.services[nn(s.Namespace, name)]); ok {
			mirrored[s.Namespace+"/"+name] = true
			c.add(SeverityError, RuleMirrorLeftover, sliceRef(s),
				"stale: mirrored from Endpoints %s, which was written by the Endpoints controller (%s) although %s: the Endpoints controller's leftover from before the selector was removed (%s)",
				name, mark, why, selectorless.UpstreamIssue)
		}
	}
	for _, ep := range c.inv.Endpoints {
		ok, why, mark := isEndpointsLeftover(ep, c.services[nn(ep.Namespace, ep.Name)])
		if !ok {
			continue
		}
		c.add(sev(mirrored[ep.Namespace+"/"+ep.Name]), RuleEndpointsLeftover, endpointsRef(ep),
			"stale: written by the Endpoints controller (%s) but %s; it never changes again (%s)",
			mark, why, selectorless.UpstreamIssue)
	}
}

// selectorlessHint returns the hint appended to a delegated-builtin-slice
// finding on a slice of the default controller whose Service still has a
// selector: where the built-in controllers cannot be turned off (managed
// clusters), the label alone never stops them; the selectorless form does.
// It returns "" for other slices.
func selectorlessHint(svc *corev1.Service, r role) string {
	if r != roleDefault || svc == nil || svc.Spec.Selector == nil {
		return ""
	}
	return "; hint: if the built-in controllers cannot be turned off (managed clusters), use the selectorless form: move spec.selector into the annotation " +
		wellknown.AnnotationSelector + " and remove spec.selector (docs/managed-clusters.md)"
}
