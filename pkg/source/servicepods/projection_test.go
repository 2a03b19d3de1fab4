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
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

func projPod(rv string, lbls map[string]string, ready bool, ip string) *corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", ResourceVersion: rv, Labels: lbls},
		Status: corev1.PodStatus{
			PodIPs:     []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status}},
		},
	}
}

func TestPodUpdateProjectionKey(t *testing.T) {
	web := map[string]string{"app": "web"}
	api := map[string]string{"app": "api"}
	base := projPod("1", web, true, "10.0.0.1")
	deleting := projPod("2", web, true, "10.0.0.1")
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Unix(1, 0)}
	tests := []struct {
		name     string
		old, cur any
		want     *PodProjectionKey
	}{
		{"add", nil, base, &PodProjectionKey{Namespace: "ns", Labels: web}},
		{"delete", base, nil, &PodProjectionKey{Namespace: "ns", Labels: web}},
		{"delete tombstone", cache.DeletedFinalStateUnknown{Obj: base}, nil, &PodProjectionKey{Namespace: "ns", Labels: web}},
		{"resync", base, projPod("1", web, false, "10.0.0.9"), nil},
		{"irrelevant change", base, projPod("2", web, true, "10.0.0.1"), nil},
		{"readiness", base, projPod("2", web, false, "10.0.0.1"), &PodProjectionKey{Namespace: "ns", Labels: web}},
		{"ip", base, projPod("2", web, true, "10.0.0.2"), &PodProjectionKey{Namespace: "ns", Labels: web}},
		{"deletion", base, deleting, &PodProjectionKey{Namespace: "ns", Labels: web}},
		{"labels only", base, projPod("2", api, true, "10.0.0.1"), &PodProjectionKey{Namespace: "ns", Labels: api, OldLabels: web}},
		{"labels and readiness", base, projPod("2", api, false, "10.0.0.1"), &PodProjectionKey{Namespace: "ns", Labels: api, OldLabels: web, PodChanged: true}},
		{"nil both", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := PodUpdateProjectionKey(tc.old, tc.cur)
			if (got == nil) != (tc.want == nil) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if got == nil {
				return
			}
			if got.Namespace != tc.want.Namespace || got.PodChanged != tc.want.PodChanged ||
				got.Labels.String() != tc.want.Labels.String() || (got.OldLabels == nil) != (tc.want.OldLabels == nil) ||
				got.OldLabels.String() != tc.want.OldLabels.String() {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestServicesToUpdate(t *testing.T) {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, s := range []*corev1.Service{
		{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "api", Namespace: "ns"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "api"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "all", Namespace: "ns"}, Spec: corev1.ServiceSpec{Selector: map[string]string{}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "none", Namespace: "ns"}},
		{ObjectMeta: metav1.ObjectMeta{Name: "skipme", Namespace: "ns"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"}}},
	} {
		_ = idx.Add(s)
	}
	lister := corelisters.NewServiceLister(idx)
	skip := func(s *corev1.Service) bool { return s.Name == "skipme" }
	web := map[string]string{"app": "web"}
	api := map[string]string{"app": "api"}
	tests := []struct {
		name string
		key  *PodProjectionKey
		want []string
	}{
		{"nil key", nil, nil},
		{"new labels", &PodProjectionKey{Namespace: "ns", Labels: web}, []string{"ns/all", "ns/web"}},
		{"labels changed only: symmetric difference", &PodProjectionKey{Namespace: "ns", Labels: api, OldLabels: web}, []string{"ns/api", "ns/web"}},
		{"labels and pod changed: union", &PodProjectionKey{Namespace: "ns", Labels: api, OldLabels: web, PodChanged: true}, []string{"ns/all", "ns/api", "ns/web"}},
		{"other namespace", &PodProjectionKey{Namespace: "other", Labels: web}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ServicesToUpdate(lister, tc.key, skip)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if got != nil {
					t.Errorf("got %v, want nil", got)
				}
				return
			}
			if !got.Equal(sets.New(tc.want...)) {
				t.Errorf("got %v, want %v", sets.List(got), tc.want)
			}
		})
	}
}
