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

package render

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestStubNodes(t *testing.T) {
	pod := func(name, node string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Spec: corev1.PodSpec{NodeName: node}}
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	for _, tc := range []struct {
		name      string
		in        []runtime.Object
		wantNodes []string
		wantNote  string
	}{
		{name: "no Pods", in: nil},
		{name: "Pods not scheduled", in: []runtime.Object{pod("a", "")}},
		{name: "a Node given: nothing made up", in: []runtime.Object{pod("a", "n2"), node}},
		{name: "no Nodes", in: []runtime.Object{pod("a", "n2"), pod("b", "n1"), pod("c", "n2"), pod("d", "")},
			wantNodes: []string{"n1", "n2"}, wantNote: "rendering as if the 2 Node(s) its Pods name exist (n1, n2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stubs, note := StubNodes(tc.in)
			var got []string
			for _, o := range stubs {
				n := o.(*corev1.Node)
				if n.Annotations[AnnotationStubNode] == "" || len(n.Labels) != 0 {
					t.Errorf("stub %s: annotations %v, labels %v; want the stub annotation and no labels", n.Name, n.Annotations, n.Labels)
				}
				got = append(got, n.Name)
			}
			if !slices.Equal(got, tc.wantNodes) {
				t.Errorf("stubs = %v, want %v", got, tc.wantNodes)
			}
			if (tc.wantNote == "") != (note == "") || !strings.Contains(note, tc.wantNote) {
				t.Errorf("note = %q, want one containing %q", note, tc.wantNote)
			}
		})
	}
}

func TestNotes(t *testing.T) {
	pod := func(name string, phase corev1.PodPhase, ip string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Status: corev1.PodStatus{Phase: phase, PodIP: ip}}
		return p
	}
	svc := func(name, label string, typ corev1.ServiceType) *corev1.Service {
		s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Spec: corev1.ServiceSpec{Type: typ}}
		if label != "" {
			s.Labels = map[string]string{"service.kubernetes.io/endpoint-controller-name": label}
		}
		return s
	}
	slice := func(service, managedBy string) *discovery.EndpointSlice {
		return &discovery.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: service + "-x", Namespace: "ns", Labels: map[string]string{
			discovery.LabelServiceName: service, discovery.LabelManagedBy: managedBy}}}
	}
	for _, tc := range []struct {
		name   string
		in     []runtime.Object
		slices []*discovery.EndpointSlice
		want   []string
	}{
		{name: "nothing to say", in: []runtime.Object{pod("a", corev1.PodRunning, "10.0.0.1"), svc("s", "", "")}},
		{name: "terminal Pods without IP are not news", in: []runtime.Object{pod("a", corev1.PodSucceeded, ""), pod("b", corev1.PodFailed, "")}},
		{name: "Pods without IP", in: []runtime.Object{pod("c", corev1.PodPending, ""), pod("a", "", ""), pod("b", corev1.PodRunning, "10.0.0.1")},
			want: []string{"2 Pod(s) have no IP in their status (not started yet, or the dump lacks status): no controller publishes them: ns/a, ns/c"}},
		{name: "many Pods without IP are abbreviated",
			in:   []runtime.Object{pod("a", "", ""), pod("b", "", ""), pod("c", "", ""), pod("d", "", ""), pod("e", "", ""), pod("f", "", ""), pod("g", "", "")},
			want: []string{"7 Pod(s) have no IP in their status (not started yet, or the dump lacks status): no controller publishes them: ns/a, ns/b, ns/c, ns/d, ns/e and 2 more"}},
		{name: "labelled for a controller that wrote nothing", in: []runtime.Object{svc("s", "other.example.com", "")},
			want: []string{`Service ns/s is labelled service.kubernetes.io/endpoint-controller-name="other.example.com" (KEP-4770): the built-in controllers leave it to that controller, which wrote no slice of it here (render runs only slicekit's controllers, each when enabled with --controllers and named by its flag)`}},
		{name: "labelled for a controller that wrote a slice", in: []runtime.Object{svc("s", "other.example.com", "")},
			slices: []*discovery.EndpointSlice{slice("s", "other.example.com")}},
		{name: "another Service's slice does not count", in: []runtime.Object{svc("s", "other.example.com", "")},
			slices: []*discovery.EndpointSlice{slice("t", "other.example.com")},
			want:   []string{`Service ns/s is labelled service.kubernetes.io/endpoint-controller-name="other.example.com" (KEP-4770): the built-in controllers leave it to that controller, which wrote no slice of it here (render runs only slicekit's controllers, each when enabled with --controllers and named by its flag)`}},
		{name: "ExternalName Services have no slices", in: []runtime.Object{svc("s", "other.example.com", corev1.ServiceTypeExternalName)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Notes(tc.in, &Result{EndpointSlices: tc.slices})
			if !slices.Equal(got, tc.want) {
				t.Errorf("Notes =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
