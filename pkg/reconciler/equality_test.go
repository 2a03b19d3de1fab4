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

package reconciler

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/utils/ptr"
)

// fullEndpoint has every field of an Endpoint set, down to the leaves.
func fullEndpoint() *discovery.Endpoint {
	return &discovery.Endpoint{
		Addresses:  []string{"10.0.0.1", "10.0.0.2"},
		Conditions: discovery.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)},
		Hostname:   ptr.To("h"),
		TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p", UID: "u",
			APIVersion: "v1", ResourceVersion: "7", FieldPath: "f"},
		DeprecatedTopology: map[string]string{"k": "v"},
		NodeName:           ptr.To("n"),
		Zone:               ptr.To("z"),
		Hints:              &discovery.EndpointHints{ForZones: []discovery.ForZone{{Name: "z"}}, ForNodes: []discovery.ForNode{{Name: "n"}}},
	}
}

// leafMutations returns, for every leaf reachable from v (a pointer to a
// struct), a function that changes that leaf in a copy made by mk. New API
// fields are found by reflection, so endpointsIdentical cannot silently
// miss them.
func leafMutations(t *testing.T, v reflect.Value, path string, at func(reflect.Value) reflect.Value) map[string]func(reflect.Value) {
	t.Helper()
	out := map[string]func(reflect.Value){}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			t.Fatalf("%s is nil in fullEndpoint: set it", path)
		}
		out[path+"=nil"] = func(root reflect.Value) { f := at(root); f.Set(reflect.Zero(f.Type())) }
		for k, m := range leafMutations(t, v.Elem(), path, func(r reflect.Value) reflect.Value { return at(r).Elem() }) {
			out[k] = m
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			i := i
			for k, m := range leafMutations(t, v.Field(i), path+"."+v.Type().Field(i).Name, func(r reflect.Value) reflect.Value { return at(r).Field(i) }) {
				out[k] = m
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			t.Fatalf("%s is empty in fullEndpoint: set it", path)
		}
		out[path+"=nil"] = func(root reflect.Value) { f := at(root); f.Set(reflect.Zero(f.Type())) }
		out[path+"=empty"] = func(root reflect.Value) { f := at(root); f.Set(reflect.MakeSlice(f.Type(), 0, 0)) }
		out[path+"+1"] = func(root reflect.Value) { f := at(root); f.Set(reflect.Append(f, f.Index(0))) }
		for k, m := range leafMutations(t, v.Index(0), path+"[0]", func(r reflect.Value) reflect.Value { return at(r).Index(0) }) {
			out[k] = m
		}
	case reflect.Map:
		if v.Len() == 0 {
			t.Fatalf("%s is empty in fullEndpoint: set it", path)
		}
		out[path+"=nil"] = func(root reflect.Value) { f := at(root); f.Set(reflect.Zero(f.Type())) }
		out[path+"=empty"] = func(root reflect.Value) { f := at(root); f.Set(reflect.MakeMap(f.Type())) }
		out[path+"[x]"] = func(root reflect.Value) {
			f := at(root)
			f.SetMapIndex(reflect.ValueOf("x"), reflect.ValueOf("y"))
		}
	case reflect.String:
		out[path] = func(root reflect.Value) { f := at(root); f.SetString(f.String() + "'") }
	case reflect.Bool:
		out[path] = func(root reflect.Value) { f := at(root); f.SetBool(!f.Bool()) }
	case reflect.Int32, reflect.Int64, reflect.Int:
		out[path] = func(root reflect.Value) { f := at(root); f.SetInt(f.Int() + 1) }
	default:
		t.Fatalf("%s: kind %s not handled", path, v.Kind())
	}
	return out
}

// TestEndpointsIdenticalCoversEveryField changes each leaf of a fully set
// Endpoint in turn (and sets each pointer, list and map to nil or empty):
// endpointsIdentical must see every change, since the incremental planner
// writes an endpoint it found identical instead of the desired one.
func TestEndpointsIdenticalCoversEveryField(t *testing.T) {
	base := fullEndpoint()
	if !endpointsIdentical(base, base.DeepCopy()) {
		t.Fatal("an endpoint is not identical to its deep copy")
	}
	if !endpointsIdentical(base, base) {
		t.Fatal("an endpoint is not identical to itself")
	}
	muts := leafMutations(t, reflect.ValueOf(base).Elem(), "Endpoint", func(r reflect.Value) reflect.Value { return r.Elem() })
	if len(muts) < 30 {
		t.Fatalf("only %d mutations: the walk is broken", len(muts))
	}
	for name, mutate := range muts {
		changed := base.DeepCopy()
		mutate(reflect.ValueOf(changed))
		if reflect.DeepEqual(base, changed) {
			t.Errorf("%s: the mutation changed nothing", name)
			continue
		}
		if endpointsIdentical(base, changed) || endpointsIdentical(changed, base) {
			t.Errorf("%s: endpointsIdentical misses the change", name)
		}
	}
}

func TestEndpointPortsEqual(t *testing.T) {
	p := func(name string, port int32, proto corev1.Protocol, app *string) discovery.EndpointPort {
		return discovery.EndpointPort{Name: ptr.To(name), Port: ptr.To(port), Protocol: ptr.To(proto), AppProtocol: app}
	}
	a := []discovery.EndpointPort{p("http", 80, corev1.ProtocolTCP, nil), p("dns", 53, corev1.ProtocolUDP, ptr.To("dns"))}
	cases := []struct {
		name string
		b    []discovery.EndpointPort
		want bool
	}{
		{"same", []discovery.EndpointPort{p("http", 80, corev1.ProtocolTCP, nil), p("dns", 53, corev1.ProtocolUDP, ptr.To("dns"))}, true},
		{"other order", []discovery.EndpointPort{a[1], a[0]}, false},
		{"other name", []discovery.EndpointPort{p("web", 80, corev1.ProtocolTCP, nil), a[1]}, false},
		{"other port", []discovery.EndpointPort{p("http", 81, corev1.ProtocolTCP, nil), a[1]}, false},
		{"other protocol", []discovery.EndpointPort{p("http", 80, corev1.ProtocolSCTP, nil), a[1]}, false},
		{"app protocol set", []discovery.EndpointPort{p("http", 80, corev1.ProtocolTCP, ptr.To("h2c")), a[1]}, false},
		{"nil port", []discovery.EndpointPort{{Name: ptr.To("http"), Protocol: ptr.To(corev1.ProtocolTCP)}, a[1]}, false},
		{"one less", a[:1], false},
	}
	for _, tc := range cases {
		if got := endpointPortsEqual(a, tc.b); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if !endpointPortsEqual(nil, []discovery.EndpointPort{}) {
		t.Error("nil and empty port lists differ (apiequality.Semantic treats them as equal)")
	}
}
