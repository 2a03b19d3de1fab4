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
	"math/rand/v2"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

const (
	testNamespace     = "ns"
	serviceName       = "svc"
	controllerName    = "endpointslice-controller.k8s.io"
	foreignController = "other-controller.example.com"
)

// baseTime is the clock of every scenario at step 0.
var baseTime = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Pools the generator draws from. Named target ports are drawn from the
// same pool as container port names, so a named target port sometimes
// resolves, sometimes resolves to different numbers on different pods, and
// sometimes does not resolve at all (wrong name or wrong protocol).
var (
	portNames   = []string{"http", "dns", "metrics", "grpc"}
	portNumbers = []int32{80, 443, 53, 8080, 8081, 9090}
	zones       = []string{"zone-a", "zone-b", "zone-c"}
	labelKeys   = []string{"app", "tier", "env", "team"}
	labelValues = []string{"web", "db", "prod", "x"}
)

// genOptions override the generator's random choices (the fuzz target sets
// them from fuzzer input). Zero values mean "random".
type genOptions struct {
	steps  int
	maxPer int32
}

// scenario is one Service with its Pods and Nodes and the EndpointSlices in
// the (simulated) cluster, mutated step by step. Everything is derived from
// seed: the same seed gives the same scenario, step by step, including the
// inputs handed to both reconcilers (KCM's choices feed back only through
// its resulting slices, which the comparison treats as equivalent).
type scenario struct {
	seed   uint64
	rng    *rand.Rand
	steps  int
	maxPer int32
	now    time.Time
	seq    int
	ipSeq  int

	svc   *corev1.Service
	pods  []*corev1.Pod
	nodes []*corev1.Node
	// slices is the cluster's EndpointSlice state: the previous step's
	// result (KCM's), plus hand edits.
	slices []*discovery.EndpointSlice
	// log describes what the last mutate did, for reproductions.
	log []string
}

func newScenario(seed uint64, o genOptions) *scenario {
	sc := &scenario{seed: seed, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), now: baseTime}
	r := sc.rng
	sc.steps = o.steps
	if sc.steps <= 0 {
		sc.steps = 8 + r.IntN(25)
	}
	sc.maxPer = o.maxPer
	if sc.maxPer <= 0 {
		sc.maxPer = pick(r, []int32{1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 100, 100})
	}
	nodes := r.IntN(7)
	if nodes == 0 && !sc.chance(35) {
		nodes = 1 + r.IntN(6) // no Node at all: every pod's node is missing
	}
	for range nodes {
		sc.nodes = append(sc.nodes, sc.newNode())
	}
	sc.svc = sc.newService()
	n := r.IntN(16)
	switch {
	case r.IntN(10) == 0:
		n = 0
	case sc.maxPer >= 10 && r.IntN(12) == 0:
		n = 100 + r.IntN(140) // more than one slice of 100
	}
	for range n {
		sc.pods = append(sc.pods, sc.newPod())
	}
	// Leftovers found in the cluster at the first sync.
	if r.IntN(8) == 0 {
		sc.slices = append(sc.slices, sc.handSlice(foreignController, sc.svc.UID))
	}
	if r.IntN(8) == 0 {
		sc.slices = append(sc.slices, sc.handSlice(controllerName, "stale-uid-0"))
	}
	if r.IntN(10) == 0 {
		sc.slices = append(sc.slices, sc.handSlice(controllerName, sc.svc.UID))
	}
	return sc
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func (sc *scenario) chance(percent int) bool { return sc.rng.IntN(100) < percent }

func (sc *scenario) next() int { sc.seq++; return sc.seq }

func (sc *scenario) logf(format string, args ...any) {
	sc.log = append(sc.log, fmt.Sprintf(format, args...))
}

// ---- Nodes -------------------------------------------------------------

func (sc *scenario) newNode() *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%d", sc.next()), Labels: map[string]string{}}}
	sc.randomizeNode(n)
	return n
}

