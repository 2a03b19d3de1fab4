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
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// anchorsExample is the example of docs/multus-network-status.md §1.
const anchorsExample = `[{"name":"k8s-pod-network","ips":["172.30.79.53"],"default":true,"dns":{}},
 {"name":"default/vrouter1","interface":"net1","ips":["10.0.0.9","abcd::a00:4"],"mac":"02:00:00:17:98:B8","dns":{}}]`

func TestParseNetworkStatus(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []NetworkStatus
		wantErr string
	}{
		{name: "anchors example", in: anchorsExample, want: []NetworkStatus{
			{Name: "k8s-pod-network", IPs: []string{"172.30.79.53"}, Default: true, DNS: []byte("{}")},
			{Name: "default/vrouter1", Interface: "net1", IPs: []string{"10.0.0.9", "abcd::a00:4"}, Mac: "02:00:00:17:98:B8", DNS: []byte("{}")},
		}},
		{name: "empty array", in: " [ ] ", want: []NetworkStatus{}},
		{name: "empty cluster network name, no ips, extra fields", in: `[{"name":"","default":true,"mtu":1500,"gateway":["10.0.0.1"],"device-info":{"type":"pci","pci":{"pci-address":"0000:00:01.0"}},"future":[1,2]}]`,
			want: []NetworkStatus{{Name: "", Default: true, Mtu: 1500, Gateway: []string{"10.0.0.1"}, DeviceInfo: []byte(`{"type":"pci","pci":{"pci-address":"0000:00:01.0"}}`)}}},
		{name: "multiline, as in case 19", in: "[\n  {\n    \"name\": \"ns-a/net-a\",\n    \"interface\": \"net1\",\n    \"ips\": [\n      \"10.0.1.11\"\n    ]\n  }\n]\n",
			want: []NetworkStatus{{Name: "ns-a/net-a", Interface: "net1", IPs: []string{"10.0.1.11"}}}},
		{name: "empty", in: "", wantErr: "empty"},
		{name: "spaces", in: "  \n", wantErr: "empty"},
		{name: "null", in: "null", wantErr: "not a JSON array"},
		{name: "object", in: `{"name":"a"}`, wantErr: "not a JSON array"},
		{name: "truncated", in: `[{"name":"a"`, wantErr: "invalid JSON"},
		{name: "trailing data", in: `[] []`, wantErr: "invalid JSON"},
		{name: "element not an object", in: `["a"]`, wantErr: "entry 0 is not a JSON object"},
		{name: "null element", in: `[null]`, wantErr: "entry 0 is not a JSON object"},
		{name: "no name", in: `[{"ips":["10.0.0.1"]}]`, wantErr: "entry 0 has no name"},
		{name: "null name", in: `[{"name":null}]`, wantErr: "entry 0 has no name"},
		{name: "name not a string", in: `[{"name":1}]`, wantErr: "entry 0"},
		{name: "ips not a list", in: `[{"name":"a","ips":"10.0.0.1"}]`, wantErr: "entry 0"},
		{name: "ip not a string", in: `[{"name":"a","ips":[10]}]`, wantErr: "entry 0"},
		{name: "default not a bool", in: `[{"name":"a","default":"true"}]`, wantErr: "entry 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseNetworkStatus(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPodNetworkStatus(t *testing.T) {
	pod := func(a map[string]string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: a}}
	}
	if _, found, err := PodNetworkStatus(pod(nil)); found || err != nil {
		t.Errorf("no annotation: found=%v err=%v", found, err)
	}
	s, found, err := PodNetworkStatus(pod(map[string]string{wellknown.AnnotationNetworkStatusLegacy: `[{"name":"legacy"}]`}))
	if !found || err != nil || len(s) != 1 || s[0].Name != "legacy" {
		t.Errorf("legacy key: %v %v %v", s, found, err)
	}
	s, found, err = PodNetworkStatus(pod(map[string]string{wellknown.AnnotationNetworkStatusLegacy: `[{"name":"legacy"}]`, wellknown.AnnotationNetworkStatus: `[{"name":"new"}]`}))
	if !found || err != nil || len(s) != 1 || s[0].Name != "new" {
		t.Errorf("both keys: %v %v %v", s, found, err)
	}
	if _, found, err := PodNetworkStatus(pod(map[string]string{wellknown.AnnotationNetworkStatus: `{`})); !found || err == nil {
		t.Errorf("malformed: found=%v err=%v", found, err)
	}
}

func TestQualifiedName(t *testing.T) {
	for in, want := range map[string]string{"net": "pod-ns/net", "other/net": "other/net", "": "pod-ns/"} {
		s := NetworkStatus{Name: in}
		if got := s.QualifiedName("pod-ns"); got != want {
			t.Errorf("QualifiedName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIPString(t *testing.T) {
	for in, want := range map[string]string{"10.0.0.1": "10.0.0.1", " 10.0.0.1/24 ": "10.0.0.1", "fd00::1/64": "fd00::1", "x/24": "x/24", "fd00::1": "fd00::1"} {
		if got := ipString(in); got != want {
			t.Errorf("ipString(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseServiceNetworks(t *testing.T) {
	tests := []struct {
		in      string
		want    []NetworkRef
		wantErr string
	}{
		{in: "net-a", want: []NetworkRef{{Namespace: "svc-ns", Name: "net-a"}}},
		{in: "  ns-b / net-b  ", want: []NetworkRef{{Namespace: "ns-b", Name: "net-b"}}},
		{in: "net-a, ns-b/net-b ,, net-a ,", want: []NetworkRef{{Namespace: "svc-ns", Name: "net-a"}, {Namespace: "ns-b", Name: "net-b"}}},
		{in: "net-a@net2, ns-b/net.b @ eth9", want: []NetworkRef{{Namespace: "svc-ns", Name: "net-a", Interface: "net2"}, {Namespace: "ns-b", Name: "net.b", Interface: "eth9"}}},
		{in: `[{"name":"net-a"},{"name":"net-b","namespace":"ns-b","interface":"net3"}]`, want: []NetworkRef{{Namespace: "svc-ns", Name: "net-a"}, {Namespace: "ns-b", Name: "net-b", Interface: "net3"}}},
		{in: "", wantErr: "no network"},
		{in: " , ,", wantErr: "no network"},
		{in: "[]", wantErr: "no network"},
		{in: "ns/", wantErr: "empty network name"},
		{in: "/net", wantErr: "namespace"},
		{in: "Net_A", wantErr: "network name"},
		{in: "a/b/c", wantErr: "network name"},
		{in: "net@", wantErr: "invalid interface"},
		{in: "net@a b", wantErr: "invalid interface"},
		{in: `[{"name":""}]`, wantErr: "element 0"},
		{in: `[{"name":"a"`, wantErr: "invalid JSON"},
		{in: `[{"name":"a","interface":" "}]`, wantErr: "invalid interface"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseServiceNetworks(tc.in, "svc-ns")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v (got %v), want one containing %q", err, got, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := (NetworkRef{Namespace: "a", Name: "b", Interface: "c"}).String(); got != "a/b@c" {
		t.Errorf("String = %q", got)
	}
}
