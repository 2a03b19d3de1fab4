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
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/randfill"
)

// trimmed is the reference: the *corev1.Pod the Pod transform kept before
// records existed (pkg/informertransform, up to 2026-12-01). Record.Pod()
// must return exactly this, so that every consumer sees what it saw.
func trimmed(pod *corev1.Pod, annotations []string) *corev1.Pod {
	out := &corev1.Pod{
		TypeMeta: pod.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:              pod.Name,
			Namespace:         pod.Namespace,
			UID:               pod.UID,
			ResourceVersion:   pod.ResourceVersion,
			Generation:        pod.Generation,
			CreationTimestamp: pod.CreationTimestamp,
			DeletionTimestamp: pod.DeletionTimestamp,
			Labels:            pod.Labels,
		},
		Spec: corev1.PodSpec{
			NodeName:  pod.Spec.NodeName,
			Hostname:  pod.Spec.Hostname,
			Subdomain: pod.Spec.Subdomain,
		},
		Status: corev1.PodStatus{
			Phase:  pod.Status.Phase,
			PodIP:  pod.Status.PodIP,
			PodIPs: pod.Status.PodIPs,
		},
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			out.Status.Conditions = []corev1.PodCondition{{Type: c.Type, Status: c.Status, LastTransitionTime: c.LastTransitionTime}}
			break
		}
	}
	for _, k := range annotations {
		if v, ok := pod.Annotations[k]; ok {
			if out.Annotations == nil {
				out.Annotations = map[string]string{}
			}
			out.Annotations[k] = v
		}
	}
	if len(pod.Spec.Containers) > 0 {
		out.Spec.Containers = make([]corev1.Container, len(pod.Spec.Containers))
		for i, c := range pod.Spec.Containers {
			out.Spec.Containers[i] = corev1.Container{Name: c.Name, Ports: c.Ports}
		}
	}
	if len(pod.Spec.InitContainers) > 0 {
		out.Spec.InitContainers = make([]corev1.Container, len(pod.Spec.InitContainers))
		for i, c := range pod.Spec.InitContainers {
			out.Spec.InitContainers[i] = corev1.Container{Name: c.Name, Ports: c.Ports, RestartPolicy: c.RestartPolicy}
		}
	}
	return out
}

func fullPod() *corev1.Pod {
	now := metav1.Unix(1000, 0)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "p", Namespace: "ns", UID: "uid", ResourceVersion: "7", Generation: 2,
			CreationTimestamp: now, DeletionTimestamp: &now, DeletionGracePeriodSeconds: ptr.To[int64](30),
			Labels:          map[string]string{"app": "a"},
			Annotations:     map[string]string{"keep": "v", "drop": "w"},
			OwnerReferences: []metav1.OwnerReference{{Name: "rs"}},
			Finalizers:      []string{"f"},
			ManagedFields:   []metav1.ManagedFieldsEntry{{Manager: "m"}},
		},
		Spec: corev1.PodSpec{
			NodeName: "n", Hostname: "h", Subdomain: "s",
			Containers: []corev1.Container{
				{Name: "app", Image: "img", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}},
				{Name: "noports", Image: "img2"},
			},
			InitContainers: []corev1.Container{
				{Name: "side", RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways), Ports: []corev1.ContainerPort{{Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP}}},
				{Name: "init", Image: "i"},
			},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: "10.0.0.1",
			PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}},
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
				{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "r", Message: "m", LastTransitionTime: now, LastProbeTime: now},
				{Type: corev1.PodReady, Status: corev1.ConditionTrue},
			},
		},
	}
}

