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

package casefile

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
)

// TriggerTimeAnnotation is dropped from unnamed slices before comparing,
// unless CompareOptions.KeepTriggerTime.
const TriggerTimeAnnotation = corev1.EndpointsLastChangeTriggerTime

// CompareOptions tune Compare.
type CompareOptions struct {
	// KeepTriggerTime compares the trigger-time annotation of unnamed
	// slices too.
	KeepTriggerTime bool
	// Union compares, per slice shape (namespace, labels, annotations,
	// owners, address type, ports), the multiset of endpoints over all
	// slices of that shape instead of how they are split into slices.
	Union bool
	// UIDMap maps the readable uids of expected files (uid-svc-a) to the
	// uids of the actual objects, for ownerReferences. nil: identical.
	UIDMap map[types.UID]types.UID
}

// Filter returns the slices whose kubernetes.io/service-name label is in
// services and whose managed-by label is in managedBy; an empty list
// matches everything.
func Filter(slices []discovery.EndpointSlice, services, managedBy []string) []discovery.EndpointSlice {
	in := func(v string, set []string) bool {
		if len(set) == 0 {
			return true
		}
		for _, s := range set {
			if s == v {
				return true
			}
		}
		return false
	}
	var out []discovery.EndpointSlice
	for _, s := range slices {
		if in(s.Labels[discovery.LabelServiceName], services) && in(s.Labels[discovery.LabelManagedBy], managedBy) {
			out = append(out, s)
		}
	}
	return out
}

// Compare checks actual against expected with the cases' conventions (see
// the package documentation) and returns what differs, one item per line
// (sub-lines indented); nil means equal. Filter both sides first.
//
// Expected slices with a name are matched by name and compared exactly
// (order of endpoints, ports and owners included, trigger time included).
// The other expected slices are matched with the remaining actual slices
// as a multiset. Namespaces are compared only when every expected slice
// has one.
func Compare(expected, actual []discovery.EndpointSlice, o CompareOptions) []string {
	var lines []string
	useNS := true
	for i := range expected {
		if expected[i].Namespace == "" {
			useNS = false
		}
	}
	pool := make([]*discovery.EndpointSlice, 0, len(actual))
	for i := range actual {
		pool = append(pool, &actual[i])
	}

	var unnamed []nSlice
	for i := range expected {
		e := &expected[i]
		if e.Name == "" {
			unnamed = append(unnamed, normalize(e, false, o, useNS, true))
			continue
		}
		idx := -1
		for j, a := range pool {
			if a.Name == e.Name && (e.Namespace == "" || a.Namespace == e.Namespace) {
				idx = j
				break
			}
		}
		ne := normalize(e, true, o, useNS, true)
		if idx < 0 {
			lines = append(lines, fmt.Sprintf("missing named slice %s: expected %s", qualifiedName(e), ne.summary()))
			continue
		}
		na := normalize(pool[idx], true, o, useNS, false)
		pool = append(pool[:idx], pool[idx+1:]...)
		if d := diffSlices(ne, na); len(d) > 0 {
			lines = append(lines, fmt.Sprintf("named slice %s differs (exact comparison):", qualifiedName(e)))
			lines = append(lines, indent(d)...)
		}
	}
	rest := make([]nSlice, 0, len(pool))
	for _, a := range pool {
		rest = append(rest, normalize(a, false, o, useNS, false))
	}
	if o.Union {
		return append(lines, compareUnion(unnamed, rest)...)
	}
	return append(lines, compareSets(unnamed, rest)...)
}

// nEndpoint is an endpoint in normal form: Key is its addresses plus
// targetRef kind/namespace/name; Fields are the other compared fields.
type nEndpoint struct {
	Key    string            `json:"key"`
	Fields map[string]string `json:"f"`
}

func (e nEndpoint) str() string { b, _ := json.Marshal(e); return string(b) }

