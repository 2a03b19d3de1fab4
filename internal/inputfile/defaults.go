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

package inputfile

import (
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

// DefaultProtocols applies to objs, in place, the API server's port
// protocol defaults that EndpointSlice production depends on (k8s.io/kubernetes
// pkg/apis/core/v1/defaults.go SetDefaults_ContainerPort and
// SetDefaults_EndpointPort, pkg/apis/discovery/v1/defaults.go): a Pod
// container's or init container's port protocol "" becomes TCP (a named
// targetPort matches a container port by name and protocol, so without it
// the port would not be found), and so does an Endpoints port's "" and an
// EndpointSlice port's missing protocol. It returns the number of ports it
// defaulted; the objects must be the caller's own (ReadObjects' are).
// Validate accepts an EndpointSlice port without protocol, because the API
// server defaults it before validating.
func DefaultProtocols(objs []runtime.Object) int {
	n := 0
	tcp := func(p *corev1.Protocol) {
		if *p == "" {
			*p = corev1.ProtocolTCP
			n++
		}
	}
	for _, o := range objs {
		switch o := o.(type) {
		case *corev1.Pod:
			for _, cs := range [][]corev1.Container{o.Spec.InitContainers, o.Spec.Containers} {
				for i := range cs {
					for j := range cs[i].Ports {
						tcp(&cs[i].Ports[j].Protocol)
					}
				}
			}
		case *corev1.Endpoints: //nolint:staticcheck // v1 Endpoints are an input of mirroring
			for i := range o.Subsets {
				for j := range o.Subsets[i].Ports {
					tcp(&o.Subsets[i].Ports[j].Protocol)
				}
			}
		case *discovery.EndpointSlice:
			for i := range o.Ports {
				if o.Ports[i].Protocol == nil {
					o.Ports[i].Protocol = ptr.To(corev1.ProtocolTCP)
					n++
				} else {
					tcp(o.Ports[i].Protocol)
				}
			}
		}
	}
	return n
}
