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

package differential

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// Compact, deterministic, one-line renderings used both as comparison keys
// and in reproductions.

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "<zero>"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func fmtOptStr(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return strconv.Quote(*s)
}

func fmtOptBool(b *bool) string {
	if b == nil {
		return "-"
	}
	if *b {
		return "T"
	}
	return "F"
}

func fmtPort(p discovery.EndpointPort) string {
	port := "<nil>"
	if p.Port != nil {
		port = strconv.Itoa(int(*p.Port))
	}
	proto := "<nil>"
	if p.Protocol != nil {
		proto = string(*p.Protocol)
	}
	s := fmtOptStr(p.Name) + "/" + proto + "/" + port
	if p.AppProtocol != nil {
		s += "/" + *p.AppProtocol
	}
	return s
}

// fmtPorts renders ports in slice order.
func fmtPorts(ports []discovery.EndpointPort) string {
	parts := make([]string, len(ports))
	for i, p := range ports {
		parts[i] = fmtPort(p)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// portSet renders ports as a set (sorted): KCM groups slices by a hash of
// the sorted ports (util.NewPortMapKey), nil and empty alike.
func portSet(ports []discovery.EndpointPort) string {
	parts := make([]string, len(ports))
	for i, p := range ports {
		parts[i] = fmtPort(p)
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, " ") + "}"
}

func fmtEndpoint(ep discovery.Endpoint) string {
	var b strings.Builder
	b.WriteString(strings.Join(ep.Addresses, ","))
	fmt.Fprintf(&b, " r=%s s=%s t=%s", fmtOptBool(ep.Conditions.Ready), fmtOptBool(ep.Conditions.Serving), fmtOptBool(ep.Conditions.Terminating))
	if ep.Hostname != nil {
		fmt.Fprintf(&b, " host=%q", *ep.Hostname)
	}
	if ep.NodeName != nil {
		fmt.Fprintf(&b, " node=%q", *ep.NodeName)
	}
	if ep.Zone != nil {
		fmt.Fprintf(&b, " zone=%q", *ep.Zone)
	}
	if r := ep.TargetRef; r != nil {
		fmt.Fprintf(&b, " ref=%s/%s/%s/%s", r.Kind, r.Namespace, r.Name, r.UID)
		if r.APIVersion != "" || r.FieldPath != "" || r.ResourceVersion != "" {
			fmt.Fprintf(&b, "(%s,%s,rv=%s)", r.APIVersion, r.FieldPath, r.ResourceVersion)
		}
	}
	if h := ep.Hints; h != nil {
		var z, n []string
		for _, f := range h.ForZones {
			z = append(z, f.Name)
		}
		for _, f := range h.ForNodes {
			n = append(n, f.Name)
		}
		fmt.Fprintf(&b, " hints=zones%v,nodes%v", z, n)
	}
	return b.String()
}

// fmtMap renders a label or annotation map sorted by key, without skip.
func fmtMap(m map[string]string, skip string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != skip {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func fmtOwners(refs []metav1.OwnerReference) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = fmt.Sprintf("%s/%s/%s/%s/c=%s/b=%s", r.APIVersion, r.Kind, r.Name, r.UID, fmtOptBool(r.Controller), fmtOptBool(r.BlockOwnerDeletion))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func fmtWrites(ws []write) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.verb + " " + w.name
	}
	return strings.Join(parts, ", ")
}

func fmtSlice(b *strings.Builder, indent string, s *discovery.EndpointSlice) {
	fmt.Fprintf(b, "%s%s (%s, gen %d) %s ports %s\n", indent, s.Name, s.AddressType, s.Generation, fmtOwners(s.OwnerReferences), fmtPorts(s.Ports))
	fmt.Fprintf(b, "%s  labels %s annotations %s\n", indent, fmtMap(s.Labels, ""), fmtMap(s.Annotations, ""))
	for _, ep := range s.Endpoints {
		fmt.Fprintf(b, "%s  - %s\n", indent, fmtEndpoint(ep))
	}
}

func fmtSlices(b *strings.Builder, indent string, ss []*discovery.EndpointSlice) {
	if len(ss) == 0 {
		fmt.Fprintf(b, "%s(none)\n", indent)
	}
	for _, s := range ss {
		fmtSlice(b, indent, s)
	}
}

func fmtService(svc *corev1.Service) string {
	var ports []string
	for _, p := range svc.Spec.Ports {
		s := fmt.Sprintf("%q/%s/%d->%s", p.Name, p.Protocol, p.Port, p.TargetPort.String())
		if p.AppProtocol != nil {
			s += "/" + *p.AppProtocol
		}
		ports = append(ports, s)
	}
	del := ""
	if svc.DeletionTimestamp != nil {
		del = " deleting"
	}
	return fmt.Sprintf("%s/%s uid=%s created=%s%s clusterIP=%q families=%v ports=%v publishNotReady=%v trafficDistribution=%s labels=%s annotations=%s",
		svc.Namespace, svc.Name, svc.UID, fmtTime(svc.CreationTimestamp.Time), del, svc.Spec.ClusterIP, svc.Spec.IPFamilies, ports,
		svc.Spec.PublishNotReadyAddresses, fmtOptStr(svc.Spec.TrafficDistribution), fmtMap(svc.Labels, ""), fmtMap(svc.Annotations, ""))
}

func fmtContainerPorts(cs []corev1.Container, init bool) []string {
	var out []string
	for _, c := range cs {
		prefix := ""
		if init {
			prefix = "init(" + string(ptr.Deref(c.RestartPolicy, "")) + "):"
		}
		for _, p := range c.Ports {
			out = append(out, fmt.Sprintf("%s%q/%s/%d", prefix, p.Name, p.Protocol, p.ContainerPort))
		}
	}
	return out
}

func fmtPod(p *corev1.Pod) string {
	var ips []string
	for _, ip := range p.Status.PodIPs {
		ips = append(ips, ip.IP)
	}
	ready := "none"
	if c := readyCondition(p); c != nil {
		ready = fmt.Sprintf("%s@%s", c.Status, fmtTime(c.LastTransitionTime.Time))
	}
	del := ""
	if p.DeletionTimestamp != nil {
		del = " deleting"
	}
	host := ""
	if p.Spec.Hostname != "" {
		host = fmt.Sprintf(" hostname=%q subdomain=%q", p.Spec.Hostname, p.Spec.Subdomain)
	}
	ports := append(fmtContainerPorts(p.Spec.Containers, false), fmtContainerPorts(p.Spec.InitContainers, true)...)
	return fmt.Sprintf("%s uid=%s %s%s podIP=%q podIPs=%v node=%q ready=%s%s ports=%v",
		p.Name, p.UID, p.Status.Phase, del, p.Status.PodIP, ips, p.Spec.NodeName, ready, host, ports)
}

func fmtNode(n *corev1.Node) string {
	ready := "none"
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			ready = string(c.Status)
		}
	}
	return fmt.Sprintf("%s labels=%s ready=%s cpu=%s", n.Name, fmtMap(n.Labels, ""), ready, n.Status.Allocatable.Cpu())
}

