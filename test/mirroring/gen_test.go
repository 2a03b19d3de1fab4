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

package mirroring

import (
	"fmt"
	"math/rand"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/utils/ptr"
)

const ns = "ns-a"

// gen draws random Endpoints objects, Services and changes. Pools are
// small so that subsets overlap in addresses and ports; they hold IPv4,
// IPv6, sloppy (leading zeros, upper case, IPv4-mapped) and invalid IPs,
// reserved labels and annotations.
type gen struct {
	r *rand.Rand
	// large allows subsets of ~1000-1200 addresses (only with the default
	// limit, where they exercise the per-subset cap).
	large bool
	// uids numbers Endpoints generations for UIDs.
	uids int
}

var (
	ipPool = []string{
		"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6", "10.0.0.7", "10.0.0.8",
		"010.0.0.1", "::ffff:10.0.0.2",
		"fd00::1", "fd00::2", "fd00::3", "fd00::4", "FD00::2", "fd00:0::3",
		"bogus", "", "10.0.0.256", "fd00::1/64",
	}
	portPool = []corev1.EndpointPort{
		{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP},
		{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP},
		{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP},
		{Name: "grpc", Port: 9000, Protocol: corev1.ProtocolTCP, AppProtocol: ptr.To("kubernetes.io/h2c")},
		{Name: "", Port: 8080, Protocol: corev1.ProtocolTCP},
		{Name: "metrics", Port: 9090, Protocol: corev1.ProtocolSCTP},
	}
	labelPool = []struct{ k, v string }{
		{"app", "x"}, {"app", "y"}, {"team", "a"},
		{discovery.LabelSkipMirror, "true"}, {discovery.LabelSkipMirror, "false"},
		{discovery.LabelServiceName, "other"}, {discovery.LabelManagedBy, "someone"},
		{corev1.IsHeadlessService, ""},
		{"service.kubernetes.io/endpoint-controller-name", "knative"},
	}
	annotationPool = []struct{ k, v string }{
		{"a", "1"}, {"a", "2"}, {"b", ""},
		{corev1.EndpointsLastChangeTriggerTime, "2026-01-01T00:00:00Z"},
		{corev1.LastAppliedConfigAnnotation, "{}"},
		{resourcelock.LeaderElectionRecordAnnotationKey, "{}"},
	}
)

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) address(ip string) corev1.EndpointAddress {
	a := corev1.EndpointAddress{IP: ip}
	if g.chance(0.4) {
		n := g.r.Intn(4)
		a.TargetRef = &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: fmt.Sprintf("pod-%d", n), UID: types.UID(fmt.Sprintf("uid-pod-%d", n))}
		if g.chance(0.3) {
			a.TargetRef.ResourceVersion = fmt.Sprint(g.r.Intn(3))
		}
	}
	if g.chance(0.2) {
		a.Hostname = []string{"h1", "h2"}[g.r.Intn(2)]
	}
	if g.chance(0.4) {
		a.NodeName = ptr.To([]string{"node-a", "node-b", ""}[g.r.Intn(3)])
	}
	return a
}

func (g *gen) addresses(max int) []corev1.EndpointAddress {
	n := g.r.Intn(max + 1)
	out := make([]corev1.EndpointAddress, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, g.address(ipPool[g.r.Intn(len(ipPool))]))
	}
	return out
}

// largeAddresses returns n distinct addresses of 10.1.0.0/16.
func (g *gen) largeAddresses(n, offset int) []corev1.EndpointAddress {
	out := make([]corev1.EndpointAddress, 0, n)
	for i := 0; i < n; i++ {
		j := i + offset
		out = append(out, corev1.EndpointAddress{IP: fmt.Sprintf("10.1.%d.%d", j/250, j%250+1)})
	}
	return out
}

func (g *gen) ports(allowAppProtocol bool) []corev1.EndpointPort {
	n := g.r.Intn(4) // 0: a subset without ports
	var out []corev1.EndpointPort
	seen := map[int]bool{}
	for i := 0; i < n; i++ {
		k := g.r.Intn(len(portPool))
		if seen[k] || (!allowAppProtocol && portPool[k].AppProtocol != nil) {
			continue
		}
		seen[k] = true
		out = append(out, *portPool[k].DeepCopy())
	}
	return out
}

func (g *gen) subset() corev1.EndpointSubset {
	if g.large && g.chance(0.03) {
		// A Knative-sized subset: more ready addresses than the limit, or
		// ready plus not-ready beyond it. No appProtocol port, so no two
		// re-packed subsets share a port list (see TestDifferential).
		ready := 900 + g.r.Intn(250)
		return corev1.EndpointSubset{
			Addresses:         g.largeAddresses(ready, 0),
			NotReadyAddresses: g.largeAddresses(g.r.Intn(150), ready),
			Ports:             g.ports(false),
		}
	}
	return corev1.EndpointSubset{Addresses: g.addresses(6), NotReadyAddresses: g.addresses(3), Ports: g.ports(true)}
}

