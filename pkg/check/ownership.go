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

// Rules of a slice's relation to its Service: mirroring, owner reference, labels.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	utilnet "k8s.io/utils/net"
)

// checkMirror applies the rules of mirrored slices.
func (c *checker) checkMirror(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service) {
	svcName := svc.Name
	if svc.Spec.Selector != nil {
		c.add(SeverityError, RuleMirrorSelector, ref,
			"stale: Service %s has a selector, so the mirroring controller must have deleted this slice (kubernetes#105987)", svcName)
	}
	var ep *corev1.Endpoints
	if c.inv.Have.Endpoints {
		ep = c.endpoints[nn(s.Namespace, svcName)]
		switch {
		case ep == nil:
			c.add(SeverityError, RuleMirrorIneligible, ref, "Endpoints %s/%s, the source of this mirrored slice, does not exist", s.Namespace, svcName)
		case ep.Labels[discovery.LabelSkipMirror] == "true":
			c.add(SeverityError, RuleMirrorIneligible, ref, "Endpoints %s is labelled %s=true and must not be mirrored", svcName, discovery.LabelSkipMirror)
		case hasKey(ep.Annotations, leaderAnnotation):
			c.add(SeverityError, RuleMirrorIneligible, ref, "Endpoints %s carries the %s annotation (leader election) and must not be mirrored", svcName, leaderAnnotation)
		}
	}

	var ctrl *ownerRef
	for i := range s.OwnerReferences {
		o := &s.OwnerReferences[i]
		if o.Controller != nil && *o.Controller {
			ctrl = &ownerRef{o.APIVersion, o.Kind, o.Name, o.UID}
		}
	}
	switch {
	case ctrl == nil:
		c.add(SeverityError, RuleOwnerMissing, ref, "no controller ownerReference to Endpoints %s", svcName)
	case ctrl.apiVersion != "v1" || ctrl.kind != "Endpoints" || ctrl.name != svcName:
		c.add(SeverityError, RuleOwnerMismatch, ref, "the controller owner is %s %s, want Endpoints %s", ctrl.kind, ctrl.name, svcName)
	case ep != nil && ctrl.uid != "" && ep.UID != "" && ctrl.uid != ep.UID:
		c.add(SeverityError, RuleOwnerStaleUID, ref, "owned by Endpoints %s with uid %s, but the Endpoints object has uid %s", svcName, ctrl.uid, ep.UID)
	}
}

type ownerRef struct {
	apiVersion, kind, name string
	uid                    types.UID
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// canonicalIP returns the canonical form of an IP address as KCM writes
// it (k8s.io/utils/net ParseIPSloppy, then String: IPv4 octets with
// leading zeros read as decimal, IPv4-mapped IPv6 as IPv4), or s when it is
// not an IP address.
func canonicalIP(s string) string {
	if ip := utilnet.ParseIPSloppy(s); ip != nil {
		return ip.String()
	}
	return s
}

// checkDefault applies the rules specific to the default controller. The
// labels of a stale slice (of a delegated Service) are not compared: the
// slice must go.
func (c *checker) checkDefault(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, stale bool) {
	switch {
	case svc.Spec.Type == corev1.ServiceTypeExternalName:
		c.add(SeverityError, RuleExternalName, ref, "Service %s is of type ExternalName: the EndpointSlice controller must not write slices for it; a slice written before the change is stale (kubernetes#105986, kubernetes#118376)", svc.Name)
	case svc.Spec.Selector == nil:
		c.add(SeverityError, RuleDefaultNoSelec, ref,
			"stale: Service %s has no selector, so this slice lists Pods the Service no longer selects and the EndpointSlice controller never updates it again (kubernetes#118376)", svc.Name)
	}
	c.checkServiceOwner(ref, s, svc, true)
	if !stale {
		c.checkLabels(ref, s, svc)
	}
}

// checkServiceOwner checks the ownerReferences of a slice owned by its
// Service; required makes a missing controller reference an error.
//
// A placeholder of the default controller (no endpoint, no port) with a
// wrong owner is only a warning: KCM keeps it, because its placeholder
// comparison (k8s.io/endpointslice reconciler.go placeholderSliceCompare)
// looks at namespace and labels only; the garbage collector deletes it
// when its owner is gone, and KCM then creates a new one.
func (c *checker) checkServiceOwner(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service, required bool) {
	placeholderSev, placeholderNote := SeverityError, ""
	if required && len(s.Endpoints) == 0 && len(s.Ports) == 0 {
		placeholderSev = SeverityWarning
		placeholderNote = " (an empty placeholder, which KCM keeps whatever its owner: it compares placeholders by labels only)"
	}
	var ctrl *ownerRef
	for i := range s.OwnerReferences {
		o := &s.OwnerReferences[i]
		isCtrl := o.Controller != nil && *o.Controller
		if isCtrl {
			ctrl = &ownerRef{o.APIVersion, o.Kind, o.Name, o.UID}
		}
		if o.APIVersion != "v1" || o.Kind != "Service" {
			continue
		}
		switch {
		case o.Name != svc.Name:
			c.add(SeverityError, RuleOwnerMismatch, ref, "owned by Service %s but labelled %s=%s", o.Name, discovery.LabelServiceName, svc.Name)
		case o.UID != "" && svc.UID != "" && o.UID != svc.UID:
			c.add(placeholderSev, RuleOwnerStaleUID, ref,
				"owned by an earlier Service %s (uid %s); the Service now has uid %s, so this slice is a leftover%s", svc.Name, o.UID, svc.UID, placeholderNote)
		}
	}
	switch {
	case ctrl == nil && required:
		c.add(placeholderSev, RuleOwnerMissing, ref, "no controller ownerReference to Service %s: the slice outlives the Service%s", svc.Name, placeholderNote)
	case ctrl == nil:
		// Another controller's slice (or a hand-written one, as in the
		// Kubernetes documentation's Services without selectors) needs no
		// owner: the EndpointSlice API does not require one and KEP-4770
		// leaves a named controller's slices to it.
	case required && (ctrl.apiVersion != "v1" || ctrl.kind != "Service"):
		c.add(placeholderSev, RuleOwnerMismatch, ref, "the controller owner is %s %s, want Service %s%s", ctrl.kind, ctrl.name, svc.Name, placeholderNote)
	}
}

// reservedLabels are the slice labels a Service's labels cannot set
// (k8s.io/endpointslice isReservedLabelKey).
var reservedLabels = map[string]bool{
	discovery.LabelServiceName: true,
	discovery.LabelManagedBy:   true,
	corev1.IsHeadlessService:   true,
}

// checkLabels compares the non-reserved labels of a default-controller
// slice with the Service's.
func (c *checker) checkLabels(ref ObjectRef, s *discovery.EndpointSlice, svc *corev1.Service) {
	var diffs []string
	keys := map[string]bool{}
	for k := range svc.Labels {
		keys[k] = true
	}
	for k := range s.Labels {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if reservedLabels[k] {
			continue
		}
		want, inSvc := svc.Labels[k]
		got, inSlice := s.Labels[k]
		switch {
		case inSvc && !inSlice:
			diffs = append(diffs, fmt.Sprintf("missing %s=%s", k, want))
		case !inSvc && inSlice:
			diffs = append(diffs, fmt.Sprintf("extra %s=%s", k, got))
		case want != got:
			diffs = append(diffs, fmt.Sprintf("%s=%s, Service has %s", k, got, want))
		}
	}
	if len(diffs) > 0 {
		c.add(SeverityWarning, RuleLabelsDrift, ref, "labels differ from Service %s's: %s", svc.Name, strings.Join(diffs, "; "))
	}
}