func TestRecordPod(t *testing.T) {
	for _, tc := range []struct {
		name        string
		pod         func() *corev1.Pod
		annotations []string
	}{
		{"every kept field set", fullPod, []string{"keep", "absent"}},
		{"no annotations kept", fullPod, nil},
		{"empty Pod", func() *corev1.Pod { return &corev1.Pod{} }, []string{"keep"}},
		{"no Ready condition, no containers", func() *corev1.Pod {
			p := fullPod()
			p.Status.Conditions = p.Status.Conditions[:1]
			p.Spec.Containers, p.Spec.InitContainers = nil, nil
			return p
		}, nil},
		{"init containers only", func() *corev1.Pod {
			p := fullPod()
			p.Spec.Containers = nil
			return p
		}, nil},
		{"containers only, empty init list", func() *corev1.Pod {
			p := fullPod()
			p.Spec.InitContainers = []corev1.Container{}
			return p
		}, nil},
		{"with TypeMeta", func() *corev1.Pod {
			p := fullPod()
			p.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
			return p
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := tc.pod()
			before := pod.DeepCopy()
			got := New(pod, tc.annotations).Pod()
			if d := cmp.Diff(trimmed(pod, tc.annotations), got); d != "" {
				t.Errorf("Record.Pod() differs from the trimmed Pod (-want +got):\n%s", d)
			}
			if d := cmp.Diff(before, pod); d != "" {
				t.Errorf("New modified its argument (-before +after):\n%s", d)
			}
		})
	}
}

// TestRecordPodRandom compares Record.Pod() with the reference on random
// Pods with every field filled (randfill), so that a field the reference
// keeps cannot be missed by the record.
func TestRecordPodRandom(t *testing.T) {
	f := randfill.NewWithSeed(1).NilChance(0.2).NumElements(0, 3)
	for i := range 500 {
		var pod corev1.Pod
		f.Fill(&pod)
		if i%3 == 0 && len(pod.Status.Conditions) > 0 {
			pod.Status.Conditions[len(pod.Status.Conditions)-1].Type = corev1.PodReady
		}
		keep := slices.Collect(func(yield func(string) bool) {
			for k := range pod.Annotations {
				if !yield(k) {
					return
				}
				break
			}
		})
		keep = append(keep, "absent")
		if d := cmp.Diff(trimmed(&pod, keep), New(&pod, keep).Pod()); d != "" {
			t.Fatalf("Pod %d: Record.Pod() differs from the trimmed Pod (-want +got):\n%s", i, d)
		}
	}
}

func TestRecordDeepCopy(t *testing.T) {
	r := New(fullPod(), []string{"keep"})
	cp, ok := r.DeepCopyObject().(*Record)
	if !ok {
		t.Fatalf("DeepCopyObject returned %T", r.DeepCopyObject())
	}
	if d := cmp.Diff(r, cp, cmp.AllowUnexported(Record{}, readyCondition{}, container{}, shared[map[string]string]{}, shared[[]container]{})); d != "" {
		t.Fatalf("copy differs (-want +got):\n%s", d)
	}
	want := r.Pod()
	// Changing every shared part of the copy leaves the original as it was.
	cp.Labels["app"] = "changed"
	cp.Annotations["keep"] = "changed"
	cp.podIPs[0].IP = "changed"
	cp.ready.lastTransitionTime = metav1.Unix(1, 0)
	cp.containers.v[0].ports[0].ContainerPort = 1
	*cp.containers.v[2].restartPolicy = "changed"
	cp.DeletionTimestamp.Time = cp.DeletionTimestamp.Add(1)
	if d := cmp.Diff(want, r.Pod()); d != "" {
		t.Errorf("changing the copy changed the original (-want +got):\n%s", d)
	}
	var nilRecord *Record
	if nilRecord.DeepCopyObject() != nil {
		t.Error("a nil record's copy is not nil")
	}
}

func TestRecordIsSmall(t *testing.T) {
	// The point of a record: well under half of a Pod struct, before the
	// Container structs a Pod adds.
	rec, pod := unsafe.Sizeof(Record{}), unsafe.Sizeof(corev1.Pod{})
	if rec > 512 || 2*rec > pod {
		t.Errorf("a Record is %d bytes, a Pod %d", rec, pod)
	}
	var _ runtime.Object = &Record{}
	var _ metav1.Object = &Record{}
}