// randomizeNode sets zone, readiness, allocatable CPU and the control-plane
// label: the inputs of the topology cache (KCM behaviour C34).
func (sc *scenario) randomizeNode(n *corev1.Node) {
	r := sc.rng
	delete(n.Labels, corev1.LabelTopologyZone)
	if !sc.chance(8) {
		n.Labels[corev1.LabelTopologyZone] = pick(r, zones)
	}
	delete(n.Labels, "node-role.kubernetes.io/control-plane")
	if sc.chance(10) {
		n.Labels["node-role.kubernetes.io/control-plane"] = ""
	}
	n.Status.Allocatable = corev1.ResourceList{}
	if !sc.chance(5) {
		n.Status.Allocatable[corev1.ResourceCPU] = resource.MustParse(pick(r, []string{"500m", "1", "2", "4"}))
	}
	n.Status.Conditions = nil
	switch {
	case sc.chance(6):
	case sc.chance(6):
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse}}
	default:
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	}
}

// ---- Service -----------------------------------------------------------

func (sc *scenario) newService() *corev1.Service {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Name:              serviceName,
			Namespace:         testNamespace,
			UID:               types.UID(fmt.Sprintf("svc-uid-%d", sc.next())),
			CreationTimestamp: metav1.NewTime(sc.now),
		},
	}
	sc.randomizePorts(svc)
	sc.randomizeFamilies(svc)
	sc.randomizeLabels(svc)
	sc.randomizeTrafficDistribution(svc)
	sc.randomizeTopologyAnnotation(svc)
	svc.Spec.PublishNotReadyAddresses = sc.chance(15)
	if sc.chance(3) {
		svc.DeletionTimestamp = ptr.To(metav1.NewTime(sc.now))
	}
	return svc
}

func (sc *scenario) randomizePorts(svc *corev1.Service) {
	r := sc.rng
	n := pick(r, []int{0, 1, 1, 1, 2, 2, 3})
	svc.Spec.Ports = nil
	names := slices.Clone(append(portNames, "p5", "p6"))
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for i := range n {
		p := corev1.ServicePort{
			Name:     names[i],
			Protocol: pick(r, []corev1.Protocol{corev1.ProtocolTCP, corev1.ProtocolTCP, corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP}),
			Port:     pick(r, portNumbers),
		}
		if n == 1 && sc.chance(40) {
			p.Name = ""
		}
		switch {
		case sc.chance(10): // missing targetPort: the zero IntOrString, port 0
		case sc.chance(45):
			p.TargetPort = intstr.FromInt32(pick(r, portNumbers))
		default:
			p.TargetPort = intstr.FromString(pick(r, append(slices.Clone(portNames), "nope")))
		}
		if sc.chance(25) {
			p.AppProtocol = ptr.To(pick(r, []string{"http", "kubernetes.io/h2c", "grpc"}))
		}
		svc.Spec.Ports = append(svc.Spec.Ports, p)
	}
}

// randomizeFamilies covers single and dual stack, headless with and without
// families, and families left empty by an old API server (KCM
// getAddressTypesForService falls back to the cluster IP, or to both
// families for a headless Service).
func (sc *scenario) randomizeFamilies(svc *corev1.Service) {
	v4, v6 := corev1.IPv4Protocol, corev1.IPv6Protocol
	type fam struct {
		ip       string
		families []corev1.IPFamily
	}
	f := pick(sc.rng, []fam{
		{"10.96.0.10", []corev1.IPFamily{v4}},
		{"10.96.0.10", []corev1.IPFamily{v4}},
		{"fd00:96::a", []corev1.IPFamily{v6}},
		{"10.96.0.10", []corev1.IPFamily{v4, v6}},
		{"fd00:96::a", []corev1.IPFamily{v6, v4}},
		{corev1.ClusterIPNone, []corev1.IPFamily{v4}},
		{corev1.ClusterIPNone, []corev1.IPFamily{v4, v6}},
		{corev1.ClusterIPNone, nil},
		{"10.96.0.10", nil},
		{"fd00:96::a", nil},
		{"", nil},
	})
	svc.Spec.ClusterIP = f.ip
	svc.Spec.ClusterIPs = nil
	if f.ip != "" {
		svc.Spec.ClusterIPs = []string{f.ip}
	}
	svc.Spec.IPFamilies = f.families
}

