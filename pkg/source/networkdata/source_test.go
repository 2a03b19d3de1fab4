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

package networkdata

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	resourceapi "k8s.io/api/resource/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

type nodes struct{}

func (nodes) Get(name string) (*corev1.Node, error) {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}, nil
}

func readyPod() *corev1.Pod {
	p := pod(corev1.PodResourceClaim{Name: "net", ResourceClaimName: ptr.To("c1")})
	p.Spec.NodeName = "node-a"
	p.Status.PodIPs = []corev1.PodIP{{IP: "10.0.0.11"}}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	return p
}

func service(annotation string) *corev1.Service {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc", Labels: map[string]string{wellknown.LabelEndpointControllerName: wellknown.DRANetworkControllerName}},
		Spec: corev1.ServiceSpec{
			Selector:   map[string]string{"app": "a"},
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}},
		},
	}
	if annotation != "" {
		svc.Annotations = map[string]string{wellknown.AnnotationDRAClaim: annotation}
	}
	return svc
}

// TestDesired runs the source through pkg/source Desired: the claim's
// addresses split by family, never the primary IP, the device's Ready
// condition as the serving condition, and Service-level problems.
func TestDesired(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		annotation string
		deviceOK   metav1.ConditionStatus
		want       string
		wantReason string
	}{
		{name: "ready device", annotation: "net/nic", deviceOK: metav1.ConditionTrue,
			want: "IPv4 192.168.60.31 ready=true serving=true; IPv6 fd00:60::31 ready=true serving=true"},
		{name: "device not ready", annotation: "net/nic", deviceOK: metav1.ConditionFalse,
			want: "IPv4 192.168.60.31 ready=false serving=false; IPv6 fd00:60::31 ready=false serving=false"},
		{name: "no annotation", wantReason: ReasonClaimAnnotationMissing},
		{name: "bad annotation", annotation: "Net", wantReason: ReasonClaimAnnotationInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := claim("c1", map[string][]string{"nic": {"192.168.60.31/24", "fd00:60::31/64"}})
			if len(c.Status.Devices) > 0 {
				c.Status.Devices[0].Conditions[0].Status = tc.deviceOK
			}
			s := scene{claims: map[string]*resourceapi.ResourceClaim{"ns/c1": c}}
			p := readyPod()
			svc := service(tc.annotation)
			before := []any{p.DeepCopy(), svc.DeepCopy(), c.DeepCopy()}
			d, problems, err := Source(s.get).Desired(ctx, svc, []*corev1.Pod{p}, nodes{})
			if err != nil {
				t.Fatal(err)
			}
			if !apiequality.Semantic.DeepEqual(before, []any{p, svc, c}) {
				t.Error("Desired modified its inputs")
			}
			if tc.wantReason != "" {
				if len(problems) != 1 || problems[0].Reason != tc.wantReason || len(d.Groups) != 0 {
					t.Fatalf("problems %v, groups %d; want one %s and no endpoints", problems, len(d.Groups), tc.wantReason)
				}
				return
			}
			if len(problems) != 0 {
				t.Fatalf("problems: %v", problems)
			}
			var got []string
			for _, g := range d.Groups {
				for _, e := range g.Endpoints {
					got = append(got, string(g.AddressType)+" "+strings.Join(e.Addresses, ",")+
						" ready="+boolStr(e.Conditions.Ready)+" serving="+boolStr(e.Conditions.Serving))
					if e.TargetRef == nil || e.TargetRef.Name != "p" || ptr.Deref(e.NodeName, "") != "node-a" || ptr.Deref(e.Zone, "") != "zone-a" {
						t.Errorf("endpoint %+v: want targetRef p, node-a, zone-a", e)
					}
				}
			}
			if s := strings.Join(got, "; "); s != tc.want {
				t.Errorf("endpoints %q, want %q", s, tc.want)
			}
		})
	}
}

func boolStr(b *bool) string {
	if b == nil {
		return "nil"
	}
	if *b {
		return "true"
	}
	return "false"
}

func TestAddressTypes(t *testing.T) {
	svc := service("net")
	svc.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
	if got := AddressTypes(svc); len(got) != 1 || got[0] != discovery.AddressTypeIPv4 {
		t.Errorf("single-stack: %v", got)
	}
	svc.Spec.ClusterIP = corev1.ClusterIPNone
	if got := AddressTypes(svc); len(got) != 2 {
		t.Errorf("headless: %v, want both families", got)
	}
}

func TestPodChanged(t *testing.T) {
	a := readyPod()
	b := a.DeepCopy()
	if PodChanged(a, b) {
		t.Error("equal Pods changed")
	}
	b.Status.ResourceClaimStatuses = []corev1.PodResourceClaimStatus{{Name: "net", ResourceClaimName: ptr.To("x")}}
	if !PodChanged(a, b) {
		t.Error("resourceClaimStatuses change not seen")
	}
	b = a.DeepCopy()
	b.Spec.ResourceClaims[0].ResourceClaimName = ptr.To("other")
	if !PodChanged(a, b) {
		t.Error("resourceClaims change not seen")
	}
	b = a.DeepCopy()
	b.Annotations = map[string]string{"x": "y"}
	if PodChanged(a, b) {
		t.Error("an annotation change matters")
	}
}

var _ source.Source = Source(nil)
