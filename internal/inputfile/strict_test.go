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

package inputfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// samePodAsReference fails t when strictUnmarshal and sigs.k8s.io/json
// (strictUnmarshalReference) disagree on doc: one accepts what the other
// refuses, the Pods differ, or the errors differ.
func samePodAsReference(t *testing.T, doc []byte) {
	t.Helper()
	var got, want corev1.Pod
	gotErr := strictUnmarshal(doc, &got)
	wantErr := strictUnmarshalReference(doc, &want)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("error %v, sigs.k8s.io/json's %v, for %s", gotErr, wantErr, doc)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Pod differs from sigs.k8s.io/json's (-reference +got) for %s:\n%s", doc, cmp.Diff(want, got))
	}
}

// podSeeds are JSON Pods: a Deployment's Pod with every kind of field
// render reads and more (quantities, times, int-or-strings, managedFields),
// and the Pods of the regression cases.
func podSeeds(t testing.TB) [][]byte {
	t.Helper()
	start := metav1.NewTime(metav1.Now().Rfc3339Copy().Time)
	grace := int64(30)
	pod := corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "web-6d4cf56db6-x7k2p", Namespace: "shop", UID: "0d7f6f3e-1111-2222-3333-444455556666",
			ResourceVersion: "123", Generation: 1, CreationTimestamp: start,
			DeletionTimestamp: &start, DeletionGracePeriodSeconds: &grace,
			Labels:      map[string]string{"app": "web", "pod-template-hash": "6d4cf56db6"},
			Annotations: map[string]string{"k8s.v1.cni.cncf.io/network-status": `[{"name":"a","ips":["10.1.2.3"]}]`, "empty": ""},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-6d4cf56db6",
				UID: "abc", Controller: new(true), BlockOwnerDeletion: new(true)}},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate,
				APIVersion: "v1", Time: &start, FieldsType: "FieldsV1", Subresource: "status",
				FieldsV1: metav1.NewFieldsV1(`{"f:status":{"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{}}}}}`)}},
			Finalizers: []string{"example.com/f"},
		},
		Spec: corev1.PodSpec{
			NodeName: "node-1", Hostname: "h", Subdomain: "s", TerminationGracePeriodSeconds: &grace,
			Containers: []corev1.Container{{
				Name: "app", Image: "registry.example/web:1.2.3", Args: []string{"--port=8080"},
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}, {ContainerPort: 53, Protocol: corev1.ProtocolUDP}},
				Env:   []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "B", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
				},
				ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}}, PeriodSeconds: 5},
				LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}}},
			}},
			Volumes: []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: new(resource.MustParse("1Gi"))}}}},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: "10.1.2.3", PodIPs: []corev1.PodIP{{IP: "10.1.2.3"}, {IP: "fd00::3"}},
			HostIP: "192.168.0.1", StartTime: &start,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: start}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: true, RestartCount: 2,
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: start}}}},
		},
	}
	doc, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	seeds := [][]byte{doc}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "cases", "*", "input.yaml"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raws, _ := Documents(data)
		for _, raw := range raws {
			j, err := yaml.YAMLToJSON(raw)
			if err == nil && strings.Contains(string(j), `"kind":"Pod"`) {
				seeds = append(seeds, j)
			}
		}
	}
	return seeds
}

