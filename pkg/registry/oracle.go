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

package registry

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/inputkinds"
	"github.com/slicekit/slicekit/pkg/source"
)

// Oracle is what `slicekit check` (pkg/check) needs to judge the slices
// of one controller that serves the Services labelled with its name
// (KEP-4770's service.kubernetes.io/endpoint-controller-name) beyond the
// rules every writer must keep: the controller's own source, which check
// runs offline over the objects it read, and what the source's results
// mean for the per-slice rules. A Registration provides it in its Oracle
// function; check has no list of controllers of its own.
type Oracle struct {
	// ControllerName is the KEP-4770 label value the controller answers
	// to; its slices carry it as managed-by value. Required.
	ControllerName string
	// Source returns the controller's source over in, the objects check
	// read: the source the controller runs, with the objects it looks up
	// beyond the Service, Pods and Nodes (a ResourceClaim, ...) taken from
	// in. It returns nil when in lacks a kind the source reads (a dump
	// without ResourceClaims): the Services of the controller then get the
	// generic rules only. Required.
	Source func(in OracleInput) source.Source
	// PodAddresses says that the source is a pod-address source
	// (source.PodAddresses): it publishes both address families for a
	// headless Service whatever its spec.ipFamilies, and leaves Pods on a
	// missing Node out as the EndpointSlice controller does, so check
	// judges the families and missing Nodes of its slices by that.
	PodAddresses bool
	// PodReadyServing says that the controller's serving condition is the
	// Pod's Ready condition, as KCM's, which check then holds its
	// endpoints to; false lets it decide serving itself (check then only
	// requires ready to follow serving and terminating).
	PodReadyServing bool
	// OtherNetwork says that the controller never publishes the Pods'
	// status.podIPs (another network's addresses): without Pods in the
	// input, check then takes its slices for another network's in the
	// consumer rules that compare networks.
	OtherNetwork bool
	// AdmissionPolicies are the admission policies the controller needs
	// (Registration.AdmissionPolicies); `slicekit check` against a
	// cluster warns when they are missing while the controller has
	// slices. nil when none.
	AdmissionPolicies []admissionpolicy.Need
}

// OracleInput is what `slicekit check` read, for an Oracle's Source.
type OracleInput struct {
	// Objects returns the objects of kind (the kind of an
	// inputkinds.Kind, "ResourceClaim") in the input, read-only, and
	// whether the input has that kind at all (a dump without it, a
	// cluster that may not list it: false).
	Objects func(kind string) (objs []runtime.Object, have bool)
}

// Oracles returns the oracles of regs: each registration's Oracle called
// with the registration's options from options (by Registration.Name;
// the defaults of NewOptions when absent), in the order of regs.
// Registrations without Oracle contribute none.
func Oracles(regs []Registration, options map[string]Options) []Oracle {
	var out []Oracle
	for _, r := range regs {
		if r.Oracle == nil {
			continue
		}
		ic := InitContext{Options: options[r.Name]}
		if ic.Options == nil && r.NewOptions != nil {
			ic.Options = r.NewOptions()
		}
		out = append(out, r.Oracle(ic)...)
	}
	return out
}

// InputKinds returns the one table of the kinds the controllers of regs
// read (pkg/inputkinds): the built-in kinds plus every kind a
// registration declares in its Reads.Kinds. It returns an error when two
// registrations declare colliding kinds (inputkinds.NewTable).
func InputKinds(regs []Registration) (inputkinds.Table, error) {
	var extra []inputkinds.Kind
	for _, r := range regs {
		extra = append(extra, r.Reads.Kinds...)
	}
	return inputkinds.NewTable(extra...)
}
