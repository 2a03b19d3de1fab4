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

package networkstatus

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// NetworkRef names one selected network: a NetworkAttachmentDefinition,
// and optionally one interface.
type NetworkRef struct {
	// Namespace and Name of the NetworkAttachmentDefinition.
	Namespace, Name string
	// Interface, when not empty, selects only the attachment on that
	// interface of the Pod (network-status "interface"), which
	// disambiguates a network attached twice.
	Interface string
}

// String returns "namespace/name", with "@interface" when set.
func (r NetworkRef) String() string {
	s := r.Namespace + "/" + r.Name
	if r.Interface != "" {
		s += "@" + r.Interface
	}
	return s
}

// selectionElement is the JSON form of one network, the subset of Multus's
// NetworkSelectionElement that selects a network.
type selectionElement struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	Interface string `json:"interface,omitempty"`
}

// ParseServiceNetworks parses the value of the service-network annotation
// of a Service in namespace. Two forms are accepted, as for Multus's
// k8s.v1.cni.cncf.io/networks Pod annotation:
//
//   - text: a comma-separated list of "name", "namespace/name",
//     "name@interface" or "namespace/name@interface"; spaces around
//     elements and separators are ignored, and so are empty elements;
//   - JSON: an array of {"name", "namespace", "interface"} objects (other
//     members ignored).
//
// A name without a namespace is in namespace, the Service's (multus-service:
// a bare name means the namespace of the Service, which is that of its
// Pods). Names must be DNS-1123 subdomains, namespaces DNS-1123 labels,
// interfaces non-empty without spaces, "/" or "@". Duplicates are dropped;
// order is kept. It returns an error when the value selects no network or
// an element is invalid.
func ParseServiceNetworks(value, namespace string) ([]NetworkRef, error) {
	value = strings.TrimSpace(value)
	var refs []NetworkRef
	if strings.HasPrefix(value, "[") {
		var elems []selectionElement
		if err := json.Unmarshal([]byte(value), &elems); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		for i, e := range elems {
			ns := strings.TrimSpace(e.Namespace)
			if ns == "" {
				ns = namespace
			}
			ref := NetworkRef{Namespace: ns, Name: strings.TrimSpace(e.Name), Interface: strings.TrimSpace(e.Interface)}
			if err := validateRef(ref, e.Interface != ""); err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			refs = append(refs, ref)
		}
	} else {
		for _, elem := range strings.Split(value, ",") {
			elem = strings.TrimSpace(elem)
			if elem == "" {
				continue
			}
			ref, err := parseTextRef(elem, namespace)
			if err != nil {
				return nil, err
			}
			refs = append(refs, ref)
		}
	}
	if len(refs) == 0 {
		return nil, errors.New("no network named")
	}
	seen := map[NetworkRef]bool{}
	out := refs[:0]
	for _, r := range refs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// parseTextRef parses one element of the text form.
func parseTextRef(elem, namespace string) (NetworkRef, error) {
	ref := NetworkRef{Namespace: namespace}
	hasIface := false
	if i := strings.LastIndexByte(elem, '@'); i >= 0 {
		ref.Interface = strings.TrimSpace(elem[i+1:])
		elem = strings.TrimSpace(elem[:i])
		hasIface = true
	}
	if i := strings.IndexByte(elem, '/'); i >= 0 {
		ref.Namespace = strings.TrimSpace(elem[:i])
		ref.Name = strings.TrimSpace(elem[i+1:])
	} else {
		ref.Name = elem
	}
	if err := validateRef(ref, hasIface); err != nil {
		return NetworkRef{}, fmt.Errorf("%q: %w", elem, err)
	}
	return ref, nil
}

func validateRef(ref NetworkRef, hasIface bool) error {
	if ref.Name == "" {
		return errors.New("empty network name")
	}
	if msgs := validation.IsDNS1123Subdomain(ref.Name); len(msgs) > 0 {
		return fmt.Errorf("network name %q: %s", ref.Name, strings.Join(msgs, "; "))
	}
	if msgs := validation.IsDNS1123Label(ref.Namespace); len(msgs) > 0 {
		return fmt.Errorf("namespace %q: %s", ref.Namespace, strings.Join(msgs, "; "))
	}
	if hasIface && (ref.Interface == "" || strings.ContainsAny(ref.Interface, " \t\r\n/@")) {
		return fmt.Errorf("invalid interface %q", ref.Interface)
	}
	return nil
}

// ServiceNetworks returns the networks svc selects with
// wellknown.AnnotationServiceNetwork (see ParseServiceNetworks). found is false when
// the annotation is absent.
func ServiceNetworks(svc *corev1.Service) (refs []NetworkRef, found bool, err error) {
	v, ok := svc.Annotations[wellknown.AnnotationServiceNetwork]
	if !ok {
		return nil, false, nil
	}
	refs, err = ParseServiceNetworks(v, svc.Namespace)
	return refs, true, err
}
