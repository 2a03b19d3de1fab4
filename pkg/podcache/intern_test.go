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

package podcache

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func podWith(name string, labels map[string]string, containers ...corev1.Container) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: labels}, Spec: corev1.PodSpec{Containers: containers}}
}

func mapID(m map[string]string) uintptr { return reflect.ValueOf(m).Pointer() }

func TestInternShares(t *testing.T) {
	port := func(name string, n int32) corev1.Container {
		return corev1.Container{Name: "app", Ports: []corev1.ContainerPort{{Name: name, ContainerPort: n, Protocol: corev1.ProtocolTCP}}}
	}
	a := New(podWith("a", map[string]string{"app": "x", "hash": "1"}, port("http", 80)), nil)
	b := New(podWith("b", map[string]string{"hash": "1", "app": "x"}, port("http", 80)), nil)
	c := New(podWith("c", map[string]string{"app": "x", "hash": "2"}, port("http", 81)), nil)
	d := New(podWith("d", map[string]string{"app": "x1", "hash": "2"}, port("https", 80)), nil)
	if mapID(a.Labels) != mapID(b.Labels) || a.containers != b.containers {
		t.Error("equal labels and containers are not shared")
	}
	if mapID(a.Labels) == mapID(c.Labels) || a.containers == c.containers || mapID(c.Labels) == mapID(d.Labels) || c.containers == d.containers {
		t.Error("different labels or containers are shared")
	}
	if e := New(podWith("e", nil), nil); e.labels != nil || e.containers != nil || e.Labels != nil {
		t.Errorf("a Pod without labels or containers got %v %v %v", e.labels, e.containers, e.Labels)
	}
	runtime.KeepAlive([]*Record{a, b, c, d})
}

// TestContainerKeyCoversEveryField changes every field of a container port
// and of a container as the record keeps it, one at a time: each change
// must change the interning key, or two Pods that differ there would share
// one list (a field added to ContainerPort in a later API version fails
// here until the key writes it).
func TestContainerKeyCoversEveryField(t *testing.T) {
	base := container{name: "c", ports: []corev1.ContainerPort{{Name: "p", HostPort: 1, ContainerPort: 2, Protocol: "TCP", HostIP: "h"}}}
	key := func(c container) string {
		return internKeyOf([]container{c})
	}
	seen := map[string]string{key(base): "base"}
	check := func(what string, c container) {
		t.Helper()
		k := key(c)
		if prev, ok := seen[k]; ok {
			t.Errorf("changing %s gives the key of %s", what, prev)
		}
		seen[k] = what
	}
	pt := reflect.TypeOf(corev1.ContainerPort{})
	for i := range pt.NumField() {
		c := base
		c.ports = []corev1.ContainerPort{base.ports[0]}
		f := reflect.ValueOf(&c.ports[0]).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Int32, reflect.Int64, reflect.Int:
			f.SetInt(f.Int() + 7)
		default:
			t.Fatalf("ContainerPort.%s has kind %s: teach the key and this test", pt.Field(i).Name, f.Kind())
		}
		check("ports[0]."+pt.Field(i).Name, c)
	}
	ct := reflect.TypeOf(container{})
	if ct.NumField() != 4 {
		t.Fatalf("container has %d fields: teach the key and this test", ct.NumField())
	}
	check("name", container{name: "d", ports: base.ports})
	check("init", container{name: "c", ports: base.ports, init: true})
	check("restartPolicy set", container{name: "c", ports: base.ports, restartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways)})
	check("ports nil", container{name: "c"})
	check("ports empty", container{name: "c", ports: []corev1.ContainerPort{}})
	check("two ports", container{name: "c", ports: append([]corev1.ContainerPort{base.ports[0]}, base.ports[0])})
}

// TestInternForgets: once no record uses a value, the collector frees it
// and its table entry goes.
func TestInternForgets(t *testing.T) {
	before := labelSets.size()
	func() {
		recs := make([]*Record, 100)
		for i := range recs {
			recs[i] = New(podWith(fmt.Sprint(i), map[string]string{"forget-test": fmt.Sprint(i)}), nil)
		}
		if got := labelSets.size(); got < before+100 {
			t.Fatalf("%d entries after 100 distinct label sets, want at least %d", got, before+100)
		}
		runtime.KeepAlive(recs)
	}()
	for i := 0; i < 200 && labelSets.size() >= before+100; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := labelSets.size(); got >= before+100 {
		t.Errorf("%d entries after the records were collected, want fewer than %d", got, before+100)
	}
}