// randomizeLabels includes the reserved keys KCM never copies to slices.
func (sc *scenario) randomizeLabels(svc *corev1.Service) {
	r := sc.rng
	svc.Labels = nil
	if sc.chance(20) {
		return
	}
	svc.Labels = map[string]string{}
	for range r.IntN(4) {
		svc.Labels[pick(r, labelKeys)] = pick(r, labelValues)
	}
	if sc.chance(10) {
		svc.Labels[discovery.LabelServiceName] = "other"
	}
	if sc.chance(10) {
		svc.Labels[discovery.LabelManagedBy] = foreignController
	}
	if sc.chance(10) {
		svc.Labels[corev1.IsHeadlessService] = ""
	}
}

func (sc *scenario) randomizeTrafficDistribution(svc *corev1.Service) {
	svc.Spec.TrafficDistribution = nil
	if sc.chance(50) {
		svc.Spec.TrafficDistribution = ptr.To(pick(sc.rng, []string{
			corev1.ServiceTrafficDistributionPreferClose,
			corev1.ServiceTrafficDistributionPreferSameZone,
			corev1.ServiceTrafficDistributionPreferSameNode,
			"Invalid",
		}))
	}
}

func (sc *scenario) randomizeTopologyAnnotation(svc *corev1.Service) {
	svc.Annotations = nil
	if sc.chance(25) {
		svc.Annotations = map[string]string{corev1.AnnotationTopologyMode: pick(sc.rng, []string{"Auto", "Auto", "auto", "Disabled"})}
		if sc.chance(15) {
			svc.Annotations[corev1.DeprecatedAnnotationTopologyAwareHints] = pick(sc.rng, []string{"Auto", "disabled", ""})
		}
	}
}

// ---- Pods --------------------------------------------------------------

func (sc *scenario) newPod() *corev1.Pod {
	i := sc.next()
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name:      fmt.Sprintf("pod-%d", i),
		Namespace: testNamespace,
		UID:       types.UID(fmt.Sprintf("pod-uid-%d", i)),
	}}
	sc.randomizeNodeName(p)
	sc.randomizeContainers(p)
	p.Status.Phase = pick(sc.rng, []corev1.PodPhase{corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodRunning,
		corev1.PodRunning, corev1.PodRunning, corev1.PodPending, corev1.PodSucceeded, corev1.PodFailed})
	sc.randomizeIPs(p)
	sc.randomizeReady(p)
	if sc.chance(5) {
		p.DeletionTimestamp = ptr.To(metav1.NewTime(sc.now))
	}
	sc.randomizeHostname(p)
	return p
}

func (sc *scenario) randomizeNodeName(p *corev1.Pod) {
	switch {
	case len(sc.nodes) > 0 && !sc.chance(4):
		p.Spec.NodeName = pick(sc.rng, sc.nodes).Name
	case sc.chance(70):
		p.Spec.NodeName = fmt.Sprintf("ghost-node-%d", sc.rng.IntN(3))
	default:
		p.Spec.NodeName = ""
	}
}

func (sc *scenario) randomizeHostname(p *corev1.Pod) {
	p.Spec.Hostname, p.Spec.Subdomain = "", ""
	if sc.chance(25) {
		p.Spec.Hostname = fmt.Sprintf("host-%d", sc.rng.IntN(5))
		p.Spec.Subdomain = pick(sc.rng, []string{serviceName, serviceName, serviceName, "other"})
	}
}

