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
	"context"
	"encoding/json"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// FuzzParseNetworkStatus checks that ParseNetworkStatus never panics,
// refuses what is not a JSON array of named objects, round-trips what it
// accepts, and that the secondary-network source built on it never
// panics, never returns an address that is not on a selected, non-default
// entry, and never mixes families.
func FuzzParseNetworkStatus(f *testing.F) {
	for _, s := range []string{
		anchorsExample,
		`[]`, `null`, `{}`, `[null]`, `[{}]`, `[{"name":""}]`, `"x"`, ``, `[`, `[{"name":"a"}] x`,
		`[{"name":"ns-a/net-a","interface":"net1","ips":["10.0.1.1","fd01::1"]}]`,
		`[{"name":"ns-a/net-a","interface":"net1","ips":["10.0.1.1"]},{"name":"ns-a/net-a","interface":"net2","ips":["10.0.1.2"]}]`,
		`[{"name":"cluster","ips":["10.0.0.1"],"default":true},{"name":"net-a","ips":["10.0.0.1/24"]}]`,
		`[{"name":"ns-a/net-a","ips":[1]}]`, `[{"name":"ns-a/net-a","ips":["::ffff:10.0.0.1","0.0.0.0","fe80::1"]}]`,
		`[{"name":"ns-a/net-a","interface":"net1","ips":[]},{"name":"ns-a/net-b","ips":["10.0.2.1"]}]`,
	} {
		f.Add(s)
	}
	nodes := nodeGetter{}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns-a", Name: "svc", Annotations: map[string]string{wellknown.AnnotationServiceNetwork: "net-a, net-b"}},
		Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: map[string]string{"a": "b"},
			Ports: []corev1.ServicePort{{Name: "p", Port: 80}}},
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseNetworkStatus(s)
		if err == nil {
			var arr []map[string]any
			if jerr := json.Unmarshal([]byte(s), &arr); jerr != nil || arr == nil {
				t.Fatalf("accepted %q, which is not a JSON array of objects (%v)", s, jerr)
			}
			if len(arr) != len(got) {
				t.Fatalf("accepted %q with %d entries, parsed %d", s, len(arr), len(got))
			}
			for i := range arr {
				if _, ok := arr[i]["name"].(string); !ok && !caseInsensitiveName(arr[i]) {
					t.Fatalf("accepted entry %d without a string name: %q", i, s)
				}
			}
			// Round trip.
			data, err := json.Marshal(got)
			if err != nil {
				t.Fatalf("marshal %v: %v", got, err)
			}
			again, err := ParseNetworkStatus(string(data))
			if err != nil || !reflect.DeepEqual(normalize(got), normalize(again)) {
				t.Fatalf("round trip of %q: %v\n%#v\n%#v", s, err, got, again)
			}
		} else if json.Valid([]byte(s)) && strings.HasPrefix(strings.TrimSpace(s), "[") {
			// A JSON array may be refused only for an element.
			if !strings.Contains(err.Error(), "entry") {
				t.Fatalf("refused the JSON array %q with %v", s, err)
			}
		}

		// The source on a pod carrying s.
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns-a", Name: "p", Annotations: map[string]string{wellknown.AnnotationNetworkStatus: s}},
			Status:     corev1.PodStatus{PodIP: "10.0.0.1", PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}}},
		}
		d, _, err := Desired(context.Background(), svc, []*corev1.Pod{pod}, nodes)
		if err != nil || d == nil {
			t.Fatalf("Desired: %v", err)
		}
		allowed := map[netip.Addr]bool{}
		for i := range got {
			if got[i].Default {
				continue
			}
			if q := got[i].QualifiedName("ns-a"); q != "ns-a/net-a" && q != "ns-a/net-b" {
				continue
			}
			for _, ip := range got[i].IPs {
				if a, err := source.ParseEndpointIP(ipString(ip)); err == nil {
					allowed[a] = true
				}
			}
		}
		for _, g := range d.Groups {
			for _, e := range g.Endpoints {
				if len(e.Addresses) != 1 {
					t.Fatalf("endpoint with %d addresses", len(e.Addresses))
				}
				a, err := netip.ParseAddr(e.Addresses[0])
				if err != nil || a.String() != e.Addresses[0] {
					t.Fatalf("endpoint address %q is not canonical", e.Addresses[0])
				}
				if !allowed[a] {
					t.Fatalf("address %s is on no selected, non-default entry of %q", a, s)
				}
				if (g.AddressType == discovery.AddressTypeIPv4) != a.Is4() {
					t.Fatalf("address %s in a %s group", a, g.AddressType)
				}
			}
		}
	})
}

// caseInsensitiveName reports whether an entry has a "name" member in
// another case: encoding/json matches member names case-insensitively.
func caseInsensitiveName(m map[string]any) bool {
	for k, v := range m {
		if _, ok := v.(string); ok && strings.EqualFold(k, "name") {
			return true
		}
	}
	return false
}

// normalize drops the raw members, which are re-encoded compactly.
func normalize(s []NetworkStatus) []NetworkStatus {
	out := make([]NetworkStatus, len(s))
	for i := range s {
		out[i] = s[i]
		out[i].DNS, out[i].DeviceInfo = nil, nil
		if len(out[i].IPs) == 0 {
			out[i].IPs = nil
		}
		if len(out[i].Gateway) == 0 {
			out[i].Gateway = nil
		}
	}
	return out
}

// FuzzParseServiceNetworks checks that ParseServiceNetworks never panics
// and returns only valid, distinct references.
func FuzzParseServiceNetworks(f *testing.F) {
	for _, s := range []string{"net-a", "ns/net", "a, b ,", "a@net1", `[{"name":"a","namespace":"b"}]`, "", "/", "@", "a/b/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		refs, err := ParseServiceNetworks(s, "svc-ns")
		if err != nil {
			return
		}
		if len(refs) == 0 {
			t.Fatal("no reference and no error")
		}
		seen := map[NetworkRef]bool{}
		for _, r := range refs {
			if seen[r] {
				t.Fatalf("duplicate %v", r)
			}
			seen[r] = true
			if r.Name == "" || r.Namespace == "" || strings.ContainsAny(r.Interface, " /@") {
				t.Fatalf("invalid reference %#v from %q", r, s)
			}
		}
	})
}

type nodeGetter struct{}

// Get returns a Node for any name but "gone".
func (nodeGetter) Get(name string) (*corev1.Node, error) {
	if name == "gone" {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "nodes"}, name)
	}
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}, nil
}
