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
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// failingPods fails every call.
type failingPods struct{}

func (failingPods) Get(string) (*corev1.Pod, error)             { return nil, errors.New("boom") }
func (failingPods) List(labels.Selector) ([]*corev1.Pod, error) { return nil, errors.New("boom") }

func TestServiceIndexUpdate(t *testing.T) {
	ctx := context.Background()
	w := newEqWorld(t, &byteChooser{})
	svc := w.svc
	steps := []struct {
		name        string
		do          func()
		pods        PodLister
		wantRebuilt string
		wantReady   bool
		wantPods    int
	}{
		{"first", func() {}, w.pods, RebuildFirstSync, true, len(w.pods)},
		{"nothing changed", func() {}, w.pods, "", true, 0},
		{"one pod changed", func() { w.idx.PodChanged("pod-001") }, w.pods, "", true, 1},
		{"lookup fails", func() { w.idx.PodChanged("pod-002") }, failingPods{}, "", false, 0},
		{"after a failure", func() {}, w.pods, RebuildLookupFailed, true, len(w.pods)},
		{"invalidated", func() { w.idx.Invalidate("node-changed") }, w.pods, "node-changed", true, len(w.pods)},
		{"service changed", func() {
			svc = svc.DeepCopy()
			svc.ResourceVersion = "2"
			svc.Spec.Ports[0].Port = 81
		}, w.pods, RebuildServiceChanged, true, len(w.pods)},
		{"service recreated", func() {
			svc = svc.DeepCopy()
			svc.UID = "other"
			svc.CreationTimestamp = metav1.Now()
		}, w.pods, RebuildServiceChanged, true, len(w.pods)},
	}
	for _, st := range steps {
		st.do()
		u, err := w.idx.Update(ctx, svc, labels.Set(svc.Spec.Selector).AsSelectorPreValidated(), st.pods, w.nodes, w.ttInc)
		var skip *SkippedPodError
		if err != nil && !errors.As(err, &skip) && st.wantReady {
			t.Errorf("%s: error %v", st.name, err)
		}
		if u.Rebuilt != st.wantRebuilt || u.Ready != st.wantReady || u.Pods != st.wantPods {
			t.Errorf("%s: got rebuilt %q ready %v pods %d, want %q %v %d", st.name, u.Rebuilt, u.Ready, u.Pods, st.wantRebuilt, st.wantReady, st.wantPods)
		}
	}
}
