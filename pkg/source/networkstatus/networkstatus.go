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
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Pod annotations written by Multus (network-attachment-definition client,
// pkg/apis/k8s.cni.cncf.io/v1/types.go; docs/multus-network-status.md §1).
const ()

// NetworkStatus is one entry of the network-status annotation: one
// interface of the Pod. Fields this package does not interpret are kept
// raw.
type NetworkStatus struct {
	// Name is "<namespace>/<name>" of the NetworkAttachmentDefinition for
	// an attachment, and the CNI network's name or "" for the cluster
	// network. An entry without a name is malformed.
	Name string `json:"name"`
	// Interface is the interface name in the Pod (eth0, net1, ...); it may
	// be absent for the cluster network.
	Interface string `json:"interface,omitempty"`
	// IPs are the interface's addresses, plain IP strings without a prefix
	// length; absent for interfaces without IPAM (L2, DPDK, SR-IOV).
	IPs []string `json:"ips,omitempty"`
	// Mac is the interface's hardware address.
	Mac string `json:"mac,omitempty"`
	// Mtu is the interface's MTU (newer Multus versions).
	Mtu int `json:"mtu,omitempty"`
	// Default is true for the cluster (primary) network.
	Default bool `json:"default,omitempty"`
	// Gateway lists the default gateways (newer Multus versions).
	Gateway []string `json:"gateway,omitempty"`
	// DNS is the interface's DNS configuration, not interpreted.
	DNS json.RawMessage `json:"dns,omitempty"`
	// DeviceInfo describes the device (SR-IOV, vDPA, ...), not interpreted.
	DeviceInfo json.RawMessage `json:"device-info,omitempty"`
}

// entry is the wire form, to tell a missing name from an empty one.
type entry struct {
	NetworkStatus
	Name *string `json:"name"`
}

// ParseNetworkStatus parses the value of the network-status annotation: a
// JSON array of objects, each with a string "name" (which may be empty,
// for the cluster network); "ips", when present, must be an array of
// strings, "interface" and "mac" strings, "default" a boolean, "mtu" a
// number, "gateway" an array of strings; other members are ignored. It
// returns an error for anything else: invalid JSON, trailing data, null,
// a value that is not an array, an element that is not an object, a
// member of the wrong type, an entry without a name. The IP strings are
// not validated here (see Addresses). It never panics.
func ParseNetworkStatus(value string) ([]NetworkStatus, error) {
	data := bytes.TrimSpace([]byte(value))
	if len(data) == 0 {
		return nil, errors.New("empty value")
	}
	if data[0] != '[' {
		return nil, errors.New("not a JSON array")
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	out := make([]NetworkStatus, 0, len(raw))
	for i, r := range raw {
		r = bytes.TrimSpace(r)
		if len(r) == 0 || r[0] != '{' {
			return nil, fmt.Errorf("entry %d is not a JSON object", i)
		}
		var e entry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		if e.Name == nil {
			return nil, fmt.Errorf("entry %d has no name", i)
		}
		ns := e.NetworkStatus
		ns.Name = *e.Name
		out = append(out, ns)
	}
	return out, nil
}

// PodNetworkStatus returns the parsed network-status annotation of pod
// (wellknown.AnnotationNetworkStatus, else wellknown.AnnotationNetworkStatusLegacy). found is
// false when the Pod has neither; err is ParseNetworkStatus's error.
func PodNetworkStatus(pod *corev1.Pod) (statuses []NetworkStatus, found bool, err error) {
	v, ok := pod.Annotations[wellknown.AnnotationNetworkStatus]
	if !ok {
		v, ok = pod.Annotations[wellknown.AnnotationNetworkStatusLegacy]
	}
	if !ok {
		return nil, false, nil
	}
	statuses, err = ParseNetworkStatus(v)
	return statuses, true, err
}

// QualifiedName returns the entry's network as "<namespace>/<name>": the
// entry's name as it is when it has a namespace, else qualified with
// podNamespace (Multus resolves bare names in the Pod's namespace).
func (s *NetworkStatus) QualifiedName(podNamespace string) string {
	if strings.Contains(s.Name, "/") {
		return s.Name
	}
	return podNamespace + "/" + s.Name
}

// ipString returns the IP part of s, trimmed: an IP in CIDR form
// ("10.0.1.5/24", as DRA networkData writes them) loses its prefix length;
// the annotation holds plain IPs, but both forms are accepted.
func ipString(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '/'); i >= 0 {
		if _, err := netip.ParsePrefix(s); err == nil {
			return s[:i]
		}
	}
	return s
}