func TestFromObject(t *testing.T) {
	pod := fullPod()
	rec := New(pod, nil)
	for _, tc := range []struct {
		name string
		obj  any
		want *corev1.Pod
	}{
		{"nil", nil, nil},
		{"nil Pod", (*corev1.Pod)(nil), nil},
		{"nil record", (*Record)(nil), nil},
		{"Pod", pod, pod},
		{"record", rec, rec.Pod()},
		{"tombstone of a Pod", cache.DeletedFinalStateUnknown{Key: "ns/p", Obj: pod}, pod},
		{"tombstone of a record", cache.DeletedFinalStateUnknown{Key: "ns/p", Obj: rec}, rec.Pod()},
		{"tombstone of something else", cache.DeletedFinalStateUnknown{Key: "ns/p", Obj: &corev1.Service{}}, nil},
		{"another type", &corev1.Service{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := FromObject(tc.obj)
			if ok != (tc.want != nil) {
				t.Fatalf("ok = %v, want %v", ok, tc.want != nil)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	if p, _ := FromObject(pod); p != pod {
		t.Error("a cached Pod is not returned as it is")
	}
}

func TestLister(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	mk := func(ns, name, app string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}}, Spec: corev1.PodSpec{NodeName: "n-" + name}}
	}
	// Records and whole Pods side by side (a cache is one or the other, the
	// lister takes both).
	for _, obj := range []any{
		New(mk("a", "r1", "x"), nil), New(mk("a", "r2", "y"), nil), mk("a", "p1", "x"), New(mk("b", "r3", "x"), nil),
	} {
		if err := indexer.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	names := func(pods []*corev1.Pod) []string {
		var out []string
		for _, p := range pods {
			out = append(out, p.Namespace+"/"+p.Name+"@"+p.Spec.NodeName)
		}
		slices.Sort(out)
		return out
	}
	l := NewLister(indexer)
	x := labels.SelectorFromSet(labels.Set{"app": "x"})
	for _, tc := range []struct {
		name string
		list func() ([]*corev1.Pod, error)
		want []string
	}{
		{"all namespaces, app=x", func() ([]*corev1.Pod, error) { return l.List(x) }, []string{"a/p1@n-p1", "a/r1@n-r1", "b/r3@n-r3"}},
		{"all namespaces, everything", func() ([]*corev1.Pod, error) { return l.List(labels.Everything()) }, []string{"a/p1@n-p1", "a/r1@n-r1", "a/r2@n-r2", "b/r3@n-r3"}},
		{"namespace a, app=x", func() ([]*corev1.Pod, error) { return l.Pods("a").List(x) }, []string{"a/p1@n-p1", "a/r1@n-r1"}},
		{"namespace a, nothing", func() ([]*corev1.Pod, error) { return l.Pods("a").List(labels.Nothing()) }, nil},
		{"namespace c", func() ([]*corev1.Pod, error) { return l.Pods("c").List(labels.Everything()) }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.list()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, names(got)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	nl, ok := l.Pods("a").(interface {
		Names(labels.Selector) ([]string, error)
	})
	if !ok {
		t.Fatal("the namespaced lister has no Names")
	}
	gotNames, err := nl.Names(x)
	slices.Sort(gotNames)
	if err != nil || !slices.Equal(gotNames, []string{"p1", "r1"}) {
		t.Errorf("Names(app=x) in a = %v, %v; want [p1 r1]", gotNames, err)
	}
	if p, err := l.Pods("a").Get("r2"); err != nil || p.Spec.NodeName != "n-r2" {
		t.Errorf("Get(a/r2) = %v, %v", p, err)
	}
	if p, err := l.Pods("a").Get("p1"); err != nil || p.Spec.NodeName != "n-p1" {
		t.Errorf("Get(a/p1) = %v, %v", p, err)
	}
	if _, err := l.Pods("b").Get("r1"); !apierrors.IsNotFound(err) {
		t.Errorf("Get(b/r1) error = %v, want NotFound", err)
	}
	// An entry of another type is neither listed nor got.
	if err := indexer.Add(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "svc", Labels: map[string]string{"app": "x"}}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.Pods("a").List(x); len(got) != 2 {
		t.Errorf("listed %d Pods with a Service in the cache, want 2", len(got))
	}
	if _, err := l.Pods("a").Get("svc"); !apierrors.IsNotFound(err) {
		t.Errorf("Get(a/svc) error = %v, want NotFound", err)
	}
}