// nSlice is a slice in normal form.
type nSlice struct {
	Name        string            `json:"-"`
	Ordered     bool              `json:"-"`
	Namespace   string            `json:"ns,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Owners      []string          `json:"owners,omitempty"`
	AddressType string            `json:"addressType"`
	Ports       []string          `json:"ports,omitempty"`
	Endpoints   []nEndpoint       `json:"-"`
}

func (s nSlice) shapeKey() string { b, _ := json.Marshal(s); return string(b) }

func (s nSlice) key() string {
	eps := make([]string, len(s.Endpoints))
	for i, e := range s.Endpoints {
		eps[i] = e.str()
	}
	if !s.Ordered {
		sort.Strings(eps)
	}
	return s.shapeKey() + "|" + strings.Join(eps, ",")
}

func (s nSlice) summary() string {
	var b strings.Builder
	if s.Name != "" {
		b.WriteString(s.Name + " ")
	}
	fmt.Fprintf(&b, "[service=%s managed-by=%s %s ports=(%s)] %d endpoint(s)",
		s.Labels[discovery.LabelServiceName], s.Labels[discovery.LabelManagedBy], s.AddressType,
		strings.Join(s.Ports, " "), len(s.Endpoints))
	return b.String()
}

func normalize(s *discovery.EndpointSlice, named bool, o CompareOptions, useNS, expected bool) nSlice {
	n := nSlice{Name: s.Name, Ordered: named, AddressType: string(s.AddressType)}
	if useNS {
		n.Namespace = s.Namespace
	}
	if len(s.Labels) > 0 {
		n.Labels = s.Labels
	}
	for k, v := range s.Annotations {
		if k == TriggerTimeAnnotation && !named && !o.KeepTriggerTime {
			continue
		}
		if n.Annotations == nil {
			n.Annotations = map[string]string{}
		}
		n.Annotations[k] = v
	}
	for _, r := range s.OwnerReferences {
		uid := r.UID
		if m, ok := o.UIDMap[uid]; ok && expected {
			uid = m
		}
		n.Owners = append(n.Owners, fmt.Sprintf("%s %s %s uid=%s controller=%s blockOwnerDeletion=%s",
			r.APIVersion, r.Kind, r.Name, uid, boolStr(r.Controller), boolStr(r.BlockOwnerDeletion)))
	}
	for i := range s.Ports {
		n.Ports = append(n.Ports, portStr(&s.Ports[i]))
	}
	for i := range s.Endpoints {
		n.Endpoints = append(n.Endpoints, normalizeEndpoint(&s.Endpoints[i], named))
	}
	if !named {
		sort.Strings(n.Owners)
		sort.Strings(n.Ports)
		sort.Slice(n.Endpoints, func(i, j int) bool { return n.Endpoints[i].str() < n.Endpoints[j].str() })
	}
	return n
}

func normalizeEndpoint(e *discovery.Endpoint, ordered bool) nEndpoint {
	f := map[string]string{
		"conditions.ready":       boolStr(e.Conditions.Ready),
		"conditions.serving":     boolStr(e.Conditions.Serving),
		"conditions.terminating": boolStr(e.Conditions.Terminating),
		"hostname":               strPtr(e.Hostname),
		"nodeName":               strPtr(e.NodeName),
		"zone":                   strPtr(e.Zone),
	}
	if e.Hints != nil {
		var z, n []string
		for _, h := range e.Hints.ForZones {
			z = append(z, h.Name)
		}
		for _, h := range e.Hints.ForNodes {
			n = append(n, h.Name)
		}
		sort.Strings(z)
		sort.Strings(n)
		f["hints"] = "forZones=" + strings.Join(z, ",") + " forNodes=" + strings.Join(n, ",")
	}
	if len(e.DeprecatedTopology) > 0 {
		b, _ := json.Marshal(e.DeprecatedTopology)
		f["deprecatedTopology"] = string(b)
	}
	addrs := append([]string{}, e.Addresses...)
	if !ordered {
		sort.Strings(addrs)
	}
	k := strings.Join(addrs, ",")
	if e.TargetRef != nil {
		k += " " + e.TargetRef.Kind + "/" + e.TargetRef.Namespace + "/" + e.TargetRef.Name
	}
	return nEndpoint{Key: k, Fields: f}
}

func boolStr(p *bool) string {
	switch {
	case p == nil:
		return "<unset>"
	case *p:
		return "true"
	}
	return "false"
}

func strPtr(p *string) string {
	if p == nil {
		return "<unset>"
	}
	return *p
}

// portStr is a port in normal form, with the API defaults applied (name
// "", protocol TCP).
func portStr(p *discovery.EndpointPort) string {
	name, proto, port, app := "", string(corev1.ProtocolTCP), "<unset>", ""
	if p.Name != nil {
		name = *p.Name
	}
	if p.Protocol != nil {
		proto = string(*p.Protocol)
	}
	if p.Port != nil {
		port = fmt.Sprint(*p.Port)
	}
	if p.AppProtocol != nil {
		app = " appProtocol=" + *p.AppProtocol
	}
	return fmt.Sprintf("%s:%s/%s%s", name, port, proto, app)
}

func qualifiedName(s *discovery.EndpointSlice) string {
	if s.Namespace == "" {
		return s.Name
	}
	return s.Namespace + "/" + s.Name
}

func compareSets(exp, act []nSlice) []string {
	used := make([]bool, len(act))
	var missing []nSlice
	for _, e := range exp {
		k := e.key()
		found := false
		for j, a := range act {
			if !used[j] && a.key() == k {
				used[j], found = true, true
				break
			}
		}
		if !found {
			missing = append(missing, e)
		}
	}
	var extra []nSlice
	for j, a := range act {
		if !used[j] {
			extra = append(extra, a)
		}
	}
	// Pair the leftovers by similarity to explain the differences.
	var lines []string
	taken := make([]bool, len(extra))
	for _, e := range missing {
		best, bestScore := -1, -1
		for j, a := range extra {
			if !taken[j] {
				if s := similarity(e, a); s > bestScore {
					best, bestScore = j, s
				}
			}
		}
		if best >= 0 && bestScore >= 100 { // at least the same Service
			taken[best] = true
			lines = append(lines, "slice differs: expected "+e.summary(), "  closest actual "+extra[best].summary()+":")
			lines = append(lines, indent(indent(diffSlices(e, extra[best])))...)
			continue
		}
		lines = append(lines, "missing slice: expected "+e.summary())
		lines = append(lines, indent(describeEndpoints(e))...)
	}
	for j, a := range extra {
		if !taken[j] {
			lines = append(lines, "unexpected slice: "+a.summary())
			lines = append(lines, indent(describeEndpoints(a))...)
		}
	}
	return lines
}

func compareUnion(exp, act []nSlice) []string {
	type group struct {
		rep nSlice
		eps []nEndpoint
		n   int
	}
	collect := func(ss []nSlice) (map[string]*group, []string) {
		m := map[string]*group{}
		var order []string
		for _, s := range ss {
			k := s.shapeKey()
			g, ok := m[k]
			if !ok {
				g = &group{rep: s}
				m[k] = g
				order = append(order, k)
			}
			g.eps = append(g.eps, s.Endpoints...)
			g.n++
		}
		return m, order
	}
	em, eorder := collect(exp)
	am, aorder := collect(act)
	var lines []string
	for _, k := range eorder {
		e := em[k]
		a, ok := am[k]
		if !ok {
			lines = append(lines, "missing slices of shape "+e.rep.summary())
			continue
		}
		if d := diffEndpoints(e.eps, a.eps); len(d) > 0 {
			lines = append(lines, fmt.Sprintf("endpoints (union over %d actual slice(s)) differ for shape %s:", a.n, e.rep.summary()))
			lines = append(lines, indent(d)...)
		}
	}
	for _, k := range aorder {
		if _, ok := em[k]; ok {
			continue
		}
		a := am[k]
		lines = append(lines, fmt.Sprintf("unexpected slices of shape %s (%d slice(s))", a.rep.summary(), a.n))
		best, bestScore := "", -1
		for _, ek := range eorder {
			if s := similarity(em[ek].rep, a.rep); s > bestScore {
				best, bestScore = ek, s
			}
		}
		if best != "" && bestScore >= 100 {
			lines = append(lines, "  vs expected shape:")
			lines = append(lines, indent(indent(diffShape(em[best].rep, a.rep)))...)
		}
	}
	return lines
}

func similarity(e, a nSlice) int {
	s := 0
	if e.Labels[discovery.LabelServiceName] == a.Labels[discovery.LabelServiceName] {
		s += 100
	}
	if e.Labels[discovery.LabelManagedBy] == a.Labels[discovery.LabelManagedBy] {
		s += 50
	}
	if e.AddressType == a.AddressType {
		s += 20
	}
	if strings.Join(e.Ports, " ") == strings.Join(a.Ports, " ") {
		s += 10
	}
	keys := map[string]bool{}
	for _, ep := range e.Endpoints {
		keys[ep.Key] = true
	}
	for _, ep := range a.Endpoints {
		if keys[ep.Key] {
			s++
		}
	}
	return s
}

func describeEndpoints(s nSlice) []string {
	const maxShown = 8
	var out []string
	for i, e := range s.Endpoints {
		if i == maxShown {
			out = append(out, fmt.Sprintf("... %d more", len(s.Endpoints)-maxShown))
			break
		}
		out = append(out, "endpoint "+e.Key+" "+fieldsStr(e.Fields))
	}
	return out
}

func fieldsStr(f map[string]string) string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		if f[k] != "<unset>" {
			parts = append(parts, strings.TrimPrefix(k, "conditions.")+"="+f[k])
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func diffSlices(e, a nSlice) []string {
	out := diffShape(e, a)
	if e.Ordered {
		return append(out, diffOrdered(e.Endpoints, a.Endpoints)...)
	}
	return append(out, diffEndpoints(e.Endpoints, a.Endpoints)...)
}

func diffShape(e, a nSlice) []string {
	var out []string
	if e.Namespace != a.Namespace {
		out = append(out, fmt.Sprintf("namespace: expected %q, got %q", e.Namespace, a.Namespace))
	}
	out = append(out, diffMap("labels", e.Labels, a.Labels)...)
	out = append(out, diffMap("annotations", e.Annotations, a.Annotations)...)
	out = append(out, diffList("ownerReferences", e.Owners, a.Owners, e.Ordered)...)
	if e.AddressType != a.AddressType {
		out = append(out, fmt.Sprintf("addressType: expected %s, got %s", e.AddressType, a.AddressType))
	}
	return append(out, diffList("ports", e.Ports, a.Ports, e.Ordered)...)
}

func diffMap(what string, e, a map[string]string) []string {
	keys := map[string]bool{}
	for k := range e {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	for _, k := range sorted {
		ev, eok := e[k]
		av, aok := a[k]
		switch {
		case eok && !aok:
			out = append(out, fmt.Sprintf("%s: missing %s=%q", what, k, ev))
		case !eok && aok:
			out = append(out, fmt.Sprintf("%s: unexpected %s=%q", what, k, av))
		case ev != av:
			out = append(out, fmt.Sprintf("%s: %s expected %q, got %q", what, k, ev, av))
		}
	}
	return out
}

func diffList(what string, e, a []string, ordered bool) []string {
	if ordered {
		if strings.Join(e, "\n") != strings.Join(a, "\n") {
			return []string{fmt.Sprintf("%s: expected [%s], got [%s]", what, strings.Join(e, "; "), strings.Join(a, "; "))}
		}
		return nil
	}
	cnt := map[string]int{}
	for _, x := range e {
		cnt[x]++
	}
	for _, x := range a {
		cnt[x]--
	}
	keys := make([]string, 0, len(cnt))
	for k := range cnt {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		for ; cnt[k] > 0; cnt[k]-- {
			out = append(out, fmt.Sprintf("%s: missing %s", what, k))
		}
		for ; cnt[k] < 0; cnt[k]++ {
			out = append(out, fmt.Sprintf("%s: unexpected %s", what, k))
		}
	}
	return out
}

// diffEndpoints compares endpoint multisets; endpoints with the same key
// are explained field by field.
func diffEndpoints(e, a []nEndpoint) []string {
	usedA := make([]bool, len(a))
	var missing []nEndpoint
	for _, x := range e {
		found := false
		for j, y := range a {
			if !usedA[j] && x.str() == y.str() {
				usedA[j], found = true, true
				break
			}
		}
		if !found {
			missing = append(missing, x)
		}
	}
	var out []string
	for _, x := range missing {
		match := -1
		for j := range a {
			if !usedA[j] && a[j].Key == x.Key {
				match = j
				break
			}
		}
		if match < 0 {
			out = append(out, fmt.Sprintf("endpoint missing: %s %s", x.Key, fieldsStr(x.Fields)))
			continue
		}
		usedA[match] = true
		out = append(out, fmt.Sprintf("endpoint %s differs: %s", x.Key, strings.Join(diffFields(x.Fields, a[match].Fields), ", ")))
	}
	for j := range a {
		if !usedA[j] {
			out = append(out, fmt.Sprintf("endpoint unexpected: %s %s", a[j].Key, fieldsStr(a[j].Fields)))
		}
	}
	return out
}

func diffOrdered(e, a []nEndpoint) []string {
	var out []string
	for i := 0; i < max(len(e), len(a)); i++ {
		switch {
		case i >= len(a):
			out = append(out, fmt.Sprintf("endpoints[%d] missing: %s %s", i, e[i].Key, fieldsStr(e[i].Fields)))
		case i >= len(e):
			out = append(out, fmt.Sprintf("endpoints[%d] unexpected: %s %s", i, a[i].Key, fieldsStr(a[i].Fields)))
		case e[i].str() == a[i].str():
		case e[i].Key != a[i].Key:
			out = append(out, fmt.Sprintf("endpoints[%d]: expected %s %s, got %s %s", i, e[i].Key, fieldsStr(e[i].Fields), a[i].Key, fieldsStr(a[i].Fields)))
		default:
			out = append(out, fmt.Sprintf("endpoints[%d] %s differs: %s", i, e[i].Key, strings.Join(diffFields(e[i].Fields, a[i].Fields), ", ")))
		}
	}
	return out
}

func diffFields(e, a map[string]string) []string {
	keys := map[string]bool{}
	for k := range e {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	for _, k := range sorted {
		ev, eok := e[k]
		av, aok := a[k]
		if !eok {
			ev = "<unset>"
		}
		if !aok {
			av = "<unset>"
		}
		if ev != av {
			out = append(out, fmt.Sprintf("%s expected %s, got %s", k, ev, av))
		}
	}
	return out
}

func indent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "  " + l
	}
	return out
}