// fmtInput renders a step's inputs.
func fmtInput(b *strings.Builder, in stepInput) {
	fmt.Fprintf(b, "  service: %s\n", fmtService(in.svc))
	fmt.Fprintf(b, "  nodes (%d):\n", len(in.nodes))
	for _, n := range in.nodes {
		fmt.Fprintf(b, "    %s\n", fmtNode(n))
	}
	fmt.Fprintf(b, "  pods (%d, in the order handed over):\n", len(in.pods))
	for _, p := range in.pods {
		fmt.Fprintf(b, "    %s\n", fmtPod(p))
	}
	fmt.Fprintf(b, "  existing slices (%d, in the order handed over; only those with our managed-by and service-name are handed over):\n", len(in.slices))
	fmtSlices(b, "    ", in.slices)
}

// fmtOutcome renders both sides' outcome of a step.
func fmtOutcome(b *strings.Builder, res *stepResult) {
	fmt.Fprintf(b, "  trigger time: kcm %s, slicekit %s\n", fmtTime(res.kcmTT), fmtTime(res.ourTT))
	fmt.Fprintf(b, "  error: kcm %v; slicekit %v\n", res.kcmErr, res.ourErr)
	fmt.Fprintf(b, "  kcm writes (%d): %s\n", len(res.kcmWrites), fmtWrites(res.kcmWrites))
	fmt.Fprintf(b, "  slicekit writes (%d): %s\n", len(res.ourWrites), fmtWrites(res.ourWrites))
	fmt.Fprintf(b, "  kcm events: %q\n  slicekit events: %q\n", res.kcmEvents, res.ourEvents)
	fmt.Fprintf(b, "  kcm result:\n")
	fmtSlices(b, "    ", res.kcmSlices)
	fmt.Fprintf(b, "  slicekit result:\n")
	fmtSlices(b, "    ", res.ourSlices)
	if len(res.idemWrites) > 0 {
		fmt.Fprintf(b, "  slicekit second run writes: %s\n", fmtWrites(res.idemWrites))
		for _, w := range res.idemWrites {
			if w.obj != nil {
				fmtSlice(b, "    ", w.obj)
			}
		}
	}
}
