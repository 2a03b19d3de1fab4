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
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// API is a resource of a Kubernetes API group version, and the first
// Kubernetes release that serves it (Registration.Needs).
type API struct {
	// Group is the API group, "" for the core group.
	Group string
	// Version is the group's version, such as "v1".
	Version string
	// Resource is the resource's plural name, such as "resourceclaims".
	Resource string
	// Since is the first Kubernetes release that serves the resource by
	// default, such as "1.34".
	Since string
}

// GroupVersion returns a's group version as discovery spells it:
// "resource.k8s.io/v1", or "v1" for the core group.
func (a API) GroupVersion() string {
	if a.Group == "" {
		return a.Version
	}
	return a.Group + "/" + a.Version
}

// String returns a's group version and resource, such as
// "resource.k8s.io/v1 resourceclaims".
func (a API) String() string { return a.GroupVersion() + " " + a.Resource }

// Unserved is a controller that needs an API the API server does not serve.
type Unserved struct {
	// Controller is the controller's registration name.
	Controller string
	// API is the first of its Needs the server does not serve.
	API API
}

// Message says that the controller cannot run because the server does not
// serve its API, naming the release that introduced it: "dra-network needs
// resource.k8s.io/v1 resourceclaims (Kubernetes 1.34+); the server does
// not serve it".
func (u Unserved) Message() string {
	return fmt.Sprintf("%s needs %s (Kubernetes %s+); the server does not serve it", u.Controller, u.API, u.API.Since)
}

// FindUnserved returns, among regs, the controllers that need an API
// (Registration.Needs) the server behind dc does not serve, in regs'
// order, each with the first such API. It asks discovery once
// (ServerGroupsAndResources), and only when some registration needs an
// API. A failed discovery, or one that failed for a group version some
// registration needs, is an error: whether the controller can run is then
// unknown.
func FindUnserved(dc discovery.DiscoveryInterface, regs []Registration) ([]Unserved, error) {
	needed := map[string]bool{}
	for _, r := range regs {
		for _, a := range r.Needs {
			needed[a.GroupVersion()] = true
		}
	}
	if len(needed) == 0 {
		return nil, nil
	}
	_, lists, err := dc.ServerGroupsAndResources()
	if err != nil {
		var failed *discovery.ErrGroupDiscoveryFailed
		if !errors.As(err, &failed) {
			return nil, fmt.Errorf("discovering the APIs the controllers need: %w", err)
		}
		for gv, gvErr := range failed.Groups {
			if needed[gv.String()] {
				return nil, fmt.Errorf("discovering %s, which a controller needs: %w", gv, gvErr)
			}
		}
	}
	served := map[schema.GroupVersionResource]bool{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if !strings.Contains(r.Name, "/") { // not a subresource
				served[gv.WithResource(r.Name)] = true
			}
		}
	}
	var out []Unserved
	for _, r := range regs {
		for _, a := range r.Needs {
			if !served[schema.GroupVersionResource{Group: a.Group, Version: a.Version, Resource: a.Resource}] {
				out = append(out, Unserved{Controller: r.Name, API: a})
				break
			}
		}
	}
	return out, nil
}