func (g *gen) endpoints(name string) *corev1.Endpoints {
	g.uids++
	ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(fmt.Sprintf("uid-ep-%s-%d", name, g.uids))}}
	for n := g.r.Intn(4); n > 0; n-- {
		ep.Subsets = append(ep.Subsets, g.subset())
	}
	g.metadata(&ep.ObjectMeta)
	return ep
}

func (g *gen) metadata(m *metav1.ObjectMeta) {
	m.Labels, m.Annotations = nil, nil
	if g.chance(0.5) {
		m.Labels = map[string]string{}
		for n := g.r.Intn(3); n >= 0; n-- {
			l := labelPool[g.r.Intn(len(labelPool))]
			if l.k == discovery.LabelSkipMirror && l.v == "true" && !g.chance(0.3) {
				continue
			}
			m.Labels[l.k] = l.v
		}
	}
	if g.chance(0.4) {
		m.Annotations = map[string]string{}
		for n := g.r.Intn(3); n >= 0; n-- {
			a := annotationPool[g.r.Intn(len(annotationPool))]
			if a.k == resourcelock.LeaderElectionRecordAnnotationKey && !g.chance(0.3) {
				continue
			}
			m.Annotations[a.k] = a.v
		}
	}
}

func (g *gen) service(name string) *corev1.Service {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-svc-" + name)},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
	}
	if g.chance(0.15) {
		svc.Spec.Selector = map[string]string{"app": name}
	}
	if g.chance(0.1) {
		svc.Labels = map[string]string{"service.kubernetes.io/endpoint-controller-name": "knative"}
	}
	return svc
}

// mutate returns a changed copy of ep and a description of the change.
func (g *gen) mutate(ep *corev1.Endpoints) (*corev1.Endpoints, string) {
	ep = ep.DeepCopy()
	pickSubset := func() *corev1.EndpointSubset {
		if len(ep.Subsets) == 0 {
			ep.Subsets = append(ep.Subsets, g.subset())
		}
		return &ep.Subsets[g.r.Intn(len(ep.Subsets))]
	}
	switch g.r.Intn(12) {
	case 0:
		fresh := g.endpoints(ep.Name)
		fresh.UID = ep.UID
		return fresh, "replace subsets and metadata"
	case 1, 2:
		s := pickSubset()
		s.Addresses = append(s.Addresses, g.address(ipPool[g.r.Intn(len(ipPool))]))
		return ep, "add a ready address"
	case 3:
		s := pickSubset()
		s.NotReadyAddresses = append(s.NotReadyAddresses, g.address(ipPool[g.r.Intn(len(ipPool))]))
		return ep, "add a not-ready address"
	case 4:
		s := pickSubset()
		if n := len(s.Addresses); n > 0 {
			i := g.r.Intn(n)
			s.Addresses = append(s.Addresses[:i], s.Addresses[i+1:]...)
		}
		if n := len(s.NotReadyAddresses); n > 0 && g.chance(0.5) {
			i := g.r.Intn(n)
			s.NotReadyAddresses = append(s.NotReadyAddresses[:i], s.NotReadyAddresses[i+1:]...)
		}
		return ep, "remove addresses"
	case 5, 6:
		s := pickSubset()
		if n := len(s.Addresses); n > 0 && (len(s.NotReadyAddresses) == 0 || g.chance(0.5)) {
			i := g.r.Intn(n)
			s.NotReadyAddresses = append(s.NotReadyAddresses, s.Addresses[i])
			s.Addresses = append(s.Addresses[:i], s.Addresses[i+1:]...)
		} else if n := len(s.NotReadyAddresses); n > 0 {
			i := g.r.Intn(n)
			s.Addresses = append(s.Addresses, s.NotReadyAddresses[i])
			s.NotReadyAddresses = append(s.NotReadyAddresses[:i], s.NotReadyAddresses[i+1:]...)
		}
		return ep, "flip readiness"
	case 7:
		ep.Subsets = append(ep.Subsets, g.subset())
		return ep, "add a subset"
	case 8:
		if n := len(ep.Subsets); n > 0 {
			i := g.r.Intn(n)
			ep.Subsets = append(ep.Subsets[:i], ep.Subsets[i+1:]...)
		}
		return ep, "remove a subset"
	case 9:
		pickSubset().Ports = g.ports(!g.large)
		return ep, "change ports"
	case 10:
		g.metadata(&ep.ObjectMeta)
		return ep, "change labels and annotations"
	default:
		if len(ep.Subsets) > 0 && g.chance(0.5) {
			ep.Subsets = nil
			return ep, "clear subsets"
		}
		s := pickSubset()
		if len(s.Addresses) > 0 {
			t := pickSubset()
			t.Addresses = append(t.Addresses, s.Addresses[g.r.Intn(len(s.Addresses))])
		}
		return ep, "copy an address into another subset"
	}
}