func TestStrictUnmarshalPodLikeReference(t *testing.T) {
	seeds := podSeeds(t)
	if len(seeds) < 10 {
		t.Fatalf("only %d seed Pods", len(seeds))
	}
	for _, doc := range seeds {
		samePodAsReference(t, doc)
	}
	for _, doc := range []string{
		`{"kind":"Pod","Kind":"Pod"}`, `{"kind":"Pod","kind":"Pod"}`, `{"metadata":{"name":"a","name":"b"}}`,
		`{"metadata":{"labels":{"a":"1","a":"2"}}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1e2}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80.0}]}]}}`, `{"spec":{"terminationGracePeriodSeconds":-0}}`,
		`{"spec":{"nodeName":null,"containers":null}}`, `{"spec":{"containers":[]}}`, `{"metadata":{"labels":{}}}`,
		`{"metadata":{"labels":null}}`, `{"metadata":{"labels":{"a":null}}}`, `{"status":{"podIPs":[null]}}`,
		`{"metadata":{"name":"a\ud800b"}}`, "{\"metadata\":{\"name\":\"a\xffb\"}}", `{"metadata":{"creationTimestamp":"bad"}}`,
		`{"metadata":{"creationTimestamp":null}}`, `{"metadata":{"deletionTimestamp":null}}`,
		`{"metadata":{"deletionTimestamp":"2026-01-02T03:04:05Z","creationTimestamp":"2026-01-02T03:04:05+02:00"}}`,
		`{"metadata":{"creationTimestamp":"2026-01-02T03:04:05.123456Z"}}`, `{"metadata":{"creationTimestamp":1}}`,
		`{"metadata":{"creationTimestamp":{}}}`, `{"metadata":{"creationTimestamp":""}}`, `{"status":{"startTime":null}}`,
		`{"status":{"conditions":[{"type":"Ready","lastTransitionTime":null}]}}`, `{"spec":{"overhead":{"cpu":"1x"}}}`, `{"spec":{"overhead":{"cpu":1}}}`,
		`{"spec":{"containers":[{"name":"a","readinessProbe":{"httpGet":{"port":"x"}}}]}}`, `{"unknown":1}`, `{"spec":{"x":1}}`,
		`{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]}}`, `{"metadata":{"managedFields":[{"fieldsV1":null}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":2147483648}]}]}}`, `{"spec":{"priority":"1"}}`, `[]`, `null`, `{}`,
	} {
		samePodAsReference(t, []byte(doc))
	}
}

// FuzzStrictUnmarshalPod: strictUnmarshal's v2 fast path reads a Pod as
// sigs.k8s.io/json does, and refuses what it refuses.
func FuzzStrictUnmarshalPod(f *testing.F) {
	// The Deployment's Pod and a few of the cases' (more seeds make the
	// coverage-guided start slow).
	seeds := podSeeds(f)
	for _, s := range seeds[:min(len(seeds), 6)] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		samePodAsReference(t, doc)
	})
}

// sameStreamAsDecoder fails t when jsonStream and the encoding/json split
// disagree on data.
func sameStreamAsDecoder(t *testing.T, data []byte) {
	t.Helper()
	var got [][]byte
	gotErr := jsonStream(data, func(o []byte) { got = append(got, o) })
	// jsonStream drops a leading byte order mark; encoding/json does not.
	trimmed := strings.TrimSpace(strings.TrimPrefix(string(data), "\ufeff"))
	want, wantErr := jsonStreamDecoder(data, []byte(trimmed))
	if len(trimmed) == 0 || trimmed[0] != '{' {
		want, wantErr = [][]byte{data}, nil
	}
	sameSplit(t, "objects", "encoding/json", data, got, want, gotErr, wantErr)
}

// FuzzJSONStream: jsonStream splits a JSON stream as encoding/json's
// Decoder does.
func FuzzJSONStream(f *testing.F) {
	many := strings.Repeat("{\"a\":1}\n", streamBatch+3)
	for _, s := range []string{many, many + "{", many[:len(many)-2] + "\xff}", "{\"a\":1}\n{\"b\":2}\n", "{\"a\":1,\"a\":2}{}", "{\"a\":\"\xff\"}\n{", "{a: 1}", " [1] ", "{}\n[1]\n\"x\"\n3 true", "\ufeff{\"a\":1}\n{\"b\":2}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameStreamAsDecoder(t, data)
	})
}

