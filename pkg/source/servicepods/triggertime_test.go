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

package servicepods

import (
	"reflect"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/slicekit/slicekit/test/harness/testobjects"
)

// The scenarios of k8s.io/endpointslice util/trigger_time_tracker_test.go.

var (
	tt0 = time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	tt1 = tt0.Add(time.Second)
	tt2 = tt1.Add(time.Second)
	tt3 = tt2.Add(time.Second)
	tt4 = tt3.Add(time.Second)
	tt5 = tt4.Add(time.Second)
)

func ttPod(name string, readyTime time.Time) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: testobjects.RuleNamespace, Name: name},
		Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{
			Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(readyTime),
		}}},
	}
}

func ttService(created time.Time) *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: testobjects.RuleNamespace, Name: "svc-a", CreationTimestamp: metav1.NewTime(created)}}
}

func TestTriggerTimeTracker(t *testing.T) {
	type call struct {
		deleteFirst bool
		svc         *corev1.Service
		pods        []*corev1.Pod
		want        time.Time
	}
	tests := []struct {
		name  string
		calls []call
	}{
		{name: "new service, no pods", calls: []call{{svc: ttService(tt2), want: tt2}}},
		{name: "new service, existing pods: service creation time", calls: []call{
			{svc: ttService(tt3), pods: []*corev1.Pod{ttPod("p1", tt0), ttPod("p2", tt1), ttPod("p3", tt5)}, want: tt3},
		}},
		{name: "pods added: earliest new ready time", calls: []call{
			{svc: ttService(tt0), want: tt0},
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt2), ttPod("p2", tt1)}, want: tt1},
		}},
		{name: "pods updated: earliest changed ready time", calls: []call{
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2), ttPod("p3", tt3)}, want: tt0},
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt5), ttPod("p2", tt4), ttPod("p3", tt3)}, want: tt4},
		}},
		{name: "nothing changed: zero", calls: []call{
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2)}, want: tt0},
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2)}},
		}},
		{name: "pod deleted then added", calls: []call{
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2)}, want: tt0},
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1)}},
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt4)}, want: tt4},
		}},
		{name: "a pod that comes back with its old time counts again", calls: []call{
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2)}, want: tt0},
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1)}},
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2)}, want: tt2},
		}},
		{name: "service deleted then added", calls: []call{
			{svc: ttService(tt0), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2)}, want: tt0},
			{deleteFirst: true, svc: ttService(tt3), pods: []*corev1.Pod{ttPod("p1", tt1), ttPod("p2", tt2)}, want: tt3},
		}},
		{name: "service recreated without DeleteService: new creation time", calls: []call{
			{svc: ttService(tt0), want: tt0},
			{svc: ttService(tt3), pods: []*corev1.Pod{ttPod("p1", tt4)}, want: tt3},
		}},
		{name: "pods without Ready condition do not count", calls: []call{
			{svc: ttService(tt0), want: tt0},
			{svc: ttService(tt0), pods: []*corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Namespace: testobjects.RuleNamespace, Name: "p1"}}}},
		}},
		{name: "a Ready condition that is false counts too", calls: []call{
			{svc: ttService(tt0), want: tt0},
			{svc: ttService(tt0), pods: []*corev1.Pod{func() *corev1.Pod {
				p := ttPod("p1", tt2)
				p.Status.Conditions[0].Status = corev1.ConditionFalse
				return p
			}()}, want: tt2},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTriggerTimeTracker()
			for i, c := range tc.calls {
				if c.deleteFirst {
					tr.DeleteService(testobjects.RuleNamespace, "svc-a")
				}
				if got := tr.ComputeEndpointLastChangeTriggerTime(testobjects.RuleNamespace, c.svc, c.pods); !got.Equal(c.want) {
					t.Errorf("call %d: got %v, want %v", i+1, got, c.want)
				}
			}
		})
	}
}