func (sc *scenario) randomContainerPorts() []corev1.ContainerPort {
	r := sc.rng
	var out []corev1.ContainerPort
	for range r.IntN(4) {
		cp := corev1.ContainerPort{
			ContainerPort: pick(r, portNumbers) + int32(r.IntN(2)),
			Protocol:      pick(r, []corev1.Protocol{corev1.ProtocolTCP, corev1.ProtocolTCP, corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP}),
		}
		if !sc.chance(20) {
			cp.Name = pick(r, portNames)
		}
		out = append(out, cp)
	}
	return out
}

// randomizeContainers gives the pod containers and init containers with
// (possibly clashing) named ports; only restartable init containers
// (sidecars) count for named target ports (KCM FindPort).
func (sc *scenario) randomizeContainers(p *corev1.Pod) {
	p.Spec.Containers = nil
	p.Spec.InitContainers = nil
	for i := range 1 + sc.rng.IntN(2) {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: fmt.Sprintf("c%d", i), Ports: sc.randomContainerPorts()})
	}
	if sc.chance(30) {
		c := corev1.Container{Name: "init", Ports: sc.randomContainerPorts()}
		switch {
		case sc.chance(60):
			c.RestartPolicy = ptr.To(corev1.ContainerRestartPolicyAlways)
		case sc.chance(50):
			c.RestartPolicy = ptr.To(corev1.ContainerRestartPolicy("OnFailure"))
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
}

func (sc *scenario) ipv4() string {
	sc.ipSeq++
	return fmt.Sprintf("10.%d.%d.%d", sc.ipSeq/62500, sc.ipSeq/250%250, sc.ipSeq%250+1)
}

func (sc *scenario) ipv6() string {
	sc.ipSeq++
	return fmt.Sprintf("fd00::%x", sc.ipSeq)
}

// irregular returns ip in a form the API server would normally not store
// but that KCM parses (ParseIPSloppy) and rewrites canonically: IPv4 with
// leading zeros, an IPv4-mapped IPv6 address (which counts as IPv4), or
// upper-case uncompressed IPv6.
func (sc *scenario) irregular(ip string) string {
	var a, b, c, d int
	if n, _ := fmt.Sscanf(ip, "%d.%d.%d.%d", &a, &b, &c, &d); n == 4 {
		if sc.chance(50) {
			return fmt.Sprintf("%03d.%03d.%03d.%03d", a, b, c, d)
		}
		return "::ffff:" + ip
	}
	var x int
	if n, _ := fmt.Sscanf(ip, "fd00::%x", &x); n == 1 {
		return fmt.Sprintf("FD00:0000:0000:0000:0000:0000:0000:%04X", x)
	}
	return ip
}

// randomizeIPs covers single and dual stack in both orders, no IP, podIP
// without podIPs (KCM includes the pod but finds no address), irregular
// forms and addresses reused by another pod.
func (sc *scenario) randomizeIPs(p *corev1.Pod) {
	var ips []string
	switch n := sc.rng.IntN(100); {
	case n < 40:
		ips = []string{sc.ipv4()}
	case n < 55:
		ips = []string{sc.ipv6()}
	case n < 75:
		ips = []string{sc.ipv4(), sc.ipv6()}
	case n < 85:
		ips = []string{sc.ipv6(), sc.ipv4()}
	case n < 92:
	case n < 95:
		p.Status.PodIP = sc.ipv4()
		p.Status.PodIPs = nil
		return
	default:
		ips = []string{sc.ipv4()}
		if sc.chance(50) {
			ips = append(ips, sc.ipv6())
		}
	}
	if len(ips) > 0 && sc.chance(4) {
		ips[0] = sc.irregular(ips[0])
	}
	if len(ips) > 0 && len(sc.pods) > 0 && sc.chance(4) {
		if other := pick(sc.rng, sc.pods); len(other.Status.PodIPs) > 0 {
			ips = []string{other.Status.PodIPs[0].IP}
		}
	}
	p.Status.PodIP = ""
	p.Status.PodIPs = nil
	for _, ip := range ips {
		p.Status.PodIPs = append(p.Status.PodIPs, corev1.PodIP{IP: ip})
	}
	if len(ips) > 0 {
		p.Status.PodIP = ips[0]
	}
}

func (sc *scenario) randomizeReady(p *corev1.Pod) {
	p.Status.Conditions = nil
	if sc.chance(8) {
		return
	}
	st := corev1.ConditionTrue
	if sc.chance(30) {
		st = corev1.ConditionFalse
	}
	ltt := metav1.NewTime(sc.now.Add(-time.Duration(sc.rng.IntN(3600)) * time.Second))
	if sc.chance(3) {
		ltt = metav1.Time{}
	}
	p.Status.Conditions = []corev1.PodCondition{
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		{Type: corev1.PodReady, Status: st, LastTransitionTime: ltt},
	}
}

func readyCondition(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodReady {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// ---- Hand-made slices --------------------------------------------------

// handSlice returns a slice "found in the cluster": with the given
// managed-by and owner UID, our service-name label, and a few endpoints
// borrowed from the current pods (so they compete with desired endpoints)
// or invented.
func (sc *scenario) handSlice(managedBy string, ownerUID types.UID) *discovery.EndpointSlice {
	i := sc.next()
	at := discovery.AddressTypeIPv4
	if sc.chance(25) {
		at = discovery.AddressTypeIPv6
	}
	s := &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Name:       fmt.Sprintf("hand-%d", i),
			Namespace:  testNamespace,
			UID:        types.UID(fmt.Sprintf("hand-uid-%d", i)),
			Generation: 1,
			Labels: map[string]string{
				discovery.LabelServiceName: serviceName,
				discovery.LabelManagedBy:   managedBy,
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "Service", Name: serviceName, UID: ownerUID,
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}},
		},
		AddressType: at,
		Endpoints:   []discovery.Endpoint{},
	}
	for k, v := range sc.svc.Labels {
		if k != discovery.LabelServiceName && k != discovery.LabelManagedBy && k != corev1.IsHeadlessService {
			s.Labels[k] = v
		}
	}
	if sc.svc.Spec.ClusterIP == corev1.ClusterIPNone || sc.svc.Spec.ClusterIP == "" {
		s.Labels[corev1.IsHeadlessService] = ""
	}
	// Ports of a Service port that resolves as a number, or none.
	for _, sp := range sc.svc.Spec.Ports {
		if sp.TargetPort.Type == intstr.Int && sc.chance(70) {
			s.Ports = append(s.Ports, discovery.EndpointPort{Name: ptr.To(sp.Name), Port: ptr.To(sp.TargetPort.IntVal), Protocol: ptr.To(sp.Protocol), AppProtocol: sp.AppProtocol})
		}
	}
	for range sc.rng.IntN(4) {
		var ep discovery.Endpoint
		if len(sc.pods) > 0 && sc.chance(70) {
			p := pick(sc.rng, sc.pods)
			ep = discovery.Endpoint{
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID},
				Conditions: discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)},
			}
			for _, ip := range p.Status.PodIPs {
				ep.Addresses = append(ep.Addresses, ip.IP)
			}
			if p.Spec.NodeName != "" {
				ep.NodeName = ptr.To(p.Spec.NodeName)
			}
		} else {
			ep = discovery.Endpoint{Conditions: discovery.EndpointConditions{Ready: ptr.To(sc.chance(50))}}
		}
		if len(ep.Addresses) == 0 {
			if at == discovery.AddressTypeIPv4 {
				ep.Addresses = []string{sc.ipv4()}
			} else {
				ep.Addresses = []string{sc.ipv6()}
			}
		}
		s.Endpoints = append(s.Endpoints, ep)
	}
	return s
}