// samePodAsSlowPath fails t when jsonFast takes doc but the go-yaml path
// (YAMLToJSONStrict, then documentJSON with sigs.k8s.io/json) reads other
// objects, or refuses it; it reports whether jsonFast took doc.
func samePodAsSlowPath(t *testing.T, doc []byte) bool {
	t.Helper()
	fast := &decoder{file: "in.json", kinds: tableOrBuiltin(nil), doc: 1}
	if !fast.jsonFast(doc, 0, schema.GroupVersionKind{}) {
		if len(fast.objs)+len(fast.ignored)+len(fast.errs) > 0 {
			t.Fatalf("jsonFast refused %s but recorded %v %v %v", doc, fast.objs, fast.ignored, fast.errs)
		}
		return false
	}
	j, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		t.Fatalf("jsonFast took what go-yaml refuses (%v): %s", err, doc)
	}
	slow := &decoder{file: "in.json", kinds: tableOrBuiltin(nil), doc: 1}
	slow.documentJSON(j, nil, 0, schema.GroupVersionKind{}, strictUnmarshal)
	if len(slow.errs) > 0 {
		t.Fatalf("jsonFast took what the go-yaml path refuses (%v): %s", errors.Join(slow.errs...), doc)
	}
	if d := cmp.Diff(slow.objs, fast.objs); d != "" {
		t.Fatalf("jsonFast read other objects than the go-yaml path (-slow +fast) for %s:\n%s", doc, d)
	}
	return true
}

func TestJSONFastPodLikeSlowPath(t *testing.T) {
	const pod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":{"app":"a"}%s},"spec":{"containers":[{"name":"c"}]}%s}`
	managed := `,"managedFields":[{"manager":"m","operation":"Update","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{%s}}}]`
	for _, tc := range []struct {
		name string
		in   string
		fast bool
	}{
		{name: "plain", fast: true, in: fmt.Sprintf(pod, "", "")},
		{name: "managed fields", fast: true, in: fmt.Sprintf(pod, fmt.Sprintf(managed, `"f:labels":{".":{}}`), "")},
		{name: "duplicate inside fieldsV1", in: fmt.Sprintf(pod, fmt.Sprintf(managed, `"f:labels":{},"f:labels":{}`), "")},
		{name: "duplicate label", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","a":"2"}}}`},
		{name: "duplicate field", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","name":"p"}}`},
		{name: "duplicate top-level", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{},"spec":{}}`},
		{name: "trailing garbage", in: fmt.Sprintf(pod, "", "") + ` x`},
		{name: "trailing object", in: fmt.Sprintf(pod, "", "") + `{}`},
		{name: "missing comma", in: `{"apiVersion":"v1","kind":"Pod" "metadata":{"name":"p"}}`},
		{name: "unterminated", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}`},
		{name: "unterminated string", in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p`},
		{name: "invalid UTF-8 in a label", in: "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"annotations\":{\"a\":\"\xff\"}}}"},
		{name: "control character", in: "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"annotations\":{\"a\":\"\x01\"}}}"},
		{name: "single quotes", in: `{'apiVersion':'v1','kind':'Pod'}`},
		{name: "unknown field", in: fmt.Sprintf(pod, "", `,"extra":1`)},
		{name: "case-different field", in: `{"apiVersion":"v1","kind":"Pod","Metadata":{"name":"p"}}`},
		{name: "float", in: fmt.Sprintf(pod, "", `,"status":{"podIP":"10.0.0.1"},"x":1.5`)},
		{name: "null spec", fast: true, in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":null}`},
		{name: "time", fast: true, in: fmt.Sprintf(pod, `,"creationTimestamp":"2026-01-02T03:04:05Z"`, "")},
		{name: "bad time", in: fmt.Sprintf(pod, `,"creationTimestamp":"yesterday"`, "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := samePodAsSlowPath(t, []byte(tc.in)); got != tc.fast {
				t.Errorf("jsonFast took it: %v, want %v", got, tc.fast)
			}
		})
	}
	for i, doc := range podSeeds(t) {
		if !samePodAsSlowPath(t, doc) {
			t.Errorf("jsonFast refused seed Pod %d", i)
		}
	}
}

// FuzzJSONFastPod: a Pod jsonFast takes without a validity pass, the
// go-yaml path reads the same.
func FuzzJSONFastPod(f *testing.F) {
	for _, doc := range podSeeds(f)[:4] {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		samePodAsSlowPath(t, doc)
	})
}