func TestTriggerTimeTrackerServicesAreIndependent(t *testing.T) {
	tr := NewTriggerTimeTracker()
	a := ttService(tt0)
	b := ttService(tt1)
	b.Name = "svc-b"
	if got := tr.ComputeEndpointLastChangeTriggerTime(testobjects.RuleNamespace, a, nil); !got.Equal(tt0) {
		t.Errorf("svc-a: %v", got)
	}
	if got := tr.ComputeEndpointLastChangeTriggerTime(testobjects.RuleNamespace, b, nil); !got.Equal(tt1) {
		t.Errorf("svc-b: %v", got)
	}
	// Same name, other namespace: a new Service.
	if got := tr.ComputeEndpointLastChangeTriggerTime("ns-b", a, nil); !got.Equal(tt0) {
		t.Errorf("ns-b/svc-a: %v", got)
	}
	tr.DeleteService(testobjects.RuleNamespace, "svc-b")
	if got := tr.ComputeEndpointLastChangeTriggerTime(testobjects.RuleNamespace, a, nil); !got.IsZero() {
		t.Errorf("svc-a after deleting svc-b: %v, want zero", got)
	}

	// Concurrent use on different Services is safe (run with -race).
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := ttService(tt0)
			s.Name = string(rune('a' + i))
			for range 50 {
				tr.ComputeEndpointLastChangeTriggerTime(testobjects.RuleNamespace, s, []*corev1.Pod{ttPod("p", tt1)})
			}
			tr.DeleteService(testobjects.RuleNamespace, s.Name)
		}()
	}
	wg.Wait()
}

// TestTriggerTimeUpdatePods checks that the per-Pod entry point gives the
// same time as the full computation, step after step, and the same state.
func TestTriggerTimeUpdatePods(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	svc := ttService(t0)
	steps := []struct {
		name    string
		changed map[string]*corev1.Pod // nil value: deleted
	}{
		{"nothing changed", map[string]*corev1.Pod{}},
		{"one flip", map[string]*corev1.Pod{"a": ttPod("a", at(10))}},
		{"two flips", map[string]*corev1.Pod{"a": ttPod("a", at(20)), "b": ttPod("b", at(15))}},
		{"new pod", map[string]*corev1.Pod{"c": ttPod("c", at(30))}},
		{"deleted pod", map[string]*corev1.Pod{"b": nil}},
		{"pod back with an old time", map[string]*corev1.Pod{"b": ttPod("b", at(15))}},
		{"pod without ready condition", map[string]*corev1.Pod{"a": ttPod("a", time.Time{})}},
		{"same time again", map[string]*corev1.Pod{"c": ttPod("c", at(30))}},
	}
	full, inc := NewTriggerTimeTracker(), NewTriggerTimeTracker()
	pods := map[string]*corev1.Pod{"a": ttPod("a", at(1)), "b": ttPod("b", at(2))}
	list := func() []*corev1.Pod {
		var out []*corev1.Pod
		for _, p := range pods {
			out = append(out, p)
		}
		return out
	}
	if _, ok := inc.UpdatePods("ns", svc, nil); ok {
		t.Fatal("UpdatePods on an unknown Service: ok, want not ok")
	}
	full.ComputeEndpointLastChangeTriggerTime("ns", svc, list())
	inc.ComputeEndpointLastChangeTriggerTime("ns", svc, list())
	for _, st := range steps {
		for name, p := range st.changed {
			if p == nil {
				delete(pods, name)
			} else {
				pods[name] = p
			}
		}
		want := full.ComputeEndpointLastChangeTriggerTime("ns", svc, list())
		got, ok := inc.UpdatePods("ns", svc, st.changed)
		if !ok || !got.Equal(want) {
			t.Errorf("%s: UpdatePods = %v, %v; want %v", st.name, got, ok, want)
		}
	}
	key := types.NamespacedName{Namespace: "ns", Name: svc.Name}
	if !reflect.DeepEqual(full.states[key], inc.states[key]) {
		t.Errorf("states differ:\nfull %+v\nincremental %+v", full.states[key], inc.states[key])
	}
}
